// What every answer to a hostile request must be: a refusal kube gives to bad input (a Status JSON whose code is the
// HTTP status) or, where kube accepts the input, a 2xx. Findings are collected so one run names every offender.
import { exports } from 'cloudflare:workers'
import { expect } from 'vitest'
import { BASE, req, withToken } from '../../helpers'

/** The statuses bad input may earn (the house rule); anything else, 5xx above all, is a finding. */
export const REFUSALS = new Set([400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429])

export interface Answer {
  status: number
  text: string
  json: any
}

/** How long an answer may take before the request counts as hung. */
const HANG_MS = 10_000

/** Paths whose accepted answer streams without end: watches and followed logs (kube reads any value but 0, f and
 * false as true). */
const STREAMS = /[?&](watch|follow)=(?!(0|f|false)(&|$))[^&]+|\/watch\//i

/** An answer that never came (or whose body never ended). */
const HUNG: Answer = { status: 0, text: 'no answer within 10 s', json: undefined }

/**
 * Sends one request through the Worker: a string or bytes body as is, anything else as JSON. A 2xx body that streams
 * (a watch kube accepted) is cancelled after its status is read; an answer that takes longer than HANG_MS is HUNG.
 */
export async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: withToken(headers) }
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
  }
  let timer: ReturnType<typeof setTimeout> | null = null
  const timeout = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve(HUNG), HANG_MS)
  })
  const answer = (async (): Promise<Answer> => {
    const res = await exports.default.fetch(new Request(BASE + path, init))
    if (res.ok && STREAMS.test(path)) {
      await res.body?.cancel()
      return { status: res.status, text: '(watch stream)', json: undefined }
    }
    const text = await res.text()
    let json: any
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: res.status, text, json }
  })()
  try {
    return await Promise.race([answer, timeout])
  } finally {
    if (timer !== null) clearTimeout(timer)
  }
}

export interface Expect {
  /** Whether kube may accept the input (2xx is then fine). Default false. */
  accept?: boolean
  /** Narrower expectation: the refusal must be one of these codes. */
  codes?: number[]
}

/** Why an answer breaks the rule, or null when it keeps it. */
export function breach(r: Answer, want: Expect = {}): string | null {
  if (r.status >= 200 && r.status < 300) return want.accept ? null : 'accepted input kube refuses'
  if (!REFUSALS.has(r.status)) return `status ${r.status} is not a refusal of bad input`
  if (want.codes && !want.codes.includes(r.status)) return `status ${r.status}, expected one of ${want.codes}`
  const s = r.json
  if (s?.kind !== 'Status' || s.apiVersion !== 'v1') return 'body is not a v1 Status'
  if (s.code !== r.status) return `Status code ${s.code} differs from HTTP ${r.status}`
  if (s.status !== 'Failure') return `Status status ${JSON.stringify(s.status)}`
  if (typeof s.message !== 'string' || s.message === '') return 'Status without a message'
  return null
}

/** The findings of one sweep: each names the case, the request and what came back. */
export class Findings {
  readonly list: string[] = []
  /** How many requests the sweep sent (reported by the tests that care). */
  sent = 0

  constructor(private readonly known: ReadonlySet<string> = new Set()) {}

  /** Sends a request and records a finding when the answer breaks the rule. */
  async send(
    id: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    want: Expect = {},
  ): Promise<Answer> {
    const r = await send(method, path, body, headers)
    this.note(id, `${method} ${path}`, r, want)
    return r
  }

  // Whether a case is a known bug: its id, or its id with the resource replaced by a star (every resource).
  private isKnown(id: string) {
    return this.known.has(id) || this.known.has(id.replace(/^[^\s/]+/, '*'))
  }

  /** Records the answer to a request the caller sent itself. */
  note(id: string, request: string, r: Answer, want: Expect = {}) {
    this.sent++
    const why = breach(r, want)
    const shown = request.length > 200 ? `${request.slice(0, 200)}…` : request
    if (why && !this.isKnown(id)) this.list.push(`${id}: ${shown} -> ${r.status} (${why}) ${r.text.slice(0, 300)}`)
  }

  /** A finding the caller established itself (a half-written object, a hang). */
  add(id: string, what: string) {
    if (!this.isKnown(id)) this.list.push(`${id}: ${what}`)
  }

  expectNone() {
    // A sweep that sent nothing proves nothing.
    expect(this.sent, 'requests sent').toBeGreaterThan(0)
    expect(this.list, `${this.list.length} findings of ${this.sent} requests`).toEqual([])
  }
}

/** The stored object as a GET answers it, for before/after comparisons; null when it is not there. */
export async function snapshot(path: string): Promise<string | null> {
  const r = await req('GET', path)
  if (r.status === 404) return null
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`)
  return r.text
}
