// Walking zod schemas the way kube walks its OpenAPI: find a field's schema and its list metadata (merge keys,
// patch strategies, list types), which strategic merge patch and server-side apply need.
import { z } from 'zod'

type Any = z.ZodType
interface Def {
  type: string
  innerType?: Any
  shape?: Record<string, Any>
  element?: Any
  valueType?: Any
  getter?: () => Any
}

const defOf = (s: Any) => (s as unknown as { _zod: { def: Def } })._zod.def

/** Kubernetes list and patch metadata, as our schemas declare it with `.meta()`. */
export interface ListMeta {
  'x-kubernetes-patch-merge-key'?: string
  'x-kubernetes-patch-strategy'?: string
  'x-kubernetes-list-type'?: 'atomic' | 'map' | 'set'
  'x-kubernetes-list-map-keys'?: string[]
  'x-kubernetes-map-type'?: 'atomic' | 'granular'
  /** The value the server defaults a field to; server-side apply keys list items by it when the key field is absent. */
  default?: unknown
}

export interface Node {
  /** The schema with optional/nullable/default wrappers peeled off. */
  schema: Any
  /** Metadata gathered from every wrapper on the way in. */
  meta: ListMeta
  kind: 'object' | 'array' | 'record' | 'leaf'
}

export function node(s: Any): Node {
  let meta: ListMeta = {}
  let cur = s
  for (let i = 0; i < 32; i++) {
    const m = z.globalRegistry.get(cur) as ListMeta | undefined
    if (m) meta = { ...m, ...meta }
    const d = defOf(cur)
    if (
      (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly') &&
      d.innerType
    ) {
      cur = d.innerType
      continue
    }
    if (d.type === 'lazy' && d.getter) {
      cur = d.getter()
      continue
    }
    break
  }
  const t = defOf(cur).type
  const kind = t === 'object' ? 'object' : t === 'array' ? 'array' : t === 'record' ? 'record' : 'leaf'
  return { schema: cur, meta, kind }
}

/** The schema of a field of an object node (null if the object has no such field, or this is not an object). */
export function field(n: Node | null, key: string): Node | null {
  if (!n) return null
  if (n.kind === 'record') return node(defOf(n.schema).valueType!)
  if (n.kind !== 'object') return null
  // An own property only: a key such as "constructor" or "__proto__" is no field of any schema.
  const shape = defOf(n.schema).shape
  const f = shape && Object.hasOwn(shape, key) ? shape[key] : undefined
  return f ? node(f) : null
}

/** The fields an object node declares, in declaration order (which our schemas keep as Go's struct order). */
export function fieldNames(n: Node): string[] {
  return n.kind === 'object' ? Object.keys(defOf(n.schema).shape ?? {}) : []
}

/** A value the schema leaves open (z.unknown, z.any): raw JSON in Go (FieldsV1, RawExtension), kept as it is. */
export const isOpaque = (n: Node) =>
  n.kind === 'leaf' && (defOf(n.schema).type === 'unknown' || defOf(n.schema).type === 'any')

/** The element schema of an array node. */
export function element(n: Node | null): Node | null {
  if (n?.kind !== 'array') return null
  return node(defOf(n.schema).element!)
}

export const mergeKeyOf = (n: Node | null) => n?.meta['x-kubernetes-patch-merge-key']
export const patchStrategyOf = (n: Node | null) => n?.meta['x-kubernetes-patch-strategy'] ?? ''
