// What Go holds where a JSON document has no value: the zero value a null leaves where it cannot be absent (a slice
// element, a map value), and the zero value of a value field the document leaves out (kube writes it back).
import type { GoType } from './go-types'

/** The value Go leaves for a JSON null where it cannot be absent (a slice element, a map value). */
export function zeroOf(t: GoType): unknown {
  switch (t.kind) {
    case 'struct':
      return filled(t)
    case 'string':
      return ''
    case 'bool':
      return false
    case 'int':
    case 'float':
    case 'intOrString':
      return 0
    case 'quantity':
      return '0'
    case 'bytes':
      // A nil []byte, which storage gives back empty.
      return ''
    default:
      return null
  }
}

/**
 * What Go holds for a field the document leaves out when the field is a value, not a pointer: its zero value, which
 * kube writes back (non-omitempty fields). Times and maps stay absent (Go writes null for them).
 */
export function filled(t: GoType): unknown {
  switch (t.kind) {
    case 'struct': {
      const o: Record<string, unknown> = {}
      for (const [k, ft] of t.required) {
        const z = filled(ft)
        if (z !== undefined) o[k] = z
      }
      return o
    }
    case 'slice':
      return []
    case 'string':
      return ''
    case 'bool':
      return false
    case 'int':
    case 'float':
    case 'intOrString':
      return 0
    default:
      return undefined
  }
}
