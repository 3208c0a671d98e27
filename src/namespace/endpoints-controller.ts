// The endpoints controller of one namespace: for every service with a selector (and not ExternalName) it keeps an
// Endpoints object of the same name listing the ready and not-ready addresses of the matching pods and the resolved
// ports; it deletes the Endpoints of a deleted service. Level-triggered: it computes the desired object from what is
// stored when its write is planned, and writes only when that differs from the stored one.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../log/d1-log'
import type { Change, Stored } from '../registry/store'
import { planCreate, planRemoval, planUpdate } from '../registry/store'
import { resourceByPlural } from '../registry/resources'
import { deepEqual } from '../registry/deep-equal'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'
import { repackSubsets, type EndpointsObject } from '../registry/strategies/endpoints'
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../schema/endpoints'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject, ServicePort } from '../registry/strategies/service/service-types'
import { CLUSTER_IP_NONE, hasSelector } from '../registry/strategies/service/service-types'
import { ipFamily } from '../registry/strategies/pod/pod-validation-formats'

export const HEADLESS_LABEL = 'service.kubernetes.io/headless'
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time'

/** Whether the controller manages this service's Endpoints at all. */
const managed = (svc: ServiceObject) => svc.spec?.type !== 'ExternalName' && hasSelector(svc)

const labelsOf = (o: { metadata: { labels?: Record<string, string> } } | null | undefined) => o?.metadata.labels

/** ShouldPodBeInEndpoints: has an IP, not finished, not being deleted (unless terminating pods are published). */
function podInEndpoints(pod: PodObject, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase
  if (phase === 'Succeeded' || phase === 'Failed') return false
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false
  return includeTerminating || !pod.metadata.deletionTimestamp
}

const podReady = (pod: PodObject) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')

/** The pod's address of the service's primary family. */
function podIP(pod: PodObject, svc: ServiceObject): string | null {
  const want = svc.spec.ipFamilies?.[0] === 'IPv6' ? 6 : 4
  const ips = pod.status?.podIPs?.length ? pod.status.podIPs.map((p) => p.ip) : [pod.status?.podIP ?? '']
  return ips.find((ip) => ipFamily(ip) === want) ?? null
}

/** FindPort: a number as is; a name looked up among the containers' (and sidecars') ports of the same protocol. */
function findPort(pod: PodObject, sp: ServicePort): number | null {
  const target = sp.targetPort ?? sp.port
  if (typeof target === 'number') return target
  const protocol = sp.protocol ?? 'TCP'
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')
  for (const c of [...(pod.spec.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort
  }
  return null
}

/** The subsets kube's endpoints controller computes for a service over the namespace's pods. */
export function desiredSubsets(svc: ServiceObject, pods: readonly PodObject[]): EndpointSubset[] {
  const selector = labelSelectorFromMatchLabels(svc.spec.selector)
  const tolerateUnready = svc.spec.publishNotReadyAddresses === true
  const subsets: EndpointSubset[] = []
  for (const pod of pods) {
    if (!selector.matches(pod.metadata.labels) || !podInEndpoints(pod, tolerateUnready)) continue
    const ip = podIP(pod, svc)
    if (!ip) continue
    const address: EndpointAddress = {
      ip,
      targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
    }
    if (pod.spec.nodeName) address.nodeName = pod.spec.nodeName
    if (pod.spec.hostname && pod.spec.subdomain === svc.metadata.name) address.hostname = pod.spec.hostname
    const ready = tolerateUnready || podReady(pod)
    const add = (ports: EndpointPort[] | undefined) => {
      const ss: EndpointSubset = ready ? { addresses: [address] } : { notReadyAddresses: [address] }
      if (ports) ss.ports = ports
      subsets.push(ss)
    }
    const svcPorts = svc.spec.ports ?? []
    // Headless services may have no ports: their endpoints are bare addresses.
    if (svcPorts.length === 0 && svc.spec.clusterIP === CLUSTER_IP_NONE) add(undefined)
    for (const sp of svcPorts) {
      const port = findPort(pod, sp)
      if (port === null) continue
      const ep: EndpointPort = { port, protocol: sp.protocol ?? 'TCP' }
      if (sp.name) ep.name = sp.name
      if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol
      add([ep])
    }
  }
  return repackSubsets(subsets)
}

/** The Endpoints labels: the service's, plus the headless marker for services without a cluster IP. */
function desiredLabels(svc: ServiceObject): Record<string, string> {
  const labels = { ...(svc.metadata.labels ?? {}) }
  const ipSet = svc.spec.clusterIP !== undefined && svc.spec.clusterIP !== '' && svc.spec.clusterIP !== CLUSTER_IP_NONE
  if (ipSet) delete labels[HEADLESS_LABEL]
  else labels[HEADLESS_LABEL] = ''
  return labels
}

/**
 * Plans the write that brings one service's Endpoints to the desired state, or null when nothing needs doing.
 * Without a service, Endpoints go only when the service was just deleted (kube deletes them whoever wrote them) or
 * when this controller wrote them; hand-written Endpoints may come before their service.
 */
export function planEndpoints(host: ControllerHost, name: string, current: Stored | null, now: Date, serviceDeleted = false): Change | null {
  const def = resourceByPlural('endpoints')!
  const ctx = { now, namespace: host.scope }
  const svc = host.get('services', name)?.object as ServiceObject | undefined
  if (!svc) {
    const ours = current?.object.metadata.annotations?.[LAST_CHANGE_TRIGGER_TIME] !== undefined
    return current && (serviceDeleted || ours) ? planRemoval(def, ctx, current) : null
  }
  if (!managed(svc)) return null
  const pods = host.all('pods').map((s) => s.object as PodObject)
  const subsets = desiredSubsets(svc, pods)
  const labels = desiredLabels(svc)
  const existing = current?.object as EndpointsObject | undefined
  if (existing && deepEqual(existing.subsets ?? [], subsets) && deepEqual(existing.metadata.labels ?? {}, labels)) return null
  const annotations = { ...(existing?.metadata.annotations ?? {}), [LAST_CHANGE_TRIGGER_TIME]: now.toISOString() }
  const body: EndpointsObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: existing ? { ...existing.metadata, labels, annotations } : { name, labels, annotations },
  }
  if (subsets.length > 0) body.subsets = subsets
  const plan = existing ? planUpdate(def, ctx, name, body, current) : planCreate(def, ctx, body, () => false)
  if (!plan.ok) {
    console.error(`endpoints controller: ${host.scope}/${name} refused: ${plan.status.message}`)
    return null
  }
  return 'change' in plan.value ? plan.value.change : plan.value
}

/** The services a batch of commits may have changed the endpoints of, and whether each was deleted. */
function affectedServices(entries: readonly LogEntry[], host: ControllerHost): Map<string, boolean> {
  const names = new Map<string, boolean>()
  const add = (name: string, deleted = false) => names.set(name, (names.get(name) ?? false) || deleted)
  let services: ServiceObject[] | null = null
  for (const e of entries) {
    if (e.resource === 'services') add(e.name, e.type === 'DELETED')
    // Someone else changed or removed managed Endpoints: put them back.
    if (e.resource === 'endpoints') add(e.name)
    if (e.resource !== 'pods') continue
    services ??= host.all('services').map((s) => s.object as ServiceObject)
    for (const svc of services) {
      if (!managed(svc)) continue
      const sel = labelSelectorFromMatchLabels(svc.spec.selector)
      if (sel.matches(labelsOf(e.object)) || sel.matches(labelsOf(e.prev))) add(svc.metadata.name!)
    }
  }
  return names
}

const sync = (host: ControllerHost, name: string, serviceDeleted = false) =>
  host.write('endpoints', name, (current) => planEndpoints(host, name, current, new Date(), serviceDeleted))

export const endpointsController: Controller = {
  name: 'endpoints',
  async onCommitted(entries, host) {
    const names = affectedServices(entries, host)
    await Promise.all([...names].map(([name, deleted]) => sync(host, name, deleted)))
  },
  async resync(host) {
    const names = new Set(host.all('services').map((s) => s.object.metadata.name!))
    // Endpoints this controller wrote for a service deleted while it was not looking (planEndpoints decides).
    for (const ep of host.all('endpoints')) names.add(ep.object.metadata.name!)
    await Promise.all([...names].map((name) => sync(host, name)))
  },
}
