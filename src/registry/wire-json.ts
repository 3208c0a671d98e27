// JSON bytes as kube-apiserver writes them (Go's encoding/json over the API types): struct fields in declaration
// order, map keys sorted byte-wise, `<`, `>`, `&`, U+2028 and U+2029 escaped, and a newline after every compact
// body (json.Encoder.Encode); pretty bodies are json.MarshalIndent's: two spaces, no newline.
import { ARRAY, inPlanOrder, MAP, OBJECT, planOf, planOfValue, STRUCT, type Plan, type StructPlan } from './wire-plan'
import { WATCH_EVENT } from './wire-order'

/** An API body, as the negotiated serializer writes it. */
export function encodeBody(value: unknown, pretty = false): string {
  if (pretty) return escapeLikeGo(write(value, planOfValue(value), ''))
  // The newline goes on after escaping: escaping scans a flat string (JSON.stringify's), not a concatenation.
  return escapeLikeGo(compact(value, planOfValue(value))) + '\n'
}

/** A compact body whose JSON text was already written in Go's field order (encodeInGoOrder), finished as encodeBody. */
export function encodedBody(text: string): string {
  return escapeLikeGo(text) + '\n'
}

/** One watch event as kube sends it: a compact line ending in a newline, over HTTP and in each WebSocket message. */
export function encodeWatchEvent(event: { type: string; object: unknown }): string {
  return escapeLikeGo(compact(event, planOf(WATCH_EVENT))) + '\n'
}

/**
 * Go's order without Go's escaping: how objects are stored, so that reading one back gives an object already in
 * wire order, which the fast path of encodeBody writes with the native encoder.
 */
export function encodeInGoOrder(value: unknown): string {
  return compact(value, planOfValue(value))
}

function compact(value: unknown, plan: Plan): string {
  return inPlanOrder(value, plan) ? JSON.stringify(value) : write(value, plan, null)
}

/** ind: null for compact output, else the indentation of the line the value starts on. */
function write(v: unknown, p: Plan, ind: string | null): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null'
  if (p === null) return raw(v, ind)
  if (Array.isArray(v)) return p.t === ARRAY ? writeArray(v, p.item, ind) : raw(v, ind)
  switch (p.t) {
    case STRUCT:
      return writeStruct(v as Record<string, unknown>, p, ind)
    case MAP:
      return writeMap(v as Record<string, unknown>, p.value, ind)
    case OBJECT:
      return write(v, planOfValue(v), ind)
    default:
      return raw(v, ind)
  }
}

function raw(v: unknown, ind: string | null): string {
  if (ind === null) return JSON.stringify(v)
  // JSON text has no raw newline inside strings, so re-indenting the native output line by line is safe.
  const text = JSON.stringify(v, null, 2)
  return ind === '' ? text : text.replace(/\n/g, '\n' + ind)
}

function writeStruct(o: Record<string, unknown>, p: StructPlan, ind: string | null): string {
  const inner = ind === null ? null : ind + '  '
  const sep = inner === null ? ',' : ',\n' + inner
  const heads = inner === null ? p.heads : p.prettyHeads
  let out = ''
  let n = 0
  for (let i = 0; i < p.keys.length; i++) {
    const x = o[p.keys[i]!]
    if (x === undefined) continue
    out += (n++ === 0 ? '' : sep) + heads[i] + write(x, p.plans[i]!, inner)
  }
  // Fields the schema does not declare (strict decoding leaves none) follow in their own order rather than vanish.
  for (const k in o) {
    if (p.index.has(k) || o[k] === undefined) continue
    out += (n++ === 0 ? '' : sep) + JSON.stringify(k) + (inner === null ? ':' : ': ') + write(o[k], null, inner)
  }
  return close('{', out, n, '}', ind, inner)
}

function writeMap(o: Record<string, unknown>, value: Plan, ind: string | null): string {
  const inner = ind === null ? null : ind + '  '
  const sep = inner === null ? ',' : ',\n' + inner
  // Go sorts map keys as byte strings; a JS object cannot keep that order itself (integer-like keys come first).
  const keys = sortLikeGo(Object.keys(o))
  let out = ''
  let n = 0
  for (const k of keys) {
    const x = o[k]
    if (x === undefined) continue
    out += (n++ === 0 ? '' : sep) + JSON.stringify(k) + (inner === null ? ':' : ': ') + write(x, value, inner)
  }
  return close('{', out, n, '}', ind, inner)
}

function writeArray(a: unknown[], item: Plan, ind: string | null): string {
  const inner = ind === null ? null : ind + '  '
  const sep = inner === null ? ',' : ',\n' + inner
  let out = ''
  for (let i = 0; i < a.length; i++)
    out += (i === 0 ? '' : sep) + (a[i] === undefined ? 'null' : write(a[i], item, inner))
  return close('[', out, a.length, ']', ind, inner)
}

/** Go's Indent keeps empty objects and arrays on one line, as JSON.stringify does. */
function close(open: string, body: string, n: number, end: string, ind: string | null, inner: string | null): string {
  if (n === 0) return open + end
  return inner === null ? open + body + end : `${open}\n${inner}${body}\n${ind}${end}`
}

/**
 * Byte-wise UTF-8 order, which is UTF-16 code unit order (the default sort) unless a key holds characters beyond
 * U+FFFF: those sort after U+E000-U+FFFF in UTF-8 but before them as surrogates.
 */
function sortLikeGo(keys: string[]): string[] {
  keys.sort()
  if (keys.some((k) => /[\ud800-\udfff]/.test(k))) keys.sort(byCodePoint)
  return keys
}

function byCodePoint(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < x.length && i < y.length; i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

/**
 * What Go's encoder does that JSON.stringify does not: `<`, `>`, `&`, U+2028 and U+2029 escaped (escapeHTML is on
 * in json.Encoder and MarshalIndent), and a lone surrogate, which Go's decoder would have turned into U+FFFD, written
 * as U+FFFD. These characters occur only inside strings, so passes over the whole text are exact.
 */
const HTML_ALL = /[<>&\u2028\u2029]/g
const HTML_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}
/** JSON.stringify's escape of a lone surrogate; escaped backslashes are matched as pairs so `\\ud800` stays text. */
const LONE_SURROGATE = /\\(?:\\|ud[89a-f][0-9a-f]{2})/g

function escapeLikeGo(text: string): string {
  // indexOf, not a regex test: this runs on every body, and five indexOf scans cost a twentieth of one regex scan.
  if (
    text.includes('<') ||
    text.includes('>') ||
    text.includes('&') ||
    text.includes('\u2028') ||
    text.includes('\u2029')
  ) {
    text = text.replace(HTML_ALL, (c) => HTML_ESCAPES[c]!)
  }
  if (text.includes('\\ud')) text = text.replace(LONE_SURROGATE, (m) => (m === '\\\\' ? m : '\ufffd'))
  return text
}
