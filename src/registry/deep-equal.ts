// Structural equality of JSON values, independent of key order: decides whether a write changes anything.

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    return a.every((v, i) => deepEqual(v, b[i]))
  }
  if (Array.isArray(b)) return false
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined)
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined)
  if (ak.length !== bk.length) return false
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]))
}

/** A deep copy of a JSON value (objects crossing RPC are already copies; this is for in-process mutation). */
export const clone = <T>(v: T): T => structuredClone(v)
