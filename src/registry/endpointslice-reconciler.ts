// How kube's EndpointSlice reconciler (k8s.io/endpointslice reconciler.go) spreads a service's endpoints over slices:
// one family of slices per distinct port mapping, at most maxEndpointsPerSlice endpoints per slice; existing slices
// keep the endpoints they hold, changed and emptied slices are updated or deleted, leftovers fill the slices already
// being updated (fullest first), then the unchanged slice they fit best, then new slices; creates take over slices
// that would be deleted; a service with no endpoints keeps one placeholder slice. Pure: the controller applies the plan.
import { deepEqual } from './deep-equal'
import { compareUtf8 } from './go-strings'
import type { SliceEndpoint, SlicePort } from '../schema/endpoint-slice'

/** kube-controller-manager's --max-endpoints-per-slice default. */
const MAX_ENDPOINTS_PER_SLICE = 100

/** The endpoints of one port mapping, as the pods resolve the service's ports. */
export interface EndpointGroup {
  ports: SlicePort[]
  /** In the order new slices are filled (the controller sorts them by pod name). */
  endpoints: SliceEndpoint[]
}

/** A slice this controller manages, as stored. */
export interface ExistingSlice {
  name: string
  addressType: string
  ports: SlicePort[]
  endpoints: SliceEndpoint[]
  /** Whether its labels are already the ones the service asks for. */
  labelsCurrent: boolean
}

/** The content of a slice to write; `name` is absent for a new slice. */
export interface PlannedSlice {
  name?: string
  ports: SlicePort[]
  endpoints: SliceEndpoint[]
}

interface SlicePlan {
  create: PlannedSlice[]
  update: PlannedSlice[]
  delete: string[]
}

/** endpointsliceutil.NewPortMapKey: the port mapping a slice serves, whatever the order its ports are listed in. */
export function portMapKey(ports: readonly SlicePort[]): string {
  const keyed = ports.map((p) => JSON.stringify([p.name ?? '', p.protocol ?? 'TCP', p.port ?? 0, p.appProtocol ?? '']))
  return keyed.sort(compareUtf8).join('|')
}

/** hashEndpoint: an endpoint is the same endpoint when its addresses, hostname and target namespace/name are. */
const endpointKey = (e: SliceEndpoint) =>
  JSON.stringify([
    [...e.addresses].sort(compareUtf8),
    e.hostname ?? '',
    e.targetRef?.namespace ?? '',
    e.targetRef?.name ?? '',
  ])

/** An ordered set of desired endpoints by key (kube's EndpointSet; popped in insertion order here, not at random). */
class EndpointSet {
  private readonly byKey = new Map<string, SliceEndpoint>()
  constructor(endpoints: readonly SliceEndpoint[]) {
    for (const e of endpoints) this.byKey.set(endpointKey(e), e)
  }
  get size() {
    return this.byKey.size
  }
  get(e: SliceEndpoint) {
    return this.byKey.get(endpointKey(e))
  }
  delete(e: SliceEndpoint) {
    this.byKey.delete(endpointKey(e))
  }
  pop(): SliceEndpoint {
    const [key, e] = this.byKey.entries().next().value as [string, SliceEndpoint]
    this.byKey.delete(key)
    return e
  }
}

/** getSliceToFill: the slice that will be closest to full once `count` endpoints are added, if any can take them. */
function sliceToFill(slices: PlannedSlice[], count: number, max: number): PlannedSlice | null {
  let closestDiff = max
  let closest: PlannedSlice | null = null
  for (const s of slices) {
    const diff = max - (count + s.endpoints.length)
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff
      closest = s
      if (diff === 0) return s
    }
  }
  return closest
}

/** reconcileByPortMapping for one port mapping's existing slices and desired endpoints. */
function reconcilePortMapping(existing: ExistingSlice[], group: EndpointGroup, max: number): SlicePlan {
  const desired = new EndpointSet(group.endpoints)
  const toUpdate = new Map<string, PlannedSlice>()
  const unchanged = new Map<string, PlannedSlice>()
  const toDelete: string[] = []
  // 1. Existing slices keep the endpoints still desired (in their newest form); emptied slices go.
  for (const slice of existing) {
    const kept: SliceEndpoint[] = []
    let changed = false
    for (const e of slice.endpoints) {
      const want = desired.get(e)
      if (!want) continue
      kept.push(want)
      if (!deepEqual(want, e)) changed = true
      desired.delete(e)
    }
    const planned = { name: slice.name, ports: slice.ports, endpoints: kept }
    if (changed || kept.length !== slice.endpoints.length) {
      if (kept.length === 0) toDelete.push(slice.name)
      else toUpdate.set(slice.name, planned)
    } else if (!slice.labelsCurrent) toUpdate.set(slice.name, planned)
    else unchanged.set(slice.name, planned)
  }
  // 2. Leftovers fill the slices being updated anyway, fullest first.
  if (desired.size > 0 && toUpdate.size > 0) {
    const fullestFirst = [...toUpdate.values()].sort((a, b) => b.endpoints.length - a.endpoints.length)
    for (const s of fullestFirst) while (desired.size > 0 && s.endpoints.length < max) s.endpoints.push(desired.pop())
  }
  // 3. Then the unchanged slice they fit best (when fewer than a slice's worth remain), else new slices.
  const create: PlannedSlice[] = []
  while (desired.size > 0) {
    let fill: PlannedSlice | null = null
    if (desired.size < max && unchanged.size > 0) fill = sliceToFill([...unchanged.values()], desired.size, max)
    if (fill) fill = { ...fill, endpoints: [...fill.endpoints] }
    else fill = { ports: group.ports, endpoints: [] }
    while (desired.size > 0 && fill.endpoints.length < max) fill.endpoints.push(desired.pop())
    if (fill.name !== undefined) {
      toUpdate.set(fill.name, fill)
      unchanged.delete(fill.name)
    } else create.push(fill)
  }
  return { create, update: [...toUpdate.values()], delete: toDelete }
}

/**
 * reconcileByAddressType + finalize's churn rule: the writes that bring a service's managed slices (all of the
 * service's address type; others are the caller's to delete) to the desired groups.
 */
export function planSlices(
  existing: readonly ExistingSlice[],
  groups: readonly EndpointGroup[],
  max = MAX_ENDPOINTS_PER_SLICE,
): SlicePlan {
  const byPortMap = new Map<string, ExistingSlice[]>()
  for (const s of existing) {
    const key = portMapKey(s.ports)
    byPortMap.set(key, [...(byPortMap.get(key) ?? []), s])
  }
  const plan: SlicePlan = { create: [], update: [], delete: [] }
  const desiredKeys = new Set<string>()
  for (const group of groups) {
    const key = portMapKey(group.ports)
    desiredKeys.add(key)
    const part = reconcilePortMapping(byPortMap.get(key) ?? [], group, max)
    plan.create.push(...part.create)
    plan.update.push(...part.update)
    plan.delete.push(...part.delete)
  }
  // Port mappings no longer desired lose their slices.
  for (const [key, slices] of byPortMap) if (!desiredKeys.has(key)) plan.delete.push(...slices.map((s) => s.name))
  // No slice would remain: a placeholder (no endpoints, no ports), kept as is when it is the one being deleted.
  if (existing.length === plan.delete.length && plan.create.length === 0) {
    const placeholder = existing.length === 1 ? existing[0]! : null
    if (placeholder && placeholder.endpoints.length === 0 && placeholder.ports.length === 0) {
      if (placeholder.labelsCurrent) plan.delete = []
      else {
        plan.delete = []
        plan.update.push({ name: placeholder.name, ports: [], endpoints: [] })
      }
    } else plan.create.push({ ports: [], endpoints: [] })
  }
  // finalize: a create takes over a slice that would be deleted (the last create first), as an update.
  while (plan.create.length > 0 && plan.delete.length > 0) {
    const slice = plan.create.pop()!
    plan.update.push({ ...slice, name: plan.delete.shift()! })
  }
  return plan
}
