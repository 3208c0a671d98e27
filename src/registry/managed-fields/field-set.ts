// Field sets, as server-side apply tracks ownership: the set of field paths an object (or an applied configuration)
// sets, in the FieldsV1 vocabulary (`f:name` for fields and map keys, `k:{...}` for keyed list items, `v:...` for
// set members). Paths are strings of segments joined by '\u0001' so sets are plain Set<string>.
import { own, setOwn } from '../own-fields'
import { element, field, node, type Node } from '../schema-walk'
import type { z } from 'zod'

export type FieldSet = Set<string>
type Json = unknown

const SEP = '\u0001'
const joinPath = (segs: string[]) => segs.join(SEP)
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
  for (const key of keys) {
    const v = item[key] ?? field(el, key)?.meta.default
    if (v !== undefined) k[key] = v
  }
  return `k:${JSON.stringify(k)}`
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

/** Every field path the object sets. Non-leaf nodes that own their existence (map entries, list items) are included. */
export function fieldSetOf(obj: Json, schema: z.ZodType): FieldSet {
  const out: FieldSet = new Set()
  walk(obj, node(schema), '', out, true)
  return out
}

/** A path one segment down (paths are built as strings as the walk descends: joining arrays at each level cost more). */
const below = (path: string, seg: string) => (path === '' ? seg : path + SEP + seg)

function walk(v: Json, n: Node | null, path: string, out: FieldSet, root = false) {
  if (isObj(v)) {
    const isMap = n?.kind === 'record'
    if (!root && Object.keys(v).length === 0) {
      out.add(path)
      return
    }
    if (!root && isMap) out.add(path)
    const inMeta = path === 'f:metadata'
    for (const [k, x] of Object.entries(v)) {
      if (root && (k === 'apiVersion' || k === 'kind')) continue
      if (inMeta && UNOWNED_META.has(k)) continue
      if (x === undefined) continue
      walk(x, field(n, k), below(path, `f:${k}`), out)
    }
    return
  }
  if (Array.isArray(v)) {
    const lk = listKind(n, v)
    if (lk.kind === 'atomic' || v.length === 0) {
      out.add(path)
      return
    }
    const el = element(n)
    for (const item of v) {
      if (lk.kind === 'set') {
        out.add(below(path, `v:${JSON.stringify(item)}`))
      } else if (isObj(item)) {
        const itemPath = below(path, itemKey(item, lk.keys, el))
        out.add(itemPath)
        walk(item, el, itemPath, out, false)
      }
    }
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

/** FieldsV1 JSON (what managedFields[].fieldsV1 holds) from a field set; owned inner nodes carry the '.' marker. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  const descend = (p: string) => {
    let cur = root
    for (const s of splitPath(p)) cur = (cur[s] ??= {}) as Record<string, unknown>
    return cur
  }
  for (const p of [...set].sort()) descend(p)
  for (const p of set) {
    const n = descend(p)
    if (Object.keys(n).some((k) => k !== '.')) n['.'] = {}
  }
  return root
}

/** A field set from FieldsV1 JSON. */
export function fromFieldsV1(v: unknown): FieldSet {
  const out: FieldSet = new Set()
  const rec = (node: unknown, path: string[]) => {
    if (!isObj(node)) return
    const keys = Object.keys(node)
    if (keys.length === 0 || keys.includes('.')) {
      if (path.length > 0) out.add(joinPath(path))
    }
    for (const k of keys) if (k !== '.') rec(node[k], [...path, k])
  }
  rec(v, [])
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
      cur = Array.isArray(cur) ? cur.find((x) => JSON.stringify(x) === want) : undefined
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

/** What a write through the main resource or a subresource owns: status belongs to /status, and only there. */
export function scopeToSubresource(set: FieldSet, subresource?: string): FieldSet {
  const out: FieldSet = new Set()
  for (const p of set) {
    const isStatus = startsWithPath(p, 'f:status')
    if (subresource === 'status') {
      if (isStatus || startsWithPath(p, LABELS) || startsWithPath(p, ANNOTATIONS)) out.add(p)
    } else if (!isStatus) out.add(p)
  }
  return out
}
