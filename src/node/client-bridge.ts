// Between a client's streaming WebSocket (kube's channel protocols of exec, attach and portforward) and the tunnel's
// frames: a client message becomes DATA (or EOF, for v5's close signal), a DATA payload becomes a client message in
// the client's protocol (binary channel byte + bytes; base64 protocols as digit + base64 text; the error channel's
// Status as bare text before v4). A portforward stream starts by telling the client each channel's port. kubectl's
// SPDY port-forward session is a channel-less byte stream both ways.
import { dataFrame, eofFrame } from './tunnel-frames'

/** What a client socket's attachment records about its stream (it survives hibernation). */
export interface ClientStream {
  id: number
  op: 'exec' | 'attach' | 'portforward'
  protocol: string
  ports?: number[]
  /** When the client's upgrade was answered (ms since epoch). */
  openedAt?: number
  /** A byte stream with no channels (kubectl's SPDY port-forward session): in on channel 0, out on channel 1. */
  raw?: boolean
}

const ERROR_CHANNEL = 3
/** v5.channel.k8s.io: a message on this channel closes the channel named by its one byte of data. */
const CLOSE_SIGNAL = 255

const isBase64 = (protocol: string) => protocol.includes('base64')
const utf8 = new TextEncoder()

function base64Bytes(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

/** Base64 of bytes, in slices (spreading a large array into one call overflows the stack). */
function base64(data: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The frames a client message makes (none for a message that carries nothing). */
export function fromClient(s: ClientStream, message: string | ArrayBuffer): Uint8Array[] {
  if (s.raw) {
    const bytes = typeof message === 'string' ? utf8.encode(message) : new Uint8Array(message)
    return bytes.length ? [dataFrame(s.id, 0, bytes)] : []
  }
  let channel: number
  let data: Uint8Array
  if (typeof message === 'string') {
    if (message.length === 0) return []
    if (isBase64(s.protocol)) {
      channel = Number(message[0])
      const decoded = base64Bytes(message.slice(1))
      if (!Number.isInteger(channel) || !decoded) return []
      data = decoded
    } else {
      // The python client writes channel messages as text: chr(channel) + data.
      channel = message.charCodeAt(0)
      data = utf8.encode(message.slice(1))
    }
  } else {
    const bytes = new Uint8Array(message)
    if (bytes.length === 0) return []
    channel = bytes[0]!
    data = bytes.subarray(1)
  }
  if (s.protocol === 'v5.channel.k8s.io' && channel === CLOSE_SIGNAL)
    return data.length ? [eofFrame(s.id, data[0]!)] : []
  if (data.length === 0) return []
  return [dataFrame(s.id, channel, data)]
}

/** The client message for a DATA payload (channel byte + bytes). */
export function toClient(s: ClientStream, payload: Uint8Array): string | Uint8Array {
  if (s.raw) return payload.slice(1)
  const channel = payload[0]!
  let data = payload.subarray(1)
  if (channel === ERROR_CHANNEL && s.op !== 'portforward' && !/^v[45]\./.test(s.protocol)) {
    // Before v4 the error channel carries the message alone.
    try {
      const status = JSON.parse(new TextDecoder().decode(data)) as { message?: string }
      data = utf8.encode(status.message ?? '')
    } catch {
      // not a Status: as it is
    }
  }
  if (isBase64(s.protocol)) return String(channel) + base64(data)
  const out = new Uint8Array(data.length + 1)
  out[0] = channel
  out.set(data, 1)
  return out
}

/** portforward: each port's data (2i) and error (2i+1) channel first carries the port, little-endian. */
export function portPrefixes(ports: number[]): Uint8Array[] {
  return ports.flatMap((port, i) => [
    Uint8Array.of(2 * i, port & 0xff, port >> 8),
    Uint8Array.of(2 * i + 1, port & 0xff, port >> 8),
  ])
}
