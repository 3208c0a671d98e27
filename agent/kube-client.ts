// The agent's API client: JSON requests with the kubeconfig's bearer token over fetch (the kubeconfig's CA added to
// the process's trusted roots), and watches read as kube streams them, one JSON event per line.
import { getCACertificates, setDefaultCACertificates } from 'node:tls'
import type { Connection } from './kubeconfig.ts'
import type { Obj } from './obj.ts'

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: Obj
}

/** An answer that was not 2xx: the Status kube sent, or the text. */
export class KubeError extends Error {
  readonly code: number
  readonly status: Obj | undefined

  constructor(code: number, status: Obj | undefined, text: string) {
    super(status?.message ?? `HTTP ${code}: ${text.slice(0, 200)}`)
    this.code = code
    this.status = status
  }
}

export const USER_AGENT = 'kubeflare-agent/v1.33.1'

export class KubeClient {
  private readonly conn: Connection

  constructor(conn: Connection) {
    this.conn = conn
    // fetch and WebSocket verify against the default roots; the cluster's CA joins them for this process.
    if (conn.ca) setDefaultCACertificates([...getCACertificates('default'), conn.ca])
    if (conn.insecure) process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'
  }

  get server(): string {
    return this.conn.server
  }

  get token(): string | undefined {
    return this.conn.token
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...(this.conn.token ? { authorization: `Bearer ${this.conn.token}` } : {}),
      ...extra,
    }
  }

  /** One request; answers the decoded body, or throws KubeError for a non-2xx answer. */
  async request<T = Obj>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    timeoutMs = 30_000,
  ): Promise<T> {
    const res = await fetch(this.conn.server + path, {
      method,
      headers: this.headers(body === undefined ? {} : { 'content-type': contentType }),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await res.text()
    let parsed: Obj | undefined
    try {
      parsed = text ? (JSON.parse(text) as Obj) : undefined
    } catch {
      parsed = undefined
    }
    if (!res.ok) throw new KubeError(res.status, parsed?.kind === 'Status' ? parsed : undefined, text)
    return parsed as T
  }

  get<T = Obj>(path: string) {
    return this.request<T>('GET', path)
  }

  /** A watch: every event until the server ends the stream or `signal` aborts it. */
  async *watch(path: string, signal: AbortSignal): AsyncGenerator<WatchEvent> {
    const res = await fetch(this.conn.server + path, { headers: this.headers(), signal })
    if (!res.ok || !res.body) {
      const text = await res.text()
      let status: Obj | undefined
      try {
        status = JSON.parse(text) as Obj
      } catch {
        status = undefined
      }
      throw new KubeError(res.status, status, text)
    }
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      let nl = buffered.indexOf('\n')
      while (nl >= 0) {
        const line = buffered.slice(0, nl).trim()
        buffered = buffered.slice(nl + 1)
        if (line) yield JSON.parse(line) as WatchEvent
        nl = buffered.indexOf('\n')
      }
    }
  }
}

export const isNotFound = (e: unknown) => e instanceof KubeError && e.code === 404
export const isConflict = (e: unknown) => e instanceof KubeError && e.code === 409
