// Request-body decoding with kube's fieldValidation semantics: JSON or YAML in, nulls dropped (as Go's decoder treats
// them), shape checked against the kind's zod schema, unknown and duplicate fields rejected (Strict), reported as
// warnings (Warn, the default) or dropped (Ignore).
import { parse as parseYaml } from 'yaml'
import type { z } from 'zod'
import { statuses, StatusError } from './status'
import { duplicateFields } from './json-scan'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

export interface Decoded<T> {
  value: T
  warnings: string[]
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** Kubernetes objects are capped near etcd's request limit; bigger bodies are refused before parsing. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024

export function parseBodyText(text: string, contentType: string, what: string): unknown {
  let value: unknown
  if (contentType.includes('yaml')) {
    try {
      value = parseYaml(text, { uniqueKeys: false, maxAliasCount: 100 }) as unknown
    } catch (e) {
      throw new StatusError(statuses.badRequest(`${what}: error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`))
    }
  } else {
    if (jsonDepthExceeds(text, MAX_DEPTH)) {
      throw new StatusError(statuses.badRequest(`${what}: json: exceeded max depth of ${MAX_DEPTH}`))
    }
    try {
      value = JSON.parse(text) as unknown
    } catch (e) {
      throw new StatusError(statuses.badRequest(`${what}: couldn't get version/kind; json parse error: ${(e as Error).message}`))
    }
  }
  const bad = checkTree(value)
  if (bad) throw new StatusError(statuses.badRequest(`${what}: ${bad}`))
  return value
}

/** Kubernetes objects are shallow; deeper bodies are refused before any recursive walk can overflow the stack. */
export const MAX_DEPTH = 100

/** Removes null-valued object keys, recursively: Go decodes null into a zero value, which is what absence means. */
export function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls)
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) {
      if (x === null) continue
      // defineProperty, not assignment: a "__proto__" key must stay a plain (unknown) field, not a prototype.
      Object.defineProperty(out, k, { value: stripNulls(x), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return v
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
    if (!v || typeof v !== 'object') continue
    if (depth > MAX_DEPTH) return `the object is nested deeper than ${MAX_DEPTH} levels`
    if (onPath.has(v)) return 'the document refers to itself (recursive alias)'
    if (++seen > 1_000_000) return 'the document has too many nodes'
    onPath.add(v)
    stack.push({ v, depth, exit: true })
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1, exit: false })
  }
  return null
}

/** Nesting depth of JSON text (outside strings), without parsing: refuses pathological bodies cheaply. */
function jsonDepthExceeds(text: string, max: number): boolean {
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

/** Formats a zod path like a kube field path: spec.containers[0].name */
export function fieldPath(path: readonly PropertyKey[]): string {
  let s = ''
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`
    else s += s ? `.${String(p)}` : String(p)
  }
  return s
}

function deleteAt(root: unknown, path: readonly PropertyKey[], key: string) {
  let cur = root as Record<PropertyKey, unknown>
  for (const p of path) cur = cur?.[p] as Record<PropertyKey, unknown>
  if (cur && typeof cur === 'object') delete cur[key]
}

/** How kube opens every decoding error: `Pod in version "v1" cannot be handled as a Pod`. */
export const handlingPrefix = (kind: string, version: string) => `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}`

/**
 * Decodes a body for a kind. `kind` and `version` name the target in messages, as kube does:
 * `Pod in version "v1" cannot be handled as a Pod: ...`.
 */
export function decodeObject<T>(
  schema: z.ZodType,
  text: string,
  contentType: string,
  kind: string,
  version: string,
  validation: FieldValidation,
): Decoded<T> {
  const prefix = handlingPrefix(kind, version)
  const raw = parseBodyText(text, contentType, prefix)
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new StatusError(statuses.badRequest(`${prefix}: json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw} into Go value of type struct`))
  }
  return checkShape<T>(schema, raw, prefix, validation, contentType.includes('yaml') ? null : text)
}

/**
 * Checks an already-parsed object against a kind's schema with fieldValidation semantics (bodies, and the results
 * of patches). `text`, when given, is scanned for duplicate keys, which parsing has already collapsed.
 */
export function checkShape<T>(schema: z.ZodType, raw: unknown, prefix: string, validation: FieldValidation, text: string | null): Decoded<T> {
  const kind = prefix.split(' ')[0]
  const bodyKind = (raw as Record<string, unknown>).kind
  if (typeof bodyKind === 'string' && bodyKind !== '' && bodyKind !== kind) {
    throw new StatusError(statuses.badRequest(`${prefix}: the kind in the body (${bodyKind}) does not match ${kind}`))
  }
  const problems: string[] = []
  if (validation !== 'Ignore' && text !== null) {
    for (const d of duplicateFields(text)) problems.push(`duplicate field ${JSON.stringify(d)}`)
  }
  const value = stripNulls(raw) as Json
  const result = schema.safeParse(value)
  if (!result.success) {
    // Go decodes any string into an enum-typed field; out-of-set values are the strategy's 422, not a decode error.
    const fatal = result.error.issues.filter((i) => i.code !== 'unrecognized_keys' && i.code !== 'invalid_value')
    if (fatal.length > 0) {
      const first = fatal[0]!
      const where = fieldPath(first.path)
      throw new StatusError(statuses.badRequest(`${prefix}: ${where ? `${where}: ` : ''}${describeIssue(first)}`))
    }
    for (const issue of result.error.issues) {
      if (issue.code !== 'unrecognized_keys') continue
      for (const key of issue.keys) {
        problems.push(`unknown field ${JSON.stringify(fieldPath([...issue.path, key]))}`)
        deleteAt(value, issue.path, key)
      }
    }
  }
  if (problems.length > 0 && validation === 'Strict') {
    throw new StatusError(statuses.badRequest(`${prefix}: strict decoding error: ${problems.join(', ')}`))
  }
  // The checked input, not zod's output: key order and values stay as sent.
  return { value: value as T, warnings: validation === 'Warn' ? problems : [] }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}, got ${receivedType(issue.input)}`
  if (issue.code === 'invalid_value') return `unsupported value ${JSON.stringify(issue.input)}`
  return issue.message
}

function receivedType(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'array'
  return typeof v
}
