// What a service's EndpointSlices should hold, from the namespace's pods: one endpoint per pod that belongs in
// endpoints (ready, serving and terminating as kube sets them), grouped by the port mapping the pod resolves the
// service's ports to, so pods whose named ports resolve differently land in slices of their own (kube's
// reconcileByAddressType), and the address type the service's primary family gives.
import { compareUtf8 } from '../registry/go-strings'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'
import { portMapKey, type EndpointGroup } from '../registry/endpointslice-reconciler'
import type { SliceEndpoint, SlicePort } from '../schema/endpoint-slice'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject } from '../registry/strategies/service/service-types'
import { findPort, podHostname, podIP, podInEndpoints, podReady, serviceFamily } from './service-pods'

/** getEndpointPorts: every service port the pod resolves, named as the service port ('' when unnamed). */
function podPorts(pod: PodObject, svc: ServiceObject): SlicePort[] {
  const ports: SlicePort[] = []
  for (const sp of svc.spec.ports ?? []) {
    const port = findPort(pod, sp)
    if (port === null) continue
    const p: SlicePort = { name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port }
    if (sp.appProtocol !== undefined) p.appProtocol = sp.appProtocol
    ports.push(p)
  }
  return ports
}

/** podToEndpoint: ready only when serving and not terminating (or when the service publishes not-ready addresses). */
function podEndpoint(pod: PodObject, svc: ServiceObject, ip: string): SliceEndpoint {
  const serving = podReady(pod)
  const terminating = pod.metadata.deletionTimestamp !== undefined
  const ready = svc.spec.publishNotReadyAddresses === true || (serving && !terminating)
  const ep: SliceEndpoint = {
    addresses: [ip],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  }
  if (pod.spec.nodeName) ep.nodeName = pod.spec.nodeName
  const hostname = podHostname(pod, svc)
  if (hostname) ep.hostname = hostname
  return ep
}

/** The address type of a service's slices and its endpoints grouped by port mapping, each group in pod-name order. */
export function desiredEndpointGroups(
  svc: ServiceObject,
  pods: readonly PodObject[],
): { addressType: 'IPv4' | 'IPv6'; groups: EndpointGroup[] } {
  const selector = labelSelectorFromMatchLabels(svc.spec.selector)
  const candidates = pods
    .filter((pod) => selector.matches(pod.metadata.labels) && podInEndpoints(pod, true))
    .sort((a, b) => compareUtf8(a.metadata.name ?? '', b.metadata.name ?? ''))
  const groups = new Map<string, EndpointGroup>()
  for (const pod of candidates) {
    const ip = podIP(pod, svc)
    if (!ip) continue
    const ports = podPorts(pod, svc)
    const key = portMapKey(ports)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { ports, endpoints: [] }))
    group.endpoints.push(podEndpoint(pod, svc, ip))
  }
  return { addressType: serviceFamily(svc) === 6 ? 'IPv6' : 'IPv4', groups: [...groups.values()] }
}
