// How custom resources' JSON values look to kube's Go code: the JSON type kube-openapi assigns a decoded value (an
// integral number is an int64, any other a float64) and %v of schema values (decoded as float64 by encoding/json).
import { goFloat, goV } from '../decoding/go-format'

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object'

export function jsonType(v: unknown): JsonType {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  if (typeof v === 'string') return 'string'
  return Array.isArray(v) ? 'array' : 'object'
}

/** %v of a value: an integral number as an int64, others as Go prints float64s and decoded JSON. */
export function goPrint(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : goFloat(v)
  return goV(v, 'floats')
}
