// The apiserver's HTTP proxy to a pod, shared by pods/{name}/proxy and services/{name}/proxy: reading the
// `[scheme:]name[:port]` id (utilnet.SplitSchemeNamePort), the path kube proxies to (JoinPreservingTrailingSlash of
// what follows /proxy, and UpgradeAwareHandler's redirect of an empty GET path), and the relay itself: a pod on a real
// node is reached through its node's tunnel (method, path and query, headers without the caller's credentials, body;
// the pod's status, headers and body streamed back), a pod on a virtual node is refused as its kubelet would.
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { refuseAsKubelet } from './kubelet-refusal'
import { isRealNode, tunnelHttp, unreachable } from './tunnel-streams'

type Ctx = Context<{ Bindings: Env }>
export type ProxiedPod = KubeObject & {
  spec?: { nodeName?: string; containers?: { name: string; ports?: { containerPort: number; name?: string }[] }[] }
}

interface ProxyTarget {
  name: string
  /** `http` or `https` (none given: http). */
  scheme: string
  /** As given: a number, a port name, or empty. */
  port: string
}

/** Where a proxied request goes on the pod. */
interface ProxyLocation {
  scheme: string
  port: string
  path: string
}

/**
 * utilnet.SplitSchemeNamePort: "name", "name:port" or "scheme:name:port" (scheme http or https, name not empty);
 * anything else is kube's `invalid pod request` / `invalid service request`.
 */
export function proxyTarget(id: string, what: 'pod' | 'service'): ProxyTarget {
  const parts = id.split(':')
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0]!, parts[1] ?? '']
  if (parts.length > 3 || !name || (scheme !== '' && scheme !== 'http' && scheme !== 'https'))
    throw new StatusError(statuses.badRequest(`invalid ${what} request ${JSON.stringify(id)}`))
  return { name: name!, scheme: scheme || 'http', port: port! }
}

/** Go's path.Clean of a rooted path: no empty, `.` or `..` segments. */
function cleanPath(path: string): string {
  const out: string[] = []
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') out.pop()
    else out.push(seg)
  }
  return `/${out.join('/')}`
}

/**
 * The path the proxy asks the pod for, as kube builds it: what follows `/{resource}/{id}/proxy` (leading slash added,
 * trailing slash kept), cleaned by JoinPreservingTrailingSlash. An empty one is a 301 to the same URL with a slash
 * for GET and HEAD (UpgradeAwareHandler's proxyRedirectsforRootPath); other methods go to `/`.
 */
export function proxyPath(c: Ctx, resource: 'pods' | 'services'): string | Response {
  const url = new URL(c.req.url)
  const head = new RegExp(`^/api/v1/namespaces/[^/]+/${resource}/[^/]+/proxy`).exec(url.pathname)
  const rest = url.pathname.slice(head?.[0].length ?? url.pathname.length)
  if (rest === '') {
    if (c.req.method === 'GET' || c.req.method === 'HEAD')
      return new Response(null, { status: 301, headers: { Location: `${url.pathname}/${url.search}` } })
    return '/'
  }
  const cleaned = cleanPath(rest)
  return rest.endsWith('/') && !cleaned.endsWith('/') ? `${cleaned}/` : cleaned
}

/** A pod's port for a proxy id's port: a number as it is; none, the first declared container port (else 80). */
export function podPort(pod: ProxiedPod, given: string, scheme: string): string {
  const declared = (pod.spec?.containers ?? []).flatMap((x) => x.ports ?? [])
  if (!given) return String(declared[0]?.containerPort ?? (scheme === 'https' ? 443 : 80))
  if (/^\d+$/.test(given)) return given
  const named = declared.find((p) => p.name === given)?.containerPort
  if (named === undefined)
    throw new StatusError(statuses.badRequest(`no port named ${JSON.stringify(given)} in pod ${pod.metadata.name}`))
  return String(named)
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

/**
 * Proxies the request to `pod` at `location`: through its node's tunnel when an agent serves the node, else refused
 * as the kubelet of a virtual node (or a pod nobody placed) would.
 */
export async function proxyToPod(c: Ctx, pod: ProxiedPod, location: ProxyLocation): Promise<Response> {
  const name = pod.metadata.name!
  const node = pod.spec?.nodeName
  if (!node) throw new StatusError(statuses.badRequest(`pod ${name} does not have a host assigned`))
  if (!(await isRealNode(c.env, node)))
    return refuseAsKubelet(
      c,
      'proxy',
      `pod ${name} runs on virtual node ${JSON.stringify(node)}, which the control plane simulates: it has no processes (a node agent serves proxy)`,
    )
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
      namespace: pod.metadata.namespace ?? c.req.param('namespace')!,
      pod: name,
      uid: pod.metadata.uid ?? '',
      method: c.req.method,
      port: location.port,
      scheme: location.scheme,
      path: location.path,
      query: new URL(c.req.url).search.slice(1),
      headers,
    },
    body,
  )
  if (!res) throw new StatusError(unreachable(node, 'proxy'))
  return new Response(res.body, { status: res.status, headers: res.headers })
}
