// apimachinery's equality.Semantic.DeepEqual over JSON-shaped objects: what Go's decoding makes the same value is
// equal here too (a missing field and its zero value; a nil and an empty list or map), whatever the key order.

const isZero = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  // An empty list or map (arrays too have no keys).
  (typeof v === 'object' && Object.keys(v).length === 0)

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isZero(a) && isZero(b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bs = b as unknown[]
    return a.length === bs.length && a.every((x, i) => semanticEqual(x, bs[i]))
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  for (const k of Object.keys(ao)) if (!semanticEqual(ao[k], bo[k])) return false
  for (const k of Object.keys(bo)) if (!(k in ao) && !isZero(bo[k])) return false
  return true
}
