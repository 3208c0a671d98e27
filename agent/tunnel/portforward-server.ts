// pods/portforward on this node: connections to the pod's ports (the node's loopback, or the pod's own loopback in its
// network namespace: pod-ports.ts). Two client protocols arrive here: kube's WebSocket channels (portforward.k8s.io and
// v4.channel.k8s.io, client-node and the python client: every port in the request is dialled once, its data on
// channel 2i and errors on 2i+1) and kubectl 1.31+'s SPDY/3.1 tunnelled over the WebSocket (spdy-port-forward.ts).
// Reading from the pod stops while the tunnel has no credit; a client that leaves closes the connections.
import type { PodManager } from '../pod-manager.ts'
import { dialError, dialPort, forwardError } from './pod-ports.ts'
import { SpdyPortForward } from './spdy-port-forward.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

export function servePortForward(stream: Stream, pods: PodManager): StreamHandler {
  const { namespace, pod, uid } = stream.request
  const worker = pods.byName(namespace, pod)
  const known = worker?.uid === uid
  if (stream.request.spdy) return new SpdyPortForward(stream, pod, uid, known, worker?.netns?.path).handler
  const sockets = (stream.request.ports ?? []).map((port, i) => {
    if (!known) {
      stream.send(2 * i + 1, Buffer.from(forwardError(port, pod, uid, 'the pod is not known on this node')))
      return null
    }
    const socket = dialPort(port, worker?.netns?.path)
    socket.on('data', (chunk: Buffer) => {
      stream.send(2 * i, chunk)
      if (stream.blocked) {
        socket.pause()
        stream.onDrain(() => socket.resume())
      }
    })
    socket.on('error', (e) => stream.send(2 * i + 1, Buffer.from(forwardError(port, pod, uid, dialError(e, port)))))
    socket.on('close', () => {
      if (sockets.every((s) => !s || s.destroyed)) stream.close()
    })
    return socket
  })
  return {
    data(channel, bytes) {
      const socket = channel % 2 === 0 ? sockets[channel / 2] : null
      if (socket && !socket.destroyed) socket.write(bytes, () => stream.grant(bytes.length))
      else stream.grant(bytes.length)
    },
    eof(channel) {
      if (channel % 2 === 0) sockets[channel / 2]?.end()
    },
    closed() {
      for (const s of sockets) s?.destroy()
    },
  }
}
