// How a stream a pod cannot serve is refused: pods on virtual nodes have no processes, so exec, attach, portforward
// and proxy (of the pod, or of a service whose endpoint it is) answer as a kubelet that cannot serve them would.
import { streamCloseDelayMs } from '../node/stream-close-delay'
import type { Context } from 'hono'
import { statuses } from '../registry/status'
import { statusResponse } from './respond'
import { negotiateProtocol, refusedStream } from './stream-protocols'

type Ctx = Context<{ Bindings: Env }>

/** How the kubelet words a refused stream, per subresource (kubelet's cri/streaming server). */
const KUBELET_ERRORS: Record<string, string> = {
  exec: 'error executing command in container',
  attach: 'error attaching to container',
  portforward: 'error forwarding port',
  proxy: 'error trying to reach service',
}

/**
 * Refuses as a kubelet does once the stream is set up: a WebSocket client gets its upgrade and then the Status on the
 * error channel, which every client prints (a failed handshake is only "Handshake status 400" to the python client,
 * and an unhandled error event to client-node); anything else gets the Status as the HTTP answer.
 */
export function refuseAsKubelet(c: Ctx, what: string, why: string): Response {
  const upgrade = c.req.header('upgrade')?.toLowerCase() === 'websocket'
  const protocol = upgrade ? negotiateProtocol(c.req.header('sec-websocket-protocol'), what) : null
  // SPDY (kubectl before 1.30) and plain requests cannot get a stream from the edge: the refusal is the answer.
  if (!protocol) return statusResponse(c, statuses.badRequest(`${what} is not available: ${why}`))
  return refusedStream(
    protocol,
    statuses.internal(`${KUBELET_ERRORS[what] ?? what}: ${why}`),
    streamCloseDelayMs(c.env),
  )
}
