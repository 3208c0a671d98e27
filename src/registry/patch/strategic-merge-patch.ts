// Strategic merge patch: `application/strategic-merge-patch+json`, kubectl's default patch and client-side apply.
// Lists merge by the key their schema declares (containers by name, ports by containerPort...), and the
// directives `$patch`, `$retainKeys`, `$setElementOrder/<f>` and `$deleteFromPrimitiveList/<f>` are honoured.
import { element, field, mergeKeyOf, patchStrategyOf, type Node } from '../schema-walk'
import { isObject, type Json } from './merge-patch'
import { PatchError } from './patch-error'

const DELETE_FROM = '$deleteFromPrimitiveList/'
const ORDER = '$setElementOrder/'

export function strategicMergePatch(original: Json, patch: Json, schema: Node | null): Json {
  if (!isObject(patch)) throw new PatchError('json: cannot unmarshal non-object into a strategic merge patch', 400)
  const merged = mergeMap(isObject(original) ? original : {}, patch, schema)
  return merged === undefined ? {} : merged
}

function isDirectiveKey(k: string) {
  return k === '$patch' || k === '$retainKeys' || k.startsWith(DELETE_FROM) || k.startsWith(ORDER)
}

/** Removes directives from a value that has nothing to merge into. */
function strip(v: Json, n: Node | null): Json {
  if (Array.isArray(v)) {
    const el = element(n)
    return v.filter((x) => !(isObject(x) && x.$patch === 'delete')).map((x) => strip(x, el))
  }
  if (!isObject(v)) return v
  const out: Record<string, Json> = {}
  for (const [k, x] of Object.entries(v)) {
    if (isDirectiveKey(k) || x === null) continue
    out[k] = strip(x, field(n, k))
  }
  return out
}

function mergeMap(
  original: Record<string, Json>,
  patch: Record<string, Json>,
  n: Node | null,
): Record<string, Json> | undefined {
  const directive = patch.$patch
  if (directive !== undefined) {
    if (directive === 'replace') return strip(patch, n) as Record<string, Json>
    if (directive === 'delete') return undefined
    if (directive !== 'merge')
      throw new PatchError(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`, 400)
  }
  const result: Record<string, Json> = { ...original }
  const retain = patch.$retainKeys
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new PatchError('$retainKeys must be a list of strings', 400)
    for (const [k, v] of Object.entries(patch)) {
      if (isDirectiveKey(k) || v === null) continue
      if (!retain.includes(k))
        throw new PatchError(`invalid patch format of retainKeys: ${k} is not in $retainKeys`, 400)
    }
    for (const k of Object.keys(result)) if (!retain.includes(k) && !(k in patch)) delete result[k]
  }
  const orders: [string, Json[]][] = []
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys') continue
    if (key.startsWith(DELETE_FROM)) {
      const f = key.slice(DELETE_FROM.length)
      if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`, 400)
      const cur = result[f]
      if (Array.isArray(cur)) result[f] = cur.filter((x) => !value.some((d) => d === x))
      continue
    }
    if (key.startsWith(ORDER)) {
      if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`, 400)
      orders.push([key.slice(ORDER.length), value])
      continue
    }
    const fn = field(n, key)
    if (value === null) {
      delete result[key]
      continue
    }
    const current = result[key]
    if (isObject(value)) {
      const merged =
        isObject(current) && fn?.meta['x-kubernetes-map-type'] !== 'atomic'
          ? mergeMap(current, value, fn)
          : mergeMap({}, value, fn)
      if (merged === undefined) delete result[key]
      else result[key] = merged
    } else if (Array.isArray(value)) {
      result[key] = patchStrategyOf(fn).split(',').includes('merge')
        ? mergeList(Array.isArray(current) ? current : [], value, fn)
        : listReplace(value, fn)
    } else {
      result[key] = value
    }
  }
  for (const [f, order] of orders) {
    checkOrderAgrees(patch[f], order, mergeKeyOf(field(n, f)))
    const list = result[f]
    const live = original[f]
    if (Array.isArray(list))
      result[f] = normalizeOrder(list, order, Array.isArray(live) ? live : [], mergeKeyOf(field(n, f)))
  }
  return result
}

function listReplace(value: Json[], n: Node | null): Json[] {
  return strip(value, n) as Json[]
}

function mergeList(original: Json[], patch: Json[], n: Node | null): Json[] {
  const el = element(n)
  const key = mergeKeyOf(n)
  const primitive = patch.every((x) => !isObject(x)) && original.every((x) => !isObject(x))
  if (primitive) {
    const out = [...original]
    for (const v of patch) if (!out.some((x) => x === v)) out.push(v)
    return normalizeOrder(out, patch, original, undefined)
  }
  if (patch.some((x) => isObject(x) && x.$patch === 'replace')) {
    return patch.filter((x) => !(isObject(x) && x.$patch === 'replace')).map((x) => strip(x, el))
  }
  if (!key) throw new PatchError('strategic merge patch: list has no merge key in the schema', 400)
  let result = [...original]
  for (const pe of patch) {
    if (!isObject(pe)) throw new PatchError(`strategic merge patch: unexpected list element ${JSON.stringify(pe)}`, 400)
    const kv = pe[key]
    if (kv === undefined)
      throw new PatchError(`map: ${JSON.stringify(pe)} does not contain declared merge key: ${key}`, 400)
    if (pe.$patch === 'delete') {
      // Every element with the key goes (lists such as env may repeat a name).
      result = result.filter((e) => !(isObject(e) && e[key] === kv))
      continue
    }
    const idx = result.findIndex((e) => isObject(e) && e[key] === kv)
    if (idx >= 0) {
      const merged = mergeMap(result[idx] as Record<string, Json>, pe, el)
      if (merged === undefined) result.splice(idx, 1)
      else result[idx] = merged
    } else {
      const added = mergeMap({}, pe, el)
      if (added !== undefined) result.push(added)
    }
  }
  const patchOrder = patch.filter((x) => !(isObject(x) && x.$patch === 'delete'))
  return normalizeOrder(result, patchOrder, original, key)
}

/**
 * kube's order for a merged list (apimachinery normalizeElementOrder + mergeSortedSlice): items the patch (or its
 * $setElementOrder) names keep that order; the others keep their live order; the two interleave by live position,
 * and an item the live list does not have goes before the remaining live-only items.
 */
function normalizeOrder(merged: Json[], patchOrder: Json[], original: Json[], key: string | undefined): Json[] {
  const id = (x: Json) => (key && isObject(x) ? JSON.stringify(x[key]) : JSON.stringify(x))
  const patchRank = new Map<string, number>()
  patchOrder.forEach((x, i) => {
    if (!patchRank.has(id(x))) patchRank.set(id(x), i)
  })
  const liveRank = new Map<string, number>()
  original.forEach((x, i) => {
    if (!liveRank.has(id(x))) liveRank.set(id(x), i)
  })
  const right = merged.filter((x) => patchRank.has(id(x))).sort((a, b) => patchRank.get(id(a))! - patchRank.get(id(b))!)
  const left = merged
    .filter((x) => !patchRank.has(id(x)))
    .sort((a, b) => (liveRank.get(id(a)) ?? 0) - (liveRank.get(id(b)) ?? 0))
  const out: Json[] = []
  let i = 0
  let j = 0
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]!)
    else if (i >= left.length) out.push(right[j++]!)
    else {
      const li = liveRank.get(id(left[i]!))
      const ri = liveRank.get(id(right[j]!))
      if (li !== undefined && ri !== undefined && li < ri) out.push(left[i++]!)
      else out.push(right[j++]!)
    }
  }
  return out
}

/**
 * The items a patch lists must appear in `$setElementOrder` in the same relative order (apimachinery's
 * validatePatchWithSetOrderList): a patch that contradicts its own order directive is malformed.
 */
function checkOrderAgrees(list: Json | undefined, order: Json[], key: string | undefined) {
  if (!Array.isArray(list)) return
  const id = (x: Json) => (key && isObject(x) ? JSON.stringify(x[key]) : JSON.stringify(x))
  const rank = new Map(order.map((o, i) => [id(o), i]))
  let last = -1
  for (const item of list) {
    if (isObject(item) && item.$patch === 'delete') continue
    const r = rank.get(id(item))
    if (r === undefined || r < last) {
      throw new PatchError(
        `The order in patch list:\n${JSON.stringify(list)}\n doesn't match $setElementOrder list:\n${JSON.stringify(order)}`,
        400,
      )
    }
    last = r
  }
}
