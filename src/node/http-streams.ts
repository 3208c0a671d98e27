// Tunnel streams answered over HTTP (pod logs, proxied requests): the agent's HEADERS become the response's status
// and headers, its DATA the body. The body is a stream the client reads: credit goes back to the agent only as the
// client takes the bytes, so a slow reader slows the agent, and nothing piles up here. A request body goes to the
// agent on channel 0, then EOF.
import {
  closeFrame,
  creditFrame,
  eofFrame,
  type Frame,
  FrameType,
  INITIAL_WINDOW,
  jsonFrame,
  readJson,
  type StreamRequest,
  dataFrame,
} from './tunnel-frames'

interface Head {
  status: number
  headers: [string, string][]
}

interface HttpStream {
  writer: WritableStreamDefaultWriter<Uint8Array>
  head: { resolve(h: Head): void; reject(e: Error): void }
  answered: boolean
}

interface HttpStreamDeps {
  newId(): number
  send(frame: Uint8Array): void
  /** Sends DATA within the agent's credit. */
  toAgent(id: number, frame: Uint8Array): void
  /** The stream is over (what waits to go to the agent for it can go). */
  ended(id: number): void
}

/** How long the agent has to answer a request's head. */
const HEAD_TIMEOUT_MS = 30_000
/** Statuses whose Response may have no body (the constructor throws on one): a pod's 204 or 304 is answered bodiless. */
const NULL_BODY_STATUSES = new Set([204, 205, 304])

export class HttpStreams {
  private readonly streams = new Map<number, HttpStream>()
  private readonly deps: HttpStreamDeps

  constructor(deps: HttpStreamDeps) {
    this.deps = deps
  }

  has(id: number): boolean {
    return this.streams.has(id)
  }

  ids(): number[] {
    return [...this.streams.keys()]
  }

  private end(id: number) {
    this.streams.delete(id)
    this.deps.ended(id)
  }

  async open(req: StreamRequest, body: ReadableStream<Uint8Array> | null, agent: WebSocket): Promise<Response> {
    const id = this.deps.newId()
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
    let head!: HttpStream['head']
    const answered = new Promise<Head>((resolve, reject) => (head = { resolve, reject }))
    this.streams.set(id, { writer: writable.getWriter(), head, answered: false })
    agent.send(jsonFrame(FrameType.OPEN, id, { ...req, window: INITIAL_WINDOW }))
    void this.pump(id, body)
    const timer = setTimeout(() => this.fail(id, 'the node agent did not answer in time'), HEAD_TIMEOUT_MS)
    try {
      const h = await answered
      return new Response(NULL_BODY_STATUSES.has(h.status) ? null : readable, { status: h.status, headers: h.headers })
    } catch (e) {
      return Response.json({ reason: 'tunnel', message: (e as Error).message }, { status: 502 })
    } finally {
      clearTimeout(timer)
    }
  }

  private async pump(id: number, body: ReadableStream<Uint8Array> | null) {
    try {
      if (body)
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
          if (!this.streams.has(id)) return
          this.deps.toAgent(id, dataFrame(id, 0, chunk))
        }
      if (this.streams.has(id)) this.deps.toAgent(id, eofFrame(id, 0))
    } catch {
      this.fail(id, 'the request body broke off')
    }
  }

  fromAgent(frame: Frame) {
    const s = this.streams.get(frame.stream)
    if (!s) return
    const id = frame.stream
    if (frame.type === FrameType.HEADERS) {
      const h = readJson<Head>(frame.payload)
      s.answered = true
      s.head.resolve({ status: h?.status ?? 502, headers: h?.headers ?? [] })
    } else if (frame.type === FrameType.DATA && frame.payload.length > 1) {
      const bytes = frame.payload.slice(1)
      s.writer.write(bytes).then(
        () => this.deps.send(creditFrame(id, bytes.length)),
        () => this.cancel(id),
      )
    } else if (frame.type === FrameType.EOF || frame.type === FrameType.CLOSE) {
      const why = frame.type === FrameType.CLOSE ? readJson<{ error?: string }>(frame.payload)?.error : undefined
      if (why) return this.fail(id, why)
      this.end(id)
      if (!s.answered) s.head.resolve({ status: 200, headers: [] })
      s.writer.close().catch(() => undefined)
    }
  }

  /** The client stopped reading: the agent stops too. */
  private cancel(id: number) {
    if (!this.streams.has(id)) return
    this.end(id)
    this.deps.send(closeFrame(id))
  }

  private fail(id: number, why: string) {
    const s = this.streams.get(id)
    if (!s) return
    this.end(id)
    this.deps.send(closeFrame(id, why))
    if (!s.answered) s.head.reject(new Error(why))
    else s.writer.abort(new Error(why)).catch(() => undefined)
  }

  abortAll(why: string) {
    for (const id of [...this.streams.keys()]) this.fail(id, why)
  }
}
