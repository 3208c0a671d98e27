// The node agent's tunnel endpoint: GET /api/v1/nodes/{name}/tunnel, a WebSocket with subprotocol
// tunnel.kubeflare.dev, handed to the node's Durable Object (src/node/node-tunnel.ts). Authorization already
// allowed `get` on `nodes/tunnel` for this node (RBAC, or the node authorizer for the node's own identity); a
// `system:node:<name>` identity may only ever serve its own node, and nobody serves a virtual node.
import type { Context, Hono } from 'hono'
import { newForbidden } from '../registry/rbac/forbidden'
import { statuses, StatusError } from '../registry/status'
import { VIRTUAL_NODE_ANNOTATION } from '../registry/virtual-nodes'
import { TUNNEL_PROTOCOL } from '../node/tunnel-frames'
import type { KubeObject } from '../schema/meta'
import { nodeOf } from '../identity/node-authorizer'
import { call } from './hosts'
import { statusResponse } from './respond'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>

const NODES_GROUP = 'system:nodes'

async function tunnel(c: Ctx, name: string): Promise<Response> {
  const upgrade = c.req.header('upgrade')?.toLowerCase() === 'websocket'
  const offered = (c.req.header('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim())
  if (!upgrade || !offered.includes(TUNNEL_PROTOCOL))
    return statusResponse(
      c,
      statuses.badRequest(`the node tunnel is a WebSocket upgrade with the subprotocol ${TUNNEL_PROTOCOL}`),
    )
  const user = c.get('access').user
  // A node identity with broader RBAC still serves only its own node.
  if (user.groups.includes(NODES_GROUP) && nodeOf(user) !== name)
    return statusResponse(
      c,
      newForbidden('', 'nodes', name, `node identity "${user.name}" may serve only its own node`),
    )
  const node = await call<KubeObject>(() => c.env.CLUSTER.getByName('cluster').get('nodes', name))
  if (!node.ok) throw new StatusError(node.status)
  if (node.value.metadata.annotations?.[VIRTUAL_NODE_ANNOTATION] === 'true')
    return statusResponse(
      c,
      statuses.badRequest(`node ${name} is a virtual node: the control plane simulates it, no agent may serve it`),
    )
  return c.env.NODE_TUNNELS.getByName(name).fetch('https://tunnel/agent', { headers: { Upgrade: 'websocket' } })
}

export function registerNodeTunnel(app: App) {
  app.get('/api/v1/nodes/:name/tunnel', (c) => tunnel(c, c.req.param('name')!))
}
