// The EndpointSlice controller of one namespace: for every service with a selector (and not ExternalName) it keeps
// one discovery.k8s.io/v1 EndpointSlice, named `<service>-<5 random>`, labelled with the service name and this
// controller, owned by the service, listing the matching pods (ready, serving, terminating) and the resolved ports.
// It works from the same pod data as the Endpoints controller (./service-pods), is level-triggered, and deletes the
// slices of a service that is gone or no longer selects pods. Slices without its managed-by label are left alone.
//
// kube splits a service's endpoints over several slices when named target ports resolve differently per pod, or
// past 100 endpoints; here one slice carries the ports the first pod (by name) resolves, and pods whose ports
// resolve differently are left out of it.
import type { Controller, ControllerHost, Desired } from '../host/controller'
import type { LogEntry, Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { deepEqual } from '../registry/deep-equal'
import { compareUtf8 } from '../registry/go-strings'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'
import { generateName } from '../registry/generate-name'
import {
  CONTROLLER_NAME,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  type EndpointSliceObject,
} from '../registry/strategies/endpoint-slice'
import type { SliceEndpoint, SlicePort } from '../schema/endpoint-slice'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject } from '../registry/strategies/service/service-types'
import {
  affectedServices,
  findPort,
  managedService,
  podHostname,
  podIP,
  podInEndpoints,
  podReady,
  serviceFamily,
} from './service-pods'
import { HEADLESS_LABEL, LAST_CHANGE_TRIGGER_TIME, desiredLabels } from './endpoints-controller'

const RESOURCE = 'endpointslices'

/** The service a slice this controller manages belongs to, or null for slices it does not manage. */
function managedSliceService(obj: { metadata: { labels?: Record<string, string> } } | null | undefined): string | null {
  const labels = obj?.metadata.labels
  if (labels?.[MANAGED_BY_LABEL] !== CONTROLLER_NAME) return null
  return labels[SERVICE_NAME_LABEL] ?? null
}

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

/** The addressType, endpoints and ports of a service's one slice over the namespace's pods. */
export function desiredSlice(
  svc: ServiceObject,
  pods: readonly PodObject[],
): Pick<EndpointSliceObject, 'addressType' | 'endpoints' | 'ports'> {
  const selector = labelSelectorFromMatchLabels(svc.spec.selector)
  const candidates = pods
    .filter((pod) => selector.matches(pod.metadata.labels) && podInEndpoints(pod, true))
    .sort((a, b) => compareUtf8(a.metadata.name ?? '', b.metadata.name ?? ''))
  let ports: SlicePort[] | undefined
  const endpoints: SliceEndpoint[] = []
  for (const pod of candidates) {
    const ip = podIP(pod, svc)
    if (!ip) continue
    const own = podPorts(pod, svc)
    ports ??= own
    if (!deepEqual(own, ports)) continue
    endpoints.push(podEndpoint(pod, svc, ip))
  }
  const slice: Pick<EndpointSliceObject, 'addressType' | 'endpoints' | 'ports'> = {
    addressType: serviceFamily(svc) === 6 ? 'IPv6' : 'IPv4',
    endpoints,
  }
  // A slice without endpoints carries no ports, as kube's placeholder slice does.
  if (ports?.length) slice.ports = ports
  return slice
}

/** The slices this controller manages for a service, oldest name first. */
function slicesOf(host: ControllerHost, service: string): Stored[] {
  return host
    .all(RESOURCE)
    .filter((s) => managedSliceService(s.object) === service)
    .sort((a, b) => compareUtf8(a.object.metadata.name ?? '', b.object.metadata.name ?? ''))
}

/** What one slice of a service should become, against its newest state (null: nothing to do). */
function desiredSliceWrite(
  host: ControllerHost,
  service: string,
  name: string,
  current: KubeObject | null,
  now: Date,
): Desired {
  const svc = host.get('services', service)?.object as ServiceObject | undefined
  if (current && managedSliceService(current) !== service) return null // no longer ours to manage
  if (!svc || !managedService(svc)) return current ? { delete: {} } : null
  // Another slice of the service (created by an earlier write) is the one we keep.
  if (!current && slicesOf(host, service).length > 0) return null
  const desired = desiredSlice(
    svc,
    host.all('pods').map((s) => s.object as PodObject),
  )
  const labels: Record<string, string> = {
    ...desiredLabels(svc),
    [SERVICE_NAME_LABEL]: service,
    [MANAGED_BY_LABEL]: CONTROLLER_NAME,
  }
  // Slices mark only services with clusterIP None as headless (setEndpointSliceLabels).
  if (svc.spec.clusterIP !== 'None') delete labels[HEADLESS_LABEL]
  const owner = {
    apiVersion: 'v1',
    kind: 'Service',
    name: service,
    uid: svc.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  }
  const existing = current as EndpointSliceObject | null
  if (
    existing &&
    existing.addressType === desired.addressType &&
    deepEqual(existing.endpoints ?? [], desired.endpoints) &&
    deepEqual(existing.ports ?? [], desired.ports ?? []) &&
    deepEqual(existing.metadata.labels ?? {}, labels) &&
    deepEqual(existing.metadata.ownerReferences ?? [], [owner])
  ) {
    return null
  }
  // The address type of a slice is immutable: a service that changed family gets a new slice.
  if (existing && existing.addressType !== desired.addressType) return { delete: {} }
  const annotations = { ...(existing?.metadata.annotations ?? {}), [LAST_CHANGE_TRIGGER_TIME]: now.toISOString() }
  const metadata = existing
    ? { ...existing.metadata, labels, annotations, ownerReferences: [owner] }
    : { name, generateName: `${service}-`, labels, annotations, ownerReferences: [owner] }
  const body = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata, ...desired } as EndpointSliceObject
  return existing ? { update: body } : { create: body }
}

/** kube's EndpointSlice controller writes under kube-controller-manager's name. */
const MANAGER = 'kube-controller-manager'

/** Brings one service's slices to the desired state: keeps the first, removes any others. */
async function syncService(host: ControllerHost, service: string): Promise<void> {
  const [keep, ...extra] = slicesOf(host, service).map((s) => s.object.metadata.name!)
  await Promise.all(extra.map((name) => host.delete(RESOURCE, name)))
  const name = keep ?? generateName(`${service}-`)
  const r = await host.reconcile(
    RESOURCE,
    name,
    (current) => desiredSliceWrite(host, service, name, current, new Date()),
    { fieldManager: MANAGER },
  )
  if (!r.ok && r.status.code !== 404)
    console.error(`endpointslice controller: ${host.scope}/${name} refused: ${r.status.message}`)
}

// Syncs of one service run one after another, so a slice created by one is seen by the next (no duplicates).
const chains = new Map<string, Promise<void>>()
function sync(host: ControllerHost, service: string): Promise<void> {
  const key = `${host.scope}/${service}`
  const next = (chains.get(key) ?? Promise.resolve())
    .then(() => syncService(host, service))
    .catch((e: unknown) => console.error(`endpointslice controller: ${key} failed`, e))
  chains.set(key, next)
  void next.then(() => {
    if (chains.get(key) === next) chains.delete(key)
  })
  return next
}

export const endpointSliceController: Controller = {
  name: 'endpointslices',
  async onCommitted(entries: readonly LogEntry[], host) {
    const names = affectedServices(entries, host, (e) =>
      e.resource === RESOURCE ? (managedSliceService(e.object) ?? managedSliceService(e.prev)) : null,
    )
    await Promise.all([...names.keys()].map((name) => sync(host, name)))
  },
  async resync(host) {
    const names = new Set(host.all('services').map((s) => s.object.metadata.name!))
    // Slices of services deleted while we were not looking.
    for (const s of host.all(RESOURCE)) {
      const svc = managedSliceService(s.object)
      if (svc) names.add(svc)
    }
    await Promise.all([...names].map((name) => sync(host, name)))
  },
}
