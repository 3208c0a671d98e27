// Pruning and defaulting of custom resources over their structural schema (apiextensions pkg/apiserver/schema
// pruning/algorithm.go, defaulting/algorithm.go, defaulting/prunenulls.go): fields the schema does not declare go
// (and are reported, for fieldValidation), nulls the schema does not allow go unless a default replaces them, and
// absent fields with a default get it.
import type { Structural } from '../crd/structural'

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata'])
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Prunes `obj` in place; answers the paths of the fields it removed, sorted (`spec.foo`, `spec.items[0].bar`). At a
 * resource root (and in embedded resources) apiVersion, kind and metadata are kept for their own handling.
 */
export function prune(obj: unknown, s: Structural | undefined, isResourceRoot: boolean): string[] {
  const unknown: string[] = []
  const root: Structural | undefined = isResourceRoot ? { ...(s ?? {}), embeddedResource: true } : s
  walk(obj, root, '', unknown)
  return unknown.sort()
}

const key = (parent: string, k: string) => (parent ? `${parent}.${k}` : k)

function walk(x: unknown, s: Structural | undefined, path: string, unknown: string[]) {
  if (s?.preserveUnknownFields) return skip(x, s, path, unknown)
  if (isMap(x)) {
    if (!s) {
      for (const k of Object.keys(x)) {
        unknown.push(key(path, k))
        delete x[k]
      }
      return
    }
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue
      const prop = s.properties?.[k]
      if (prop) walk(x[k], prop, key(path, k), unknown)
      else if (s.additionalProperties) walk(x[k], s.additionalProperties.structural, key(path, k), unknown)
      else {
        if (!META_FIELDS.has(k) || path !== '') unknown.push(key(path, k))
        delete x[k]
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => walk(v, s?.items, `${path}[${i}]`, unknown))
  }
}

/** x-kubernetes-preserve-unknown-fields: unknown fields stay, declared ones are still pruned inside. */
function skip(x: unknown, s: Structural, path: string, unknown: string[]) {
  if (isMap(x)) {
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue
      const prop = s.properties?.[k]
      if (prop) walk(x[k], prop, key(path, k), unknown)
      else if (s.additionalProperties) walk(x[k], s.additionalProperties.structural, key(path, k), unknown)
    }
  } else if (Array.isArray(x) && s.items) {
    x.forEach((v, i) => skip(v, s.items!, `${path}[${i}]`, unknown))
  }
}

const fieldSchema = (k: string, s: Structural | undefined) => s?.properties?.[k] ?? s?.additionalProperties?.structural

/** PruneNonNullableNullsWithoutDefaults: a null the schema neither allows nor defaults is dropped. */
export function pruneNulls(x: unknown, s: Structural | undefined) {
  if (isMap(x)) {
    for (const k of Object.keys(x)) {
      const schema = fieldSchema(k, s)
      if (x[k] === null && schema && !schema.nullable && schema.default === undefined) delete x[k]
      else pruneNulls(x[k], schema)
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNulls(v, s?.items)
  }
}

const nonNullableNull = (v: unknown, s: Structural | undefined) => v === null && s !== undefined && !s.nullable

/** Default: absent fields (and non-nullable nulls) with a default in the schema get a copy of it. */
export function applyDefaults(x: unknown, s: Structural | undefined) {
  if (!s) return
  if (isMap(x)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined) continue
      if (!(k in x) || nonNullableNull(x[k], prop)) x[k] = structuredClone(prop.default)
    }
    for (const k of Object.keys(x)) {
      const prop = s.properties?.[k]
      if (prop) applyDefaults(x[k], prop)
      else if (s.additionalProperties?.structural) {
        const value = s.additionalProperties.structural
        if (nonNullableNull(x[k], value) && value.default !== undefined) x[k] = structuredClone(value.default)
        applyDefaults(x[k], value)
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (nonNullableNull(v, s.items) && s.items?.default !== undefined) x[i] = structuredClone(s.items.default)
      applyDefaults(x[i], s.items)
    })
  }
}

/** Whether any node of the schema declares a default (else defaulting a value read changes nothing). */
export function hasDefaults(s: Structural | undefined): boolean {
  if (!s) return false
  if (s.default !== undefined) return true
  return (
    Object.values(s.properties ?? {}).some(hasDefaults) ||
    hasDefaults(s.additionalProperties?.structural) ||
    hasDefaults(s.items)
  )
}
