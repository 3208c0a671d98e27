// The per-node Durable Object: it terminates the node agent's tunnel WebSocket and splices clients' streams onto it
// (src/node/tunnel-frames.ts has the framing). Streaming clients (exec, attach, portforward) are hibernatable
// WebSockets tagged with their stream, so the object sleeps while nobody types; HTTP streams (logs, proxied
// requests) are response bodies fed from the tunnel, which keep it awake while they last. One agent at a time: a
// new connection replaces the old one, whose streams end with an error.
import { streamCloseDelayMs } from './stream-close-delay'
import { DurableObject } from 'cloudflare:workers'
import { closeQuietly } from '../host/watchers'
import { type ClientStream, fromClient, portPrefixes, toClient } from './client-bridge'
import { HttpStreams } from './http-streams'
import { MAX_BACKLOG, UploadBacklog } from './upload-backlog'
import {
  closeFrame,
  creditFrame,
  creditOf,
  decodeFrame,
  FrameType,
  INITIAL_WINDOW,
  jsonFrame,
  readJson,
  type StreamRequest,
  TUNNEL_PROTOCOL,
} from './tunnel-frames'

const AGENT = 'agent'
const CLIENT = 'client'
const streamTag = (id: number) => `s:${id}`
/**
 * Credit owed to the agent for forwarded data goes back in one CREDIT per this many bytes (or after FLUSH_MS):
 * fewer, larger grants keep a fast stream's credit round trip cheap for the agent, which reads each message through
 * its WebSocket's permessage-deflate.
 */
const CREDIT_BATCH = INITIAL_WINDOW / 2
const FLUSH_MS = 5

export class NodeTunnel extends DurableObject<Env> {
  /** What clients send beyond the agent's credit, in SQLite (credit rebuilt at the initial window after a restart). */
  private readonly backlog: UploadBacklog
  /** Credit forwarded data has earned the agent, not yet granted (always granted before the object can sleep). */
  private readonly owed = new Map<number, number>()
  private flushTimer: ReturnType<typeof setTimeout> | null = null
  private readonly http: HttpStreams

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The agent's keep-alive is answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'))
    this.backlog = new UploadBacklog(ctx.storage.sql, (frame) => this.agent()?.send(frame))
    this.http = new HttpStreams({
      newId: () => this.newId(),
      send: (frame) => this.agent()?.send(frame),
      toAgent: (id, frame) => this.toAgent(id, [frame]),
      ended: (id) => this.backlog.forget(id),
    })
    // What waited for streams that did not survive (a restart ends HTTP streams; a lost agent ends them all).
    this.backlog.keepOnly(this.openStreams())
  }

  private agent(): WebSocket | null {
    return this.ctx.getWebSockets(AGENT)[0] ?? null
  }

  /** Whether an agent is connected now. */
  async connected(): Promise<boolean> {
    return this.agent() !== null
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/agent') return this.acceptAgent()
    const raw = request.headers.get('x-tunnel-request')
    const req = raw ? (JSON.parse(raw) as StreamRequest) : null
    if (!req) return Response.json({ message: 'no stream request' }, { status: 400 })
    const agent = this.agent()
    // Nobody serves this node now: the Worker words the refusal for its client.
    if (!agent) return Response.json({ message: 'no node agent is connected' }, { status: 502 })
    if (url.pathname === '/http') return this.http.open(req, request.body, agent)
    return this.openClientStream(req, request.headers.get('x-tunnel-protocol') ?? '', agent)
  }

  private acceptAgent(): Response {
    for (const old of this.ctx.getWebSockets(AGENT)) {
      this.agentGone('the node agent reconnected')
      try {
        old.close(4000, 'replaced by a newer connection')
      } catch {
        // already closed
      }
    }
    const pair = new WebSocketPair()
    this.ctx.acceptWebSocket(pair[1], [AGENT])
    return new Response(null, {
      status: 101,
      webSocket: pair[0],
      headers: { 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL },
    })
  }

  private newId(): number {
    for (;;) {
      const id = (Math.random() * 0xffffffff) >>> 0
      if (id !== 0 && this.ctx.getWebSockets(streamTag(id)).length === 0 && !this.http.has(id)) return id
    }
  }

  private openClientStream(req: StreamRequest, protocol: string, agent: WebSocket): Response {
    const id = this.newId()
    const pair = new WebSocketPair()
    const server = pair[1]
    this.ctx.acceptWebSocket(server, [CLIENT, streamTag(id)])
    const stream: ClientStream = {
      id,
      op: req.op as ClientStream['op'],
      protocol,
      ports: req.ports,
      openedAt: Date.now(),
      ...(req.spdy ? { raw: true } : {}),
    }
    server.serializeAttachment(stream)
    agent.send(jsonFrame(FrameType.OPEN, id, { ...req, window: INITIAL_WINDOW }))
    if (req.op === 'portforward' && !req.spdy) for (const m of portPrefixes(req.ports ?? [])) server.send(m)
    return new Response(null, { status: 101, webSocket: pair[0], headers: { 'Sec-WebSocket-Protocol': protocol } })
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (this.ctx.getTags(ws).includes(AGENT)) {
      if (typeof message !== 'string') this.fromAgent(message)
      return
    }
    const stream = ws.deserializeAttachment() as ClientStream | null
    if (stream) this.toAgent(stream.id, fromClient(stream, message))
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    const agent = this.ctx.getTags(ws).includes(AGENT)
    if (agent) {
      // Only the connected agent's loss ends the streams (a replaced one's were ended when it was replaced).
      if (this.ctx.getWebSockets(AGENT).every((w) => w === ws)) this.agentGone('the tunnel to the node was lost')
    } else {
      const stream = ws.deserializeAttachment() as ClientStream | null
      if (stream) {
        this.agent()?.send(closeFrame(stream.id))
        this.forget(stream.id)
      }
    }
    closeQuietly(ws, code)
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.webSocketClose(ws, 1011)
  }

  private client(id: number): { ws: WebSocket; stream: ClientStream } | null {
    const ws = this.ctx.getWebSockets(streamTag(id))[0]
    const stream = ws?.deserializeAttachment() as ClientStream | null
    return ws && stream ? { ws, stream } : null
  }

  private fromAgent(message: ArrayBuffer) {
    const frame = decodeFrame(message)
    if (!frame) return
    const { type, stream: id, payload } = frame
    if (this.http.has(id)) {
      // The agent's credit for a request body (a proxied POST) lets what waits for it go, as for a client's stream.
      if (type === FrameType.CREDIT) return this.granted(id, creditOf(payload))
      return this.http.fromAgent(frame)
    }
    const client = this.client(id)
    if (!client) {
      // A stream we no longer know (its client left): tell the agent once more.
      if (type !== FrameType.CLOSE) this.agent()?.send(closeFrame(id))
      return
    }
    if (type === FrameType.DATA && payload.length > 0) {
      try {
        client.ws.send(toClient(client.stream, payload))
      } catch {
        // the client is gone; its close event ends the stream
      }
      // workerd tells nothing of a WebSocket's send buffer: the credit goes back as the data goes on.
      this.owe(id, payload.length - 1)
    } else if (type === FrameType.CREDIT) this.granted(id, creditOf(payload))
    else if (type === FrameType.CLOSE) {
      const why = readJson<{ error?: string }>(payload)?.error
      this.forget(id)
      const close = () => {
        try {
          client.ws.close(why ? 1011 : 1000, why ? why.slice(0, 120) : '')
        } catch {
          // already closed
        }
      }
      // A close that follows the upgrade too closely is lost by wrangler dev's TLS proxy (with what preceded it).
      const wait = streamCloseDelayMs(this.env) - (Date.now() - (client.stream.openedAt ?? 0))
      if (wait > 0) setTimeout(close, wait)
      else close()
    }
  }

  /** Grants the agent `bytes` for stream `id`: at once past CREDIT_BATCH, else with the next flush. */
  private owe(id: number, bytes: number) {
    const owed = (this.owed.get(id) ?? 0) + bytes
    if (owed >= CREDIT_BATCH) {
      this.owed.delete(id)
      this.agent()?.send(creditFrame(id, owed))
      return
    }
    this.owed.set(id, owed)
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null
      const agent = this.agent()
      for (const [stream, n] of this.owed) agent?.send(creditFrame(stream, n))
      this.owed.clear()
    }, FLUSH_MS)
  }

  /** Sends frames for stream `id` to the agent, DATA within the agent's credit (the rest waits in the backlog). */
  private toAgent(id: number, frames: Uint8Array[]) {
    const agent = this.agent()
    if (!agent) return
    for (const frame of frames) {
      const decoded = decodeFrame(frame)!
      if (decoded.type === FrameType.DATA) {
        const waiting = this.backlog.data(id, decoded.payload[0]!, decoded.payload.subarray(1))
        if (waiting > MAX_BACKLOG) return this.cut(id, 'the client sent faster than the node consumed')
      } else if (decoded.type === FrameType.EOF) this.backlog.eof(id, decoded.payload[0]!)
      else agent.send(frame)
    }
  }

  private granted(id: number, bytes: number) {
    if (this.agent()) this.backlog.grant(id, bytes)
  }

  /** Streams still open: clients' sockets (they survive hibernation) and HTTP streams. */
  private openStreams(): Set<number> {
    const open = new Set<number>()
    for (const ws of this.ctx.getWebSockets(CLIENT)) {
      const stream = ws.deserializeAttachment() as ClientStream | null
      if (stream) open.add(stream.id)
    }
    for (const id of this.http.ids()) open.add(id)
    return open
  }

  private cut(id: number, why: string) {
    this.agent()?.send(closeFrame(id, why))
    const client = this.client(id)
    this.forget(id)
    try {
      client?.ws.close(1011, why)
    } catch {
      // already closed
    }
  }

  private forget(id: number) {
    this.backlog.forget(id)
    this.owed.delete(id)
  }

  /** The agent left: every stream through it ends with an error. */
  private agentGone(why: string) {
    for (const ws of this.ctx.getWebSockets(CLIENT)) {
      const stream = ws.deserializeAttachment() as ClientStream | null
      if (stream) this.forget(stream.id)
      try {
        if (stream && stream.op !== 'portforward' && !stream.raw) ws.send(toClient(stream, errorPayload(why)))
        ws.close(1011, why)
      } catch {
        // already closed
      }
    }
    this.http.abortAll(why)
  }
}

/** The error channel's Status for a stream the tunnel could not finish. */
function errorPayload(why: string): Uint8Array {
  const status = { metadata: {}, status: 'Failure', message: `error: ${why}`, reason: 'InternalError', code: 500 }
  const text = new TextEncoder().encode(JSON.stringify(status))
  const out = new Uint8Array(text.length + 1)
  out[0] = 3
  out.set(text, 1)
  return out
}
