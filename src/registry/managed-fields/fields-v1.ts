// FieldsV1, the JSON form of a field set (managedFields[].fieldsV1), written as structured-merge-diff's
// fieldpath/serialize.go writes it: a node that is itself a member and has children starts with ".", then its children
// in PathElement order (field names, then keys, then values, then indexes; names byte-wise, keys field by field, values
// by value.Compare), so that stored and answered managedFields are kube's text byte for byte.
import { compareUtf8 } from '../go-strings'
import { type FieldSet, splitPath } from './field-set'

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** FieldsV1 JSON from a field set: "." marks a member that also has children; every level in PathElement order. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  interface Tree {
    member: boolean
    children: Map<string, Tree>
  }
  const root: Tree = { member: false, children: new Map() }
  for (const p of set) {
    let cur = root
    for (const s of splitPath(p)) {
      let next = cur.children.get(s)
      if (!next) cur.children.set(s, (next = { member: false, children: new Map() }))
      cur = next
    }
    cur.member = true
  }
  const emit = (t: Tree, top: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    if (!top && t.member && t.children.size > 0) out['.'] = {}
    for (const seg of sortSegments([...t.children.keys()])) out[seg] = emit(t.children.get(seg)!, false)
    return out
  }
  return emit(root, true)
}

/** A field set from FieldsV1 JSON. */
export function fromFieldsV1(v: unknown): FieldSet {
  const out: FieldSet = new Set()
  const rec = (node: unknown, path: string) => {
    if (!isObj(node)) return
    const keys = Object.keys(node)
    if (path !== '' && (keys.length === 0 || keys.includes('.'))) out.add(path)
    for (const k of keys) if (k !== '.') rec(node[k], path === '' ? k : `${path}\u0001${k}`)
  }
  rec(v, '')
  return out
}

const RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 }

/** Segments in PathElement order; keys and values are parsed once per segment, not once per comparison. */
function sortSegments(segs: string[]): string[] {
  if (segs.length < 2) return segs
  if (segs.every((s) => s.startsWith('f:'))) return segs.sort(compareUtf8)
  const parsed = new Map(segs.map((s) => [s, s[0] === 'k' || s[0] === 'v' ? parse(s.slice(2)) : undefined]))
  return segs.sort((a, b) => compareSegments(a, b, parsed))
}

/** PathElement.Compare on serialized segments (`f:name`, `k:{...}`, `v:...`, `i:3`). */
function compareSegments(a: string, b: string, parsed: Map<string, unknown>): number {
  const ra = RANK[a[0]!] ?? 4
  const rb = RANK[b[0]!] ?? 4
  if (ra !== rb) return ra - rb
  const x = a.slice(2)
  const y = b.slice(2)
  switch (a[0]) {
    case 'f':
      return compareUtf8(x, y)
    case 'k':
      return compareKeys(parsed.get(a), parsed.get(b))
    case 'v':
      return compareValues(parsed.get(a), parsed.get(b))
    case 'i':
      return Math.sign(Number(x) - Number(y))
    default:
      return compareUtf8(a, b)
  }
}

function parse(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return s
  }
}

/** value.FieldList.Compare: field by field (name, then value), the shorter list first. */
function compareKeys(a: unknown, b: unknown): number {
  const ea = isObj(a) ? Object.entries(a) : []
  const eb = isObj(b) ? Object.entries(b) : []
  for (let i = 0; ; i++) {
    if (i >= ea.length && i >= eb.length) return 0
    if (i >= ea.length) return -1
    if (i >= eb.length) return 1
    const c = compareUtf8(ea[i]![0], eb[i]![0]) || compareValues(ea[i]![1], eb[i]![1])
    if (c !== 0) return c
  }
}

/** value.Compare's total order: numbers, strings, booleans, lists, maps, null. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown) =>
    typeof v === 'number'
      ? 0
      : typeof v === 'string'
        ? 1
        : typeof v === 'boolean'
          ? 2
          : Array.isArray(v)
            ? 3
            : isObj(v)
              ? 4
              : 5
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  switch (ra) {
    case 0:
      return Math.sign((a as number) - (b as number))
    case 1:
      return compareUtf8(a as string, b as string)
    case 2:
      return Number(a) - Number(b)
    case 3: {
      const la = a as unknown[]
      const lb = b as unknown[]
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i])
        if (c !== 0) return c
      }
      return Math.sign(la.length - lb.length)
    }
    case 4: {
      // value.MapCompare: keys zipped in lexical order; the map that runs out of keys first, or lacks a key, is less.
      const ma = a as Record<string, unknown>
      const mb = b as Record<string, unknown>
      const keys = [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort(compareUtf8)
      for (const k of keys) {
        if (!Object.hasOwn(ma, k)) return 1
        if (!Object.hasOwn(mb, k)) return -1
        const c = compareValues(ma[k], mb[k])
        if (c !== 0) return c
      }
      return 0
    }
    default:
      return 0
  }
}
