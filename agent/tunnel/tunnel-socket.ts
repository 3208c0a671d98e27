// The tunnel's WebSocket: a minimal RFC 6455 client over node:http(s) that offers no extension. Node's own WebSocket
// (undici) always offers permessage-deflate, and workerd accepts it, so every message the node object sent the agent
// was deflated (and inflated here): a client's upload through the tunnel (stdin, `kubectl cp` into a pod, a
// port-forward's writes) ran at about 25 MB/s, bound by compressing bytes that are mostly incompressible; without it,
// about 80 MB/s. What the tunnel carries needs no compression of its own. Messages are whole frames or fragments;
// the server's pings are answered; binary messages arrive as ArrayBuffers, text as strings.
import { createHash, randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Duplex } from 'node:stream'
import type { SocketLike } from './tunnel-client.ts'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
const CONNECTING = 0
const OPEN = 1
const CLOSING = 2
const CLOSED = 3
/** A message larger than this ends the connection (the node object's frames are at most a few hundred KiB). */
const MAX_MESSAGE = 64 * 1024 * 1024

type Listener = (ev: { data: string | ArrayBuffer; code?: number; reason?: string }) => void

export class TunnelSocket implements SocketLike {
  binaryType = 'arraybuffer'
  readyState = CONNECTING
  /** The subprotocol the server chose. */
  protocol = ''
  private socket: Duplex | null = null
  private readonly listeners = new Map<string, Listener[]>()
  private readonly request: ReturnType<typeof httpRequest>
  /** Bytes received and not yet parsed, as they came. */
  private chunks: Buffer[] = []
  private buffered = 0
  private fragments: Buffer[] = []
  private fragmentsLength = 0
  private fragmentOpcode = 0
  private closeEmitted = false

  constructor(url: string, protocols: string[]) {
    const target = new URL(url.replace(/^ws/, 'http'))
    const key = randomBytes(16).toString('base64')
    const headers: Record<string, string> = {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': key,
    }
    if (protocols.length) headers['Sec-WebSocket-Protocol'] = protocols.join(', ')
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest
    this.request = request(target, { headers })
    this.request.on('upgrade', (res: IncomingMessage, socket: Duplex, head: Buffer) => {
      const accept = createHash('sha1')
        .update(key + GUID)
        .digest('base64')
      const chosen = String(res.headers['sec-websocket-protocol'] ?? '')
      if (
        this.readyState !== CONNECTING ||
        res.headers['sec-websocket-accept'] !== accept ||
        res.headers['sec-websocket-extensions'] ||
        (chosen !== '' && !protocols.includes(chosen))
      ) {
        socket.destroy()
        return this.finish(1006, 'the server answered the upgrade wrongly')
      }
      this.protocol = chosen
      this.socket = socket
      if ('setNoDelay' in socket) (socket as { setNoDelay(v: boolean): void }).setNoDelay(true)
      socket.on('data', (d: Buffer) => this.receive(d))
      socket.on('close', () => this.finish(1006, ''))
      socket.on('error', () => undefined)
      this.readyState = OPEN
      this.emit('open', { data: '' })
      if (head.length) this.receive(head)
    })
    this.request.on('response', (res: IncomingMessage) => {
      res.resume()
      this.finish(1006, `the server answered ${res.statusCode}`)
    })
    this.request.on('error', () => this.finish(1006, ''))
    this.request.end()
  }

  addEventListener(type: string, listener: Listener) {
    const list = this.listeners.get(type) ?? []
    list.push(listener)
    this.listeners.set(type, list)
  }

  send(data: string | Uint8Array) {
    if (this.readyState !== OPEN) return
    if (typeof data === 'string') this.frame(0x1, Buffer.from(data))
    else this.frame(0x2, data)
  }

  close(code = 1000, reason = '') {
    if (this.readyState === CONNECTING) {
      this.request.destroy()
      return this.finish(1006, reason)
    }
    if (this.readyState !== OPEN) return
    this.readyState = CLOSING
    const why = Buffer.from(reason).subarray(0, 123)
    const payload = Buffer.alloc(2 + why.length)
    payload.writeUInt16BE(code, 0)
    why.copy(payload, 2)
    this.frame(0x8, payload)
    this.socket?.end()
    // A server that never answers the close: the connection is dropped after a while.
    setTimeout(() => this.socket?.destroy(), 5000).unref()
  }

  private emit(type: string, ev: Parameters<Listener>[0]) {
    for (const l of this.listeners.get(type) ?? []) l(ev)
  }

  private finish(code: number, reason: string) {
    this.readyState = CLOSED
    if (this.closeEmitted) return
    this.closeEmitted = true
    this.emit('close', { data: '', code, reason })
  }

  /** Writes one masked frame (FIN set), as a client must. */
  private frame(opcode: number, payload: Uint8Array) {
    const socket = this.socket
    if (!socket) return
    const len = payload.length
    const head = Buffer.alloc(len < 126 ? 6 : len < 65536 ? 8 : 14)
    head[0] = 0x80 | opcode
    if (len < 126) head[1] = 0x80 | len
    else if (len < 65536) {
      head[1] = 0x80 | 126
      head.writeUInt16BE(len, 2)
    } else {
      head[1] = 0x80 | 127
      head.writeBigUInt64BE(BigInt(len), 2)
    }
    const mask = randomBytes(4)
    mask.copy(head, head.length - 4)
    socket.cork()
    socket.write(head)
    socket.write(masked(payload, mask))
    socket.uncork()
  }

  private receive(data: Buffer) {
    this.chunks.push(data)
    this.buffered += data.length
    while (this.socket) {
      if (this.buffered < 2) return
      const first = this.peek(14)
      const fin = (first[0]! & 0x80) !== 0
      const opcode = first[0]! & 0x0f
      let len = first[1]! & 0x7f
      let at = 2
      if (len === 126) {
        if (first.length < 4) return
        len = first.readUInt16BE(2)
        at = 4
      } else if (len === 127) {
        if (first.length < 10) return
        const big = first.readBigUInt64BE(2)
        if (big > BigInt(MAX_MESSAGE)) return this.fail(1009, 'message too big')
        len = Number(big)
        at = 10
      }
      // Servers do not mask; a masked frame is a protocol error.
      if (first[1]! & 0x80) return this.fail(1002, 'masked frame from the server')
      if (this.buffered < at + len) return
      const frame = this.take(at + len).subarray(at)
      this.handle(fin, opcode, frame)
    }
  }

  private handle(fin: boolean, opcode: number, payload: Buffer) {
    if (opcode === 0x9) return this.frame(0xa, payload)
    if (opcode === 0xa) return
    if (opcode === 0x8) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005
      if (this.readyState === OPEN) {
        this.readyState = CLOSING
        this.frame(0x8, payload.subarray(0, 2))
      }
      this.socket?.end()
      return this.finish(code, payload.subarray(2).toString())
    }
    if (opcode !== 0x0) {
      this.fragmentOpcode = opcode
      this.fragments = []
      this.fragmentsLength = 0
    }
    this.fragments.push(payload)
    this.fragmentsLength += payload.length
    if (this.fragmentsLength > MAX_MESSAGE) return this.fail(1009, 'message too big')
    if (!fin) return
    const whole = this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments)
    this.fragments = []
    this.fragmentsLength = 0
    if (this.fragmentOpcode === 0x1) this.emit('message', { data: whole.toString('utf8') })
    else
      this.emit('message', {
        data: whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer,
      })
  }

  private fail(code: number, why: string) {
    this.socket?.destroy()
    this.socket = null
    this.finish(code, why)
  }

  /** The first `n` buffered bytes (fewer if fewer are buffered), without consuming them. */
  private peek(n: number): Buffer {
    if (this.chunks[0]!.length >= n || this.chunks.length === 1) return this.chunks[0]!.subarray(0, n)
    const joined = Buffer.concat(this.chunks)
    this.chunks = [joined]
    return joined.subarray(0, n)
  }

  /** Consumes `n` buffered bytes (one copy at most, when they span chunks). */
  private take(n: number): Buffer {
    this.buffered -= n
    const head = this.chunks[0]!
    if (head.length >= n) {
      if (head.length === n) this.chunks.shift()
      else this.chunks[0] = head.subarray(n)
      return head.subarray(0, n)
    }
    const out = Buffer.allocUnsafe(n)
    let filled = 0
    while (filled < n) {
      const c = this.chunks[0]!
      const part = Math.min(c.length, n - filled)
      c.copy(out, filled, 0, part)
      filled += part
      if (part === c.length) this.chunks.shift()
      else this.chunks[0] = c.subarray(part)
    }
    return out
  }
}

/** The payload XORed with the mask, four bytes at a time. */
function masked(payload: Uint8Array, mask: Buffer): Uint8Array {
  const out = new Uint8Array(payload.length)
  out.set(payload)
  const words = payload.length >>> 2
  const word = new Uint32Array(mask.buffer.slice(mask.byteOffset, mask.byteOffset + 4))[0]!
  const view = new Uint32Array(out.buffer, 0, words)
  for (let i = 0; i < words; i++) view[i]! ^= word
  for (let i = words << 2; i < out.length; i++) out[i]! ^= mask[i & 3]!
  return out
}
