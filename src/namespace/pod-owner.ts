// What every controller that owns pods shares (ReplicationControllers, ReplicaSets, and the other apps workloads):
// the controller reference, pod activity and availability as kube's controller utils judge them, pods made from a
// template, the deletion order, and claiming (adopting matching orphans, releasing owned pods that stopped matching)
// through ownerReferences, each re-checked when the write is planned.
import type { ControllerHost } from '../host/controller'
import { clone } from '../registry/deep-equal'
import type { Stored } from '../registry/store'
import type { KubeObject, ObjectMeta } from '../schema/meta'
import type { PodTemplateSpec } from '../schema/replication-controller'

/** The parts of a pod these judgements read. */
interface Obj {
  spec?: { nodeName?: string }
  status?: {
    phase?: string
    conditions?: { type: string; status: string; lastTransitionTime?: string }[]
    containerStatuses?: { restartCount?: number }[]
  }
}
export type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number]
export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean

/** The manager kube's controllers write objects under (kube-controller-manager's user agent). */
export const CONTROLLER_MANAGER = 'kube-controller-manager'

/** metav1.GetControllerOf. */
export const controllerRef = (o: KubeObject): OwnerReference | undefined =>
  o.metadata.ownerReferences?.find((r) => r.controller)

const isTerminal = (p: Obj) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed'
/** controller.IsPodActive: not finished and not being deleted. */
export const isActive = (p: KubeObject) => !p.metadata.deletionTimestamp && !isTerminal(p as unknown as Obj)
const readyCondition = (p: Obj) => (p.status?.conditions ?? []).find((c) => c.type === 'Ready')
/** podutil.IsPodReady. */
export const isReady = (p: KubeObject) => readyCondition(p as unknown as Obj)?.status === 'True'
/** When a ready pod became ready (ms), 0 when unknown. */
const readySince = (p: KubeObject) => Date.parse(readyCondition(p as unknown as Obj)?.lastTransitionTime ?? '') || 0

/**
 * podutil.IsPodAvailable: ready for at least minReadySeconds at `now`. When a ready pod is not yet available, `wake`
 * is when it will be (a controller asks its host to wake it then).
 */
export function availability(
  p: KubeObject,
  minReadySeconds: number,
  now: number,
): { available: boolean; wake?: number } {
  if (!isReady(p)) return { available: false }
  const at = readySince(p) + minReadySeconds * 1000
  return minReadySeconds === 0 || at <= now ? { available: true } : { available: false, wake: at }
}

/** metav1.NewControllerRef: the reference a controller puts on what it creates or adopts. */
export function ownerReference(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  }
}

/**
 * The active pods a controller owns (by its uid), as committed now, in name order. Found through the owner index
 * (host.dependents), so a sync costs what the controller owns, not what the namespace holds.
 */
export function ownedActivePods(host: ControllerHost, uid: string): Stored[] {
  const out: Stored[] = []
  for (const d of host.dependents(uid)) {
    if (d.resource !== 'pods') continue
    const s = host.get('pods', d.name)
    if (s && controllerRef(s.object)?.uid === uid && isActive(s.object)) out.push(s)
  }
  return out.sort((a, b) => (a.object.metadata.name! < b.object.metadata.name! ? -1 : 1))
}

/** getPodsFromTemplate: the template's labels, annotations and finalizers, owned through `ref`, named `name`. */
export function podFromTemplate(
  template: PodTemplateSpec | undefined,
  ref: OwnerReference,
  name: string,
  generateName?: string,
): KubeObject {
  const t = template ?? {}
  const meta: ObjectMeta = { name, ...(generateName ? { generateName } : {}), ownerReferences: [{ ...ref }] }
  if (t.metadata?.labels) meta.labels = { ...t.metadata.labels }
  if (t.metadata?.annotations) meta.annotations = { ...t.metadata.annotations }
  if (t.metadata?.finalizers) meta.finalizers = [...t.metadata.finalizers]
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: clone(t.spec ?? { containers: [] }) }
}

/**
 * The refusals kube's mutating admission makes of a pod create (ServiceAccount, Priority): they run before the store
 * generates the name, so they name a pod created with generateName alone by its prefix. Validating admission
 * (ResourceQuota, LimitRanger's bounds, mountable secrets) runs after it and names the generated name.
 */
const MUTATING_REFUSALS = [
  'error looking up service account ',
  'no PriorityClass with name ',
  'the integer value of priority ',
  'the string value of PreemptionPolicy ',
]

/**
 * A pod create's refusal by admission as kube's controllers get it: they create with generateName alone. These
 * controllers name their pods themselves (to plan them), so a refusal by mutating admission, which in kube names the
 * prefix (`pods "web-" is forbidden: error looking up service account ...`), is answered naming the prefix; one by
 * validating admission names the pod's name, as kube's names the generated one (`pods "web-x7k2q" is forbidden:
 * exceeded quota: ...`). Other messages are kept.
 */
export function refusalNamingPrefix(message: string, podName: string, prefix: string): string {
  const named = `pods ${JSON.stringify(podName)} is forbidden: `
  if (!message.startsWith(named)) return message
  const why = message.slice(named.length)
  return MUTATING_REFUSALS.some((m) => why.startsWith(m))
    ? `pods ${JSON.stringify(prefix)} is forbidden: ${why}`
    : message
}

/** controller.ActivePods ordering: the pods to delete first come first (unassigned, pending, unready, newest...). */
export function deletionRank(a: KubeObject, b: KubeObject): number {
  const pa = a as unknown as Obj
  const pb = b as unknown as Obj
  const assigned = (p: Obj) => (p.spec?.nodeName ? 1 : 0)
  if (assigned(pa) !== assigned(pb)) return assigned(pa) - assigned(pb)
  const phase = (p: Obj) => ({ Pending: 0, Unknown: 1, Running: 2 })[p.status?.phase ?? ''] ?? 0
  if (phase(pa) !== phase(pb)) return phase(pa) - phase(pb)
  const ready = (p: KubeObject) => (isReady(p) ? 1 : 0)
  if (ready(a) !== ready(b)) return ready(a) - ready(b)
  // Both ready: the one ready for less time goes first.
  if (isReady(a) && readySince(a) !== readySince(b)) return readySince(b) - readySince(a)
  const restarts = (p: Obj) => (p.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)
  if (restarts(pa) !== restarts(pb)) return restarts(pb) - restarts(pa)
  // Newer pods go first.
  return (
    Date.parse(b.metadata.creationTimestamp ?? '') - Date.parse(a.metadata.creationTimestamp ?? '') ||
    (a.metadata.name! < b.metadata.name! ? 1 : -1)
  )
}

/**
 * A label every object the owner's selector matches must carry (the first of its matchLabels, or of a
 * ReplicationController's plain selector), so the label index can find the candidates; null when it has none.
 */
function requiredLabel(owner: KubeObject): [string, string] | null {
  const selector = (owner as { spec?: { selector?: unknown } }).spec?.selector as Record<string, unknown> | undefined
  if (!selector || typeof selector !== 'object') return null
  const plain = 'matchLabels' in selector || 'matchExpressions' in selector ? selector.matchLabels : selector
  const first = Object.entries((plain ?? {}) as Record<string, unknown>)[0]
  return first && typeof first[1] === 'string' ? [first[0], first[1]] : null
}

/** How a claim sees its owner when a write is planned: the owner as stored now and its selector, or null if gone. */
type OwnerLookup = () => { owner: KubeObject; matches: LabelMatcher } | null

/**
 * ClaimObjects for one owner over objects of `resource`: releases the ones it controls that no longer match, adopts
 * matching orphans, skipping objects `eligible` rules out (inactive pods). Nothing is claimed while the owner is being
 * deleted. Each write re-checks its reason against the newest owner and object.
 */
export async function claim(
  host: ControllerHost,
  resource: string,
  ref: OwnerReference,
  lookup: OwnerLookup,
  eligible: (o: KubeObject) => boolean = () => true,
): Promise<void> {
  const now = lookup()
  if (!now || now.owner.metadata.deletionTimestamp) return
  const writes: Promise<unknown>[] = []
  // What it controls that stopped matching, found through the owner index; then the orphans that match, found by
  // their labels (a whole object is read only when they match): a claim costs what the selector and the owner
  // touch, not the whole namespace, as kube's informer cache makes it cost there.
  for (const d of host.dependents(ref.uid)) {
    if (d.resource !== resource) continue
    const object = host.get(resource, d.name)?.object
    if (!object || !eligible(object) || controllerRef(object)?.uid !== ref.uid) continue
    if (!now.matches(object.metadata.labels)) writes.push(release(host, resource, d.name, ref.uid, lookup))
  }
  const required = requiredLabel(now.owner)
  const candidates = required
    ? host.namesWithLabel(resource, required[0], required[1])
    : host
        .labelsOf(resource)
        .filter(({ labels }) => now.matches(labels))
        .map(({ name }) => name)
  for (const name of candidates) {
    const object = host.get(resource, name)?.object
    if (object && eligible(object) && !controllerRef(object) && now.matches(object.metadata.labels))
      writes.push(adopt(host, resource, name, ref, lookup, eligible))
  }
  await Promise.all(writes)
}

function adopt(
  host: ControllerHost,
  resource: string,
  name: string,
  ref: OwnerReference,
  lookup: OwnerLookup,
  eligible: (o: KubeObject) => boolean,
) {
  return host.update(
    resource,
    name,
    (o) => {
      const now = lookup()
      // Still an orphan that matches, and the owner is still this one, alive.
      if (!eligible(o) || controllerRef(o) || !now || now.owner.metadata.uid !== ref.uid) return null
      if (now.owner.metadata.deletionTimestamp || !now.matches(o.metadata.labels)) return null
      o.metadata.ownerReferences = [...(o.metadata.ownerReferences ?? []), { ...ref }]
      return o
    },
    { fieldManager: CONTROLLER_MANAGER },
  )
}

function release(host: ControllerHost, resource: string, name: string, uid: string, lookup: OwnerLookup) {
  return host.update(
    resource,
    name,
    (o) => {
      if (controllerRef(o)?.uid !== uid) return null
      const now = lookup()
      if (now && now.owner.metadata.uid === uid && now.matches(o.metadata.labels)) return null
      o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r: OwnerReference) => r.uid !== uid)
      if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences
      return o
    },
    { fieldManager: CONTROLLER_MANAGER },
  )
}

/**
 * One sync at a time per key, for level-triggered controllers: a trigger that arrives mid-sync runs the sync once more
 * afterwards (whose reads then include the first run's committed writes). A failed sync is logged, not thrown: the
 * next trigger or wake-up tries again (alarms must not fail).
 */
export class SyncQueue {
  private running = new Map<string, Promise<void>>()
  /** The keys asked for again mid-sync, with the latest sync asked for. */
  private again = new Map<string, () => Promise<void>>()

  constructor(private readonly label: string) {}

  enqueue(key: string, sync: () => Promise<void>): Promise<void> {
    const inFlight = this.running.get(key)
    if (inFlight) {
      this.again.set(key, sync)
      return inFlight
    }
    const run = (async () => {
      try {
        for (let next: (() => Promise<void>) | undefined = sync; next; next = this.again.get(key)) {
          this.again.delete(key)
          await next().catch((e: unknown) => console.error(`${this.label}: sync of ${key} failed`, e))
        }
      } finally {
        this.running.delete(key)
      }
    })()
    this.running.set(key, run)
    return run
  }
}
