// Field sets, as server-side apply tracks ownership: the set of field paths an object (or an applied configuration)
// sets, in the FieldsV1 vocabulary (`f:name` for fields and map keys, `k:{...}` for keyed list items, `v:...` for
// set members). Paths are strings of segments joined by '\u0001' so sets are plain Set<string>.
import { own, setOwn } from '../own-fields'
import { element, field, isOpaque, node, type Node } from '../schema-walk'
import type { z } from 'zod'

export type FieldSet = Set<string>
type Json = unknown

const SEP = '\u0001'
export const splitPath = (p: string) => (p === '' ? [] : p.split(SEP))

/** Fields no manager owns: identity and bookkeeping the server sets. */
const UNOWNED_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
])

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** How a list is merged and owned: keyed items, a set of values, or one atomic value. */
export function listKind(
  n: Node | null,
  value: unknown[],
): { kind: 'map'; keys: string[] } | { kind: 'set' } | { kind: 'atomic' } {
  const t = n?.meta['x-kubernetes-list-type']
  const keys =
    n?.meta['x-kubernetes-list-map-keys'] ??
    (n?.meta['x-kubernetes-patch-merge-key'] ? [n.meta['x-kubernetes-patch-merge-key']] : undefined)
  if (t === 'map' && keys?.length) return { kind: 'map', keys }
  if (t === 'set') return { kind: 'set' }
  if (t === undefined && keys?.length && value.every(isObj)) return { kind: 'map', keys }
  if (
    t === undefined &&
    (n?.meta['x-kubernetes-patch-strategy'] ?? '').includes('merge') &&
    value.every((x) => !isObj(x))
  )
    return { kind: 'set' }
  return { kind: 'atomic' }
}

/**
 * The `k:` segment of a keyed list item: its key fields as compact JSON, in key order. A key field the item leaves
 * out takes its schema default (`el` is the item schema), as structured-merge-diff does: an applied service port
 * without a protocol is the stored port with protocol TCP.
 */
export function itemKey(item: Record<string, unknown>, keys: string[], el: Node | null = null): string {
  const k: Record<string, unknown> = {}
  // FieldList.Sort: the key fields by name, whatever order the schema lists them in.
  for (const key of keys.length > 1 ? [...keys].sort() : keys) {
    const v = item[key] ?? field(el, key)?.meta.default
    if (v !== undefined) k[key] = v
  }
  return `k:${goJSON(k)}`
}

/** JSON as Go's encoder (jsoniter, standard-library compatible) writes it: <, >, & and U+2028/9 escaped. */
export function goJSON(v: unknown): string {
  const s = JSON.stringify(v)
  return /[<>&\u2028\u2029]/.test(s)
    ? s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : s
}

/**
 * A copy of an applied configuration whose keyed list items carry every key field, absent ones at their schema
 * default: what the live object is compared and merged with (ownership still follows what was actually applied).
 */
export function withKeyDefaults(v: Json, n: Node | null): Json {
  if (Array.isArray(v)) {
    const lk = listKind(n, v)
    const el = element(n)
    return v.map((item) => {
      if (!isObj(item)) return item
      const out = withKeyDefaults(item, el) as Record<string, unknown>
      if (lk.kind === 'map') {
        for (const key of lk.keys) {
          const d = field(el, key)?.meta.default
          if (out[key] === undefined && d !== undefined) out[key] = d
        }
      }
      return out
    })
  }
  if (isObj(v)) {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) setOwn(out, k, withKeyDefaults(x, field(n, k)))
    return out
  }
  return v
}

/**
 * The fields an applied configuration sets, as structured-merge-diff's ToFieldSet (typed/tofieldset.go) gives them:
 * leaves (atomic lists, maps and structs included), list items, map keys (a map's entries are not struct fields) and
 * struct fields holding null or an empty map; not a struct field's non-empty map or list node itself (an applied
 * `labels: {app: x}` owns `f:labels.f:app`, not `f:labels`), nor a non-atomic empty list.
 */
export function fieldSetOf(obj: Json, schema: z.ZodType): FieldSet {
  const out: FieldSet = new Set()
  walk(obj, node(schema), '', out, true)
  // kube's stripMetaManager drops the metadata node itself (`metadata: {}` would be a member).
  out.delete('f:metadata')
  return out
}

/** A path one segment down (paths are built as strings as the walk descends: joining arrays at each level cost more). */
export const below = (path: string, seg: string) => (path === '' ? seg : path + SEP + seg)

/** A map or struct kube marks +mapType=atomic / +structType=atomic: one value, owned and compared whole. */
export const isAtomicMap = (n: Node | null) =>
  n !== null && n.meta['x-kubernetes-map-type'] === 'atomic' && (n.kind === 'object' || n.kind === 'record')

/** Fields of the root and of metadata that no manager owns (kube's stripMetaManager; metadata itself neither). */
export function unowned(path: string, key: string): boolean {
  return path === '' ? key === 'apiVersion' || key === 'kind' : path === 'f:metadata' && UNOWNED_META.has(key)
}

function walk(v: Json, n: Node | null, path: string, out: FieldSet, root = false) {
  if (!root && isAtomicMap(n)) {
    out.add(path)
    return
  }
  if (isObj(v)) {
    // A map's keys are members; so are those of an object the schema leaves open (kube's deduced type: a map).
    const isMap = n === null || n.kind === 'record' || isOpaque(n)
    for (const k of Object.keys(v)) {
      const x = v[k]
      if (x === undefined || unowned(path, k)) continue
      const p = below(path, `f:${k}`)
      walk(x, field(n, k), p, out)
      if (isMap || x === null || (isObj(x) && Object.keys(x).length === 0)) out.add(p)
    }
    return
  }
  if (Array.isArray(v)) {
    const lk = listKind(n, v)
    if (lk.kind === 'atomic') {
      out.add(path)
      return
    }
    const el = element(n)
    const segs = v.map((item) =>
      lk.kind === 'set' ? `v:${goJSON(item)}` : isObj(item) ? itemKey(item, lk.keys, el) : null,
    )
    const seen = new Set<string>()
    const dup = new Set<string>()
    for (const s of segs) if (s !== null) (seen.has(s) ? dup : seen).add(s)
    v.forEach((item, i) => {
      const seg = segs[i]
      if (seg === null) return
      const itemPath = below(path, seg)
      out.add(itemPath)
      // A duplicated item is owned as one (tofieldset.go): its fields are not walked.
      if (lk.kind === 'map' && !dup.has(seg)) walk(item, el, itemPath, out)
    })
    return
  }
  out.add(path)
}

/** The paths of a set that have other paths of the set below them (map entries and list items with fields). */
export function innerPathsOf(set: FieldSet): FieldSet {
  const out: FieldSet = new Set()
  for (const p of set) for (let i = p.indexOf(SEP); i >= 0; i = p.indexOf(SEP, i + 1)) out.add(p.slice(0, i))
  return out
}

/** The value at a path (undefined if absent). */
export function valueAt(obj: Json, path: string[]): Json {
  let cur: Json = obj
  for (const seg of path) {
    if (cur === undefined) return undefined
    if (seg.startsWith('f:')) {
      cur = isObj(cur) ? own(cur, seg.slice(2)) : undefined
    } else if (seg.startsWith('k:')) {
      const key = JSON.parse(seg.slice(2)) as Record<string, unknown>
      cur = Array.isArray(cur)
        ? cur.find((x) => isObj(x) && Object.entries(key).every(([k, v]) => JSON.stringify(x[k]) === JSON.stringify(v)))
        : undefined
    } else if (seg.startsWith('v:')) {
      const want = seg.slice(2)
      cur = Array.isArray(cur) ? cur.find((x) => goJSON(x) === want) : undefined
    } else {
      return undefined
    }
  }
  return cur
}

/** Removes the field at a path from obj (in place). Returns whether anything was removed. */
export function removeAt(obj: Json, path: string[]): boolean {
  if (path.length === 0) return false
  const parent = valueAt(obj, path.slice(0, -1))
  const last = path[path.length - 1]!
  if (last.startsWith('f:') && isObj(parent)) {
    if (!Object.hasOwn(parent, last.slice(2))) return false
    delete parent[last.slice(2)]
    return true
  }
  if (Array.isArray(parent)) {
    const target = valueAt(obj, path)
    const i = parent.indexOf(target)
    if (i >= 0) {
      parent.splice(i, 1)
      return true
    }
  }
  return false
}

/** Renders a path as kube prints conflicting fields: `.spec.containers[name="nginx"].image`. */
export function describePath(path: string[]): string {
  let s = ''
  for (const seg of path) {
    if (seg.startsWith('f:')) s += `.${seg.slice(2)}`
    else if (seg.startsWith('k:')) {
      const key = JSON.parse(seg.slice(2)) as Record<string, unknown>
      s += `[${Object.entries(key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`
    } else if (seg.startsWith('v:')) s += `[${seg.slice(2)}]`
  }
  return s
}

const LABELS = `f:metadata${SEP}f:labels`
const ANNOTATIONS = `f:metadata${SEP}f:annotations`
/** Whether a path is `prefix` or below it (`prefix`: whole segments). */
const startsWithPath = (p: string, prefix: string) =>
  p.startsWith(prefix) && (p.length === prefix.length || p[prefix.length] === SEP)

/**
 * What a write through the main resource or a subresource owns: status belongs to /status, and only there (the
 * strategies' reset fields), unless `keepsStatus`: a custom resource without a status subresource owns its status
 * through the main resource.
 */
export function scopeToSubresource(set: FieldSet, subresource?: string, keepsStatus = false): FieldSet {
  if (keepsStatus && !subresource) return set
  const out: FieldSet = new Set()
  for (const p of set) {
    const isStatus = startsWithPath(p, 'f:status')
    if (subresource === 'status') {
      if (isStatus || startsWithPath(p, LABELS) || startsWithPath(p, ANNOTATIONS)) out.add(p)
    } else if (!isStatus) out.add(p)
  }
  return out
}
