// What kube's field manager sees where our JSON has no field: it reads objects through runtime.ToUnstructured of the
// Go struct, which writes every field its json tag does not omit (a nil pointer, slice or map without omitempty as
// null, a struct always, metav1.Time's zero as null). Whether a node was "there" decides whether an Update adds it
// (the "." of a map or list it creates): a create is compared with the kind's empty Go object, whose
// `spec.containers` is null, so a pod's creator owns its containers' items but not a "." on containers.
import { GO_JSON_FIELDS } from '../decoding/go-json-fields'
import type { GoType } from '../decoding/go-types'

/** The generated json tags by bare struct name, each with its package path ('' for core and meta types). */
const TAGS = new Map<string, { path: string; fields: Record<string, string> }[]>()
for (const [key, fields] of Object.entries(GO_JSON_FIELDS)) {
  const dot = key.lastIndexOf('.')
  const name = key.slice(dot + 1)
  TAGS.set(name, [...(TAGS.get(name) ?? []), { path: dot < 0 ? '' : key.slice(0, dot), fields }])
}

/** The json tag (`pointer,omitempty`, `slice`, ...) of a field of a Go struct type (`v1.PodSpec`). */
function tagOf(type: GoType, field: string): string | undefined {
  const tables = TAGS.get(type.struct)
  if (!tables) return undefined
  const pkg = type.name.slice(0, Math.max(0, type.name.lastIndexOf('.')))
  const table = (pkg && tables.find((t) => t.path.endsWith(`/${pkg}`))) || tables[0]!
  return table.fields[field]
}

const ABSENT = Symbol('absent')
const cache = new WeakMap<GoType, Map<string, unknown>>()

/**
 * The value ToUnstructured gives field `key` of a struct of Go type `parent` when it holds Go's zero value:
 * undefined when it writes nothing (omitempty, or not a field Go knows).
 */
export function absentAs(parent: GoType | null, key: string): unknown {
  if (parent?.kind !== 'struct') return undefined
  let byKey = cache.get(parent)
  if (!byKey) cache.set(parent, (byKey = new Map()))
  let v = byKey.get(key)
  if (v === undefined) byKey.set(key, (v = zeroFor(parent, key)))
  return v === ABSENT ? undefined : v
}

function zeroFor(parent: GoType, key: string): unknown {
  const f = parent.fields.get(key)
  const tag = f && tagOf(parent, key)
  if (!f || !tag) return ABSENT
  const [kind, option] = tag.split(',')
  // encoding/json and ToUnstructured never leave a struct out, omitempty or not.
  if (kind === 'struct') {
    switch (f.type.kind) {
      case 'struct':
        return {}
      case 'quantity':
        return '0'
      case 'intOrString':
        return 0
      default:
        // metav1.Time (and MicroTime): MarshalJSON writes null for the zero time.
        return null
    }
  }
  if (option === 'omitempty') return ABSENT
  switch (kind) {
    case 'string':
      return ''
    case 'number':
      return 0
    case 'bool':
      return false
    default:
      // pointer, slice, map, interface
      return null
  }
}
