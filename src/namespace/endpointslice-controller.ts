// The EndpointSlice controller of one namespace: for every service with a selector (and not ExternalName) it keeps
// discovery.k8s.io/v1 EndpointSlices, named `<service>-<5 random>`, labelled with the service name and this
// controller, owned by the service, listing the matching pods (ready, serving, terminating) and their resolved ports,
// split as kube splits them (./endpointslice-endpoints groups pods by port mapping; the reconciler in
// src/registry/endpointslice-reconciler.ts packs at most 100 endpoints per slice and minimises churn). It is
// level-triggered, syncs one service at a time, and deletes the slices of a service that is gone or no longer selects
// pods. Slices without its managed-by label are left alone.
import type { Controller, ControllerHost, Desired } from '../host/controller'
import type { LogEntry, Stored } from '../registry/store'
import { deepEqual } from '../registry/deep-equal'
import { compareUtf8 } from '../registry/go-strings'
import { generateName } from '../registry/generate-name'
import { planSlices, type ExistingSlice, type PlannedSlice } from '../registry/endpointslice-reconciler'
import {
  CONTROLLER_NAME,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  type EndpointSliceObject,
} from '../registry/strategies/endpoint-slice'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { ServiceObject } from '../registry/strategies/service/service-types'
import { affectedServices, managedService } from './service-pods'
import { HEADLESS_LABEL, LAST_CHANGE_TRIGGER_TIME, desiredLabels } from './endpoints-controller'
import { desiredEndpointGroups } from './endpointslice-endpoints'

const RESOURCE = 'endpointslices'
/** kube's EndpointSlice controller writes under kube-controller-manager's name. */
const MANAGER = 'kube-controller-manager'

/** The service a slice this controller manages belongs to, or null for slices it does not manage. */
function managedSliceService(obj: { metadata: { labels?: Record<string, string> } } | null | undefined): string | null {
  const labels = obj?.metadata.labels
  if (labels?.[MANAGED_BY_LABEL] !== CONTROLLER_NAME) return null
  return labels[SERVICE_NAME_LABEL] ?? null
}

/** The slices this controller manages for a service, by name. */
function slicesOf(host: ControllerHost, service: string): Stored[] {
  return host
    .all(RESOURCE)
    .filter((s) => managedSliceService(s.object) === service)
    .sort((a, b) => compareUtf8(a.object.metadata.name ?? '', b.object.metadata.name ?? ''))
}

/** setEndpointSliceLabels: the service's labels, its name, this controller; headless only for clusterIP None. */
function sliceLabels(svc: ServiceObject): Record<string, string> {
  const labels: Record<string, string> = {
    ...desiredLabels(svc),
    [SERVICE_NAME_LABEL]: svc.metadata.name!,
    [MANAGED_BY_LABEL]: CONTROLLER_NAME,
  }
  if (svc.spec.clusterIP !== 'None') delete labels[HEADLESS_LABEL]
  return labels
}

const ownerOf = (svc: ServiceObject) => ({
  apiVersion: 'v1',
  kind: 'Service',
  name: svc.metadata.name!,
  uid: svc.metadata.uid!,
  controller: true,
  blockOwnerDeletion: true,
})

/** The slice object a planned slice becomes, over the stored one when it is an update. */
function sliceBody(
  svc: ServiceObject,
  addressType: string,
  planned: PlannedSlice,
  existing: EndpointSliceObject | null,
) {
  const labels = sliceLabels(svc)
  const annotations = {
    ...(existing?.metadata.annotations ?? {}),
    [LAST_CHANGE_TRIGGER_TIME]: new Date().toISOString(),
  }
  const owner = [ownerOf(svc)]
  const metadata = existing
    ? { ...existing.metadata, labels, annotations, ownerReferences: owner }
    : { name: planned.name, generateName: `${svc.metadata.name}-`, labels, annotations, ownerReferences: owner }
  const body = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata,
    addressType,
    endpoints: planned.endpoints,
  } as EndpointSliceObject
  // A slice without ports (the placeholder, pods resolving none of the service's ports) carries none.
  if (planned.ports.length > 0) body.ports = planned.ports
  return body
}

/** Brings one service's slices to the desired state, as kube's reconciler plans it. */
async function syncService(host: ControllerHost, service: string): Promise<void> {
  const stored = slicesOf(host, service)
  const svc = host.get('services', service)?.object as ServiceObject | undefined
  // The write is made only if the slice is still what the plan saw (someone else's change triggers another sync).
  const rvs = new Map(stored.map((s) => [s.object.metadata.name!, s.rv]))
  const unchangedSince = (name: string) => host.get(RESOURCE, name)?.rv === rvs.get(name)
  const write = async (name: string, decide: (current: EndpointSliceObject | null) => Desired) => {
    const r = await host.reconcile(RESOURCE, name, (c) => decide(c as EndpointSliceObject | null), {
      fieldManager: MANAGER,
    })
    if (!r.ok && r.status.code !== 404)
      console.error(`endpointslice controller: ${host.scope}/${name} refused: ${r.status.message}`)
  }
  const remove = (name: string) => write(name, (c) => (c && unchangedSince(name) ? { delete: {} } : null))
  if (!svc || !managedService(svc)) {
    await Promise.all(stored.map((s) => remove(s.object.metadata.name!)))
    return
  }
  const uid = svc.metadata.uid
  const { addressType, groups } = desiredEndpointGroups(
    svc,
    host.all('pods').map((s) => s.object as PodObject),
  )
  const labels = sliceLabels(svc)
  const existing: ExistingSlice[] = []
  const doomed: string[] = []
  for (const { object } of stored) {
    const slice = object as EndpointSliceObject
    const owned = slice.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid) === true
    // Slices of another address type, or of an earlier service of the same name, go (kube's ownedBy).
    if (slice.addressType !== addressType || !owned) doomed.push(slice.metadata.name!)
    else
      existing.push({
        name: slice.metadata.name!,
        addressType: slice.addressType,
        ports: slice.ports ?? [],
        endpoints: slice.endpoints ?? [],
        labelsCurrent: deepEqual(slice.metadata.labels ?? {}, labels),
      })
  }
  const plan = planSlices(existing, groups)
  const serviceStill = () => {
    const now = host.get('services', service)?.object
    return now?.metadata.uid === uid && !now?.metadata.deletionTimestamp
  }
  // finalize's order: creates (not for a service being deleted), updates, deletes.
  await Promise.all(
    plan.create.map((planned) => {
      const name = generateName(`${service}-`)
      return write(name, (c) =>
        c || !serviceStill() ? null : { create: sliceBody(svc, addressType, { ...planned, name }, null) },
      )
    }),
  )
  await Promise.all(
    plan.update.map((planned) =>
      write(planned.name!, (c) =>
        c && unchangedSince(planned.name!) && serviceStill()
          ? { update: sliceBody(svc, addressType, planned, c) }
          : null,
      ),
    ),
  )
  await Promise.all([...plan.delete, ...doomed].map(remove))
}

// Syncs of one service run one after another, so slices written by one are seen by the next (no duplicates).
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
