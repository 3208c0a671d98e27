// PodDisruptionBudget arithmetic as kube's disruption controller (pkg/controller/disruption) and the eviction
// subresource (pkg/registry/core/pod/storage/eviction.go) do it: the pods a budget selects, how many are expected
// (the pods themselves, or their controllers' scale when the budget speaks in percentages or maxUnavailable), how many
// must stay healthy, which are healthy (ready, not deleting, not just evicted), the status and its DisruptionAllowed
// condition, and the check-and-decrement an eviction makes against the newest status. Pure: hosts supply pods and
// the controllers' scale.
import type { KubeObject, ObjectMeta } from '../schema/meta'
import type { PDBObject } from './strategies/pod-disruption-budget'
import { deepEqual } from './deep-equal'
import { labelSelectorFromMetaV1 } from './label-selector'
import { statuses, type Status } from './status'
import { rfc3339 } from './time'
import { scaledValue } from './validation/int-or-percent'

type PDBStatus = NonNullable<PDBObject['status']>
type Condition = NonNullable<PDBStatus['conditions']>[number]
type Obj = Record<string, any>

/** How long an eviction's entry in disruptedPods holds its pod out of the healthy count (kube's DeletionTimeout). */
const DELETION_TIMEOUT_MS = 2 * 60 * 1000
/** Past this many unconfirmed evictions, evictions are refused (kube's MaxDisruptedPodSize). */
const MAX_DISRUPTED_PODS = 2000

export const isPodReady = (pod: KubeObject) =>
  ((pod as Obj).status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True')

/** getPodsForPdb: the pods the budget's selector selects (a null or invalid selector selects none, `{}` all). */
export function podsForBudget<P extends KubeObject>(pdb: PDBObject, pods: readonly P[]): P[] {
  const parsed = labelSelectorFromMetaV1(pdb.spec?.selector)
  if (!parsed.ok) return []
  return pods.filter((p) => parsed.selector.matches(p.metadata.labels))
}

/**
 * The budgets that cover a pod for an eviction (getPodDisruptionBudgets): valid selectors matching its labels. As in
 * policy/v1, an empty selector (`{}`) covers every pod and a null one none (LabelSelectorAsSelector).
 */
export function budgetsForPod(pod: KubeObject, pdbs: readonly PDBObject[]): PDBObject[] {
  return pdbs.filter((pdb) => podsForBudget(pdb, [pod]).length > 0)
}

/** A controller's scale, as the disruption controller's finders report it (null: no such controller). */
export type ScaleLookup = (ref: NonNullable<ObjectMeta['ownerReferences']>[number]) => number | null | { error: string }

const controllerOf = (pod: KubeObject) => pod.metadata.ownerReferences?.find((r) => r.controller)

/** getExpectedScale: the sum of the scales of the pods' controllers; pods without a controller are listed apart. */
function expectedScale(
  pods: readonly KubeObject[],
  scaleOf: ScaleLookup,
): { count: number; unmanaged: string[] } | { error: string } {
  const scales = new Map<string, number>()
  const unmanaged: string[] = []
  for (const pod of pods) {
    const ref = controllerOf(pod)
    if (!ref) {
      unmanaged.push(pod.metadata.name!)
      continue
    }
    if (scales.has(ref.uid)) continue
    const scale = scaleOf(ref)
    if (scale !== null && typeof scale === 'object') return scale
    if (scale === null) return { error: `found no controllers for pod ${JSON.stringify(pod.metadata.name)}` }
    scales.set(ref.uid, scale)
  }
  return { count: [...scales.values()].reduce((a, b) => a + b, 0), unmanaged }
}

/** getExpectedPodCount: how many pods the budget expects and how many of them must be healthy. */
export function expectedPodCount(
  pdb: PDBObject,
  pods: readonly KubeObject[],
  scaleOf: ScaleLookup,
): { expected: number; desiredHealthy: number; unmanaged: string[] } | { error: string } {
  const { minAvailable, maxUnavailable } = pdb.spec ?? {}
  if (maxUnavailable !== undefined) {
    const scale = expectedScale(pods, scaleOf)
    if ('error' in scale) return scale
    const max = scaledValue(maxUnavailable, scale.count, true)
    if (max === null) return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(maxUnavailable)}` }
    return { expected: scale.count, desiredHealthy: Math.max(0, scale.count - max), unmanaged: scale.unmanaged }
  }
  if (typeof minAvailable === 'number') return { expected: pods.length, desiredHealthy: minAvailable, unmanaged: [] }
  if (typeof minAvailable === 'string') {
    const scale = expectedScale(pods, scaleOf)
    if ('error' in scale) return scale
    const min = scaledValue(minAvailable, scale.count, true)
    if (min === null) return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(minAvailable)}` }
    return { expected: scale.count, desiredHealthy: min, unmanaged: scale.unmanaged }
  }
  return { expected: 0, desiredHealthy: 0, unmanaged: [] }
}

/** buildDisruptedPodMap: evictions still expected to complete, and when the earliest of them stops counting. */
function disruptedPodMap(pdb: PDBObject, pods: readonly KubeObject[], now: number) {
  const kept: Record<string, string> = {}
  let recheckAt: number | null = null
  const notDeleted: string[] = []
  const listed = pdb.status?.disruptedPods ?? {}
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue
    const at = listed[pod.metadata.name!]
    if (at === undefined) continue
    const expectedDeletion = Date.parse(at) + DELETION_TIMEOUT_MS
    if (expectedDeletion < now) notDeleted.push(pod.metadata.name!)
    else {
      recheckAt = Math.min(recheckAt ?? Number.POSITIVE_INFINITY, expectedDeletion)
      kept[pod.metadata.name!] = at
    }
  }
  return { kept, recheckAt, notDeleted }
}

/** countHealthyPods: ready pods that are not being deleted nor just evicted. */
function countHealthy(pods: readonly KubeObject[], disrupted: Record<string, string>, now: number): number {
  let healthy = 0
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue
    const at = disrupted[pod.metadata.name!]
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue
    if (isPodReady(pod)) healthy++
  }
  return healthy
}

/** apimeta.SetStatusCondition: a new condition, or the same type updated (its transition time kept unless its status flips). */
function setCondition(conditions: Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>, now: Date) {
  const list = [...(conditions ?? [])]
  const i = list.findIndex((c) => c.type === next.type)
  const old = i >= 0 ? list[i] : undefined
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : rfc3339(now)
  const merged: Condition = { ...next, lastTransitionTime } as Condition
  if (next.observedGeneration === undefined || next.observedGeneration === 0) delete merged.observedGeneration
  if (i >= 0) list[i] = merged
  else list.push(merged)
  return list
}

/** pdbhelper.UpdateDisruptionAllowedCondition. */
function withDisruptionAllowedCondition(status: PDBStatus, now: Date): PDBStatus {
  const allowed = status.disruptionsAllowed > 0
  const conditions = setCondition(
    status.conditions,
    {
      type: 'DisruptionAllowed',
      status: allowed ? 'True' : 'False',
      reason: allowed ? 'SufficientPods' : 'InsufficientPods',
      message: '',
      observedGeneration: status.observedGeneration ?? 0,
    },
    now,
  )
  return { ...status, conditions }
}

/** What a sync of one budget computes: the status to write (null: it is current) and what else to do. */
export interface BudgetSync {
  status: PDBStatus | null
  /** When an eviction's hold on a pod runs out and the budget must be computed again. */
  recheckAt: number | null
  /** Pods an eviction was allowed for that were not deleted in time (kube's NotDeleted events). */
  notDeleted: string[]
  /** Pods without a controller (kube's UnmanagedPods event), or why the expected count could not be computed. */
  unmanaged: string[]
  error?: string
}

/** trySync / failSafe for one budget over the namespace's pods. */
export function syncBudget(
  pdb: PDBObject,
  allPods: readonly KubeObject[],
  scaleOf: ScaleLookup,
  now: Date,
): BudgetSync {
  const pods = podsForBudget(pdb, allPods)
  const current = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }
  const expected = expectedPodCount(pdb, pods, scaleOf)
  if ('error' in expected) {
    // failSafe: no disruption allowed, SyncFailed; observedGeneration is left behind, so evictions are told to wait.
    const conditions = setCondition(
      current.conditions,
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: expected.error,
        observedGeneration: current.observedGeneration ?? 0,
      },
      now,
    )
    const status = { ...current, disruptionsAllowed: 0, conditions }
    return {
      status: deepEqual(status, current) ? null : status,
      recheckAt: null,
      notDeleted: [],
      unmanaged: [],
      error: expected.error,
    }
  }
  const t = now.getTime()
  const disrupted = disruptedPodMap(pdb, pods, t)
  const currentHealthy = countHealthy(pods, disrupted.kept, t)
  let disruptionsAllowed = currentHealthy - expected.desiredHealthy
  if (expected.expected <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0
  const generation = pdb.metadata.generation ?? 0
  const upToDate =
    current.currentHealthy === currentHealthy &&
    current.desiredHealthy === expected.desiredHealthy &&
    current.expectedPods === expected.expected &&
    current.disruptionsAllowed === disruptionsAllowed &&
    deepEqual(current.disruptedPods ?? {}, disrupted.kept) &&
    (current.observedGeneration ?? 0) === generation &&
    conditionsUpToDate(current, generation)
  const base = { recheckAt: disrupted.recheckAt, notDeleted: disrupted.notDeleted, unmanaged: expected.unmanaged }
  if (upToDate) return { status: null, ...base }
  const status: PDBStatus = {
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy: expected.desiredHealthy,
    expectedPods: expected.expected,
  }
  if (generation) status.observedGeneration = generation
  if (Object.keys(disrupted.kept).length > 0) status.disruptedPods = disrupted.kept
  if (current.conditions) status.conditions = current.conditions
  return { status: withDisruptionAllowedCondition(status, now), ...base }
}

/** pdbhelper.ConditionsAreUpToDate. */
function conditionsUpToDate(status: PDBStatus, generation: number): boolean {
  const c = status.conditions?.find((x) => x.type === 'DisruptionAllowed')
  if (!c || (status.observedGeneration ?? 0) !== generation) return false
  return status.disruptionsAllowed > 0
    ? c.status === 'True' && c.reason === 'SufficientPods'
    : c.status === 'False' && c.reason === 'InsufficientPods'
}

const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget."

/** createTooManyRequestsError: the budget's status has not caught up with its spec yet. */
export function budgetBeingProcessed(name: string): Status {
  const s = statuses.tooManyRequests(EVICTION_REFUSED, 10)
  s.details = {
    causes: [
      { reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` },
    ],
    retryAfterSeconds: 10,
  }
  return s
}

/**
 * checkAndDecrement, against the budget's newest state: a refusal, or the budget with one disruption taken and the
 * pod recorded in disruptedPods (not on a dry run, which only checks).
 */
export function checkAndDecrement(
  pdb: PDBObject,
  podName: string,
  dryRun: boolean,
  now: Date,
): { refused: Status } | { pdb: PDBObject | null } {
  const status = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }
  const name = pdb.metadata.name!
  const resource = { resource: 'poddisruptionbudget', group: 'policy' }
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) return { refused: budgetBeingProcessed(name) }
  if (status.disruptionsAllowed < 0)
    return { refused: statuses.forbidden(resource, name, 'pdb disruptions allowed is negative') }
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    const why = 'DisruptedPods map too big - too many evictions not confirmed by PDB controller'
    return { refused: statuses.forbidden(resource, name, why) }
  }
  if (status.disruptionsAllowed === 0) {
    const s = statuses.tooManyRequests(EVICTION_REFUSED)
    s.details = {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
        },
      ],
    }
    return { refused: s }
  }
  if (dryRun) return { pdb: null }
  let next: PDBStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 }
  if (next.disruptionsAllowed === 0) next = withDisruptionAllowedCondition(next, now)
  next.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: rfc3339(now) }
  return { pdb: { ...pdb, status: next } }
}
