// A minimal RFC 6455 client for the benchmark's thousand watchers: the handshake, unmasked server frames
// (fragmented or not), ping, close. The load generator shares two cores with workerd, so its own cost is part of
// every latency it reports: a thousand of Node's WebSocket objects held a ~115 MB heap whose major collections
// (every second or two, 30-55 ms of marking) delayed whole events, in kubeflare's rows and the bare ones alike. One
// net.Socket and a frame parser per watcher keep the instrument out of the numbers it measures.
import net from 'node:net'
import { createHash, randomBytes } from 'node:crypto'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
const CONNECTING = 0,
  OPEN = 1,
  CLOSING = 2,
  CLOSED = 3

/** A client frame: FIN set, masked as RFC 6455 requires of clients. */
function clientFrame(opcode, payload) {
  const mask = randomBytes(4)
  const len = payload.length
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, 0x80 | len])
      : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff])
  const body = Buffer.alloc(len)
  for (let i = 0; i < len; i++) body[i] = payload[i] ^ mask[i & 3]
  return Buffer.concat([head, mask, body])
}

/** The subset of the WHATWG WebSocket surface the benchmark uses: readyState, addEventListener, close(). */
export class LeanWebSocket {
  static OPEN = OPEN
  readyState = CONNECTING
  #listeners = { open: [], message: [], error: [], close: [] }
  #socket
  #buf = Buffer.alloc(0)
  #handshook = false
  #key = randomBytes(16).toString('base64')
  #fragments = []
  #fragmentOpcode = 0

  /** `headers`: extra request headers for the upgrade (the bench's token: `{ authorization: 'Bearer …' }`). */
  constructor(url, { headers = {} } = {}) {
    const u = new URL(url)
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')
    this.#socket = net.connect({ host: u.hostname, port: Number(u.port || 80), noDelay: true })
    this.#socket.on('connect', () => {
      this.#socket.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${this.#key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      )
    })
    this.#socket.on('data', (chunk) => this.#onData(chunk))
    this.#socket.on('error', (e) => this.#fail(e))
    this.#socket.on('close', () => this.#closed(1006, ''))
  }

  addEventListener(type, fn) {
    this.#listeners[type]?.push(fn)
  }

  close(code = 1000, reason = '') {
    if (this.readyState !== OPEN) return
    this.readyState = CLOSING
    const r = Buffer.from(reason, 'utf8')
    const payload = Buffer.alloc(2 + r.length)
    payload.writeUInt16BE(code, 0)
    r.copy(payload, 2)
    this.#socket.write(clientFrame(0x8, payload))
    // The server answers with its own close frame; a server that never does still gets its socket ended.
    setTimeout(() => this.#socket.destroy(), 2000).unref()
  }

  #emit(type, event) {
    for (const fn of this.#listeners[type]) fn(event)
  }

  #fail(error) {
    if (this.readyState === CLOSED) return
    this.#emit('error', { error, message: error?.message ?? String(error) })
    this.#closed(1006, '')
  }

  #closed(code, reason) {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.#socket.destroy()
    this.#emit('close', { code, reason })
  }

  #onData(chunk) {
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk
    if (!this.#handshook) {
      const end = this.#buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = this.#buf.subarray(0, end).toString('latin1')
      this.#buf = this.#buf.subarray(end + 4)
      const accept = createHash('sha1')
        .update(this.#key + GUID)
        .digest('base64')
      if (
        !/^HTTP\/1\.1 101 /.test(head) ||
        !head.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`)
      ) {
        this.#fail(new Error(`upgrade refused: ${head.split('\r\n')[0]}`))
        return
      }
      this.#handshook = true
      this.readyState = OPEN
      this.#emit('open', {})
    }
    this.#frames()
  }

  #frames() {
    let off = 0
    const b = this.#buf
    while (b.length - off >= 2) {
      const fin = (b[off] & 0x80) !== 0
      const opcode = b[off] & 0x0f
      let len = b[off + 1] & 0x7f
      let at = off + 2
      if (len === 126) {
        if (b.length - at < 2) break
        len = b.readUInt16BE(at)
        at += 2
      } else if (len === 127) {
        if (b.length - at < 8) break
        len = Number(b.readBigUInt64BE(at))
        at += 8
      }
      if (b[off + 1] & 0x80) {
        this.#fail(new Error('the server masked a frame'))
        return
      }
      if (b.length - at < len) break
      const payload = b.subarray(at, at + len)
      off = at + len
      this.#frame(fin, opcode, payload)
      if (this.readyState === CLOSED) return
    }
    this.#buf = off === b.length ? Buffer.alloc(0) : b.subarray(off)
  }

  #frame(fin, opcode, payload) {
    if (opcode === 0x9) {
      this.#socket.write(clientFrame(0xa, payload))
      return
    }
    if (opcode === 0xa) return
    if (opcode === 0x8) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005
      if (this.readyState === OPEN) {
        this.readyState = CLOSING
        this.#socket.write(clientFrame(0x8, payload.subarray(0, 2)))
      }
      this.#closed(code, payload.subarray(2).toString('utf8'))
      return
    }
    if (fin && (opcode === 0x1 || opcode === 0x2)) {
      this.#emit('message', { data: opcode === 0x1 ? payload.toString('utf8') : Buffer.from(payload) })
      return
    }
    if (opcode === 0x1 || opcode === 0x2) {
      this.#fragmentOpcode = opcode
      this.#fragments = []
    } else if (opcode !== 0x0) {
      this.#fail(new Error(`unknown opcode ${opcode}`))
      return
    }
    this.#fragments.push(Buffer.from(payload))
    if (!fin) return
    const whole = this.#fragments.length === 1 ? this.#fragments[0] : Buffer.concat(this.#fragments)
    this.#fragments = []
    this.#emit('message', { data: this.#fragmentOpcode === 0x1 ? whole.toString('utf8') : whole })
  }
}
