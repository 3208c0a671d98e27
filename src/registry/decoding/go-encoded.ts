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

const isPlainProto = (v: object) => {
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** Sets a key as an own data property (`__proto__` included, which plain assignment would take as the prototype). */
function put(out: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}

/**
 * A deep copy of `doc` with omitEmptyFields applied: what structuredClone followed by omitEmptyFields gives, in one
 * walk of plain data instead of a structured-clone round trip (the field manager reads a copy of every tracked write
 * this way). A value that is not plain data (a class instance) is structured-cloned first, as before.
 */
export function omitEmptyCopy(doc: unknown, type: GoType | null): unknown {
  if (typeof doc !== 'object' || doc === null) return doc
  if (Array.isArray(doc)) {
    const elem = type?.kind === 'slice' ? type.elem : null
    const out = new Array<unknown>(doc.length)
    for (let i = 0; i < doc.length; i++) out[i] = omitEmptyCopy(doc[i], elem)
    return out
  }
  if (!isPlainProto(doc)) {
    const copy: unknown = structuredClone(doc)
    return typeof copy === 'object' && copy !== null && !Array.isArray(copy) && isPlainProto(copy)
      ? omitEmptyCopy(copy, type)
      : copy
  }
  const o = doc as Record<string, unknown>
  const out: Record<string, unknown> = {}
  if (type?.kind === 'struct') {
    for (const key of Object.keys(o)) {
      const f = type.fields.get(key)
      if (!f) put(out, key, omitEmptyCopy(o[key], null))
      else if (!(f.omitEmpty && isGoEmpty(o[key], f.omitEmpty))) put(out, key, omitEmptyCopy(o[key], f.type))
    }
    return out
  }
  const elem = type?.kind === 'map' ? type.elem : null
  for (const key of Object.keys(o)) put(out, key, omitEmptyCopy(o[key], elem))
  return out
}
