// The text of a JSON- or merge-patched object as kube-apiserver hands it to its decoder, which a refused patch quotes
// (`patch: Invalid value: "{...}"`). kube encodes the current object (Go struct order) and evanphx/json-patch v4
// re-marshals it: it parses only the containers an operation reaches, whose keys then come out sorted, and keeps the
// rest as the bytes it read. Built only on that error path, by replaying the patch over such a lazy document.
import { compareUtf8 } from '../go-strings'
import type { GoType } from '../decoding/go-types'
import type { Json } from './patch-value'
import { copyValue } from './patch-value'

type Origin = 'doc' | 'patch'
type Lazy =
  /** Unparsed: the current object's bytes (Go's order) or a patch value's bytes (as written). */
  | { t: 'raw'; value: Json; type: GoType | null; origin: Origin }
  /** Bytes already marshalled (a copied value). */
  | { t: 'text'; text: string; value: Json }
  /** A patch value parsed throughout (Go's pruneNulls reads every level): marshalled with every map's keys sorted. */
  | { t: 'parsed'; value: Json }
  | { t: 'doc'; map: Map<string, Lazy | null>; type: GoType | null; origin: Origin }
  | { t: 'ary'; items: (Lazy | null)[]; type: GoType | null; origin: Origin }

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

const fieldType = (t: GoType | null, key: string): GoType | null =>
  t?.kind === 'struct' ? (t.fields.get(key)?.type ?? null) : t?.kind === 'map' ? t.elem : null
const elemType = (t: GoType | null): GoType | null => (t?.kind === 'slice' ? t.elem : null)

/** A value as Go's encoder writes it: struct fields in declaration order, map keys sorted. */
function encodeAsGo(v: unknown, t: GoType | null): string {
  if (Array.isArray(v)) return `[${v.map((x) => encodeAsGo(x, elemType(t))).join(',')}]`
  if (!isObject(v)) return JSON.stringify(v) ?? 'null'
  let keys: string[]
  if (t?.kind === 'struct') {
    keys = [...t.fields.keys()].filter((k) => k in v)
    for (const k of Object.keys(v)) if (!t.fields.has(k)) keys.push(k)
  } else keys = Object.keys(v).sort(compareUtf8)
  return `{${keys.map((k) => `${JSON.stringify(k)}:${encodeAsGo(v[k], fieldType(t, k))}`).join(',')}}`
}

/** json.Marshal of a map[string]interface{} tree: keys sorted at every level. Iterative, for any depth. */
function encodeSorted(root: Json): string {
  let out = ''
  const todo: (Json | Emit)[] = [root]
  while (todo.length > 0) {
    const v = todo.pop()!
    if (v instanceof Emit) out += v.text
    else if (Array.isArray(v)) {
      todo.push(new Emit(']'))
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push(v[i]!)
        if (i > 0) todo.push(new Emit(','))
      }
      out += '['
    } else if (isObject(v)) {
      const keys = Object.keys(v).sort(compareUtf8)
      todo.push(new Emit('}'))
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push(v[keys[i]!]!, new Emit(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
      out += '{'
    } else out += JSON.stringify(v) ?? 'null'
  }
  return out
}

/** Punctuation queued between the values encodeSorted still has to write. */
class Emit {
  constructor(readonly text: string) {}
}

function write(n: Lazy | null): string {
  if (n === null) return 'null'
  switch (n.t) {
    case 'raw':
      return n.origin === 'doc' ? encodeAsGo(n.value, n.type) : JSON.stringify(n.value)
    case 'text':
      return n.text
    case 'parsed':
      return encodeSorted(n.value)
    case 'doc':
      return `{${[...n.map.keys()]
        .sort(compareUtf8)
        .map((k) => `${JSON.stringify(k)}:${write(n.map.get(k)!)}`)
        .join(',')}}`
    case 'ary':
      return `[${n.items.map(write).join(',')}]`
  }
}

/** Go's json.Marshal escapes these inside strings, where alone they can occur in JSON text. */
const escapeLikeGo = (text: string) =>
  text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

function intoDoc(n: Lazy | null): Extract<Lazy, { t: 'doc' }> | null {
  if (n === null) return null
  if (n.t === 'doc') return n
  if (n.t === 'ary' || !isObject(n.value)) return null
  const map = new Map<string, Lazy | null>()
  const origin = n.t === 'raw' ? n.origin : 'patch'
  const type = n.t === 'raw' ? n.type : null
  for (const [k, v] of Object.entries(n.value))
    map.set(k, v === null ? null : { t: 'raw', value: v, type: fieldType(type, k), origin })
  Object.assign(n, { t: 'doc', map, type, origin })
  return n as unknown as Extract<Lazy, { t: 'doc' }>
}

function intoAry(n: Lazy | null): Extract<Lazy, { t: 'ary' }> | null {
  if (n === null) return null
  if (n.t === 'ary') return n
  if (n.t === 'doc' || !Array.isArray(n.value)) return null
  const origin = n.t === 'raw' ? n.origin : 'patch'
  const type = n.t === 'raw' ? n.type : null
  const items: (Lazy | null)[] = n.value.map((v) =>
    v === null ? null : { t: 'raw', value: v, type: elemType(type), origin },
  )
  Object.assign(n, { t: 'ary', items, type, origin })
  return n as unknown as Extract<Lazy, { t: 'ary' }>
}

const rootOf = (current: Json, type: GoType): Lazy => ({ t: 'raw', value: current, type, origin: 'doc' })
const patchValue = (v: Json): Lazy | null => (v === null ? null : { t: 'raw', value: v, type: null, origin: 'patch' })

/** The bytes of a JSON-patched object (evanphx Patch.Apply over kube's encoding of `current`). */
export function jsonPatchedText(
  current: Json,
  type: GoType,
  ops: { op: string; path: string; from?: string; value?: Json }[],
): string {
  const root = rootOf(current, type)
  intoDoc(root)
  const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~')
  const jsonOf = (n: Lazy | null): Json =>
    n === null ? null : n.t === 'raw' || n.t === 'text' ? n.value : JSON.parse(write(n))
  // findObject: every container on the way to the last segment is parsed.
  const find = (path: string): [Lazy, string] | null => {
    const parts = path.split('/')
    if (parts.length < 2) return null
    let con: Lazy | null = root
    for (const part of parts.slice(1, -1).map(unescapePointer)) {
      const next: Lazy | null | undefined =
        con?.t === 'doc' ? con.map.get(part) : con?.t === 'ary' ? con.items[Number(part)] : undefined
      if (next === undefined || next === null) return null
      con = intoAry(next) ?? intoDoc(next)
      if (!con) return null
    }
    return con ? [con, unescapePointer(parts[parts.length - 1]!)] : null
  }
  const get = ([con, key]: [Lazy, string]) =>
    con.t === 'doc' ? (con.map.get(key) ?? null) : con.t === 'ary' ? (con.items[Number(key)] ?? null) : null
  const remove = ([con, key]: [Lazy, string]) => {
    if (con.t === 'doc') con.map.delete(key)
    else if (con.t === 'ary') con.items.splice(Number(key) < 0 ? con.items.length + Number(key) : Number(key), 1)
  }
  const add = ([con, key]: [Lazy, string], v: Lazy | null, replace = false) => {
    if (con.t === 'doc') con.map.set(key, v)
    else if (con.t === 'ary') {
      if (key === '-') con.items.push(v)
      else {
        const i = Number(key) < 0 ? con.items.length + Number(key) : Number(key)
        con.items.splice(i, replace ? 1 : 0, v)
      }
    }
  }
  for (const op of ops) {
    const at = find(op.path)
    if (!at) continue
    switch (op.op) {
      case 'add':
        add(at, patchValue(op.value ?? null))
        break
      case 'replace':
        add(at, patchValue(op.value ?? null), true)
        break
      case 'remove':
        remove(at)
        break
      case 'move':
      case 'copy': {
        const from = find(op.from ?? '')
        if (!from) break
        const v = get(from)
        if (op.op === 'move') remove(from)
        const target = find(op.path)
        if (!target) break
        add(target, op.op === 'move' || v === null ? v : { t: 'text', text: write(v), value: jsonOf(v) })
        break
      }
      default:
        break
    }
  }
  return escapeLikeGo(write(root))
}

/** Go's pruneNulls: a patch value placed whole loses the null members of its maps, and is parsed throughout. */
const pruned = (v: Json): Lazy | null =>
  v === null ? null : { t: 'parsed', value: copyValue(v, { dropNullMembers: true })! }

/** The bytes of a merge-patched object (evanphx MergePatch over kube's encoding of `current`). */
export function mergePatchedText(current: Json, type: GoType, patch: Json): string {
  if (!isObject(patch)) return escapeLikeGo(write(pruned(patch)))
  const root = rootOf(current, type)
  const merge = (doc: Extract<Lazy, { t: 'doc' }>, p: Record<string, Json>) => {
    for (const [k, v] of Object.entries(p)) {
      if (v === null) {
        doc.map.delete(k)
        continue
      }
      const cur = doc.map.get(k)
      if (cur === undefined || cur === null) {
        doc.map.set(k, pruned(v))
        continue
      }
      const curDoc = intoDoc(cur)
      if (!curDoc) doc.map.set(k, pruned(v))
      else if (!isObject(v)) doc.map.set(k, patchValue(v))
      else merge(curDoc, v)
    }
  }
  merge(intoDoc(root)!, patch)
  return escapeLikeGo(write(root))
}
