// A pod's effective requests as kube's resourcehelper.PodRequests sums them (pure, imports nothing): the scheduler's
// fit filter and the kubelet's admission count the same. The quantity parsers are passed in, since the node agent
// loads this file as it is and parses quantities its own way. Besides cpu and memory, the scheduler's Resource keeps
// ephemeral-storage and the scalar resources (extended names like nvidia.com/gpu, hugepages-<size>, kubernetes.io/
// names, attachable-volumes-*), each in whole units (Quantity.Value); `other` holds those a pod asks for.

type Obj = Record<string, any>

export interface PodRequests {
  cpuMilli: number
  memBytes: number
  /** ephemeral-storage and scalar resources above zero, by name; absent when the pod asks for none. */
  other?: Record<string, number>
}

/** Whether the scheduler's Resource counts `name` apart from cpu, memory and pods (ephemeral-storage or a scalar). */
const isOtherResource = (name: string) =>
  name === 'ephemeral-storage' ||
  name.startsWith('hugepages-') ||
  name.startsWith('attachable-volumes-') ||
  name.includes('/')

/**
 * v1helper.IsExtendedResourceName for a name the API accepted for a container: qualified with a domain that is not
 * kubernetes.io (validation already refused names that are not qualified).
 */
export const isExtendedResource = (name: string) => name.includes('/') && !name.includes('kubernetes.io/')

type Sums = Map<string, number>

/** An amount of cpu (millicores) and memory (bytes). */
export interface CpuAndMemory {
  cpuMilli: number
  memBytes: number
}

/**
 * kube's schedutil.DefaultMilliCPURequest and DefaultMemoryRequest (100m, 200 MiB): scoring counts them for containers
 * without a request (the node's NonZeroRequested), so pods asking nothing still spread.
 */
export const NON_ZERO_DEFAULTS: CpuAndMemory = { cpuMilli: 100, memBytes: 200 * 1024 * 1024 }

/**
 * A pod's effective requests: regular containers (and sidecars) summed, or the largest init container if bigger, each
 * resource on its own, plus the pod's overhead. With `nonMissing`, each container that does not name a cpu or memory
 * request counts that amount for it (NonMissingContainerRequests; a request of "0" is named).
 */
export function effectiveRequests(
  spec: Obj | undefined,
  milli: (q: unknown) => number,
  whole: (q: unknown) => number,
  nonMissing?: CpuAndMemory,
): PodRequests {
  const value = (name: string, q: unknown) => (name === 'cpu' ? milli(q) : whole(q))
  const add = (into: Sums, requests: Obj | undefined) => {
    for (const name in requests ?? {}) into.set(name, (into.get(name) ?? 0) + value(name, requests![name]))
  }
  const requestsOf = (c: Obj): Sums => {
    const own: Sums = new Map()
    add(own, c.resources?.requests)
    if (nonMissing) {
      if (!own.has('cpu')) own.set('cpu', nonMissing.cpuMilli)
      if (!own.has('memory')) own.set('memory', nonMissing.memBytes)
    }
    return own
  }
  const addAll = (into: Sums, from: Sums) => {
    for (const [name, n] of from) into.set(name, (into.get(name) ?? 0) + n)
  }
  const init = (spec?.initContainers ?? []) as Obj[]
  const total: Sums = new Map()
  for (const c of [...(spec?.containers ?? []), ...init.filter((c) => c.restartPolicy === 'Always')] as Obj[])
    addAll(total, requestsOf(c))
  // An init container runs beside the sidecars declared before it: its peak is its request plus theirs.
  const sidecars: Sums = new Map()
  for (const c of init) {
    if (c.restartPolicy === 'Always') {
      addAll(sidecars, requestsOf(c))
      continue
    }
    for (const [name, n] of requestsOf(c)) {
      const peak = (sidecars.get(name) ?? 0) + n
      if (peak > (total.get(name) ?? 0)) total.set(name, peak)
    }
  }
  add(total, spec?.overhead)
  const result: PodRequests = { cpuMilli: total.get('cpu') ?? 0, memBytes: total.get('memory') ?? 0 }
  for (const [name, n] of total) {
    if (n > 0 && isOtherResource(name)) (result.other ??= {})[name] = n
  }
  return result
}

/**
 * A node's allocatable (or capacity) list as NodeInfo reads it: cpu, memory, the pod count (110 when unset), and every
 * ephemeral-storage and scalar name it lists, also at 0.
 */
export function allocatableResources(
  list: Obj,
  milli: (q: unknown) => number,
  whole: (q: unknown) => number,
): PodRequests & { pods: number } {
  const allocatable: PodRequests & { pods: number } = {
    cpuMilli: milli(list.cpu),
    memBytes: whole(list.memory),
    pods: whole(list.pods ?? '110'),
  }
  for (const name in list) if (isOtherResource(name)) (allocatable.other ??= {})[name] = whole(list[name])
  return allocatable
}

/** A resource the node has too little of: InsufficientResource's fields. */
interface Shortage {
  name: string
  requested: number
  used: number
  capacity: number
}

/**
 * fitsRequest's checks past cpu and memory: ephemeral-storage, then each scalar resource the pod asks for, in name
 * order (kube walks a Go map), against what is left of the node's allocatable. `skip` leaves a name out (the kubelet's
 * removeMissingExtendedResources). Answers each shortage with kube's Requested, Used and Capacity.
 */
export function otherShortages(
  requests: PodRequests,
  allocatable: PodRequests,
  used: PodRequests,
  skip?: (name: string) => boolean,
): Shortage[] {
  const wanted = requests.other
  if (!wanted) return []
  const names = Object.keys(wanted).sort((a, b) =>
    a === 'ephemeral-storage' ? -1 : b === 'ephemeral-storage' ? 1 : a < b ? -1 : a > b ? 1 : 0,
  )
  const short: Shortage[] = []
  for (const name of names) {
    if (skip?.(name)) continue
    const capacity = allocatable.other?.[name] ?? 0
    const inUse = used.other?.[name] ?? 0
    if (wanted[name]! > capacity - inUse) short.push({ name, requested: wanted[name]!, used: inUse, capacity })
  }
  return short
}

/**
 * removeMissingExtendedResources: the kubelet leaves out an extended resource (a domain other than kubernetes.io) its
 * node does not list in allocatable at all, as a cluster-level resource; a node listing it, also as 0, counts it.
 */
export const missingExtended =
  (allocatable: PodRequests) =>
  (name: string): boolean =>
    isExtendedResource(name) && allocatable.other?.[name] === undefined

/** Adds `sign` times `from`'s amounts into `into`'s other resources, dropping names that reach 0. */
export function addOther(into: { other?: Record<string, number> }, from: Record<string, number> | undefined, sign = 1) {
  if (!from) return
  const other = (into.other ??= {})
  for (const name in from) {
    const n = (other[name] ?? 0) + sign * from[name]!
    if (n === 0) delete other[name]
    else other[name] = n
  }
  if (Object.keys(other).length === 0) delete into.other
}
