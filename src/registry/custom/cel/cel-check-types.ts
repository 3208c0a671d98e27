// The static types cel-go's checker reasons with, as the compile-time checks (./cel-check.ts) use them: a value's CEL
// type with the size bound cost estimates need, the type of a schema node, cel-go's type names, and whether an
// operator has an overload for two types.
import type { Structural } from '../../crd/structural'
import { type CelTypeInfo, typeOf } from './cel-model'
import { MAX_REQUEST_BYTES, maxStringSize, minSerializedSize } from './cel-sizes'

export const COMPARISONS = new Set(['_<_', '_<=_', '_>_', '_>=_', '_==_', '_!=_'])
export const ARITHMETIC = new Set(['_+_', '_-_', '_*_', '_/_', '_%_'])

export interface Typed {
  type: CelTypeInfo
  /** What the value's size can be, for cost estimates: characters of a string, items of a list, keys of a map. */
  size: number
  /** The schema node behind the value, when there is one. */
  schema?: Structural
}

export const DYN: Typed = { type: { kind: 'dyn' }, size: MAX_REQUEST_BYTES }
export const scalar = (kind: 'int' | 'double' | 'string' | 'bool' | 'null' | 'bytes' | 'uint', size = 1): Typed => ({
  type: { kind },
  size,
})

export function typedOf(s: Structural | undefined, root = false): Typed {
  const type = typeOf(s, root)
  let size = 1
  if (type.kind === 'string') size = maxStringSize(s)
  else if (type.kind === 'list')
    size = s?.valueValidation?.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(s?.items) + 1))
  else if (type.kind === 'map')
    size =
      s?.valueValidation?.maxProperties ??
      Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(s?.additionalProperties?.structural) + 6))
  else if (type.kind === 'dyn') size = MAX_REQUEST_BYTES - 2
  return { type, size, schema: s }
}

export function typeName(t: CelTypeInfo): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.elem)})`
    case 'map':
      return `map(string, ${typeName(t.value)})`
    case 'object':
      return 'object'
    case 'optional':
      return `optional_type(${typeName(t.value)})`
    default:
      return t.kind
  }
}

const NUMERIC = new Set(['int', 'uint', 'double'])

/** Whether cel-go has an overload of a comparison or arithmetic operator for two static types (dyn fits all). */
export function compatible(fn: string, a: CelTypeInfo, b: CelTypeInfo): boolean {
  if (a.kind === 'dyn' || b.kind === 'dyn' || a.kind === 'optional' || b.kind === 'optional') return true
  // Kubernetes enables cross-type numeric comparisons; arithmetic needs one numeric type.
  if (NUMERIC.has(a.kind) && NUMERIC.has(b.kind)) return COMPARISONS.has(fn) || a.kind === b.kind
  if ((fn === '_==_' || fn === '_!=_') && (a.kind === 'null' || b.kind === 'null')) return true
  if (a.kind !== b.kind)
    return (
      (fn === '_==_' || fn === '_!=_') &&
      ((a.kind === 'map' && b.kind === 'object') || (a.kind === 'object' && b.kind === 'map'))
    )
  if (ARITHMETIC.has(fn))
    return fn === '_+_'
      ? ['string', 'bytes', 'list', 'int', 'uint', 'double', 'duration', 'timestamp'].includes(a.kind)
      : NUMERIC.has(a.kind)
  if (COMPARISONS.has(fn) && fn !== '_==_' && fn !== '_!=_')
    return ['int', 'uint', 'double', 'string', 'bool', 'bytes', 'timestamp', 'duration'].includes(a.kind)
  return true
}
