// pods/{name}/proxy and /proxy/{path} for pods on real nodes, relayed through the node's tunnel as kube's apiserver
// proxies to a pod: `name`, `name:port` or `scheme:name:port` (no port: the pod's first declared container port, else
// 80), the path after /proxy and the query, the method, headers (not the caller's credentials) and body; the pod's
// answer streamed back with its status and headers.
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { tunnelHttp, unreachable } from './tunnel-streams'

type Ctx = Context<{ Bindings: Env }>
type PodObject = KubeObject & {
  spec?: { containers?: { name: string; ports?: { containerPort: number; name?: string }[] }[] }
}

export interface ProxyTarget {
  name: string
  scheme: string
  port: string
}

/** utilnet.SplitSchemeNamePort: "name", "name:port" or "scheme:name:port" (scheme http or https). */
export function proxyTarget(id: string): ProxyTarget {
  const parts = id.split(':')
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0]!, parts[1] ?? '']
  if (
    parts.length > 3 ||
    !name ||
    (scheme !== '' && scheme !== 'http' && scheme !== 'https') ||
    (parts.length === 2 && !port)
  )
    throw new StatusError(statuses.badRequest(`invalid pod request ${JSON.stringify(id)}`))
  return { name: name!, scheme: scheme || 'http', port: port! }
}

/** Headers a proxy does not pass on (hop-by-hop, and the caller's credentials for the API). */
const DROPPED = new Set([
  'authorization',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
])

export async function agentProxy(c: Ctx, pod: PodObject, node: string, target: ProxyTarget): Promise<Response> {
  const declared = (pod.spec?.containers ?? []).flatMap((x) => x.ports ?? [])
  // A named port is looked up among the containers' ports; none given is the first declared one, else 80.
  const port = !target.port
    ? String(declared[0]?.containerPort ?? 80)
    : /^\d+$/.test(target.port)
      ? target.port
      : String(declared.find((p) => p.name === target.port)?.containerPort ?? '')
  if (!port)
    throw new StatusError(statuses.badRequest(`no port named ${JSON.stringify(target.port)} in pod ${target.name}`))
  const url = new URL(c.req.url)
  const marker = '/proxy'
  const at = url.pathname.indexOf(marker, url.pathname.indexOf(`/pods/`))
  const path = url.pathname.slice(at + marker.length) || '/'
  const headers: [string, string][] = []
  c.req.raw.headers.forEach((v, k) => {
    if (!DROPPED.has(k.toLowerCase()) && !k.toLowerCase().startsWith('cf-')) headers.push([k, v])
  })
  const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? null : c.req.raw.body
  const res = await tunnelHttp(
    c.env,
    node,
    {
      op: 'proxy',
      namespace: c.req.param('namespace')!,
      pod: target.name,
      uid: pod.metadata.uid ?? '',
      method: c.req.method,
      port,
      scheme: target.scheme,
      path,
      query: url.search.slice(1),
      headers,
    },
    body,
  )
  if (!res) throw new StatusError(unreachable(node, 'proxy'))
  return new Response(res.body, { status: res.status, headers: res.headers })
}
