// The pod-template-hash a Deployment's ReplicaSets are named and labelled with (kube's controller.ComputeHash):
// FNV-1a (32 bit) over the template, then the collision count's bytes when there is one, printed in decimal and
// rendered with rand.SafeEncodeString (no vowels, no look-alike digits, so a hash never spells a word).
//
// kube hashes go-spew's dump of the Go struct; we hash a canonical JSON rendering of the template instead (keys
// sorted, empty maps and lists left out as Go's zero values are), so a template's hash is stable here but is not the
// string a real cluster gives the same template.

/** rand.SafeEncodeString's alphabet. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789'

/** rand.SafeEncodeString: each byte of the string mapped into the alphabet. */
function safeEncodeString(s: string): string {
  let out = ''
  for (const byte of new TextEncoder().encode(s)) out += ALPHANUMS[byte % ALPHANUMS.length]
  return out
}

/** FNV-1a, 32 bit, over bytes, continuing from `hash`. */
function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash
  for (const b of bytes) {
    h ^= b
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** A JSON value with object keys sorted and empty objects and arrays dropped, as one string. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(canonical(v)) ?? 'null'
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (v === null || typeof v !== 'object') return v
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v).sort()) {
    const c = canonical((v as Record<string, unknown>)[k])
    if (c === undefined || isEmpty(c)) continue
    out[k] = c
  }
  return out
}

const isEmpty = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)

/** controller.ComputeHash: the template's hash, salted with the collision count when the Deployment has one. */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template)))
  if (collisionCount !== undefined) {
    // binary.LittleEndian.PutUint32 into an 8-byte buffer: the upper four bytes stay zero and are hashed too.
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true)
    h = fnv32a(bytes, h)
  }
  return safeEncodeString(String(h))
}
