// services/{name}/proxy and /proxy/{path}: kube's ServiceREST ResourceLocation picks a ready endpoint of the service
// from its Endpoints (`[scheme:]name[:port]`, the port a service port's number or name), then the request is proxied
// to that endpoint's pod as pods/proxy proxies it (src/api/agent-proxy.ts): through the node's tunnel for a pod on a
// real node, refused as its kubelet would for a pod on a virtual node.
import type { Context, Hono } from 'hono'
import { resourceByPlural } from '../registry/resources'
import { statuses, StatusError, type Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { type ProxiedPod, proxyPath, proxyTarget, proxyToPod } from './agent-proxy'
import { call, hostFor } from './hosts'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>

type ServiceObject = KubeObject & { spec?: { ports?: { name?: string; port: number }[] } }
interface EndpointAddress {
  ip: string
  targetRef?: { kind?: string; namespace?: string; name?: string }
}
interface EndpointSubset {
  addresses?: EndpointAddress[]
  ports?: { name?: string; port: number }[]
}
type EndpointsObject = KubeObject & { subsets?: EndpointSubset[] }
type PodWithIPs = ProxiedPod & { status?: { podIPs?: { ip: string }[]; podIP?: string } }

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

const get = async <T>(c: Ctx, plural: string, name: string): Promise<Result<T>> =>
  (await call(() =>
    hostFor(c.env, resourceByPlural(plural)!, c.req.param('namespace')!).get(plural, name),
  )) as Result<T>

/** isValidAddress: the address names a pod of this namespace that exists and has that IP. */
async function validPod(c: Ctx, addr: EndpointAddress): Promise<PodWithIPs | null> {
  const ref = addr.targetRef
  if (!ref?.name || ref.namespace !== c.req.param('namespace')) return null
  const found = await get<PodWithIPs>(c, 'pods', ref.name)
  if (!found.ok) return null
  const ips = found.value.status?.podIPs?.map((p) => p.ip) ?? []
  return ips.includes(addr.ip) ? found.value : null
}

/** A random rotation of `list` (kube starts its search at a random subset and address). */
const rotated = <T>(list: T[]): T[] => {
  const seed = Math.floor(Math.random() * list.length)
  return [...list.slice(seed), ...list.slice(0, seed)]
}

/** ResourceLocation: the pod and port a request for service `id` goes to, or kube's refusal. */
async function locate(c: Ctx, id: string): Promise<{ pod: PodWithIPs; scheme: string; port: string }> {
  const target = proxyTarget(id, 'service')
  let portName = target.port
  // A port number is the service port's; its name is what the endpoints' ports are known by.
  if (/^[+-]?\d+$/.test(target.port)) {
    const svc = unwrap(await get<ServiceObject>(c, 'services', target.name))
    const number = Number(target.port)
    const declared = (svc.spec?.ports ?? []).find((p) => p.port === number)
    if (!declared)
      throw new StatusError(
        statuses.serviceUnavailable(`no service port ${number} found for service ${JSON.stringify(target.name)}`),
      )
    portName = declared.name ?? ''
  }
  const eps = unwrap(await get<EndpointsObject>(c, 'endpoints', target.name))
  const subsets = eps.subsets ?? []
  if (subsets.length === 0)
    throw new StatusError(
      statuses.serviceUnavailable(`no endpoints available for service ${JSON.stringify(target.name)}`),
    )
  for (const subset of rotated(subsets)) {
    if (!subset.addresses?.length) continue
    for (const port of subset.ports ?? []) {
      if ((port.name ?? '') !== portName) continue
      for (const addr of rotated(subset.addresses)) {
        const pod = await validPod(c, addr)
        if (pod) return { pod, scheme: target.scheme, port: String(port.port) }
      }
    }
  }
  throw new StatusError(statuses.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`))
}

async function serviceProxy(c: Ctx): Promise<Response> {
  const { pod, scheme, port } = await locate(c, c.req.param('name')!)
  const path = proxyPath(c, 'services')
  if (path instanceof Response) return path
  return proxyToPod(c, pod, { scheme, port, path })
}

export function registerServiceProxy(app: App) {
  const base = '/api/v1/namespaces/:namespace/services/:name'
  app.all(`${base}/proxy`, serviceProxy)
  app.all(`${base}/proxy/*`, serviceProxy)
}
