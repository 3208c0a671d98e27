// What kube's stateful set controller decides in one sync (pkg/controller/statefulset stateful_set_control.go
// updateStatefulSet, release-1.33 with MaxUnavailableStatefulSet off): pods <set>-<ordinal> for every ordinal in
// [start, start+replicas), created in order (OrderedReady waits for each to be Running, Ready and available) or all
// at once (Parallel); pods past the range removed highest ordinal first; finished pods replaced; the RollingUpdate
// strategy deleting the highest ordinal at or above the partition that is not at the update revision, one at a time;
// and the pods themselves (identity labels, hostname and subdomain, claim volumes, revision label). Pure.
import type { KubeObject } from '../schema/meta'
import { REVISION_HASH_LABEL } from './controller-history'

type Obj = Record<string, any>

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name'
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index'

export type StatefulAction =
  | { type: 'create'; ordinal: number; revision: 'current' | 'update' }
  | { type: 'delete'; pod: string; reason: 'finished' | 'condemned' | 'update' }
  | { type: 'relabel'; pod: string }

interface StatefulPlan {
  actions: StatefulAction[]
  /** When a ready pod becomes available and the plan may move on. */
  wake: number | null
}

export interface StatefulContext {
  set: KubeObject
  currentRevision: string
  updateRevision: string
  /** podutil.IsPodAvailable for the set's minReadySeconds at now; `wake` when a ready pod will be. */
  available(pod: KubeObject): { available: boolean; wake?: number }
}

const spec = (set: KubeObject) => ((set as Obj).spec ?? {}) as Obj
const startOrdinal = (set: KubeObject) => Number(spec(set).ordinals?.start ?? 0)
const replicaCount = (set: KubeObject) => Number(spec(set).replicas ?? 1)

/** getParentNameAndOrdinal: the ordinal of a pod named <set>-<n>, or -1. */
export function ordinalOf(set: KubeObject, pod: KubeObject): number {
  const m = /^(.*)-([0-9]+)$/.exec(pod.metadata.name ?? '')
  if (!m || m[1] !== set.metadata.name) return -1
  const n = Number(m[2])
  return Number.isSafeInteger(n) && n <= 2147483647 ? n : -1
}

const phase = (p: KubeObject) => (p as Obj).status?.phase as string | undefined
const isTerminating = (p: KubeObject) => p.metadata.deletionTimestamp !== undefined
const isRunningAndReady = (p: KubeObject) =>
  phase(p) === 'Running' &&
  ((p as Obj).status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True')
const isHealthy = (p: KubeObject) => isRunningAndReady(p) && !isTerminating(p)
export const podRevision = (p: KubeObject) => p.metadata.labels?.[REVISION_HASH_LABEL]

/** updateIdentity's labels: what a pod of the set must carry. */
const identityMatches = (set: KubeObject, p: KubeObject) => {
  const ord = ordinalOf(set, p)
  const labels = p.metadata.labels ?? {}
  return ord >= 0 && labels[POD_NAME_LABEL] === p.metadata.name && labels[POD_INDEX_LABEL] === String(ord)
}

/** newVersionedStatefulSetPod's choice: ordinals below the partition keep the current revision. */
function revisionFor(set: KubeObject, ordinal: number): 'current' | 'update' {
  const strategy = spec(set).updateStrategy ?? {}
  if (strategy.type !== 'RollingUpdate') return 'update'
  const below = strategy.rollingUpdate
    ? startOrdinal(set) + Number(strategy.rollingUpdate.partition ?? 0)
    : startOrdinal(set) + Number((set as Obj).status?.currentReplicas ?? 0)
  return ordinal < below ? 'current' : 'update'
}

/** updateStatefulSet's writes for this sync, in the order kube makes them. */
export function statefulPlan(pods: readonly KubeObject[], c: StatefulContext): StatefulPlan {
  const set = c.set
  const start = startOrdinal(set)
  const count = replicaCount(set)
  const monotonic = spec(set).podManagementPolicy !== 'Parallel'
  const replicas: (KubeObject | null)[] = Array.from({ length: count }, () => null)
  const condemned: KubeObject[] = []
  for (const p of pods) {
    const ord = ordinalOf(set, p)
    if (ord < 0) continue
    if (ord >= start && ord < start + count) replicas[ord - start] = p
    else condemned.push(p)
  }
  condemned.sort((a, b) => ordinalOf(set, b) - ordinalOf(set, a))
  // The first unhealthy pod: in range (a pod still to be created counts), else the lowest condemned one.
  const inRange = replicas.findIndex((p) => !p || !isHealthy(p))
  const firstUnhealthy =
    inRange >= 0 ? replicas[inRange] : ([...condemned].reverse().find((p) => !isHealthy(p)) ?? null)
  const plan: StatefulPlan = { actions: [], wake: null }
  if (set.metadata.deletionTimestamp) return plan
  const availableNow = (p: KubeObject) => {
    const a = c.available(p)
    if (!a.available && a.wake !== undefined) plan.wake = Math.min(plan.wake ?? Number.POSITIVE_INFINITY, a.wake)
    return a.available
  }
  // processReplica for each ordinal in range; in OrderedReady mode the first thing that blocks ends the sync.
  for (let i = 0; i < count; i++) {
    const p = replicas[i]
    if (p && (phase(p) === 'Failed' || phase(p) === 'Succeeded')) {
      if (!isTerminating(p)) plan.actions.push({ type: 'delete', pod: p.metadata.name!, reason: 'finished' })
      if (monotonic) return plan
      continue
    }
    if (!p) {
      plan.actions.push({ type: 'create', ordinal: start + i, revision: revisionFor(set, start + i) })
      if (monotonic) return plan
      continue
    }
    if (monotonic && (!isRunningAndReady(p) || !availableNow(p))) return plan
    if (!identityMatches(set, p)) plan.actions.push({ type: 'relabel', pod: p.metadata.name! })
  }
  // processCondemned, highest ordinal first; OrderedReady waits for the others to be healthy and for each to go.
  for (const p of condemned) {
    if (isTerminating(p)) {
      if (monotonic) return plan
      continue
    }
    if (monotonic && p !== firstUnhealthy && (!isRunningAndReady(p) || !availableNow(p))) return plan
    plan.actions.push({ type: 'delete', pod: p.metadata.name!, reason: 'condemned' })
    if (monotonic) return plan
  }
  const strategy = spec(set).updateStrategy ?? {}
  if (strategy.type === 'OnDelete') return plan
  // The rolling update: the highest ordinal at or above the partition not at the update revision goes first.
  const updateMin = Number(strategy.rollingUpdate?.partition ?? 0)
  for (let target = count - 1; target >= updateMin; target--) {
    const p = replicas[target]
    if (!p) return plan
    if (podRevision(p) !== c.updateRevision && !isTerminating(p)) {
      plan.actions.push({ type: 'delete', pod: p.metadata.name!, reason: 'update' })
      return plan
    }
    if (!isHealthy(p)) return plan
  }
  return plan
}

/** computeReplicaStatus over the set's pods, then completeRollingUpdate. */
export function statefulCounts(pods: readonly KubeObject[], c: StatefulContext) {
  let replicas = 0
  let ready = 0
  let available = 0
  let current = 0
  let updated = 0
  let wake: number | null = null
  for (const p of pods) {
    if (ordinalOf(c.set, p) < 0) continue
    const created = phase(p) !== undefined && phase(p) !== ''
    if (created) replicas++
    if (isRunningAndReady(p)) {
      ready++
      const a = c.available(p)
      if (a.available) available++
      else if (a.wake !== undefined) wake = Math.min(wake ?? Number.POSITIVE_INFINITY, a.wake)
    }
    if (created && !isTerminating(p)) {
      if (podRevision(p) === c.currentRevision) current++
      if (podRevision(p) === c.updateRevision) updated++
    }
  }
  let currentRevision = c.currentRevision
  // completeRollingUpdate: once every pod is updated and ready, the update revision is the current one.
  if (spec(c.set).updateStrategy?.type === 'RollingUpdate' && updated === replicas && ready === replicas) {
    current = updated
    currentRevision = c.updateRevision
  }
  return { replicas, ready, available, current, updated, currentRevision, wake }
}

/** The claims a pod of the set gets: <template>-<set>-<ordinal>, labelled with the set's matchLabels. */
export function podClaims(set: KubeObject, ordinal: number): { volume: string; claim: KubeObject }[] {
  const matchLabels = (spec(set).selector?.matchLabels ?? {}) as Record<string, string>
  return ((spec(set).volumeClaimTemplates ?? []) as Obj[]).map((t) => {
    const claim = structuredClone(t) as Obj
    delete claim.status
    claim.metadata = {
      ...(claim.metadata ?? {}),
      name: `${t.metadata?.name ?? ''}-${set.metadata.name}-${ordinal}`,
      labels: { ...(claim.metadata?.labels ?? {}), ...matchLabels },
    }
    return { volume: t.metadata?.name ?? '', claim: claim as KubeObject }
  })
}

/**
 * newStatefulSetPod for a template (the current or the update revision's): named <set>-<ordinal>, its identity labels,
 * hostname and subdomain, a volume per claim template, and the revision label.
 */
export function statefulPod(set: KubeObject, template: Obj, ordinal: number, revision: string, owner: Obj): KubeObject {
  const name = `${set.metadata.name}-${ordinal}`
  const t = structuredClone(template ?? {}) as Obj
  const metadata: Obj = { name, ownerReferences: [{ ...owner }] }
  metadata.labels = {
    ...(t.metadata?.labels ?? {}),
    [POD_NAME_LABEL]: name,
    [POD_INDEX_LABEL]: String(ordinal),
    [REVISION_HASH_LABEL]: revision,
  }
  if (t.metadata?.annotations) metadata.annotations = { ...t.metadata.annotations }
  if (t.metadata?.finalizers) metadata.finalizers = [...t.metadata.finalizers]
  const podSpec: Obj = t.spec ?? { containers: [] }
  podSpec.hostname = name
  const serviceName = spec(set).serviceName
  if (serviceName) podSpec.subdomain = serviceName
  else delete podSpec.subdomain
  const claims = podClaims(set, ordinal)
  if (claims.length > 0) {
    const claimed = new Set(claims.map((c) => c.volume))
    podSpec.volumes = [
      ...claims.map((c) => ({ name: c.volume, persistentVolumeClaim: { claimName: c.claim.metadata.name } })),
      ...((podSpec.volumes ?? []) as Obj[]).filter((v) => !claimed.has(v.name)),
    ]
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: podSpec }
}
