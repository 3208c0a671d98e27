// The Kubernetes CEL libraries rules commonly use (k8s.io/apiserver pkg/cel/library), on top of @bufbuild/cel's
// standard functions and its strings extension: lists (isSorted, sum, min, max, indexOf, lastIndexOf), regex
// (find, findAll), url (url, isURL and its accessors), quantity (quantity, isQuantity, comparisons, arithmetic,
// conversions), ip and cidr (cel-net.ts), format (cel-format.ts), and optionals (cel-optional.ts).
import {
  CelScalar,
  celError,
  celFunc,
  type CelFunc,
  type CelList,
  celMap,
  celMethod,
  listType,
  mapType,
} from '@bufbuild/cel'
import { strings } from '@bufbuild/cel/ext'
import { compareQuantities, formatQuantity, parseQuantity, quantityScaledValue } from '../../../schema/quantity'
import { compileGoRegexp } from '../../crd/go-regexp'
import { FORMAT_FUNCS } from './cel-format'
import { NET_FUNCS } from './cel-net'
import { OPTIONAL_FUNCS } from './cel-optional'

const { BOOL, DOUBLE, DYN, INT, STRING } = CelScalar
const LIST = listType(DYN)
const MAP = mapType(STRING, DYN)

/** What CEL's < compares: numbers (bigint and double mixed), strings, booleans. */
function compare(a: unknown, b: unknown): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number'))
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  throw celError('no such overload')
}

const items = (l: CelList) => [...l]

function minMax(l: CelList, sign: number) {
  const all = items(l)
  if (all.length === 0) throw celError(`${sign < 0 ? 'min' : 'max'} called on empty list`)
  return all.reduce((best, x) => (compare(x, best) * sign > 0 ? x : best)) as never
}

const equal = (a: unknown, b: unknown) =>
  typeof a === 'bigint' || typeof b === 'bigint' ? Number(a) === Number(b) : a === b

const lists: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    const all = items(this)
    return all.every((x, i) => i === 0 || compare(all[i - 1], x) <= 0)
  }),
  celMethod('sum', LIST, [], DYN, function () {
    const all = items(this)
    if (all.every((x) => typeof x === 'bigint')) return all.reduce((a, b) => (a as bigint) + (b as bigint), 0n) as never
    return all.reduce((a: number, b) => a + Number(b), 0) as never
  }),
  celMethod('min', LIST, [], DYN, function () {
    return minMax(this, -1)
  }),
  celMethod('max', LIST, [], DYN, function () {
    return minMax(this, 1)
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (x) {
    return BigInt(items(this).findIndex((y) => equal(x, y)))
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (x) {
    const all = items(this)
    for (let i = all.length - 1; i >= 0; i--) if (equal(x, all[i])) return BigInt(i)
    return -1n
  }),
]

/**
 * Every match of `pattern` in `s`, at most `limit` (negative: all). The pattern is checked as Go's RE2 (its error is
 * kube's); matches are found with the JavaScript engine, which reads the RE2 patterns rules use alike.
 */
function findAll(s: string, pattern: string, limit: number): string[] {
  const checked = compileGoRegexp(pattern)
  if ('error' in checked) throw celError(checked.error)
  let source = pattern.replace(/\(\?P</g, '(?<')
  let flags = 'gu'
  const inline = /^\(\?([ims]+)\)/.exec(source)
  if (inline) {
    flags += inline[1]
    source = source.slice(inline[0].length)
  }
  const out: string[] = []
  for (const m of s.matchAll(new RegExp(source, flags))) {
    if (limit >= 0 && out.length >= limit) break
    out.push(m[0])
  }
  return out
}

const regexes: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    return findAll(this, pattern, 1)[0] ?? ''
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
    return findAll(this, pattern, -1)
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, n) {
    return findAll(this, pattern, Number(n))
  }),
]

const URL_KEY = '@url'

function parseUrl(s: string): URL | null {
  // url.ParseRequestURI: an absolute URL or an absolute path.
  try {
    return s.startsWith('/') ? new URL(s, 'relative:///') : new URL(s)
  } catch {
    return null
  }
}

function urlOf(m: ReadonlyMap<unknown, unknown>): URL {
  const raw = m.get(URL_KEY)
  const u = typeof raw === 'string' ? parseUrl(raw) : null
  if (!u) throw celError('not a URL')
  return u
}

const urls: CelFunc[] = [
  celFunc('isURL', [STRING], BOOL, (s) => parseUrl(s) !== null),
  celFunc('url', [STRING], MAP, (s) => {
    if (!parseUrl(s)) throw celError(`URL parse error during conversion from string: ${s}`)
    return celMap(new Map([[URL_KEY, s]]))
  }),
  celMethod('getScheme', MAP, [], STRING, function () {
    const u = urlOf(this)
    return u.protocol === 'relative:' ? '' : u.protocol.replace(/:$/, '')
  }),
  celMethod('getHost', MAP, [], STRING, function () {
    return urlOf(this).host
  }),
  celMethod('getHostname', MAP, [], STRING, function () {
    return urlOf(this).hostname.replace(/^\[|\]$/g, '')
  }),
  celMethod('getPort', MAP, [], STRING, function () {
    return urlOf(this).port
  }),
  celMethod('getEscapedPath', MAP, [], STRING, function () {
    return urlOf(this).pathname
  }),
  celMethod('getQuery', MAP, [], mapType(STRING, listType(STRING)), function () {
    const out = new Map<string, string[]>()
    for (const [k, v] of urlOf(this).searchParams) out.set(k, [...(out.get(k) ?? []), v])
    return celMap(out)
  }),
]

const QUANTITY_KEY = '@quantity'

function quantityOf(m: ReadonlyMap<unknown, unknown>) {
  const raw = m.get(QUANTITY_KEY)
  const q = typeof raw === 'string' ? parseQuantity(raw) : null
  if (!q) throw celError('not a quantity')
  return q
}

const quantity = (q: NonNullable<ReturnType<typeof parseQuantity>>) =>
  celMap(new Map([[QUANTITY_KEY, formatQuantity(q)]]))

function arith(a: ReadonlyMap<unknown, unknown>, b: unknown, sign: 1n | -1n) {
  const x = quantityOf(a)
  const y =
    b instanceof Map || (b && typeof b === 'object')
      ? quantityOf(b as ReadonlyMap<unknown, unknown>)
      : parseQuantity(String(b))
  if (!y) throw celError('not a quantity')
  const exponent = Math.min(x.exponent, y.exponent)
  const scale = (q: typeof x) => q.mantissa * 10n ** BigInt(q.exponent - exponent)
  return quantity({ mantissa: scale(x) + sign * scale(y), exponent, format: x.format })
}

const quantities: CelFunc[] = [
  celFunc('isQuantity', [STRING], BOOL, (s) => parseQuantity(s) !== null),
  celFunc('quantity', [STRING], MAP, (s) => {
    const q = parseQuantity(s)
    if (!q)
      throw celError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
    return quantity(q)
  }),
  celMethod('isLessThan', MAP, [MAP], BOOL, function (o) {
    return compareQuantities(quantityOf(this), quantityOf(o)) < 0
  }),
  celMethod('isGreaterThan', MAP, [MAP], BOOL, function (o) {
    return compareQuantities(quantityOf(this), quantityOf(o)) > 0
  }),
  celMethod('compareTo', MAP, [MAP], INT, function (o) {
    return BigInt(compareQuantities(quantityOf(this), quantityOf(o)))
  }),
  celMethod('add', MAP, [DYN], MAP, function (o) {
    return arith(this, typeof o === 'bigint' ? String(o) : o, 1n)
  }),
  celMethod('sub', MAP, [DYN], MAP, function (o) {
    return arith(this, typeof o === 'bigint' ? String(o) : o, -1n)
  }),
  celMethod('sign', MAP, [], INT, function () {
    const m = quantityOf(this).mantissa
    return m === 0n ? 0n : m < 0n ? -1n : 1n
  }),
  celMethod('isInteger', MAP, [], BOOL, function () {
    const v = quantityScaledValue(quantityOf(this), 0)
    return v !== null && compareQuantities(quantityOf(this), String(v)) === 0 && v < 2n ** 63n && v >= -(2n ** 63n)
  }),
  celMethod('asInteger', MAP, [], INT, function () {
    const v = quantityScaledValue(quantityOf(this), 0)
    if (v === null || compareQuantities(quantityOf(this), String(v)) !== 0 || v >= 2n ** 63n || v < -(2n ** 63n))
      throw celError('cannot convert value to integer')
    return v
  }),
  celMethod('asApproximateFloat', MAP, [], DOUBLE, function () {
    const q = quantityOf(this)
    return Number(q.mantissa) * 10 ** q.exponent
  }),
]

/** Every function rules may call beyond CEL's standard ones. */
export const KUBERNETES_FUNCS: CelFunc[] = [
  ...strings,
  ...lists,
  ...regexes,
  ...urls,
  ...quantities,
  ...OPTIONAL_FUNCS,
  ...NET_FUNCS,
  ...FORMAT_FUNCS,
]

/** Their names, for the compile-time check of calls (with the standard ones in cel-check.ts). */
export const KUBERNETES_FUNC_NAMES = new Set(KUBERNETES_FUNCS.map((f) => f.name))
