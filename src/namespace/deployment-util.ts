// kube's deployment utilities (pkg/controller/deployment/util/deployment_util.go) as pure functions over plain
// objects: the new and old ReplicaSets of a Deployment, revisions and the annotations copied onto ReplicaSets, surge
// and unavailability fenceposts, proportional scaling, and the conditions and judgements of a rollout's progress.
import type { DeploymentCondition, DeploymentStatus } from '../schema/deployment'
import type { KubeObject } from '../schema/meta'
import type { ReplicaSetStatus } from '../schema/replica-set'
import type { PodTemplateSpec } from '../schema/replication-controller'
import type { DeploymentSpec } from '../schema/deployment'
import { canonicalJson } from '../registry/pod-template-hash'
import { rfc3339 } from '../registry/time'

export interface Deploy extends KubeObject {
  spec: DeploymentSpec & { replicas: number }
  status?: DeploymentStatus
}
export interface RS extends KubeObject {
  spec: { replicas: number; minReadySeconds?: number; template?: PodTemplateSpec; selector?: unknown }
  status?: ReplicaSetStatus
}

export const REVISION = 'deployment.kubernetes.io/revision'
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history'
const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas'
const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas'
export const POD_TEMPLATE_HASH = 'pod-template-hash'
/** Annotations never copied between a Deployment and its ReplicaSets. */
const SKIPPED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
])
/** Revision history is kept to about 100 entries (maxRevHistoryLengthInChars). */
const MAX_REV_HISTORY_CHARS = 2000

// ---- ReplicaSets of a Deployment ---------------------------------------------------------------------------------

const created = (o: KubeObject) => Date.parse(o.metadata.creationTimestamp ?? '') || 0
/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export const byCreation = (a: KubeObject, b: KubeObject) =>
  created(a) - created(b) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0)
/** ReplicaSetsBySizeOlder (bigger first, then older) and ReplicaSetsBySizeNewer (bigger first, then newer). */
export const bySizeOlder = (a: RS, b: RS) => b.spec.replicas - a.spec.replicas || byCreation(a, b)
export const bySizeNewer = (a: RS, b: RS) => b.spec.replicas - a.spec.replicas || byCreation(b, a)

/** FilterActiveReplicaSets: the ones with pods wanted. */
export const active = (rss: (RS | null)[]) => rss.filter((r): r is RS => !!r && r.spec.replicas > 0)

/** EqualIgnoreHash: two templates are the same intent whatever their pod-template-hash label. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined) => {
    const labels = { ...(t?.metadata?.labels ?? {}) }
    delete labels[POD_TEMPLATE_HASH]
    return { ...(t ?? {}), metadata: { ...(t?.metadata ?? {}), labels } }
  }
  // Semantic equality: an empty map or list is the same as none, as Go's zero values are.
  return canonicalJson(strip(a)) === canonicalJson(strip(b))
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template is the Deployment's. */
export function findNewReplicaSet(d: Deploy, rss: RS[]): RS | null {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template)) ?? null
}

/** FindOldReplicaSets' second answer: every ReplicaSet but the new one. */
export const oldReplicaSets = (rss: RS[], newRS: RS | null) =>
  rss.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid)

// ---- revisions and annotations -----------------------------------------------------------------------------------

/** Revision: the revision annotation as a number (0 when absent, null when it does not parse). */
export function revision(o: KubeObject): number | null {
  const v = o.metadata.annotations?.[REVISION]
  if (v === undefined) return 0
  return /^[+-]?\d+$/.test(v) ? Number(v) : null
}

export const maxRevision = (rss: RS[]) => rss.reduce((m, rs) => Math.max(m, revision(rs) ?? 0), 0)

/** ReplicaSetsByRevision: oldest revision first (ties by creation). */
export const byRevision = (a: RS, b: RS) => (revision(a) ?? 0) - (revision(b) ?? 0) || byCreation(a, b)

/** copyDeploymentAnnotationsToReplicaSet: whether the ReplicaSet's annotations changed. */
function copyAnnotations(d: Deploy, rs: RS): boolean {
  let changed = false
  const into = (rs.metadata.annotations ??= {})
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED.has(k) || into[k] === v) continue
    into[k] = v
    changed = true
  }
  return changed
}

/** SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises the revision, records the history. */
export function setNewReplicaSetAnnotations(d: Deploy, rs: RS, newRevision: number, exists: boolean): boolean {
  let changed = copyAnnotations(d, rs)
  const annotations = (rs.metadata.annotations ??= {})
  const oldText = annotations[REVISION]
  let oldRevision = 0
  if (oldText !== undefined && oldText !== '') {
    if (!/^[+-]?\d+$/.test(oldText)) return false
    oldRevision = Number(oldText)
  }
  if (oldRevision < newRevision) {
    annotations[REVISION] = String(newRevision)
    changed = true
    // A revision that already existed was rolled back to: keep the old numbers.
    if (oldText !== undefined) {
      const history = annotations[REVISION_HISTORY] ?? ''
      if (history === '') annotations[REVISION_HISTORY] = oldText
      else {
        const entries = history.split(',')
        let total = history.length + oldText.length + 1
        let start = 0
        while (total > MAX_REV_HISTORY_CHARS && start < entries.length) total -= entries[start++]!.length + 1
        if (total <= MAX_REV_HISTORY_CHARS) annotations[REVISION_HISTORY] = [...entries.slice(start), oldText].join(',')
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, d.spec.replicas, d.spec.replicas + maxSurge(d))) changed = true
  return changed
}

/** SetReplicasAnnotations: desired and max replicas, as the ReplicaSet's sizing was decided. */
export function setReplicasAnnotations(rs: RS, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {})
  let changed = false
  if (annotations[DESIRED_REPLICAS] !== String(desired)) {
    annotations[DESIRED_REPLICAS] = String(desired)
    changed = true
  }
  if (annotations[MAX_REPLICAS] !== String(max)) {
    annotations[MAX_REPLICAS] = String(max)
    changed = true
  }
  return changed
}

export const replicasAnnotationsNeedUpdate = (rs: RS, desired: number, max: number) =>
  rs.metadata.annotations?.[DESIRED_REPLICAS] !== String(desired) ||
  rs.metadata.annotations?.[MAX_REPLICAS] !== String(max)

/** GetDesiredReplicasAnnotation (null when absent or unparsable). */
export function desiredReplicasAnnotation(rs: RS): number | null {
  const v = rs.metadata.annotations?.[DESIRED_REPLICAS]
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : null
}

// ---- sizes -------------------------------------------------------------------------------------------------------

export const isRollingUpdate = (d: Deploy) => d.spec.strategy?.type === 'RollingUpdate'

/** intstr.GetScaledValueFromIntOrPercent (an unparsable string counts as 0: validation refused it already). */
function scaled(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0
  if (typeof v === 'number') return v
  const m = /^(\d+)%$/.exec(v)
  if (!m) return /^\d+$/.test(v) ? Number(v) : 0
  const x = (Number(m[1]) * total) / 100
  return roundUp ? Math.ceil(x) : Math.floor(x)
}

/** ResolveFenceposts: surge rounds up, unavailability down; both zero means one may be unavailable. */
function resolveFenceposts(d: Deploy): { surge: number; unavailable: number } {
  const ru = d.spec.strategy?.rollingUpdate
  const surge = scaled(ru?.maxSurge, d.spec.replicas, true)
  const unavailable = scaled(ru?.maxUnavailable, d.spec.replicas, false)
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable }
}

export const maxSurge = (d: Deploy) => (isRollingUpdate(d) ? resolveFenceposts(d).surge : 0)

export function maxUnavailable(d: Deploy): number {
  if (!isRollingUpdate(d) || d.spec.replicas === 0) return 0
  return Math.min(resolveFenceposts(d).unavailable, d.spec.replicas)
}

export const sumReplicas = (rss: (RS | null)[]) => rss.reduce((n, rs) => n + (rs?.spec.replicas ?? 0), 0)
export const sumStatus = (rss: (RS | null)[], k: 'replicas' | 'readyReplicas' | 'availableReplicas') =>
  rss.reduce((n, rs) => n + (rs?.status?.[k] ?? 0), 0)

/** NewRSNewReplicas: how big the new ReplicaSet may be now. */
export function newRSNewReplicas(d: Deploy, allRSs: RS[], newRS: RS): number {
  if (!isRollingUpdate(d)) return d.spec.replicas
  const maxTotal = d.spec.replicas + scaled(d.spec.strategy?.rollingUpdate?.maxSurge, d.spec.replicas, true)
  const current = sumReplicas(allRSs)
  if (current >= maxTotal) return newRS.spec.replicas
  return newRS.spec.replicas + Math.min(maxTotal - current, d.spec.replicas - newRS.spec.replicas)
}

/** IsSaturated: the new ReplicaSet has, wants and makes available every desired replica. */
export function isSaturated(d: Deploy, rs: RS | null): boolean {
  if (!rs) return false
  const desired = desiredReplicasAnnotation(rs)
  return (
    desired !== null &&
    rs.spec.replicas === d.spec.replicas &&
    desired === d.spec.replicas &&
    (rs.status?.availableReplicas ?? 0) === d.spec.replicas
  )
}

/** GetProportion: the share of a proportional scale (up or down) a ReplicaSet gets. */
export function proportion(rs: RS, d: Deploy, toAdd: number, added: number): number {
  if (rs.spec.replicas === 0 || toAdd === 0 || toAdd === added) return 0
  let fraction: number
  if (d.spec.replicas === 0) fraction = -rs.spec.replicas
  else {
    const v = rs.metadata.annotations?.[MAX_REPLICAS]
    const annotated = v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : (d.status?.replicas ?? 0)
    // integer.RoundToInt32: half away from zero.
    const size = (rs.spec.replicas * (d.spec.replicas + maxSurge(d))) / annotated
    fraction = Math.sign(size) * Math.round(Math.abs(size)) - rs.spec.replicas
  }
  const allowed = toAdd - added
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed)
}

// ---- conditions and progress -------------------------------------------------------------------------------------

export const condition = (s: DeploymentStatus | undefined, type: string) => s?.conditions?.find((c) => c.type === type)

export function newCondition(
  type: string,
  status: DeploymentCondition['status'],
  reason: string,
  message: string,
  now: Date,
) {
  const t = rfc3339(now)
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message } as DeploymentCondition
}

/** SetDeploymentCondition: same status and reason leaves it; same status keeps its transition time. */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition) {
  const current = condition(s, c.type)
  if (current && current.status === c.status && current.reason === c.reason) return
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), c]
}

export function removeCondition(s: DeploymentStatus, type: string) {
  const kept = (s.conditions ?? []).filter((c) => c.type !== type)
  if (kept.length) s.conditions = kept
  else delete s.conditions
}

export const hasProgressDeadline = (d: Deploy) =>
  d.spec.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== 2147483647
export const hasRevisionHistoryLimit = (d: Deploy) =>
  d.spec.revisionHistoryLimit !== undefined && d.spec.revisionHistoryLimit !== 2147483647

/** DeploymentComplete: every desired replica updated and available, nothing old left, the generation observed. */
export const deploymentComplete = (d: Deploy, s: DeploymentStatus) =>
  (s.updatedReplicas ?? 0) === d.spec.replicas &&
  (s.replicas ?? 0) === d.spec.replicas &&
  (s.availableReplicas ?? 0) === d.spec.replicas &&
  (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)

/** DeploymentProgressing: more updated, fewer old, more ready or more available than the status says. */
export function deploymentProgressing(d: Deploy, s: DeploymentStatus): boolean {
  const o = d.status ?? {}
  const oldBefore = (o.replicas ?? 0) - (o.updatedReplicas ?? 0)
  const oldNow = (s.replicas ?? 0) - (s.updatedReplicas ?? 0)
  return (
    (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) ||
    oldNow < oldBefore ||
    (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0)
  )
}

/** DeploymentTimedOut: the last progress is older than progressDeadlineSeconds. */
export function deploymentTimedOut(d: Deploy, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false
  const c = condition(s, 'Progressing')
  if (!c || c.reason === 'NewReplicaSetAvailable') return false
  if (c.reason === 'ProgressDeadlineExceeded') return true
  return Date.parse(c.lastUpdateTime ?? '') + d.spec.progressDeadlineSeconds! * 1000 < now
}
