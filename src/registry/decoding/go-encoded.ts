// A document as kube's Go structs encode it back (encoding/json): omitempty fields holding their empty value are left
// out. The store runs it on every write once validation has seen the decoded value (store.ts encodeAsGo), so storage,
// answers, watch events and managedFields all see what kube stores; custom resources (no Go type) keep what was sent
// but for their metadata (custom-codec.ts, as the CRD handler's coercion round-trips it through ObjectMeta).
import { isGoEmpty } from './go-omit-empty'
import type { GoType } from './go-types'

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Drops, in place, every omitempty field of `doc` (a document of Go type `type`) that holds its empty value. */
export function omitEmptyFields(doc: unknown, type: GoType): void {
  switch (type.kind) {
    case 'struct': {
      if (!isPlainObject(doc)) return
      for (const key of Object.keys(doc)) {
        const f = type.fields.get(key)
        if (!f) continue
        if (f.omitEmpty && isGoEmpty(doc[key], f.omitEmpty)) delete doc[key]
        else omitEmptyFields(doc[key], f.type)
      }
      return
    }
    case 'slice':
      if (Array.isArray(doc)) for (const item of doc) omitEmptyFields(item, type.elem!)
      return
    case 'map':
      if (isPlainObject(doc)) for (const key of Object.keys(doc)) omitEmptyFields(doc[key], type.elem!)
      return
    default:
  }
}
