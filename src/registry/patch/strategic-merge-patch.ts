// Strategic merge patch: `application/strategic-merge-patch+json`, kubectl's default patch and client-side apply.
// Lists merge by the key their schema declares (containers by name, ports by containerPort...), and the
// directives `$patch`, `$retainKeys`, `$setElementOrder/<f>` and `$deleteFromPrimitiveList/<f>` are honoured.
import { element, field, mergeKeyOf, patchStrategyOf, type Node } from '../schema-walk'
import { goV } from '../decoding/go-format'
import { isObject } from './merge-patch'
import { PatchError } from './patch-error'
import { own, setOwn } from '../own-fields'
import { copyValue, type Json } from './patch-value'

const DELETE_FROM = '$deleteFromPrimitiveList/'
const ORDER = '$setElementOrder/'

/** %v of a decoded patch value (the patch map is decoded with PreserveInts). */
const printed = (v: Json) => goV(v, 'preserveInts')

/** Go's %s of a decoded JSON value: a string as it is, anything else as fmt's bad-verb form. */
function goS(v: Json): string {
  if (typeof v === 'string') return v
  if (v === null) return '%!s(<nil>)'
  if (typeof v === 'boolean') return `%!s(bool=${v})`
  if (typeof v === 'number') return `%!s(${Number.isInteger(v) ? 'int64' : 'float64'}=${printed(v)})`
  return printed(v)
}

/** reflect.TypeOf of a decoded value, as mergepatch.ErrBadArgType prints it. */
function goTypeOf(v: Json): string {
  if (v === null) return '%!s(<nil>)'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64'
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}'
}

/** mergepatch.ErrBadArgType([]interface{}, actual): a directive that must be a list is not. */
const notAList = (actual: Json) => new PatchError(`expected a []interface {}, but received a ${goTypeOf(actual)}`, 400)

/** mergepatch.ErrNoMergeKey. */
const noMergeKey = (m: Record<string, Json>, key: string) =>
  new PatchError(`map: ${printed(m)} does not contain declared merge key: ${key}`, 400)

/** The patch applied to `original` (kube's StrategicMergeMapPatch, MergeParallelList and IgnoreUnmatchedNulls). */
export function strategicMergePatch(original: Json, patch: Json, schema: Node | null): Json {
  if (!isObject(patch)) throw new PatchError('json: cannot unmarshal non-object into a strategic merge patch', 400)
  return mergeMap(isObject(original) ? original : {}, patch, schema)
}

const isDirectiveKey = (k: string) =>
  k === '$patch' || k === '$retainKeys' || k.startsWith(DELETE_FROM) || k.startsWith(ORDER)

/**
 * A patch value placed where the original has nothing of its kind (mergeMap's removeDirectives after
 * discardNullValuesFromPatch): copied without recursion, its maps' nulls and every map carrying $patch dropped.
 */
const placed = (v: Json) => copyValue(v, { dropNullMembers: true, dropDirectiveMaps: true })

/** A copy of a value without directives or nulls, for a list that replaces the live one. */
function strip(v: Json): Json {
  const out = copyValue(v, { dropNullMembers: true })!
  const pending: Json[] = [out]
  while (pending.length > 0) {
    const x = pending.pop()!
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--)
        if (isObject(x[i]) && own(x[i] as Record<string, Json>, '$patch') === 'delete') x.splice(i, 1)
      pending.push(...x)
    } else if (isObject(x)) {
      for (const k of Object.keys(x)) {
        if (isDirectiveKey(k)) delete x[k]
        else pending.push(x[k]!)
      }
    }
  }
  return out
}

/** The kind reflect.TypeOf tells apart in mergeMap: a patch value of another kind replaces the original. */
const kindOf = (v: Json) => (Array.isArray(v) ? 'slice' : isObject(v) ? 'map' : v === null ? 'nil' : typeof v)

function mergeMap(original: Record<string, Json>, patch: Record<string, Json>, n: Node | null): Record<string, Json> {
  // handleDirectiveInMergeMap: replace takes the patch as it is, delete leaves an empty map, anything else is refused.
  if (Object.hasOwn(patch, '$patch')) {
    const directive = patch.$patch!
    if (directive === 'replace') {
      const out = copyValue(patch) as Record<string, Json>
      delete out.$patch
      return out
    }
    if (directive === 'delete') return {}
    throw new PatchError(`unknown patch type: ${goS(directive)} in map: ${printed(patch)}`, 400)
  }
  const result: Record<string, Json> = { ...original }
  // applyRetainKeysDirective: every key the patch sets must be listed; the original keeps only the listed keys.
  if (Object.hasOwn(patch, '$retainKeys')) {
    const retain = patch.$retainKeys!
    const invalid = new PatchError('invalid patch format of retainKeys', 400)
    if (!Array.isArray(retain)) throw invalid
    for (const k of Object.keys(patch)) {
      if (k === '$retainKeys' || patch[k] === null || k.startsWith(DELETE_FROM) || k.startsWith(ORDER)) continue
      if (!retain.includes(k)) throw invalid
    }
    for (const k of Object.keys(result)) if (!retain.includes(k)) delete result[k]
  }
  const orders: [string, Json[]][] = []
  for (const key of Object.keys(patch)) {
    const value = patch[key]!
    if (key === '$retainKeys') continue
    if (key.startsWith(DELETE_FROM)) {
      const f = key.slice(DELETE_FROM.length)
      if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`, 400)
      const cur = own(result, f)
      if (Array.isArray(cur))
        setOwn(
          result,
          f,
          cur.filter((x) => !value.some((d) => d === x)),
        )
      continue
    }
    if (key.startsWith(ORDER)) {
      // mergePatchIntoOriginal: mergepatch.ErrBadArgType for an order that is not a list.
      if (!Array.isArray(value)) throw notAList(value)
      orders.push([key.slice(ORDER.length), value])
      continue
    }
    if (value === null) {
      delete result[key]
      continue
    }
    const current = own(result, key)
    const fn = field(n, key)
    if (current === undefined || kindOf(current) !== kindOf(value)) {
      // Nothing of the patch's kind to merge into: the patch value, placed without its directives.
      const v = placed(value)
      if (v === undefined) delete result[key]
      else setOwn(result, key, v)
    } else if (isObject(value)) {
      setOwn(
        result,
        key,
        fn?.meta['x-kubernetes-map-type'] !== 'atomic'
          ? mergeMap(current as Record<string, Json>, value, fn)
          : mergeMap({}, value, fn),
      )
    } else if (Array.isArray(value)) {
      setOwn(
        result,
        key,
        patchStrategyOf(fn).split(',').includes('merge') ? mergeList(current as Json[], value, fn) : strip(value),
      )
    } else setOwn(result, key, value)
  }
  for (const [f, order] of orders) {
    checkOrderAgrees(own(patch, f), order, mergeKeyOf(field(n, f)))
    const list = own(result, f)
    const live = own(original, f)
    if (Array.isArray(list))
      setOwn(result, f, normalizeOrder(list, order, Array.isArray(live) ? live : [], mergeKeyOf(field(n, f))))
  }
  return result
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
  const directive = (x: Json) => (isObject(x) ? own(x, '$patch') : undefined)
  if (patch.some((x) => directive(x) === 'replace')) {
    return patch.filter((x) => directive(x) !== 'replace').map(strip)
  }
  if (!key) throw new PatchError('strategic merge patch: list has no merge key in the schema', 400)
  let result = [...original]
  for (const pe of patch) {
    if (!isObject(pe)) throw new PatchError(`strategic merge patch: unexpected list element ${JSON.stringify(pe)}`, 400)
    const kv = own(pe, key)
    if (kv === undefined) throw noMergeKey(pe, key)
    if (directive(pe) === 'delete') {
      // Every element with the key goes (lists such as env may repeat a name).
      result = result.filter((e) => !(isObject(e) && own(e, key) === kv))
      continue
    }
    const idx = result.findIndex((e) => isObject(e) && own(e, key) === kv)
    if (idx >= 0) result[idx] = mergeMap(result[idx] as Record<string, Json>, pe, el)
    else result.push(mergeMap({}, pe, el))
  }
  const patchOrder = patch.filter((x) => directive(x) !== 'delete')
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
