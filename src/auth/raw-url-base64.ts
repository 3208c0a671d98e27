// Go's base64.RawURLEncoding (URL alphabet, no padding): kube decodes the WebSocket bearer protocol and peeks at a
// JWT's payload with it, so what it accepts decides "no opinion" against "error" (digest §1.1, §2.3).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]))

/** The bytes, or null where Go's DecodeString errs: a character outside the alphabet (`=` included) or a lone last character. */
export function decodeRawUrlBase64(text: string): Uint8Array | null {
  // Go's decoder skips \r and \n wherever they are.
  const s = text.replace(/[\r\n]/g, '')
  if (s.length % 4 === 1) return null
  const out = new Uint8Array(Math.floor((s.length * 3) / 4))
  let acc = 0
  let bits = 0
  let o = 0
  for (const c of s) {
    const v = VALUE.get(c)
    if (v === undefined) return null
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
      acc &= (1 << bits) - 1
    }
  }
  // Non-strict: leftover bits that are not zero are ignored, as RawURLEncoding (not .Strict()) does.
  return out
}

export function encodeRawUrlBase64(bytes: Uint8Array): string {
  let out = ''
  let acc = 0
  let bits = 0
  for (const b of bytes) {
    acc = (acc << 8) | b
    bits += 8
    while (bits >= 6) {
      bits -= 6
      out += ALPHABET[(acc >> bits) & 63]
    }
    acc &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(acc << (6 - bits)) & 63]
  return out
}
