// The Go type behind each zod schema, as kube's decoders see it: struct, slice, map or scalar, the name reflect prints
// for it (`v1.PodSpec`, `[]v1.Container`, `map[string]string`, `int32`), and the custom unmarshalers (IntOrString,
// Quantity, Time). Compiled once per schema; the decoders walk these instead of zod's internals.
import type { z } from 'zod'
import { node, type ListMeta } from '../schema-walk'
import { goNameOverride, isPointerField, registeredName } from './go-type-names'
import { omitEmptyKind, type EmptyKind } from './go-omit-empty'

type GoKind =
  | 'struct'
  | 'slice'
  | 'map'
  | 'string'
  | 'bool'
  | 'int'
  | 'float'
  /** intstr.IntOrString: a JSON string, else an int32. */
  | 'intOrString'
  /** resource.Quantity: any JSON value whose text parses as a quantity. */
  | 'quantity'
  /** metav1.Time (RFC 3339) and metav1.MicroTime (microseconds). */
  | 'time'
  | 'microTime'
  /** metav1.FieldsV1: raw JSON, anything goes. */
  | 'raw'
  /** []byte: a base64 string (encoding/json's rule for byte slices). */
  | 'bytes'
  /** interface{}: anything goes. */
  | 'any'

export interface GoField {
  type: GoType
  /** List and map metadata the field declares (strategic merge and server-side apply read it). */
  meta: ListMeta
  /** Whether the schema lets the field be absent (else Go's zero value stands in for it). */
  optional: boolean
  /** Go's json tag says omitempty and the field is a value (not a pointer or struct): encoding drops it when empty. */
  omitEmpty: EmptyKind | null
}

export interface GoType {
  kind: GoKind
  /** The type as reflect.Type.String() prints it: `v1.PodSpec`, `[]v1.Container`, `map[string]string`. */
  name: string
  /** Structs: the bare type name (`PodSpec`), what encoding/json's error context names. */
  struct: string
  /** Structs: fields by JSON name, in declaration order (Go's struct order). */
  fields: Map<string, GoField>
  /** Structs: the fields Go always has (values, not pointers): a decoded struct holds their zero value. */
  required: [string, GoType][]
  /** Slices and maps: the element type. */
  elem: GoType | null
  /** Ints: 32 or 64. */
  bits: number
}

type Def = {
  type: string
  innerType?: z.ZodType
  getter?: () => z.ZodType
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  valueType?: z.ZodType
  options?: z.ZodType[]
  in?: z.ZodType
}
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'])

/** The schema under optional/nullable/default wrappers (a named type's clones keep their registered identity). */
function peel(s: z.ZodType): z.ZodType {
  for (let i = 0; i < 32; i++) {
    if (registeredName(s)) return s
    const d = defOf(s)
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType
    else if (d.type === 'lazy' && d.getter) s = d.getter()
    else if (d.type === 'pipe' && d.in) s = d.in
    else return s
  }
  return s
}

function isOptional(s: z.ZodType): boolean {
  for (let i = 0; i < 32; i++) {
    const d = defOf(s)
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault') return true
    if (!WRAPPERS.has(d.type) || !d.innerType) return false
    s = d.innerType
  }
  return false
}

const cache = new Map<z.ZodType, Map<string, GoType>>()

/**
 * The Go type of a schema. `name` is the Go type when the caller knows it (a kind's root struct, a field whose
 * Go type the schema cannot say); otherwise the schema's registered name or its shape decides.
 */
export function goTypeOf(schema: z.ZodType, name?: string): GoType {
  const s = peel(schema)
  const fixed = name ?? registeredName(s) ?? ''
  let byName = cache.get(s)
  if (!byName) cache.set(s, (byName = new Map()))
  const hit = byName.get(fixed)
  if (hit) return hit
  const t: GoType = {
    kind: 'any',
    name: 'interface {}',
    struct: '',
    fields: new Map(),
    required: [],
    elem: null,
    bits: 0,
  }
  // Cached before its parts are compiled: a recursive schema meets itself again.
  byName.set(fixed, t)
  compile(t, s, fixed)
  return t
}

function compile(t: GoType, s: z.ZodType, name: string) {
  const special = SPECIAL[name]
  if (special) {
    t.kind = special
    t.name = name
    return
  }
  const d = defOf(s)
  switch (d.type) {
    case 'object': {
      t.kind = 'struct'
      t.name = name || 'struct {}'
      t.struct = name.slice(name.lastIndexOf('.') + 1)
      for (const [key, field] of Object.entries(d.shape ?? {})) {
        const override = goNameOverride(t.struct, key)
        const f: GoField = {
          type: goTypeOf(field, override),
          meta: node(field).meta,
          optional: isOptional(field),
          omitEmpty: omitEmptyKind(t.struct, key, name.slice(0, Math.max(0, name.lastIndexOf('.')))),
        }
        t.fields.set(key, f)
        // A value field's zero value is written back unless omitempty leaves it out.
        if (!f.optional && !f.omitEmpty && !isPointerField(t.struct, key)) t.required.push([key, f.type])
      }
      return
    }
    case 'array': {
      const elemName = name.startsWith('[]') ? name.slice(2) : undefined
      t.kind = 'slice'
      t.elem = goTypeOf(d.element!, elemName)
      t.name = name || `[]${t.elem.name}`
      return
    }
    case 'record': {
      const elemName = name.startsWith('map[string]') ? name.slice('map[string]'.length) : undefined
      t.kind = 'map'
      t.elem = goTypeOf(d.valueType!, elemName)
      t.name = name || `map[string]${t.elem.name}`
      return
    }
    case 'string':
    case 'enum':
      t.kind = 'string'
      t.name = name || 'string'
      return
    case 'boolean':
      t.kind = 'bool'
      t.name = name || 'bool'
      return
    case 'number': {
      const n = s as unknown as { format?: string | null; minValue?: number | null; maxValue?: number | null }
      const integer = n.format === 'safeint' || n.format === 'int32' || n.format === 'int64'
      if (!integer) {
        t.kind = 'float'
        t.name = name || 'float64'
        return
      }
      t.kind = 'int'
      const declared = /^int(32|64)$/.exec(name)
      t.bits = declared
        ? Number(declared[1])
        : (n.minValue ?? -Infinity) >= -2147483648 && (n.maxValue ?? Infinity) <= 2147483647
          ? 32
          : 64
      t.name = name || `int${t.bits}`
      return
    }
    default:
      // unknown, any: Go's interface{} (or raw JSON), which takes whatever comes.
      t.kind = 'any'
      t.name = name || 'interface {}'
  }
}

/** Types whose own UnmarshalJSON decides what they accept. */
const SPECIAL: Record<string, GoKind> = {
  'intstr.IntOrString': 'intOrString',
  'resource.Quantity': 'quantity',
  'v1.Time': 'time',
  'v1.MicroTime': 'microTime',
  'v1.FieldsV1': 'raw',
  // reflect prints []byte as []uint8 (go-field-types.ts names the byte maps of Secret and ConfigMap).
  '[]uint8': 'bytes',
}
