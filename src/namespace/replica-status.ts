// kube's calculateStatus for ReplicationControllers and ReplicaSets (replica_set_utils.go), pure: the owner's active
// pods counted as replicas, fully labeled, ready and available (minReadySeconds), the ReplicaFailure condition kept
// from the first failure until a sync succeeds, and when the next ready pod becomes available.
import type { KubeObject } from '../schema/meta'
import type { ReplicaSetStatus } from '../schema/replica-set'
import type { PodTemplateSpec } from '../schema/replication-controller'
import { rfc3339 } from '../registry/time'
import { availability, isReady } from './pod-owner'

export interface ReplicaOwner extends KubeObject {
  spec?: { replicas?: number; minReadySeconds?: number; template?: PodTemplateSpec }
  /** The status of both kinds has the same shape (ReplicationControllerStatus is ReplicaSetStatus's twin). */
  status?: ReplicaSetStatus
}

/** kube's calculateStatus over the owner's active pods, and when the next ready pod becomes available. */
export function calculateStatus(
  owner: ReplicaOwner,
  pods: KubeObject[],
  failure: string | null,
  now: number,
): { status: ReplicaSetStatus; wake: number | null } {
  const templateLabels = owner.spec?.template?.metadata?.labels ?? {}
  let wake: number | null = null
  let ready = 0
  let available = 0
  for (const p of pods) {
    if (!isReady(p)) continue
    ready++
    const a = availability(p, owner.spec?.minReadySeconds ?? 0, now)
    if (a.available) available++
    else if (a.wake !== undefined) wake = Math.min(wake ?? Infinity, a.wake)
  }
  const fullyLabeled = pods.filter((p) =>
    Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v),
  ).length
  // Zero counts are left out, as kube's omitempty leaves them out.
  const status: ReplicaSetStatus = { replicas: pods.length }
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled
  if (ready) status.readyReplicas = ready
  if (available) status.availableReplicas = available
  if (owner.metadata.generation !== undefined) status.observedGeneration = owner.metadata.generation
  // kube sets the condition when a sync fails and there is none, keeps one already there as it is (the first
  // failure's message and time), and removes it after a sync without failure.
  const old = owner.status?.conditions?.find((c) => c.type === 'ReplicaFailure')
  if (failure && old) status.conditions = [old]
  else if (failure) {
    status.conditions = [
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: rfc3339(new Date(now)),
        reason: 'FailedCreate',
        message: failure,
      },
    ]
  }
  return { status, wake }
}
