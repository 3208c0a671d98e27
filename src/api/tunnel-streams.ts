// The Worker's side of pod streams served by a real node's agent: telling real nodes from virtual ones, and opening a
// stream through the node's tunnel object (src/node/node-tunnel.ts), HTTP (logs, proxy) or WebSocket (exec, attach,
// portforward). A node nobody serves right now answers as an unreachable kubelet does.
import { statuses, type Status } from '../registry/status'
import type { StreamRequest } from '../node/tunnel-frames'

/** Whether a node is simulated, remembered per isolate for a few seconds (the annotation does not change). */
const facts = new Map<string, { virtual: boolean | null; at: number }>()
const FACTS_MS = 10_000

/** True for a node served by an agent; false for a virtual node; null for a node that does not exist. */
export async function isRealNode(env: Env, node: string): Promise<boolean | null> {
  const known = facts.get(node)
  if (known && Date.now() - known.at < FACTS_MS) return known.virtual === null ? null : !known.virtual
  const f = await env.CLUSTER.getByName('cluster').nodeFacts(node)
  const virtual = f ? f.virtual : null
  facts.set(node, { virtual, at: Date.now() })
  return virtual === null ? null : !virtual
}

/** kube's refusal when the kubelet cannot be reached. */
export const unreachable = (node: string, what: string): Status =>
  statuses.internal(`error dialing backend: no node agent is connected for node "${node}" (${what})`)

const tunnel = (env: Env, node: string) => env.NODE_TUNNELS.getByName(node)

/** An HTTP stream through the tunnel: the agent's status, headers and body; null when no agent is connected. */
export async function tunnelHttp(
  env: Env,
  node: string,
  request: StreamRequest,
  body: ReadableStream<Uint8Array> | null = null,
): Promise<Response | null> {
  const res = await tunnel(env, node).fetch('https://tunnel/http', {
    method: body ? 'POST' : 'GET',
    headers: { 'x-tunnel-request': JSON.stringify(request) },
    body,
  })
  return res.status === 502 && (await isTunnelRefusal(res)) ? null : res
}

/** A WebSocket stream through the tunnel (the 101 to hand the client); null when no agent is connected. */
export async function tunnelSocket(
  env: Env,
  node: string,
  request: StreamRequest,
  protocol: string,
): Promise<Response | null> {
  const res = await tunnel(env, node).fetch('https://tunnel/stream', {
    headers: { Upgrade: 'websocket', 'x-tunnel-request': JSON.stringify(request), 'x-tunnel-protocol': protocol },
  })
  if (res.status === 101 && res.webSocket)
    return new Response(null, {
      status: 101,
      webSocket: res.webSocket,
      headers: { 'Sec-WebSocket-Protocol': protocol },
    })
  return null
}

async function isTunnelRefusal(res: Response): Promise<boolean> {
  try {
    return ((await res.clone().json()) as { message?: string }).message === 'no node agent is connected'
  } catch {
    return false
  }
}
