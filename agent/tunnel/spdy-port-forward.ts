// kubectl port-forward's SPDY session, tunnelled over the WebSocket (subprotocol SPDY/3.1+portforward.k8s.io) and
// over our tunnel as a byte stream (channel 0 in, channel 1 out), served as kubelet's SPDY port forwarder serves it:
// each local connection of kubectl is a pair of streams sharing a requestid (streamtype error, then data) for one
// port; once both are open the port is dialled, the data stream and the connection copy into each other (FIN half-
// closes), and a failure is written on the error stream. Every stream is accepted with an empty SYN_REPLY; PINGs
// are answered. spdystream does no SPDY flow control, and the node object cannot see how much of what it sends kubectl
// has read (workerd gives a WebSocket no send-buffer level): so the session follows kubectl's reading itself. It
// sends a PING of its own (even ids: kubectl's are odd) after every PING_EVERY bytes of data; kubectl answers a PING
// only once it has read every frame before it, and stops reading frames while it cannot hand their data to its local
// connection (spdystream's frame queues are bounded). With more than ACK_WINDOW bytes unanswered, the pod's sockets
// are paused: a kubectl whose client stops reading stops the pod's writer, and nothing piles up on the way.
import type { Duplex } from 'node:stream'
import { dialError, dialPort, forwardError } from './pod-ports.ts'
import {
  dataFrame,
  FLAG_FIN,
  FrameReader,
  GOAWAY,
  HeaderCodec,
  PING,
  pingFrame,
  RST_STREAM,
  rstStream,
  RST,
  streamOf,
  SYN_STREAM,
  synReply,
  synStreamBlock,
} from './spdy.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

interface Pair {
  port: number
  data?: number
  error?: number
  socket?: Duplex
}

const IN = 0
const OUT = 1
/** Data kubectl may have unread before the pod's sockets are paused. */
export const ACK_WINDOW = 1024 * 1024
/** Data between two of our PINGs. */
export const PING_EVERY = 128 * 1024

export class SpdyPortForward {
  readonly handler: StreamHandler
  private readonly reader = new FrameReader()
  private readonly codec = new HeaderCodec()
  private readonly pairs = new Map<string, Pair>()
  /** SPDY stream id → its request id. */
  private readonly streams = new Map<number, string>()
  private readonly sockets = new Set<Duplex>()
  private paused = false
  private waitingDrain = false
  /** Data bytes sent, and how many of them kubectl has read (what had been sent when our last answered PING went). */
  private sent = 0
  private acked = 0
  private sincePing = 0
  private nextPing = 2
  private readonly pings = new Map<number, number>()
  private readonly stream: Stream
  private readonly pod: string
  private readonly uid: string
  private readonly known: boolean
  /** The pod's network namespace (--pod-network bridge): ports are dialled at its loopback. */
  private readonly netns: string | undefined

  constructor(stream: Stream, pod: string, uid: string, known: boolean, netns?: string) {
    this.stream = stream
    this.pod = pod
    this.uid = uid
    this.known = known
    this.netns = netns
    this.handler = {
      data: (channel, bytes) => {
        if (channel === IN) this.receive(bytes)
        else stream.grant(bytes.length)
      },
      eof: () => this.end(),
      closed: () => this.end(),
    }
  }

  private send(bytes: Buffer) {
    this.stream.send(OUT, bytes)
    this.throttle()
  }

  /** A pod connection's data to kubectl, with a PING of ours after every PING_EVERY bytes. */
  private sendData(id: number, chunk: Buffer) {
    this.stream.send(OUT, dataFrame(id, chunk))
    this.sent += chunk.length
    this.sincePing += chunk.length
    if (this.sincePing >= PING_EVERY) {
      this.sincePing = 0
      const ping = this.nextPing
      this.nextPing = this.nextPing >= 0x7ffffffe ? 2 : this.nextPing + 2
      this.pings.set(ping, this.sent)
      this.stream.send(OUT, pingFrame(ping))
    }
    this.throttle()
  }

  /** Data kubectl has not shown it read. */
  get unacknowledged(): number {
    return this.sent - this.acked
  }

  /**
   * Pauses every pod connection of the session while the tunnel has no credit or kubectl is ACK_WINDOW behind (one
   * session carries every connection: they wait together), and resumes them when neither holds.
   */
  private throttle() {
    const blocked = this.stream.blocked
    const hold = blocked || this.unacknowledged > ACK_WINDOW
    if (blocked && !this.waitingDrain) {
      this.waitingDrain = true
      this.stream.onDrain(() => {
        this.waitingDrain = false
        this.throttle()
      })
    }
    if (hold === this.paused) return
    this.paused = hold
    for (const s of this.sockets) {
      if (hold) s.pause()
      else s.resume()
    }
  }

  /** A PING from kubectl: its own is answered; ours says it has read what we had sent before it. */
  private ping(id: number) {
    if (id % 2 === 1) return this.send(pingFrame(id))
    const at = this.pings.get(id)
    if (at === undefined) return
    this.pings.delete(id)
    this.acked = Math.max(this.acked, at)
    this.throttle()
  }

  private receive(bytes: Uint8Array) {
    const writes: Promise<void>[] = []
    for (const frame of this.reader.push(bytes)) {
      if (!frame.control) {
        const pair = this.pairs.get(this.streams.get(frame.stream) ?? '')
        if (pair?.socket && frame.stream === pair.data) {
          const socket = pair.socket
          if (frame.data.length) writes.push(new Promise((r) => socket.write(frame.data, () => r())))
          if (frame.flags & FLAG_FIN) socket.end()
        }
        continue
      }
      if (frame.type === SYN_STREAM) this.open(frame.body)
      else if (frame.type === PING && frame.body.length >= 4) this.ping(frame.body.readUInt32BE(0))
      else if (frame.type === RST_STREAM) this.reset(streamOf(frame.body))
      else if (frame.type === GOAWAY) this.end()
    }
    void Promise.all(writes).then(() => this.stream.grant(bytes.length))
  }

  private open(body: Buffer) {
    const id = streamOf(body)
    const headers = this.codec.decode(synStreamBlock(body))
    const type = headers.get('streamtype')
    const port = Number(headers.get('port'))
    const request = headers.get('requestid') ?? String(id)
    if ((type !== 'data' && type !== 'error') || !Number.isInteger(port) || port < 1 || port > 65535) {
      this.send(rstStream(id, RST.PROTOCOL_ERROR))
      return
    }
    this.send(synReply(id, this.codec.encode(new Map())))
    this.streams.set(id, request)
    const pair = this.pairs.get(request) ?? { port }
    pair[type] = id
    this.pairs.set(request, pair)
    if (pair.data !== undefined && pair.error !== undefined) this.dial(pair)
  }

  private dial(pair: Pair) {
    if (!this.known) return this.fail(pair, 'the pod is not known on this node')
    const socket = dialPort(pair.port, this.netns)
    pair.socket = socket
    this.sockets.add(socket)
    if (this.paused) socket.pause()
    socket.on('data', (chunk: Buffer) => this.sendData(pair.data!, chunk))
    // The pod ended the connection: both streams end, as the kubelet closes them once its copy returns (kubectl
    // waits for the error stream's end before it closes its local connection).
    socket.on('end', () => {
      this.send(dataFrame(pair.data!, Buffer.alloc(0), true))
      if (pair.error === undefined) return
      this.send(dataFrame(pair.error, Buffer.alloc(0), true))
      pair.error = undefined
    })
    socket.on('error', (e) => this.fail(pair, dialError(e, pair.port)))
    socket.on('close', () => this.sockets.delete(socket))
  }

  private fail(pair: Pair, why: string) {
    if (pair.error === undefined) return
    this.send(dataFrame(pair.error, Buffer.from(forwardError(pair.port, this.pod, this.uid, why)), true))
    if (pair.data !== undefined) this.send(dataFrame(pair.data, Buffer.alloc(0), true))
    pair.error = undefined
  }

  private reset(id: number) {
    const pair = this.pairs.get(this.streams.get(id) ?? '')
    pair?.socket?.destroy()
  }

  private end() {
    for (const s of this.sockets) s.destroy()
    this.sockets.clear()
    this.stream.close()
  }
}
