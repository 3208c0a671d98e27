// exec, attach and portforward of pods on real nodes, through the node's tunnel (src/node/node-tunnel.ts): the
// client's WebSocket (v5.channel.k8s.io for kubectl 1.30+, v4.channel.k8s.io for client-node and the python client,
// older channel protocols too; portforward.k8s.io; kubectl 1.31+'s SPDY/3.1+portforward.k8s.io tunnel) is handed to
// the node object, which splices it onto a stream the agent serves. Plain SPDY cannot cross the edge (Workers upgrade
// only to WebSocket): those clients get a Status naming the kubectl version they need.
import { streamCloseDelayMs } from '../node/stream-close-delay'
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import type { StreamRequest } from '../node/tunnel-frames'
import type { KubeObject } from '../schema/meta'
import { queryFlag } from './query'
import { statusResponse } from './respond'
import { negotiateProtocol, refusedStream, type StreamProtocol } from './stream-protocols'
import { tunnelSocket, unreachable } from './tunnel-streams'

type Ctx = Context<{ Bindings: Env }>
type PodObject = KubeObject & { spec?: { containers?: { name: string }[] } }

/** The first kubectl whose `what` speaks WebSocket. */
const WEBSOCKET_KUBECTL: Record<string, string> = { exec: '1.30', attach: '1.30', portforward: '1.31' }

/** Why a request that is no WebSocket upgrade cannot have its stream (SPDY: kubectl before 1.30, or 1.31 to forward ports). */
function spdyRefusal(what: string, c: Ctx) {
  const verb = what === 'portforward' ? 'port-forward' : what
  // A proxy in front may drop an Upgrade it does not speak; the stream protocol header still says SPDY.
  const spdy = /spdy/i.test(c.req.header('upgrade') ?? '') || c.req.header('x-stream-protocol-version') !== undefined
  const asked = spdy ? 'SPDY' : 'no WebSocket upgrade'
  return statuses.badRequest(
    `${what} of pods on real nodes needs a WebSocket client (kubectl ${WEBSOCKET_KUBECTL[what]} or newer for \`kubectl ${verb}\`, or a client speaking ${what === 'portforward' ? 'portforward.k8s.io' : 'v4.channel.k8s.io'}): this request asked for ${asked}, which cannot cross the edge`,
  )
}

const SPDY_TUNNEL = 'SPDY/3.1+portforward.k8s.io'
const splitProtocols = (header: string | undefined) => (header ?? '').split(',').map((p) => p.trim())

/** The ports of a WebSocket port-forward (kubelet's checks and words). */
function portsOf(c: Ctx): number[] {
  const given = c.req.queries('ports') ?? []
  if (given.length === 0) throw new StatusError(statuses.badRequest('query parameter "port" is required'))
  return given
    .flatMap((list) => list.split(','))
    .map((text) => {
      const port = Number(text)
      if (!/^\d+$/.test(text) || port < 1 || port > 65535)
        throw new StatusError(statuses.badRequest(`unable to parse "${text}" as a port`))
      return port
    })
}

export async function agentStream(
  c: Ctx,
  pod: PodObject,
  node: string,
  what: string,
  container: string | undefined,
): Promise<Response> {
  const upgrade = c.req.header('upgrade')?.toLowerCase() === 'websocket'
  const offered = c.req.header('sec-websocket-protocol')
  // kubectl 1.31+ port-forward tunnels its SPDY session through the WebSocket; the agent speaks it.
  const spdy = what === 'portforward' && upgrade && splitProtocols(offered).includes(SPDY_TUNNEL)
  const protocol = spdy ? SPDY_TUNNEL : upgrade ? negotiateProtocol(offered, what) : null
  if (!protocol) {
    // Nobody serving the node is the first thing to know, whatever the client speaks.
    const served = await c.env.NODE_TUNNELS.getByName(node).connected()
    return statusResponse(c, served ? spdyRefusal(what, c) : unreachable(node, what))
  }
  const namespace = c.req.param('namespace')!
  const name = pod.metadata.name!
  const request: StreamRequest = {
    op: what as StreamRequest['op'],
    namespace,
    pod: name,
    uid: pod.metadata.uid ?? '',
    container: container ?? pod.spec?.containers?.[0]?.name,
    stdin: queryFlag(c, 'stdin'),
    stdout: queryFlag(c, 'stdout'),
    stderr: queryFlag(c, 'stderr'),
    tty: queryFlag(c, 'tty'),
  }
  if (what === 'exec') {
    request.command = c.req.queries('command') ?? []
    if (request.command.length === 0) throw new StatusError(statuses.badRequest('you must specify at least 1 command'))
  }
  if (what === 'portforward') {
    request.spdy = spdy || undefined
    if (!spdy) request.ports = portsOf(c)
  } else if (!request.stdin && !request.stdout && !request.stderr)
    throw new StatusError(statuses.badRequest('you must specify at least 1 of stdin, stdout, stderr'))
  const res = await tunnelSocket(c.env, node, request, protocol)
  if (res) return res
  // kubectl's SPDY tunnel has no error channel to read: the refusal is the answer.
  return spdy
    ? statusResponse(c, unreachable(node, what))
    : refusedStream(protocol as StreamProtocol, unreachable(node, what), streamCloseDelayMs(c.env))
}
