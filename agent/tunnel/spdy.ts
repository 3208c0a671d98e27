// SPDY/3.1 as kubectl's port-forward speaks it (draft-mbelshe-httpbis-spdy-00, the framing moby/spdystream
// implements): control and data frames read from a byte stream, and header blocks compressed with zlib and the
// spec's dictionary, one compression context per direction for the whole session. The contexts are kept as the last
// 32 KiB each side has seen, which is all a deflate stream refers back to, so every block is coded synchronously.
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'

const VERSION = 3
export const SYN_STREAM = 1
export const SYN_REPLY = 2
export const RST_STREAM = 3
export const SETTINGS = 4
export const PING = 6
export const GOAWAY = 7
export const HEADERS = 8
export const WINDOW_UPDATE = 9
export const FLAG_FIN = 0x01

/** RST_STREAM status codes. */
export const RST = { PROTOCOL_ERROR: 1, INVALID_STREAM: 2, REFUSED_STREAM: 3, CANCEL: 5, INTERNAL_ERROR: 6 } as const

/** The header compression dictionary of SPDY/3 (section 2.6.10.1): length-prefixed words, then a run of text. */
const WORDS = [
  'options',
  'head',
  'post',
  'put',
  'delete',
  'trace',
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'accept-ranges',
  'age',
  'allow',
  'authorization',
  'cache-control',
  'connection',
  'content-base',
  'content-encoding',
  'content-language',
  'content-length',
  'content-location',
  'content-md5',
  'content-range',
  'content-type',
  'date',
  'etag',
  'expect',
  'expires',
  'from',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'pragma',
  'proxy-authenticate',
  'proxy-authorization',
  'range',
  'referer',
  'retry-after',
  'server',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'vary',
  'via',
  'warning',
  'www-authenticate',
  'method',
  'get',
  'status',
  '200 OK',
  'version',
  'HTTP/1.1',
  'url',
  'public',
  'set-cookie',
  'keep-alive',
  'origin',
]
const TAIL =
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
  '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized' +
  '403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service Unavailable' +
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT' +
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,' +
  'text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.'

export const DICTIONARY: Buffer = Buffer.concat([
  ...WORDS.map((w) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(w.length)
    return Buffer.concat([len, Buffer.from(w, 'latin1')])
  }),
  Buffer.from(TAIL, 'latin1'),
])

const WINDOW = 32 * 1024

function adler32(data: Buffer): number {
  let a = 1
  let b = 0
  for (const byte of data) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  return ((b << 16) | a) >>> 0
}

/** One direction's zlib context: what the other side's (de)compressor holds as its window. */
class Context {
  private window: Buffer = DICTIONARY
  started = false

  slide(plain: Buffer) {
    const all = Buffer.concat([this.window, plain])
    this.window = all.length > WINDOW ? all.subarray(all.length - WINDOW) : all
  }

  get dictionary(): Buffer {
    return this.window
  }
}

export type Headers = Map<string, string>

/** Header blocks of one session: decoding the peer's, encoding ours. */
export class HeaderCodec {
  private readonly incoming = new Context()
  private readonly outgoing = new Context()

  decode(block: Buffer): Headers {
    let raw = block
    if (!this.incoming.started) {
      // zlib header: CMF, FLG (FDICT set), then the dictionary's adler32.
      raw = block.subarray((block[1]! & 0x20) !== 0 ? 6 : 2)
      this.incoming.started = true
    }
    const plain = inflateRawSync(raw, { dictionary: this.incoming.dictionary, finishFlush: constants.Z_SYNC_FLUSH })
    this.incoming.slide(plain)
    const headers: Headers = new Map()
    let at = 4
    const count = plain.readUInt32BE(0)
    for (let i = 0; i < count; i++) {
      const nameLength = plain.readUInt32BE(at)
      const name = plain.subarray(at + 4, at + 4 + nameLength).toString('latin1')
      at += 4 + nameLength
      const valueLength = plain.readUInt32BE(at)
      headers.set(name, plain.subarray(at + 4, at + 4 + valueLength).toString('latin1'))
      at += 4 + valueLength
    }
    return headers
  }

  encode(headers: Headers): Buffer {
    const parts: Buffer[] = [u32(headers.size)]
    for (const [k, v] of headers)
      parts.push(u32(k.length), Buffer.from(k, 'latin1'), u32(v.length), Buffer.from(v, 'latin1'))
    const plain = Buffer.concat(parts)
    const body = deflateRawSync(plain, { dictionary: this.outgoing.dictionary, finishFlush: constants.Z_SYNC_FLUSH })
    this.outgoing.slide(plain)
    if (this.outgoing.started) return body
    this.outgoing.started = true
    // The first block opens the zlib stream: 0x78 0xf9 (deflate, best compression, preset dictionary) + its adler32.
    return Buffer.concat([Buffer.from([0x78, 0xf9]), u32(adler32(DICTIONARY)), body])
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

export type SpdyFrame =
  | { control: false; stream: number; flags: number; data: Buffer }
  | { control: true; type: number; flags: number; body: Buffer }

/** Frames out of a byte stream (they may arrive split or joined across messages). */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0)

  push(chunk: Uint8Array): SpdyFrame[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : Buffer.from(chunk)
    const frames: SpdyFrame[] = []
    while (this.buffered.length >= 8) {
      const length = this.buffered.readUInt32BE(4) & 0xffffff
      if (this.buffered.length < 8 + length) break
      const flags = this.buffered[4]!
      const body = this.buffered.subarray(8, 8 + length)
      if (this.buffered[0]! & 0x80) frames.push({ control: true, type: this.buffered.readUInt16BE(2), flags, body })
      else frames.push({ control: false, stream: this.buffered.readUInt32BE(0) & 0x7fffffff, flags, data: body })
      this.buffered = this.buffered.subarray(8 + length)
    }
    return frames
  }
}

export function controlFrame(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt16BE(0x8000 | VERSION, 0)
  head.writeUInt16BE(type, 2)
  head.writeUInt32BE(((flags & 0xff) << 24) | body.length, 4)
  return Buffer.concat([head, body])
}

export function dataFrame(stream: number, data: Uint8Array, fin = false): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(stream & 0x7fffffff, 0)
  head.writeUInt32BE(((fin ? FLAG_FIN : 0) << 24) | data.length, 4)
  return Buffer.concat([head, data])
}

export const synReply = (stream: number, block: Buffer, fin = false) =>
  controlFrame(SYN_REPLY, fin ? FLAG_FIN : 0, Buffer.concat([u32(stream), block]))

export const rstStream = (stream: number, status: number) =>
  controlFrame(RST_STREAM, 0, Buffer.concat([u32(stream), u32(status)]))

export const pingFrame = (id: number) => controlFrame(PING, 0, u32(id))

export const goAway = (lastStream: number, status = 0) =>
  controlFrame(GOAWAY, 0, Buffer.concat([u32(lastStream), u32(status)]))

/** The stream id a SYN_STREAM, SYN_REPLY, RST_STREAM, HEADERS or WINDOW_UPDATE body starts with. */
export const streamOf = (body: Buffer) => body.readUInt32BE(0) & 0x7fffffff

/** The header block of a SYN_STREAM (after stream id, associated id, priority and slot). */
export const synStreamBlock = (body: Buffer) => body.subarray(10)
