// Request-body decoding as kube-apiserver's serializer does it (JSON or YAML in, nulls read as Go reads them, type
// errors, unknown and duplicate fields with kube's fieldValidation semantics), worded as kube words it:
// `Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal ...`, or `the object provided is
// unrecognized (must be of type Pod): ...` when the body's apiVersion and kind cannot be read.
import type { z } from 'zod'
import { statuses, StatusError } from './status'
import { duplicateFields } from './json-scan'
import { goQuote } from './go-strings'
import { decodeDocument, type DecodeTarget } from './decoding/decode-document'
import { goJsonSyntaxError } from './decoding/go-json-syntax'
import { goTypeOf } from './decoding/go-types'
import { goUnmarshal } from './decoding/go-unmarshal'
import { RawNumber, unwrapRawNumbers } from './decoding/go-json-numbers'
import { parseKubeYaml } from './decoding/kube-yaml'
import { summarize } from './decoding/body-summary'

export type { DecodeTarget } from './decoding/decode-document'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

interface Decoded<T> {
  value: T
  warnings: string[]
}

/** Kubernetes objects are capped near etcd's request limit; bigger bodies are refused before parsing. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024

/** kube's JSON decoders (encoding/json, sigs.k8s.io/json) refuse text nested deeper than this (maxNestingDepth). */
const MAX_DEPTH = 10000

/** A request body as read: JSON or YAML text, or the object a protobuf body decoded to. */
export type BodyInput = { format: 'json' | 'yaml'; text: string } | { format: 'object'; object: unknown }

/** How kube opens a decoding error that knows the body's kind: `Pod in version "v1" cannot be handled as a Pod`. */
export const handlingPrefix = (kind: string, version: string, target = kind) =>
  `${kind} in version ${goQuote(version)} cannot be handled as a ${target}`

const utf8 = (text: string) => new TextEncoder().encode(text)

/** transformDecodeError for a body whose apiVersion and kind could not be read. */
const unrecognized = (target: DecodeTarget, error: string, body: Uint8Array) =>
  new StatusError(
    statuses.badRequest(
      `the object provided is unrecognized (must be of type ${target.kind}): ${error} (${summarize(body)})`,
    ),
  )

/** Nesting depth of JSON text (outside strings), without parsing: refuses pathological bodies cheaply. */
function jsonDepthExceeds(text: string, max: number): boolean {
  // Nesting past `max` takes more than `max` brackets: a shorter text (almost every body) needs no scan.
  if (text.length <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/**
 * Whether JSON text has a number whose literal Go would read differently from its JS value: a fraction or exponent
 * (1.0 and 1e3 are not Go ints) or more digits than a double holds exactly. Strings are skipped with indexOf.
 */
function hasTellingNumber(text: string): boolean {
  let i = 0
  let digits = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      digits = 0
      let q = text.indexOf('"', i + 1)
      for (;;) {
        if (q < 0) return false
        let slashes = 0
        while (text.charCodeAt(q - 1 - slashes) === 92) slashes++
        if (slashes % 2 === 0) break
        q = text.indexOf('"', q + 1)
      }
      i = q + 1
      continue
    }
    if (c >= 48 && c <= 57) {
      if (++digits > 15) return true
    } else {
      if (digits > 0 && (c === 46 || c === 101 || c === 69)) return true
      digits = 0
    }
    i++
  }
  return false
}

/** Parses JSON text as Go reads it; its syntax errors are Go's (`invalid character 'x' looking for beginning of value`). */
export function parseGoJson(text: string): { value: unknown } | { error: string } {
  // JSON.parse reads any depth; Go's scanner stops past MAX_DEPTH ("invalid character '[' exceeded max depth").
  if (jsonDepthExceeds(text, MAX_DEPTH)) return { error: goJsonSyntaxError(utf8(text)) ?? 'exceeded max depth' }
  try {
    if (!hasTellingNumber(text)) return { value: JSON.parse(text) as unknown }
    return {
      value: JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
        typeof value === 'number' && context?.source !== undefined && !/^-?\d{1,15}$/.test(context.source)
          ? new RawNumber(value, context.source)
          : value,
      ) as unknown,
    }
  } catch (e) {
    return { error: goJsonSyntaxError(utf8(text)) ?? (e as Error).message }
  }
}

/** Parses YAML as kube's YAML-to-JSON conversion would (YAML 1.1, go-yaml v2's scalars). */
const parseYamlText = parseKubeYaml

/** Parses a body for `target`. Bodies too deep (parseGoJson) or self-referencing (YAML aliases) are refused here. */
function parseBody(target: DecodeTarget, body: BodyInput): unknown {
  const prefix = handlingPrefix(target.kind, target.version)
  if (body.format === 'object') {
    const bad = checkTree(body.object)
    if (bad) throw new StatusError(statuses.badRequest(`${prefix}: ${bad}`))
    return body.object
  }
  const parsed = body.format === 'json' ? parseGoJson(body.text) : parseYamlText(body.text)
  if ('error' in parsed) {
    const error = body.format === 'json' ? `couldn't get version/kind; json parse error: ${parsed.error}` : parsed.error
    throw unrecognized(target, error, utf8(body.text))
  }
  // JSON can neither refer to itself nor (past the depth check) nest too deep; YAML's aliases can do both.
  if (body.format === 'yaml') {
    const bad = checkTree(parsed.value)
    if (bad) throw new StatusError(statuses.badRequest(`${prefix}: ${bad}`))
  }
  return parsed.value
}

/**
 * Decodes a create or update body into an object of `target`, with fieldValidation semantics. Throws a 400 Status
 * worded as kube's (rest.go transformDecodeError).
 */
export function decodeObject<T>(target: DecodeTarget, body: BodyInput, validation: FieldValidation): Decoded<T> {
  const doc = parseBody(target, body)
  const original = () => (body.format === 'object' ? JSON.stringify(body.object) : body.text)
  const outcome = decodeDocument(target, doc, original)
  if (!outcome.ok) {
    if (outcome.gvk === null)
      throw unrecognized(target, outcome.error, body.format === 'object' ? new Uint8Array() : utf8(body.text))
    if (outcome.bare) throw new StatusError(statuses.badRequest(outcome.error))
    throw new StatusError(
      statuses.badRequest(`${handlingPrefix(outcome.gvk.kind, outcome.gvk.version, target.kind)}: ${outcome.error}`),
    )
  }
  if (validation === 'Ignore') return { value: outcome.value as T, warnings: [] }
  const problems =
    body.format === 'json' ? duplicateFields(body.text).map((d) => `duplicate field ${JSON.stringify(d)}`) : []
  problems.push(...outcome.strict)
  if (problems.length > 0 && validation === 'Strict') {
    throw new StatusError(
      statuses.badRequest(
        `${handlingPrefix(outcome.gvk.kind, outcome.gvk.version, target.kind)}: strict decoding error: ${problems.join(', ')}`,
      ),
    )
  }
  return { value: outcome.value as T, warnings: problems }
}

/**
 * Checks an already-parsed object (a converted v1beta1 body, a last-applied annotation) against a schema with
 * fieldValidation semantics: Go's decoding of it into the type the prefix names. Throws a 400 Status.
 */
export function checkShape<T>(
  schema: z.ZodType,
  raw: unknown,
  prefix: string,
  validation: FieldValidation,
  text: string | null,
): Decoded<T> {
  const kind = prefix.split(' ')[0]!
  // A copy: decoding changes the document in place, and callers keep using what they passed.
  const value = stripNulls(raw) as Record<string, unknown>
  const result = goUnmarshal(value, goTypeOf(schema, `v1.${kind}`))
  if (result.error !== null) throw new StatusError(statuses.badRequest(`${prefix}: ${result.error}`))
  if (validation === 'Ignore') return { value: value as T, warnings: [] }
  const problems = text === null ? [] : duplicateFields(text).map((d) => `duplicate field ${JSON.stringify(d)}`)
  problems.push(...result.strict)
  if (problems.length > 0 && validation === 'Strict') {
    throw new StatusError(statuses.badRequest(`${prefix}: strict decoding error: ${problems.join(', ')}`))
  }
  return { value: value as T, warnings: problems }
}

/** Parses JSON or YAML text for decoders of their own (v1beta1); errors open with `prefix`. */
export function parseBodyText(text: string, contentType: string, what: string): unknown {
  const parsed = contentType.includes('yaml') ? parseYamlText(text) : parseGoJson(text)
  if ('error' in parsed) {
    throw new StatusError(
      statuses.badRequest(
        `${what}: ${contentType.includes('yaml') ? '' : "couldn't get version/kind; json parse error: "}${parsed.error}`,
      ),
    )
  }
  const bad = checkTree(parsed.value)
  if (bad) throw new StatusError(statuses.badRequest(`${what}: ${bad}`))
  return unwrapRawNumbers(parsed.value)
}

/**
 * A copy of a value without its null-valued object keys, at every level: Go decodes null into a zero value, which is
 * what absence means. Iterative, for values nested as deep as Go's decoder reads.
 */
export function stripNulls(root: unknown): unknown {
  const copy = (v: unknown): unknown =>
    v === null || typeof v !== 'object' || v instanceof RawNumber ? v : Array.isArray(v) ? [] : {}
  const out = copy(root)
  const pending: [from: unknown, to: unknown][] = [[root, out]]
  while (pending.length > 0) {
    const [from, to] = pending.pop()!
    if (from === to) continue
    if (Array.isArray(from)) {
      for (const x of from) {
        const y = copy(x)
        ;(to as unknown[]).push(y)
        pending.push([x, y])
      }
      continue
    }
    for (const [k, x] of Object.entries(from as Record<string, unknown>)) {
      if (x === null) continue
      const y = copy(x)
      // defineProperty, not assignment: a "__proto__" key must stay a plain (unknown) field, not a prototype.
      Object.defineProperty(to, k, { value: y, enumerable: true, writable: true, configurable: true })
      pending.push([x, y])
    }
  }
  return out
}

/**
 * Checks, without recursion, that a parsed value is a tree (YAML aliases can make cycles) no deeper than MAX_DEPTH.
 * Returns an error message or null.
 */
export function checkTree(root: unknown): string | null {
  // Iterative depth-first walk with explicit exit markers: a node on the current path seen again is a cycle, while
  // a node shared by two branches (a YAML alias used twice) is fine.
  const stack: { v: unknown; depth: number; exit: boolean }[] = [{ v: root, depth: 1, exit: false }]
  const onPath = new Set<unknown>()
  let seen = 0
  while (stack.length > 0) {
    const { v, depth, exit } = stack.pop()!
    if (exit) {
      onPath.delete(v)
      continue
    }
    if (!v || typeof v !== 'object' || v instanceof RawNumber) continue
    if (depth > MAX_DEPTH) return `the object is nested deeper than ${MAX_DEPTH} levels`
    if (onPath.has(v)) return 'the document refers to itself (recursive alias)'
    if (++seen > 1_000_000) return 'the document has too many nodes'
    onPath.add(v)
    stack.push({ v, depth, exit: true })
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1, exit: false })
  }
  return null
}

/** Formats a path like a kube field path: spec.containers[0].name */
export function fieldPath(path: readonly PropertyKey[]): string {
  let s = ''
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`
    else s += s ? `.${String(p)}` : String(p)
  }
  return s
}
