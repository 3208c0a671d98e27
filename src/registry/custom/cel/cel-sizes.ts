// The sizes kube's CEL cost estimates reason with (k8s.io/apiserver pkg/cel/common schemas.go, pkg/cel limits.go):
// the fewest bytes a value of a schema serializes to, and the longest a string of a schema can be.
import type { Structural } from '../../crd/structural'

/** kube's MaxRequestSizeBytes: no value, list or string of a request is larger. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024

/**
 * The fewest bytes a value of the schema takes in JSON (DeclType.MinSerializedSize, k8s.io/apiserver pkg/cel/common
 * schemas.go): what bounds an unbounded list's length, a map's entries and a rule's cardinality.
 */
export function minSerializedSize(s: Structural | undefined): number {
  if (!s || s.intOrString) return 1
  switch (s.type) {
    case 'string':
      switch (s.valueValidation?.format) {
        case 'date':
          return 12
        case 'date-time':
          return 21
        case 'duration':
          return 3
        default:
          return 2
      }
    case 'boolean':
      return 4
    case 'integer':
    case 'number':
      return 1
    case 'object': {
      if (s.additionalProperties?.structural) return 2
      // {} plus each required property without a default ("name": value, and a comma).
      const required = new Set(s.valueValidation?.required ?? [])
      let size = 2
      for (const [name, p] of Object.entries(s.properties ?? {}))
        if (required.has(name) && p.default === undefined) size += name.length + minSerializedSize(p) + 4
      return size
    }
    default:
      return 2
  }
}

/** The longest a string of the schema can be, in bytes as kube reckons it (maxLength counts code points: × 4). */
export function maxStringSize(s: Structural | undefined): number {
  const v = s?.valueValidation
  if (v?.maxLength !== undefined) return Math.max(0, v.maxLength) * 4
  if (v?.enum && v.enum.length > 0) return Math.max(...v.enum.map((e) => (typeof e === 'string' ? e.length : 0)))
  if (v?.format === 'date') return 12
  if (v?.format === 'date-time' || v?.format === 'duration') return 32
  return MAX_REQUEST_BYTES - 2
}
