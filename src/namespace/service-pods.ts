// What the Endpoints and EndpointSlice controllers share: which services they manage, which pods back a service
// (ShouldPodBeInEndpoints), a pod's address of the service's family, target port resolution (FindPort), and which
// services a batch of commits may have touched.
import type { ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject, ServicePort } from '../registry/strategies/service/service-types'
import { hasSelector } from '../registry/strategies/service/service-types'
import { ipFamily } from '../registry/strategies/pod/pod-validation-formats'

/** Whether the controllers manage this service's endpoints at all. */
export const managedService = (svc: ServiceObject) => svc.spec?.type !== 'ExternalName' && hasSelector(svc)

const labelsOf = (o: { metadata: { labels?: Record<string, string> } } | null | undefined) => o?.metadata.labels

/** ShouldPodBeInEndpoints: has an IP, not finished, not being deleted (unless terminating pods are published). */
export function podInEndpoints(pod: PodObject, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase
  if (phase === 'Succeeded' || phase === 'Failed') return false
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false
  return includeTerminating || !pod.metadata.deletionTimestamp
}

export const podReady = (pod: PodObject) =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')

/** The IP family of the service's primary address: its endpoints carry addresses of that family only. */
export const serviceFamily = (svc: ServiceObject): 4 | 6 => (svc.spec.ipFamilies?.[0] === 'IPv6' ? 6 : 4)

/** The pod's address of the service's primary family. */
export function podIP(pod: PodObject, svc: ServiceObject): string | null {
  const want = serviceFamily(svc)
  const ips = pod.status?.podIPs?.length ? pod.status.podIPs.map((p) => p.ip) : [pod.status?.podIP ?? '']
  return ips.find((ip) => ipFamily(ip) === want) ?? null
}

/** ShouldSetHostname: the pod names the service as its subdomain. */
export const podHostname = (pod: PodObject, svc: ServiceObject): string | undefined =>
  pod.spec.hostname && pod.spec.subdomain === svc.metadata.name ? pod.spec.hostname : undefined

/** FindPort: a number as is; a name looked up among the containers' (and sidecars') ports of the same protocol. */
export function findPort(pod: PodObject, sp: ServicePort): number | null {
  const target = sp.targetPort ?? sp.port
  if (typeof target === 'number') return target
  const protocol = sp.protocol ?? 'TCP'
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')
  for (const c of [...(pod.spec.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort
  }
  return null
}

/**
 * The services a batch of commits may have changed the endpoints of, and whether each was deleted: services
 * themselves, services whose selector matches a changed pod (before or after), and whatever `owned` names for the
 * controller's own objects (someone else changed or removed them: put them back).
 */
export function affectedServices(
  entries: readonly LogEntry[],
  host: ControllerHost,
  owned: (e: LogEntry) => string | null,
): Map<string, boolean> {
  const names = new Map<string, boolean>()
  const add = (name: string, deleted = false) => names.set(name, (names.get(name) ?? false) || deleted)
  let services: ServiceObject[] | null = null
  for (const e of entries) {
    if (e.resource === 'services') add(e.name, e.type === 'DELETED')
    const own = owned(e)
    if (own !== null) add(own)
    if (e.resource !== 'pods') continue
    services ??= host.all('services').map((s) => s.object as ServiceObject)
    for (const svc of services) {
      if (!managedService(svc)) continue
      const sel = labelSelectorFromMatchLabels(svc.spec.selector)
      if (sel.matches(labelsOf(e.object)) || sel.matches(labelsOf(e.prev))) add(svc.metadata.name!)
    }
  }
  return names
}
