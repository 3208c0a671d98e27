// The WebSocket channel protocols of exec, attach and portforward (k8s.io/apimachinery/pkg/util/remotecommand and
// kubelet's cri/streaming): negotiating a subprotocol, and framing a message for a channel.
import type { Status } from '../registry/status'

/** Subprotocols we speak, most preferred first. The base64 variants carry channel and payload as text. */
const CHANNEL_PROTOCOLS = [
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
  'base64.channel.k8s.io',
] as const
const PORT_FORWARD_PROTOCOLS = ['v4.channel.k8s.io', 'portforward.k8s.io'] as const

export type StreamProtocol = (typeof CHANNEL_PROTOCOLS)[number] | (typeof PORT_FORWARD_PROTOCOLS)[number]

/** The error channel of exec and attach (stdin 0, stdout 1, stderr 2, error 3, resize 4). */
export const ERROR_CHANNEL = 3

/** The first subprotocol the client offers that we speak for `what`, or null (the client then gets a plain error). */
export function negotiateProtocol(offered: string | undefined, what: string): StreamProtocol | null {
  const ours: readonly StreamProtocol[] = what === 'portforward' ? PORT_FORWARD_PROTOCOLS : CHANNEL_PROTOCOLS
  for (const p of (offered ?? '').split(',').map((s) => s.trim())) {
    if ((ours as readonly string[]).includes(p)) return p as StreamProtocol
  }
  return null
}

/** A message on `channel`: one leading channel byte then the payload; base64 protocols send ASCII digit + base64. */
function channelMessage(protocol: StreamProtocol, channel: number, payload: string): string | Uint8Array {
  const bytes = new TextEncoder().encode(payload)
  if (protocol.includes('base64')) return String(channel) + btoa(String.fromCharCode(...bytes))
  const out = new Uint8Array(bytes.length + 1)
  out[0] = channel
  out.set(bytes, 1)
  return out
}

/**
 * What goes on the error channel: from v4 on, a metav1.Status as JSON (clients read the exit code from it); before,
 * the bare message text.
 */
export function errorPayload(protocol: StreamProtocol, status: Status): string {
  if (protocol.startsWith('v4') || protocol.startsWith('v5')) {
    // The kubelet marshals the Status it built without TypeMeta, fields in Go's order.
    const { metadata, status: outcome, message, reason, details, code } = status
    return JSON.stringify({ metadata, status: outcome, message, reason, details, code })
  }
  return status.message ?? ''
}

/**
 * Accepts a stream only to refuse it: the Status on the error channel, then a close, after `closeDelayMs` (see
 * stream-close-delay.ts) and never before the upgrade has gone out.
 */
export function refusedStream(protocol: StreamProtocol, status: Status, closeDelayMs: number): Response {
  const pair = new WebSocketPair()
  const [client, server] = [pair[0], pair[1]]
  server.accept()
  server.send(channelMessage(protocol, ERROR_CHANNEL, errorPayload(protocol, status)))
  setTimeout(() => server.close(1000, ''), closeDelayMs)
  return new Response(null, { status: 101, webSocket: client, headers: { 'Sec-WebSocket-Protocol': protocol } })
}
