// Shared test helpers: requests through the Worker, JSON bodies, unique namespaces.
import { exports } from 'cloudflare:workers'
import { expect } from 'vitest'
import { TEST_TOKENS } from './support/test-tokens'

export const BASE = 'http://kube.test'

/**
 * Request headers as the tests send them: the test admin's token (test/support/test-tokens.ts) unless the headers
 * carry an Authorization of their own; an empty one sends none (an anonymous request).
 */
export function withToken(headers: Record<string, string> = {}): Record<string, string> {
  const own = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization')
  if (own === undefined) return { ...headers, authorization: `Bearer ${TEST_TOKENS.admin}` }
  if (headers[own] !== '') return headers
  const { [own]: _, ...rest } = headers
  return rest
}

export async function req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: withToken(headers) }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
  }
  const res = await exports.default.fetch(new Request(BASE + path, init))
  const text = await res.text()
  let json: any
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

let counter = 0
export async function makeNamespace(prefix = 'ns'): Promise<string> {
  const name = `${prefix}-${Date.now().toString(36)}-${counter++}`
  const r = await req('POST', '/api/v1/namespaces', { metadata: { name } })
  if (r.status !== 201) throw new Error(`namespace create failed: ${r.status} ${r.text}`)
  return name
}

export const pod = (name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...extra },
})

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** A streamed (chunked HTTP) watch opened through the Worker: events are read line by line as they arrive. */
export interface WatchStream {
  status: number
  headers: Headers
  /** The body of a response that is not a 200 stream (a Status), parsed. */
  error?: any
  /** The next event, or null when the stream ended or nothing arrived within timeoutMs. */
  next(timeoutMs?: number): Promise<any | null>
  /** Up to n events (fewer if the stream ends or timeoutMs passes first). */
  take(n: number, timeoutMs?: number): Promise<any[]>
  /** Every event until the stream ends; `ended` is false if timeoutMs passed first. */
  rest(timeoutMs?: number): Promise<{ events: any[]; ended: boolean }>
  /** Whether the server has ended the stream (after the last buffered event was read). */
  readonly ended: boolean
  /** Always call at the end of a test. */
  cancel(): Promise<void>
}

export async function openWatch(path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  const res = await exports.default.fetch(new Request(BASE + path, { headers: withToken(headers) }))
  if (res.status !== 200 || !res.body) {
    const text = await res.text()
    let error: any
    try {
      error = JSON.parse(text)
    } catch {
      error = text
    }
    const none = async () => null
    return {
      status: res.status,
      headers: res.headers,
      error,
      next: none,
      take: async () => [],
      rest: async () => ({ events: [], ended: true }),
      ended: true,
      cancel: async () => undefined,
    }
  }
  const reader = res.body.getReader()
  const dec = new TextDecoder()
  let buf = ''
  const queue: any[] = []
  let done = false
  let reading: Promise<void> | null = null
  const pump = () =>
    (reading ??= reader.read().then(
      ({ done: d, value }) => {
        reading = null
        if (d) {
          done = true
          return
        }
        buf += dec.decode(value, { stream: true })
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i).trim()
          buf = buf.slice(i + 1)
          if (line) queue.push(JSON.parse(line))
        }
      },
      () => {
        reading = null
        done = true
      },
    ))
  const next = async (timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs
    while (queue.length === 0 && !done) {
      const left = deadline - Date.now()
      if (left <= 0) break
      let t: ReturnType<typeof setTimeout> | null = null
      await Promise.race([pump(), new Promise((r) => (t = setTimeout(r, left)))])
      if (t !== null) clearTimeout(t)
    }
    return queue.length > 0 ? queue.shift() : null
  }
  return {
    status: res.status,
    headers: res.headers,
    next,
    async take(n, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      const out: any[] = []
      while (out.length < n) {
        const ev = await next(Math.max(1, deadline - Date.now()))
        if (ev === null) break
        out.push(ev)
      }
      return out
    },
    async rest(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      const events: any[] = []
      for (;;) {
        const ev = await next(Math.max(1, deadline - Date.now()))
        if (ev === null) return { events, ended: done }
        events.push(ev)
      }
    },
    get ended() {
      return done && queue.length === 0
    },
    async cancel() {
      await reader.cancel().catch(() => undefined)
    },
  }
}

/**
 * What a selector watch sends when an object stops matching: as kube's cacher, the last state that matched, stamped
 * with the resourceVersion of the change that took it out.
 */
export const leftSelector = (before: any, after: any) => ({
  ...before,
  metadata: { ...before.metadata, resourceVersion: after.metadata.resourceVersion },
})

const V1 = ['', 'api', 'v1'].join('/')

/** A pod no scheduler takes (schedulerName names none), so nothing but the test changes it. */
export const staticPod = (name: string, labels: Record<string, string> = {}) =>
  pod(name, labels, { schedulerName: 'kubeflare-test-none' })

export const podPath = (ns: string, name = '') => `${V1}/namespaces/${ns}/pods${name ? `/${name}` : ''}`

/** Creates a static pod and answers the stored object (the test fails on anything but 201). */
export async function createStatic(ns: string, name: string, labels: Record<string, string> = {}) {
  const r = await req('POST', podPath(ns), staticPod(name, labels))
  expect(r.status, r.text).toBe(201)
  return r.json
}

/** Deletes a pod and answers the deleted object (the test fails on anything but 200). */
export async function removePod(ns: string, name: string) {
  const r = await req('DELETE', podPath(ns, name))
  expect(r.status, r.text).toBe(200)
  return r.json
}

/**
 * Waits until the quota controller has synced a ResourceQuota (status.hard is spec.hard and status.used covers it).
 * Admission enforces a quota's status.hard, as kube's does: kube's e2e tests wait for this after creating one too.
 */
export async function quotaSynced(ns: string, name: string): Promise<void> {
  await waitFor(`quota ${name} synced`, async () => {
    const q = (await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).json
    const hard = Object.keys(q.spec?.hard ?? {})
    return (
      hard.length === Object.keys(q.status?.hard ?? {}).length &&
      hard.every((k) => q.status.hard[k] === q.spec.hard[k] && q.status.used?.[k] !== undefined)
    )
  })
}

/**
 * Polls until `fn` answers something other than undefined, null or false, and answers that; fails after `ms`.
 * Called as waitFor(fn, ms?) or waitFor(what, fn, ms?) to name the condition in the failure.
 */
export async function waitFor<T>(
  ...args:
    | [string, () => Promise<T | undefined | null | false>, number?]
    | [() => Promise<T | undefined | null | false>, number?]
): Promise<T> {
  const [what, fn, ms] =
    typeof args[0] === 'string'
      ? [args[0], args[1] as () => Promise<T | undefined | null | false>, (args[2] as number | undefined) ?? 10_000]
      : ['condition', args[0], (args[1] as number | undefined) ?? 10_000]
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined && v !== null && v !== false) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
