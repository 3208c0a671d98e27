// A Deployment's status as kube's deployment controller computes it (sync.go calculateStatus, progress.go
// syncRolloutStatus and requeueStuckDeployment): counts summed over its ReplicaSets, the Available condition, and the
// Progressing condition's reasons and messages as a rollout advances, completes or runs out of time.
import type { DeploymentStatus } from '../schema/deployment'
import {
  condition,
  type Deploy,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  hasProgressDeadline,
  maxUnavailable,
  newCondition,
  type RS,
  removeCondition,
  setCondition,
  sumReplicas,
  sumStatus,
} from './deployment-util'

/** calculateStatus: counts from the ReplicaSets, conditions carried over, Available judged against minAvailable. */
export function calculateStatus(allRSs: (RS | null)[], newRS: RS | null, d: Deploy, now: Date): DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas')
  const unavailable = Math.max(0, sumReplicas(allRSs) - available)
  const counts: [keyof DeploymentStatus, number][] = [
    ['observedGeneration', d.metadata.generation ?? 0],
    ['replicas', sumStatus(allRSs, 'replicas')],
    ['updatedReplicas', sumStatus([newRS], 'replicas')],
    ['readyReplicas', sumStatus(allRSs, 'readyReplicas')],
    ['availableReplicas', available],
    ['unavailableReplicas', unavailable],
  ]
  // Zero counts are left out, as kube's omitempty leaves them out.
  const status: DeploymentStatus = {}
  for (const [k, v] of counts) if (v) (status as Record<string, number>)[k] = v
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }))
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount
  if (available >= d.spec.replicas - maxUnavailable(d)) {
    setCondition(
      status,
      newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now),
    )
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        'MinimumReplicasUnavailable',
        'Deployment does not have minimum availability.',
        now,
      ),
    )
  }
  return status
}

/**
 * syncRolloutStatus's status: calculateStatus plus the Progressing condition (complete, progressing, or timed out)
 * and ReplicaSet failures; `recheckAt` is when a stuck rollout must be looked at again (requeueStuckDeployment).
 */
export function rolloutStatus(
  allRSs: (RS | null)[],
  newRS: RS | null,
  d: Deploy,
  now: Date,
): { status: DeploymentStatus; recheckAt: number | null } {
  const status = calculateStatus(allRSs, newRS, d, now)
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing')
  const current = condition(d.status, 'Progressing')
  const isComplete =
    (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === 'NewReplicaSetAvailable'
  if (hasProgressDeadline(d) && !isComplete) {
    const name = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`
    if (deploymentComplete(d, status)) {
      setCondition(
        status,
        newCondition('Progressing', 'True', 'NewReplicaSetAvailable', `${name} has successfully progressed.`, now),
      )
    } else if (deploymentProgressing(d, status)) {
      // Progress refreshes lastUpdateTime even with the same reason (SetDeploymentCondition would keep the old one).
      const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `${name} is progressing.`, now)
      if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime
      removeCondition(status, 'Progressing')
      setCondition(status, c)
    } else if (deploymentTimedOut(d, status, now.getTime())) {
      setCondition(
        status,
        newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', `${name} has timed out progressing.`, now),
      )
    }
  }
  // getReplicaFailures: the new ReplicaSet's failure first, else an old one's.
  const failure = [newRS, ...allRSs]
    .flatMap((rs) => rs?.status?.conditions ?? [])
    .find((c) => c.type === 'ReplicaFailure' && c.status === 'True')
  if (failure) {
    setCondition(status, {
      type: 'ReplicaFailure',
      status: 'True',
      lastUpdateTime: failure.lastTransitionTime,
      lastTransitionTime: failure.lastTransitionTime,
      reason: failure.reason,
      message: failure.message,
    })
  } else removeCondition(status, 'ReplicaFailure')
  return { status, recheckAt: recheckAt(d, status, now.getTime()) }
}

/** requeueStuckDeployment: a rollout in progress is checked again when its deadline passes (plus a second). */
function recheckAt(d: Deploy, status: DeploymentStatus, now: number): number | null {
  const current = condition(d.status, 'Progressing')
  if (!hasProgressDeadline(d) || !current) return null
  if (deploymentComplete(d, status) || current.reason === 'ProgressDeadlineExceeded') return null
  const due = Date.parse(current.lastUpdateTime ?? '') + d.spec.progressDeadlineSeconds! * 1000
  return Math.max(due + 1000, now + 1000)
}
