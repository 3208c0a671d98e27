// The node tunnel's framing, shared by the Worker's node object and the agent (this file imports nothing, so both
// can: the agent through Node's type stripping). One WebSocket between a node's agent and its Durable Object carries
// many streams (an exec, a port-forward, a log, a proxied request). Every binary message is one frame:
//
//   byte 0      frame type
//   bytes 1..4  stream id (unsigned 32-bit, big-endian; chosen by the node object, never reused while open)
//   bytes 5..   payload, by type:
//     OPEN     JSON of the request (StreamRequest): what to run or reach, and the sender's initial credit
//     DATA     one channel byte, then bytes on that channel (exec/attach: kube's 0 stdin, 1 stdout, 2 stderr,
//              3 error, 4 resize; portforward: kube's 2i data and 2i+1 error of the i-th port; proxy: 0 request
//              body, 1 response body; log: 1)
//     CREDIT   unsigned 32-bit big-endian: how many more DATA payload bytes the receiver accepts
//     EOF      one channel byte: the sender will write no more on that channel (stdin closed, v5's close signal)
//     HEADERS  JSON {status, headers}: the HTTP answer head of a proxied request or a log
//     CLOSE    optional JSON {error?: string}: the stream is over in both directions; an error says why it broke
//
// Flow control: each side may have at most `window` bytes of DATA payload unacknowledged per stream; the receiver
// returns CREDIT as it hands data on (to a process, a socket, a client), so a slow consumer stops its producer and
// memory on both ends of the tunnel stays bounded by the window.
export const FrameType = {
  OPEN: 1,
  DATA: 2,
  CREDIT: 3,
  EOF: 4,
  HEADERS: 5,
  CLOSE: 6,
} as const
export type FrameType = (typeof FrameType)[keyof typeof FrameType]

/** The credit each side starts a stream with. */
export const INITIAL_WINDOW = 256 * 1024

/** The subprotocol of the tunnel WebSocket. */
export const TUNNEL_PROTOCOL = 'tunnel.kubeflare.dev'

export interface Frame {
  type: FrameType
  stream: number
  payload: Uint8Array
}

/** What a stream asks of the agent. */
export interface StreamRequest {
  op: 'exec' | 'attach' | 'portforward' | 'proxy' | 'log'
  namespace: string
  pod: string
  uid: string
  container?: string
  /** exec: the command; attach/exec: which channels the client opened, and whether it wants a terminal. */
  command?: string[]
  stdin?: boolean
  stdout?: boolean
  stderr?: boolean
  tty?: boolean
  /** portforward: the pod ports, in channel order; or kubectl's SPDY session as a byte stream (channel 0 in, 1 out). */
  ports?: number[]
  spdy?: boolean
  /** proxy: the request to make against the pod. */
  method?: string
  scheme?: string
  port?: number | string
  path?: string
  query?: string
  headers?: [string, string][]
  /** log: kube's PodLogOptions. */
  log?: Record<string, unknown>
}

export function encodeFrame(type: FrameType, stream: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const out = new Uint8Array(5 + payload.length)
  out[0] = type
  new DataView(out.buffer).setUint32(1, stream >>> 0)
  out.set(payload, 5)
  return out
}

/** A frame from a message, or null for anything that is not one (too short, unknown type). */
export function decodeFrame(message: ArrayBuffer | Uint8Array): Frame | null {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message)
  if (bytes.length < 5) return null
  const type = bytes[0]!
  if (type < FrameType.OPEN || type > FrameType.CLOSE) return null
  const stream = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1)
  return { type: type as FrameType, stream, payload: bytes.subarray(5) }
}

const utf8 = new TextEncoder()
const text = new TextDecoder()

export const jsonFrame = (type: FrameType, stream: number, value: unknown) =>
  encodeFrame(type, stream, utf8.encode(JSON.stringify(value)))

export function readJson<T>(payload: Uint8Array): T | null {
  try {
    return payload.length ? (JSON.parse(text.decode(payload)) as T) : null
  } catch {
    return null
  }
}

export function dataFrame(stream: number, channel: number, data: Uint8Array): Uint8Array {
  const payload = new Uint8Array(data.length + 1)
  payload[0] = channel
  payload.set(data, 1)
  return encodeFrame(FrameType.DATA, stream, payload)
}

export function creditFrame(stream: number, bytes: number): Uint8Array {
  const payload = new Uint8Array(4)
  new DataView(payload.buffer).setUint32(0, bytes >>> 0)
  return encodeFrame(FrameType.CREDIT, stream, payload)
}

export const creditOf = (payload: Uint8Array) =>
  payload.length >= 4 ? new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0) : 0

export const eofFrame = (stream: number, channel: number) => encodeFrame(FrameType.EOF, stream, Uint8Array.of(channel))

export const closeFrame = (stream: number, error?: string) =>
  error === undefined ? encodeFrame(FrameType.CLOSE, stream) : jsonFrame(FrameType.CLOSE, stream, { error })

/**
 * Credit accounting of one direction of one stream: what we may still send, and what we owe the peer. Data we cannot
 * send yet waits in a queue the caller bounds (it stops reading its source while `blocked`).
 */
export class Window {
  private available: number
  private readonly queue: Uint8Array[] = []
  private queued = 0

  constructor(initial: number = INITIAL_WINDOW) {
    this.available = initial
  }

  /** Bytes waiting for credit. */
  get pending(): number {
    return this.queued
  }

  get blocked(): boolean {
    return this.queued > 0 || this.available <= 0
  }

  /** Queues `data` (a whole DATA payload: channel byte and bytes) and answers the payloads that may go now. */
  push(data: Uint8Array): Uint8Array[] {
    this.queue.push(data)
    this.queued += data.length
    return this.drain()
  }

  /** The peer granted `bytes`: answers the payloads that may go now. */
  grant(bytes: number): Uint8Array[] {
    this.available += bytes
    return this.drain()
  }

  private drain(): Uint8Array[] {
    const out: Uint8Array[] = []
    while (this.queue.length && this.available > 0) {
      const next = this.queue[0]!
      // A payload larger than the credit left is split: its first part goes now (channel byte repeated).
      if (next.length - 1 > this.available && next.length > 1) {
        const take = Math.max(1, this.available)
        const head = new Uint8Array(take + 1)
        head[0] = next[0]!
        head.set(next.subarray(1, 1 + take), 1)
        const rest = new Uint8Array(next.length - take)
        rest[0] = next[0]!
        rest.set(next.subarray(1 + take), 1)
        this.queue[0] = rest
        this.queued -= take
        this.available -= take
        out.push(head)
        continue
      }
      this.queue.shift()
      this.queued -= next.length
      this.available -= Math.max(next.length - 1, 0)
      out.push(next)
    }
    return out
  }
}
