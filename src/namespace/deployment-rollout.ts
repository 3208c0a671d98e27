// What a Deployment sync does with its ReplicaSets, as kube's deployment controller does it (sync.go, rolling.go,
// recreate.go, progress.go): scale the new ReplicaSet (deployment-new-replica-set.ts) up within maxSurge and the old
// ones down within maxUnavailable (RollingUpdate) or all old ones to zero first (Recreate), scale proportionally on a
// scaling event, keep revisionHistoryLimit old ReplicaSets, and write the resulting status.
import { rolloutStatus, calculateStatus } from './deployment-status'
import {
  active,
  byCreation,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  deploymentComplete,
  desiredReplicasAnnotation,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  proportion,
  type RS,
  sumReplicas,
  sumStatus,
} from './deployment-util'
import { replicaSetsWithRevision, type Sets } from './deployment-new-replica-set'
import type { DeploymentSync } from './deployment-writes'

/** isScalingEvent: an active ReplicaSet was sized for another replica count than the Deployment's. */
export function isScalingEvent(s: DeploymentSync, sets: Sets): boolean {
  return active([...sets.oldRSs, sets.newRS]).some((rs) => {
    const desired = desiredReplicasAnnotation(rs)
    return desired !== null && desired !== s.d.spec.replicas
  })
}

/** sync: scaling events and paused Deployments; scale (proportionally when rolling), clean up when paused, status. */
export async function syncScaling(s: DeploymentSync, sets: Sets): Promise<void> {
  await scale(s, sets.newRS, sets.oldRSs)
  if (s.d.spec.paused) await cleanup(s, sets.oldRSs)
  await syncStatus(s, [...sets.oldRSs, sets.newRS], sets.newRS)
}

async function scale(s: DeploymentSync, newRS: RS | null, oldRSs: RS[]): Promise<void> {
  const { d } = s
  const live = active([...oldRSs, newRS])
  const latest =
    live.length === 1 ? live[0]! : live.length === 0 ? (newRS ?? [...oldRSs].sort(byCreation).at(-1)) : null
  if (latest !== null) {
    if (latest && latest.spec.replicas !== d.spec.replicas) await s.scaleAndRecord(latest, d.spec.replicas)
    return
  }
  if (isSaturated(d, newRS)) {
    for (const old of active(oldRSs)) await s.scaleAndRecord(old, 0)
    return
  }
  if (!isRollingUpdate(d)) return
  const allowed = d.spec.replicas > 0 ? d.spec.replicas + maxSurge(d) : 0
  const toAdd = allowed - sumReplicas(live)
  const operation = toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : ''
  const ordered = [...live].sort(toAdd > 0 ? bySizeNewer : bySizeOlder)
  let added = 0
  const sizes = ordered.map((rs) => {
    if (toAdd === 0) return rs.spec.replicas
    const p = proportion(rs, d, toAdd, added)
    added += p
    return rs.spec.replicas + p
  })
  // Leftovers go to the largest.
  if (toAdd !== 0 && sizes.length) sizes[0] = Math.max(0, sizes[0]! + toAdd - added)
  for (let i = 0; i < ordered.length; i++) await s.scaleReplicaSet(ordered[i]!, sizes[i]!, operation)
}

/** cleanupDeployment: all but revisionHistoryLimit old ReplicaSets, oldest revisions first, when fully scaled down. */
async function cleanup(s: DeploymentSync, oldRSs: RS[]): Promise<void> {
  const { d } = s
  if (!hasRevisionHistoryLimit(d)) return
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision)
  const diff = cleanable.length - (d.spec.revisionHistoryLimit ?? 10)
  for (const rs of cleanable.slice(0, Math.max(0, diff))) {
    const settled = (rs.status?.observedGeneration ?? 0) >= (rs.metadata.generation ?? 0)
    if ((rs.status?.replicas ?? 0) !== 0 || rs.spec.replicas !== 0 || !settled) continue
    await s.deleteReplicaSet(rs)
  }
}

/** syncDeploymentStatus: calculateStatus written when it differs. */
export async function syncStatus(s: DeploymentSync, allRSs: (RS | null)[], newRS: RS | null): Promise<void> {
  s.d.status = calculateStatus(allRSs, newRS, s.d, s.now())
  await s.updateStatus()
}

/** syncRolloutStatus: status with progress judged; a stuck rollout asks to be looked at when its deadline passes. */
async function syncRollout(s: DeploymentSync, allRSs: (RS | null)[], newRS: RS | null): Promise<void> {
  const { status, recheckAt } = rolloutStatus(allRSs, newRS, s.d, s.now())
  s.d.status = status
  await s.updateStatus()
  if (recheckAt !== null) await s.host.wakeAt(recheckAt)
}

/** rolloutRolling: scale the new ReplicaSet up if it may grow, else the old ones down if availability allows. */
export async function rolloutRolling(s: DeploymentSync, rsList: RS[]): Promise<void> {
  const { d } = s
  const { newRS, oldRSs } = await replicaSetsWithRevision(s, rsList, true)
  if (!newRS) return
  const all = () => [...oldRSs, newRS]
  // reconcileNewReplicaSet
  if (newRS.spec.replicas !== d.spec.replicas) {
    const target = newRS.spec.replicas > d.spec.replicas ? d.spec.replicas : newRSNewReplicas(d, all(), newRS)
    const r = await s.scaleAndRecord(newRS, target)
    if (r.scaled) return syncRollout(s, [...oldRSs, r.rs], r.rs)
  }
  // reconcileOldReplicaSets
  if (await scaleDownOld(s, oldRSs, newRS)) return syncRollout(s, all(), newRS)
  if (deploymentComplete(d, d.status ?? {})) await cleanup(s, oldRSs)
  return syncRollout(s, all(), newRS)
}

/** reconcileOldReplicaSets: unhealthy old replicas first, then available ones down to minAvailable. */
async function scaleDownOld(s: DeploymentSync, oldRSs: RS[], newRS: RS): Promise<boolean> {
  const { d } = s
  const olds = active(oldRSs)
  if (sumReplicas(olds) === 0) return false
  const minAvailable = d.spec.replicas - maxUnavailable(d)
  const newUnavailable = newRS.spec.replicas - (newRS.status?.availableReplicas ?? 0)
  const maxScaledDown = sumReplicas([...olds, newRS]) - minAvailable - newUnavailable
  if (maxScaledDown <= 0) return false
  const replace = (rs: RS) => {
    const i = oldRSs.findIndex((o) => o.metadata.uid === rs.metadata.uid)
    if (i >= 0) oldRSs[i] = rs
  }
  let cleaned = 0
  for (const rs of [...olds].sort(byCreation)) {
    if (cleaned >= maxScaledDown) break
    const unhealthy = rs.spec.replicas - (rs.status?.availableReplicas ?? 0)
    if (rs.spec.replicas === 0 || unhealthy <= 0) continue
    const n = Math.min(maxScaledDown - cleaned, unhealthy)
    replace((await s.scaleAndRecord(rs, rs.spec.replicas - n)).rs)
    cleaned += n
  }
  // scaleDownOldReplicaSetsForRollingUpdate
  let scaledDown = 0
  const available = sumStatus([...active(oldRSs), newRS], 'availableReplicas')
  if (available > minAvailable) {
    const total = available - minAvailable
    for (const rs of active(oldRSs).sort(byCreation)) {
      if (scaledDown >= total) break
      const n = Math.min(rs.spec.replicas, total - scaledDown)
      replace((await s.scaleAndRecord(rs, rs.spec.replicas - n)).rs)
      scaledDown += n
    }
  }
  return cleaned + scaledDown > 0
}

/** rolloutRecreate: every old ReplicaSet to zero, wait for their pods to go, then the new one to full size. */
export async function rolloutRecreate(s: DeploymentSync, rsList: RS[], oldPodsRunning: (newRS: RS | null) => boolean) {
  const { d } = s
  let { newRS, oldRSs } = await replicaSetsWithRevision(s, rsList, false)
  let scaledDown = false
  for (const rs of active(oldRSs)) {
    const r = await s.scaleAndRecord(rs, 0)
    oldRSs = oldRSs.map((o) => (o.metadata.uid === rs.metadata.uid ? r.rs : o))
    scaledDown ||= r.scaled
  }
  if (scaledDown || sumStatus(oldRSs, 'replicas') > 0 || oldPodsRunning(newRS)) {
    return syncRollout(s, [...oldRSs, newRS], newRS)
  }
  if (!newRS) ({ newRS, oldRSs } = await replicaSetsWithRevision(s, rsList, true))
  if (newRS) newRS = (await s.scaleAndRecord(newRS, d.spec.replicas)).rs
  if (deploymentComplete(d, d.status ?? {})) await cleanup(s, oldRSs)
  return syncRollout(s, [...oldRSs, newRS], newRS)
}
