// The endpoints controller of one namespace: for every service with a selector (and not ExternalName) it keeps an
// Endpoints object of the same name listing the ready and not-ready addresses of the matching pods and the resolved
// ports; it deletes the Endpoints of a deleted service. Level-triggered: it computes the desired object from what is
// stored when its write is planned, and writes only when that differs from the stored one.
import type { Controller, ControllerHost, Desired } from '../host/controller'
import type { KubeObject } from '../schema/meta'
import { deepEqual } from '../registry/deep-equal'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'
import { repackSubsets, type EndpointsObject } from '../registry/strategies/endpoints'
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../schema/endpoints'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject } from '../registry/strategies/service/service-types'
import { CLUSTER_IP_NONE } from '../registry/strategies/service/service-types'
import {
  affectedServices,
  findPort,
  managedService,
  podHostname,
  podIP,
  podInEndpoints,
  podReady,
} from './service-pods'

export const HEADLESS_LABEL = 'service.kubernetes.io/headless'
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time'

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
    const hostname = podHostname(pod, svc)
    if (hostname) address.hostname = hostname
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
export function desiredLabels(svc: ServiceObject): Record<string, string> {
  const labels = { ...(svc.metadata.labels ?? {}) }
  const ipSet = svc.spec.clusterIP !== undefined && svc.spec.clusterIP !== '' && svc.spec.clusterIP !== CLUSTER_IP_NONE
  if (ipSet) delete labels[HEADLESS_LABEL]
  else labels[HEADLESS_LABEL] = ''
  return labels
}

/**
 * What one service's Endpoints should become, or null when nothing needs doing. Without a service, Endpoints go only
 * when the service was just deleted (kube deletes them whoever wrote them) or when this controller wrote them;
 * hand-written Endpoints may come before their service.
 */
function desiredEndpoints(
  host: ControllerHost,
  name: string,
  current: KubeObject | null,
  now: Date,
  serviceDeleted = false,
): Desired {
  const svc = host.get('services', name)?.object as ServiceObject | undefined
  if (!svc) {
    const ours = current?.metadata.annotations?.[LAST_CHANGE_TRIGGER_TIME] !== undefined
    return current && (serviceDeleted || ours) ? { delete: {} } : null
  }
  if (!managedService(svc)) return null
  const pods = host.all('pods').map((s) => s.object as PodObject)
  const subsets = desiredSubsets(svc, pods)
  const labels = desiredLabels(svc)
  const existing = current as EndpointsObject | null
  if (existing && deepEqual(existing.subsets ?? [], subsets) && deepEqual(existing.metadata.labels ?? {}, labels))
    return null
  const annotations = { ...(existing?.metadata.annotations ?? {}), [LAST_CHANGE_TRIGGER_TIME]: now.toISOString() }
  const body: EndpointsObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: existing ? { ...existing.metadata, labels, annotations } : { name, labels, annotations },
  }
  if (subsets.length > 0) body.subsets = subsets
  return existing ? { update: body } : { create: body }
}

/** kube's endpoints controller writes under kube-controller-manager's name. */
const MANAGER = 'kube-controller-manager'

async function sync(host: ControllerHost, name: string, serviceDeleted = false) {
  const r = await host.reconcile(
    'endpoints',
    name,
    (current) => desiredEndpoints(host, name, current, new Date(), serviceDeleted),
    { fieldManager: MANAGER },
  )
  if (!r.ok && r.status.code !== 404)
    console.error(`endpoints controller: ${host.scope}/${name} refused: ${r.status.message}`)
}

export const endpointsController: Controller = {
  name: 'endpoints',
  async onCommitted(entries, host) {
    const names = affectedServices(entries, host, (e) => (e.resource === 'endpoints' ? e.name : null))
    await Promise.all([...names].map(([name, deleted]) => sync(host, name, deleted)))
  },
  async resync(host) {
    const names = new Set(host.all('services').map((s) => s.object.metadata.name!))
    // Endpoints this controller wrote for a service deleted while it was not looking (desiredEndpoints decides).
    for (const ep of host.all('endpoints')) names.add(ep.object.metadata.name!)
    await Promise.all([...names].map((name) => sync(host, name)))
  },
}
