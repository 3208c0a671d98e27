// The agent's end of the tunnel (framing: src/node/tunnel-frames.ts): one outbound WebSocket to the Worker's
// /api/v1/nodes/<node>/tunnel, authenticated with the kubeconfig's token as kube's bearer subprotocol, kept alive
// with pings the node object answers without waking, and dialled again with back-off whenever it drops. Each OPEN
// starts a stream handled by the opener; DATA a stream sends waits for the peer's credit.
import {
  closeFrame,
  creditFrame,
  creditOf,
  dataFrame,
  decodeFrame,
  eofFrame,
  FrameType,
  jsonFrame,
  readJson,
  type StreamRequest,
  TUNNEL_PROTOCOL,
  Window,
} from '../../src/node/tunnel-frames.ts'

/** What the tunnel needs of a WebSocket (the global WebSocket, or a test's stand-in). */
export interface SocketLike {
  binaryType: string
  readyState: number
  send(data: string | Uint8Array): void
  close(code?: number, reason?: string): void
  addEventListener(type: string, listener: (ev: { data: string | ArrayBuffer }) => void): void
}

/** A stream as its handler sees it. */
export interface Stream {
  readonly id: number
  readonly request: StreamRequest & { window?: number }
  /** Sends bytes on a channel (after the peer's credit; `blocked` says the caller should stop reading). */
  send(channel: number, bytes: Uint8Array): void
  readonly blocked: boolean
  /** Called once when sending is no longer blocked. */
  onDrain(cb: () => void): void
  /** Gives the peer credit for bytes consumed. */
  grant(bytes: number): void
  eof(channel: number): void
  headers(status: number, headers: [string, string][]): void
  /** Ends the stream (an error says why it broke). */
  close(error?: string): void
}

/** What a handler does with what arrives for its stream. */
export interface StreamHandler {
  data(channel: number, bytes: Uint8Array): void
  eof(channel: number): void
  /** The peer ended the stream (client left, tunnel lost). */
  closed(error?: string): void
}

export type Opener = (stream: Stream) => StreamHandler

/** What the tunnel tells its owner. */
export interface TunnelEvents {
  connected?(up: boolean): void
  /** A dial ended before the connection opened (refused, unreachable). */
  dialFailed?(): void
}

const OPEN = 1
const PING_MS = 20_000
/** No message for this long and the connection is taken for dead. */
const DEAD_MS = 60_000
/**
 * A dial not open by then is given up and tried again: a server restarting may take the connection and never answer
 * its upgrade, and a WebSocket has no connect timeout of its own.
 */
const DIAL_TIMEOUT_MS = 15_000

export class TunnelClient {
  private socket: SocketLike | null = null
  private readonly streams = new Map<number, { stream: LiveStream; handler: StreamHandler }>()
  private stopped = false
  private delay = 1000
  private lastSeen = 0
  private pinger: NodeJS.Timeout | null = null
  private dialTimer: NodeJS.Timeout | undefined
  private readonly connect: () => SocketLike
  private readonly opener: Opener
  private readonly log: (msg: string) => void
  private readonly events: TunnelEvents
  private readonly dialTimeoutMs: number

  constructor(
    connect: () => SocketLike,
    opener: Opener,
    log: (msg: string) => void,
    events: TunnelEvents = {},
    dialTimeoutMs = DIAL_TIMEOUT_MS,
  ) {
    this.connect = connect
    this.opener = opener
    this.log = log
    this.events = events
    this.dialTimeoutMs = dialTimeoutMs
  }

  start() {
    this.dial()
  }

  stop() {
    this.stopped = true
    clearTimeout(this.dialTimer)
    if (this.pinger) clearInterval(this.pinger)
    this.socket?.close(1000, 'agent stopping')
    this.drop('the node agent stopped')
  }

  get open(): number {
    return this.streams.size
  }

  private dial() {
    if (this.stopped) return
    const socket = this.connect()
    socket.binaryType = 'arraybuffer'
    this.socket = socket
    let opened = false
    const lost = () => {
      if (this.socket !== socket) return
      clearTimeout(this.dialTimer)
      this.socket = null
      if (this.pinger) clearInterval(this.pinger)
      this.drop('the tunnel to the server was lost')
      if (opened) this.events.connected?.(false)
      else this.events.dialFailed?.()
      if (this.stopped) return
      setTimeout(() => this.dial(), this.delay)
      this.delay = Math.min(this.delay * 2, 30_000)
    }
    this.dialTimer = setTimeout(() => {
      if (opened || this.socket !== socket) return
      this.log(`the tunnel did not open in ${this.dialTimeoutMs / 1000}s: dialling again`)
      lost()
      try {
        socket.close()
      } catch {
        // not even connecting
      }
    }, this.dialTimeoutMs)
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return socket.close(1000, 'given up')
      opened = true
      clearTimeout(this.dialTimer)
      this.delay = 1000
      this.lastSeen = Date.now()
      this.events.connected?.(true)
      this.pinger = setInterval(() => this.ping(socket), PING_MS)
    })
    socket.addEventListener('message', (ev: { data: string | ArrayBuffer }) => {
      if (this.socket !== socket) return
      this.lastSeen = Date.now()
      if (typeof ev.data !== 'string') this.frame(ev.data)
    })
    socket.addEventListener('close', lost)
    socket.addEventListener('error', () => undefined)
  }

  private ping(socket: SocketLike) {
    if (Date.now() - this.lastSeen > DEAD_MS) {
      this.log('the tunnel went quiet: reconnecting')
      socket.close(4001, 'no answer to pings')
      return
    }
    if (socket.readyState === OPEN) socket.send('ping')
  }

  /** Sends a frame if the tunnel is up (a stream on a lost tunnel has already been ended). */
  send(frame: Uint8Array) {
    if (this.socket?.readyState === OPEN) this.socket.send(frame)
  }

  private frame(message: ArrayBuffer) {
    const f = decodeFrame(message)
    if (!f) return
    const entry = this.streams.get(f.stream)
    switch (f.type) {
      case FrameType.OPEN: {
        const request = readJson<StreamRequest>(f.payload)
        if (!request || entry) return
        const stream = new LiveStream(f.stream, request, this)
        try {
          this.streams.set(f.stream, { stream, handler: this.opener(stream) })
        } catch (e) {
          stream.close(`the node agent cannot serve this stream: ${(e as Error).message}`)
        }
        return
      }
      case FrameType.DATA:
        if (f.payload.length > 1) entry?.handler.data(f.payload[0]!, f.payload.slice(1))
        return
      case FrameType.CREDIT:
        entry?.stream.granted(creditOf(f.payload))
        return
      case FrameType.EOF:
        entry?.handler.eof(f.payload[0]!)
        return
      case FrameType.CLOSE:
        if (!entry) return
        this.streams.delete(f.stream)
        entry.stream.ended = true
        entry.handler.closed(readJson<{ error?: string }>(f.payload)?.error)
    }
  }

  /** A stream's handler ended it. */
  forget(id: number) {
    this.streams.delete(id)
  }

  private drop(why: string) {
    for (const { stream, handler } of this.streams.values()) {
      stream.ended = true
      handler.closed(why)
    }
    this.streams.clear()
  }
}

class LiveStream implements Stream {
  ended = false
  private readonly window: Window
  private drains: (() => void)[] = []
  private flushed: (() => void)[] = []
  readonly id: number
  readonly request: StreamRequest & { window?: number }
  private readonly tunnel: TunnelClient

  constructor(id: number, request: StreamRequest & { window?: number }, tunnel: TunnelClient) {
    this.id = id
    this.request = request
    this.tunnel = tunnel
    this.window = new Window(request.window)
  }

  get blocked(): boolean {
    return this.window.blocked
  }

  send(channel: number, bytes: Uint8Array) {
    if (this.ended || bytes.length === 0) return
    const payload = new Uint8Array(bytes.length + 1)
    payload[0] = channel
    payload.set(bytes, 1)
    for (const p of this.window.push(payload)) this.tunnel.send(dataFrame(this.id, p[0]!, p.subarray(1)))
  }

  granted(bytes: number) {
    for (const p of this.window.grant(bytes)) this.tunnel.send(dataFrame(this.id, p[0]!, p.subarray(1)))
    if (this.window.pending === 0) {
      const flushed = this.flushed
      this.flushed = []
      for (const cb of flushed) cb()
    }
    if (!this.window.blocked) {
      const waiting = this.drains
      this.drains = []
      for (const cb of waiting) cb()
    }
  }

  /** Runs `cb` once everything sent so far has gone (EOF and CLOSE must not overtake data). */
  private afterFlush(cb: () => void) {
    if (this.window.pending === 0) cb()
    else this.flushed.push(cb)
  }

  onDrain(cb: () => void) {
    if (!this.window.blocked) cb()
    else this.drains.push(cb)
  }

  grant(bytes: number) {
    if (!this.ended && bytes > 0) this.tunnel.send(creditFrame(this.id, bytes))
  }

  eof(channel: number) {
    this.afterFlush(() => {
      if (!this.ended) this.tunnel.send(eofFrame(this.id, channel))
    })
  }

  headers(status: number, headers: [string, string][]) {
    if (!this.ended) this.tunnel.send(jsonFrame(FrameType.HEADERS, this.id, { status, headers }))
  }

  /** Ends the stream once its data has gone; an error ends it at once, giving up what waits for credit. */
  close(error?: string) {
    const end = () => {
      if (this.ended) return
      this.ended = true
      this.tunnel.send(closeFrame(this.id, error))
      this.tunnel.forget(this.id)
    }
    if (error === undefined) this.afterFlush(end)
    else end()
  }
}

/** kube's WebSocket bearer-token subprotocol, and ours. */
export function tunnelProtocols(token: string | undefined): string[] {
  const bearer = token ? [`base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`] : []
  return [TUNNEL_PROTOCOL, ...bearer]
}
