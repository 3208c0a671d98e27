// apps/v1 ReplicaSet: a ReplicationController with a set-based selector (metav1.LabelSelector), fields in Go order
// (k8s.io/api apps/v1 types.go, release-1.33).
import { z } from 'zod'
import { ObjectMeta, Time, int32, int64 } from './meta'
import { LabelSelector } from './pod-common'
import { PodTemplateSpec } from './replication-controller'

export const ReplicaSetSpec = z
  .strictObject({
    replicas: int32.optional().describe('Number of desired pods; 1 by default'),
    minReadySeconds: int32
      .optional()
      .describe('Seconds a new pod must be ready, with no container crashing, to count as available'),
    selector: LabelSelector.describe('Label query over the pods that count towards replicas; must match the template'),
    template: PodTemplateSpec.optional().describe('The pod created when too few replicas exist'),
  })
  .describe('The specification of a ReplicaSet')
export type ReplicaSetSpec = z.infer<typeof ReplicaSetSpec>

export const ReplicaSetCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition, such as ReplicaFailure'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a replica set at a point in time')

export const ReplicaSetStatus = z
  .strictObject({
    replicas: int32.describe('Most recently observed number of non-terminating pods'),
    fullyLabeledReplicas: int32.optional().describe('Non-terminating pods whose labels match the template labels'),
    readyReplicas: int32.optional().describe('Non-terminating pods with a Ready condition'),
    availableReplicas: int32.optional().describe('Non-terminating pods ready for at least minReadySeconds'),
    terminatingReplicas: int32
      .optional()
      .describe('Terminating pods (alpha, behind DeploymentReplicaSetTerminatingReplicas: never set here)'),
    observedGeneration: int64.optional().describe('The generation the controller last acted on'),
    conditions: z
      .array(ReplicaSetCondition)
      .optional()
      .describe('Latest observations of the replica set state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
  })
  .describe('The most recently observed state of a ReplicaSet')
export type ReplicaSetStatus = z.infer<typeof ReplicaSetStatus>

export const ReplicaSet = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ReplicaSet'),
    apiVersion: z.string().optional().describe('Schema version of this object: apps/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata; labels default to the template labels'),
    spec: ReplicaSetSpec.optional().describe('Desired state of the replica set'),
    status: ReplicaSetStatus.optional().describe('Observed state, written by the replica set controller'),
  })
  .describe('Ensures that a given number of pod replicas run at any time')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'ReplicaSet' }] })
export type ReplicaSet = z.infer<typeof ReplicaSet>
