// Go's encoding/base64 StdEncoding, the way encoding/json reads and writes a []byte (Secret data, ConfigMap
// binaryData): padding required, CR and LF ignored, and errors named by the byte offset where decoding stopped
// (`illegal base64 data at input byte 4`, base64.CorruptInputError), offsets counted in UTF-8 bytes.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DECODE = (() => {
  const t = new Int16Array(256).fill(-1)
  for (let i = 0; i < ALPHABET.length; i++) t[ALPHABET.charCodeAt(i)] = i
  return t
})()
const PAD = 0x3d
const isNewline = (c: number) => c === 0x0a || c === 0x0d
const utf8 = new TextEncoder()

/**
 * Where Go's StdEncoding.Decode fails on these bytes, or -1 when they decode. Decode works one quantum of four
 * characters at a time (its 8-byte fast path falls back to the same routine), so this is decodeQuantum in a loop.
 */
function corruptAt(src: Uint8Array): number {
  const n = src.length
  let si = 0
  while (si < n) {
    for (let j = 0; j < 4; j++) {
      if (si === n) return j === 0 ? -1 : si - j
      const c = src[si++]!
      if (DECODE[c]! >= 0) continue
      if (isNewline(c)) {
        j--
        continue
      }
      if (c !== PAD || j < 2) return si - 1
      if (j === 2) {
        // "==" is expected; the first '=' is consumed.
        while (si < n && isNewline(src[si]!)) si++
        if (si === n) return n
        if (src[si] !== PAD) return si - 1
        si++
      }
      while (si < n && isNewline(src[si]!)) si++
      // Anything after the padding is trailing garbage; otherwise decoding ended here.
      return si < n ? si : -1
    }
  }
  return -1
}

/** The error encoding/json saves for a string that is not base64 (`illegal base64 data at input byte 3`), or null. */
export function base64Error(text: string): string | null {
  const at = corruptAt(utf8.encode(text))
  return at < 0 ? null : `illegal base64 data at input byte ${at}`
}

/** The bytes of a string Go's StdEncoding accepts (check base64Error first: anything else decodes to garbage). */
export function decodeBase64(text: string): Uint8Array {
  const out: number[] = []
  let acc = 0
  let bits = 0
  for (let i = 0; i < text.length; i++) {
    const v = DECODE[text.charCodeAt(i) & 0xff]!
    if (v < 0) continue
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out.push((acc >> bits) & 0xff)
    }
  }
  return Uint8Array.from(out)
}

/** StdEncoding with padding, as json.Marshal writes a []byte. */
export function encodeBase64(bytes: Uint8Array): string {
  let s = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    s += ALPHABET[v >> 18]! + ALPHABET[(v >> 12) & 63]! + ALPHABET[(v >> 6) & 63]! + ALPHABET[v & 63]!
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const v = bytes[i]! << 16
    s += `${ALPHABET[v >> 18]}${ALPHABET[(v >> 12) & 63]}==`
  } else if (rest === 2) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8)
    s += `${ALPHABET[v >> 18]}${ALPHABET[(v >> 12) & 63]}${ALPHABET[(v >> 6) & 63]}=`
  }
  return s
}

/** A Go string's bytes as base64: what []byte(s) marshals to (stringData merged into data). */
export const base64OfText = (text: string): string => encodeBase64(utf8.encode(text))

/** How many bytes a valid base64 value holds, without decoding it (Go's len([]byte) in size limits). */
export function decodedLength(text: string): number {
  let chars = 0
  let pad = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === PAD) pad++
    else if (c !== 0x0a && c !== 0x0d) chars++
  }
  return Math.floor(((chars + pad) / 4) * 3) - pad
}
