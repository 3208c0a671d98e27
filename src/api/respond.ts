// Rendering: JSON bodies with kube's bytes and headers, negotiated as kube negotiates them (406 for an Accept no
// serializer answers; errors written whatever the Accept), Status errors, and Warning headers.
import type { Context } from 'hono'
import type { Status } from '../registry/status'
import { encodeBody, encodedBody } from '../registry/wire-json'
import {
  DEFAULT_ENDPOINT,
  negotiateMediaType,
  negotiateOutput,
  type EndpointRestrictions,
  type MediaTypeOptions,
} from './negotiation'

export const NO_CACHE = 'no-cache, private'

const OUTPUT = 'negotiatedOutput' as never

/**
 * Negotiates the answer for an endpoint (kube's NegotiateOutputMediaType; a 406 StatusError when nothing fits) and
 * remembers it for json(). Handlers call it before they do anything, as kube's do; a response nobody negotiated
 * for is negotiated by json() with the default restrictions.
 */
export function negotiate(c: Context, endpoint: EndpointRestrictions): MediaTypeOptions {
  const options = negotiateOutput(c.req.header('accept') ?? '', endpoint)
  c.set(OUTPUT, options as never)
  return options
}

/** What negotiate() chose for this request, if it ran. */
export const negotiated = (c: Context) => c.get(OUTPUT) as MediaTypeOptions | undefined

/**
 * Writes an API body as kube's negotiated serializer does: Go's field order, compact with a newline, or indented.
 * An error is written as responsewriters.WriteObjectNegotiated writes one: negotiated with the default restrictions,
 * and when the Accept header allows nothing, indented (WriteRawJSON) with its own code, never hidden behind a 406.
 */
export function json(c: Context, body: unknown, code = 200, contentType = 'application/json'): Response {
  if (code < 200 || code >= 400) {
    const options = negotiateMediaType(c.req.header('accept') ?? '', DEFAULT_ENDPOINT)
    const pretty = options === null || options.pretty || isPrettyPrint(c)
    return respond(c, encodeBody(body, pretty), code, options === null ? 'application/json' : contentType)
  }
  const options = negotiated(c) ?? negotiate(c, DEFAULT_ENDPOINT)
  return respond(c, encodeBody(body, options.pretty || isPrettyPrint(c)), code, contentType)
}

/**
 * Whether this request's body is its object exactly as json() writes it compactly (no Table, no partial metadata, no
 * indentation): the host may then send the object already encoded (WriteOptions.encodeAnswer).
 */
export function relaysEncoded(c: Context): boolean {
  const options = negotiated(c)
  return options !== undefined && !options.convert && !options.pretty && !isPrettyPrint(c)
}

/** A success body the host encoded in Go's field order (WriteAnswer.json), written as json() writes it. */
export function encodedJson(c: Context, text: string, code: number): Response {
  return respond(c, encodedBody(text), code, 'application/json')
}

/** A body written whatever the Accept header asks, by handlers outside kube's negotiation (kube-openapi's). */
export function unnegotiatedJson(c: Context, body: unknown): Response {
  return respond(c, encodeBody(body, isPrettyPrint(c)), 200, 'application/json')
}

/** A body kube writes with WriteRawJSON (/version): always indented, whatever the request asked. */
export function rawJson(c: Context, body: unknown): Response {
  return respond(c, encodeBody(body, true), 200, 'application/json')
}

/**
 * A Status error as kube's ErrorNegotiated writes it: a Status carrying retryAfterSeconds also sets Retry-After,
 * which client-go honours on its own (it waits that long and retries 429s and 5xx).
 */
export function statusResponse(c: Context, status: Status): Response {
  const res = json(c, status, status.code)
  const retry = status.details?.retryAfterSeconds
  if (retry && retry > 0) res.headers.set('Retry-After', String(retry))
  return res
}

function respond(c: Context, text: string, code: number, contentType: string): Response {
  // Pairs, not a Headers object the Response would copy again: each pair is appended, so warnings stay separate.
  const headers: [string, string][] = [
    ['Content-Type', contentType],
    ['Cache-Control', NO_CACHE],
  ]
  for (const w of warningsOf(c)) headers.push(['Warning', `299 - ${JSON.stringify(w)}`])
  return new Response(text, { status: code, headers })
}

/** strconv.ParseBool's true spellings; anything it cannot parse counts as false. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True'])

/**
 * kube-apiserver's isPrettyPrint (handlers/negotiation): a non-empty `pretty` parameter decides; without one,
 * requests from curl, Wget and browsers are indented.
 */
function isPrettyPrint(c: Context): boolean {
  const url = c.req.url
  const q = url.indexOf('?')
  // As kube: the query is parsed only when it mentions pretty at all.
  if (q >= 0 && url.includes('pretty', q)) {
    const v = new URLSearchParams(url.slice(q + 1)).get('pretty')
    if (v) return GO_TRUE.has(v)
  }
  const ua = c.req.header('user-agent') ?? ''
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0')
}

/** Warnings collected while handling a request, sent as `Warning: 299 - "..."` headers. */
export function addWarnings(c: Context, warnings: string[]) {
  if (warnings.length === 0) return
  const list = (c.get('warnings' as never) as string[] | undefined) ?? []
  list.push(...warnings)
  c.set('warnings' as never, list as never)
}

function warningsOf(c: Context): string[] {
  const list = c.get('warnings' as never) as string[] | undefined
  return list ? [...new Set(list)] : []
}
