// What an Update changed, as structured-merge-diff's Compare (typed/compare.go) tells it: leaves added, modified or
// removed, and every non-leaf node (a map, struct or list with content) present on one side only. A create is
// compared with the kind's empty Go object (go-absent.ts says which of its fields exist, as null or zero), so the
// nodes a creator brings into being carry "." in its entry and those Go always has do not. One walk over both objects.
import type { z } from 'zod'
import { deepEqual } from '../deep-equal'
import type { GoType } from '../decoding/go-types'
import { element, field, node, type Node } from '../schema-walk'
import { absentAs } from './go-absent'
import { below, type FieldSet, goJSON, isAtomicMap, itemKey, listKind, unowned } from './field-set'

interface Comparison {
  added: FieldSet
  modified: FieldSet
  removed: FieldSet
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isEmpty = (v: unknown) =>
  v === undefined || v === null || (isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0)

/**
 * Compares `prev` (null: a create, compared with the empty Go object) with `next`, both as stored (Go's encoding).
 * `goType`: the kind's root Go type (null for custom resources, whose empty object is empty).
 */
export function compareObjects(prev: unknown, next: unknown, schema: z.ZodType, goType: GoType | null): Comparison {
  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() }
  walk(prev ?? {}, next, node(schema), goType, '', c)
  // kube's stripMetaManager drops the metadata node itself (a custom resource's empty object has none).
  for (const set of [c.added, c.modified, c.removed]) set.delete('f:metadata')
  return c
}

/** `l`, `r`: the old and new values (undefined: absent, as Go's nil value.Value). */
function walk(l: unknown, r: unknown, n: Node | null, g: GoType | null, path: string, c: Comparison) {
  const root = path === ''
  if (!root && (isAtomicMap(n) || leafOf(l, r, n))) return leaf(l, r, path, c)
  if (isObj(l) || isObj(r)) {
    if (!root && isEmpty(l) && isEmpty(r)) return leaf(l, r, path, c)
    const lo = isObj(l) ? l : undefined
    const ro = isObj(r) ? r : undefined
    const struct = g?.kind === 'struct'
    const keys = lo && ro ? new Set([...Object.keys(lo), ...Object.keys(ro)]) : Object.keys((lo ?? ro)!)
    for (const k of keys) {
      if (unowned(path, k)) continue
      let lv = lo && Object.hasOwn(lo, k) ? lo[k] : undefined
      let rv = ro && Object.hasOwn(ro, k) ? ro[k] : undefined
      // A field our JSON leaves out that Go writes (as null or zero) is there, on a side whose struct is there.
      if (struct && lv === undefined && lo) lv = absentAs(g, k)
      if (struct && rv === undefined && ro) rv = absentAs(g, k)
      if (lv === undefined && rv === undefined) continue
      const childGo = g?.kind === 'struct' ? (g.fields.get(k)?.type ?? null) : g?.kind === 'map' ? g.elem : null
      walk(lv, rv, field(n, k), childGo, below(path, `f:${k}`), c)
    }
  } else if (Array.isArray(l) || Array.isArray(r)) {
    if (isEmpty(l) && isEmpty(r)) return leaf(l, r, path, c)
    items(Array.isArray(l) ? l : [], Array.isArray(r) ? r : [], n, g?.kind === 'slice' ? g.elem : null, path, c)
  } else {
    return leaf(l, r, path, c)
  }
  if (root) return
  if (l === undefined) c.added.add(path)
  else if (r === undefined) c.removed.add(path)
}

/** Scalars, atomic lists: compared whole. */
function leafOf(l: unknown, r: unknown, n: Node | null): boolean {
  const v = Array.isArray(r) ? r : l
  if (!Array.isArray(v)) return !isObj(l) && !isObj(r)
  return listKind(n, v).kind === 'atomic'
}

function leaf(l: unknown, r: unknown, path: string, c: Comparison) {
  if (l === undefined) c.added.add(path)
  else if (r === undefined) c.removed.add(path)
  else if (!deepEqual(l, r)) c.modified.add(path)
}

/** Keyed items and set members, matched by path element; duplicated ones compared as one value (compare.go). */
function items(l: unknown[], r: unknown[], n: Node | null, g: GoType | null, path: string, c: Comparison) {
  const lk = listKind(n, r.length > 0 ? r : l)
  const el = element(n)
  const segOf = (item: unknown) =>
    lk.kind === 'set' ? `v:${goJSON(item)}` : lk.kind === 'map' && isObj(item) ? itemKey(item, lk.keys, el) : null
  const group = (list: unknown[]) => {
    const m = new Map<string, unknown[]>()
    for (const item of list) {
      const s = segOf(item)
      if (s === null) continue
      const same = m.get(s)
      if (same) same.push(item)
      else m.set(s, [item])
    }
    return m
  }
  const ls = group(l)
  const rs = group(r)
  for (const seg of new Set([...ls.keys(), ...rs.keys()])) {
    const li = ls.get(seg) ?? []
    const ri = rs.get(seg) ?? []
    const p = below(path, seg)
    if (li.length <= 1 && ri.length <= 1) walk(li[0], ri[0], el, g, p, c)
    else if (li.length >= 2 && ri.length >= 2) {
      if (!deepEqual(li, ri)) c.modified.add(p)
    } else if (li.length >= 2) {
      if (ri.length) walk(undefined, ri[0], el, g, p, c)
      c.removed.add(p)
    } else {
      if (li.length) walk(li[0], undefined, el, g, p, c)
      c.added.add(p)
    }
  }
}
