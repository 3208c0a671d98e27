// apps/v1 Deployment: declarative updates of pods through ReplicaSets, fields in Go order (k8s.io/api apps/v1
// types.go, release-1.33).
import { z } from 'zod'
import { IntOrString, ObjectMeta, Time, int32, int64 } from './meta'
import { LabelSelector } from './pod-common'
import { PodTemplateSpec } from './replication-controller'

export const RollingUpdateDeployment = z
  .strictObject({
    maxUnavailable: IntOrString.optional().describe(
      'Pods that may be unavailable during the update: a number or a percentage of desired pods (rounded down); 25% by default',
    ),
    maxSurge: IntOrString.optional().describe(
      'Pods that may be created above the desired number: a number or a percentage (rounded up); 25% by default',
    ),
  })
  .describe('Parameters of a rolling update')

export const DeploymentStrategy = z
  .strictObject({
    type: z.string().optional().describe('Recreate or RollingUpdate (the default)'),
    rollingUpdate: RollingUpdateDeployment.optional().describe('Rolling update parameters; only for RollingUpdate'),
  })
  .describe('How existing pods are replaced with new ones')

export const DeploymentSpec = z
  .strictObject({
    replicas: int32.optional().describe('Number of desired pods; 1 by default'),
    selector: LabelSelector.describe('Label query over the pods of this deployment; must match the template labels'),
    template: PodTemplateSpec.describe('The pods that will be created'),
    strategy: DeploymentStrategy.optional()
      .describe('How existing pods are replaced with new ones')
      .meta({ 'x-kubernetes-patch-strategy': 'retainKeys' }),
    minReadySeconds: int32
      .optional()
      .describe('Seconds a new pod must be ready, with no container crashing, to count as available'),
    revisionHistoryLimit: int32.optional().describe('Old ReplicaSets kept for rollback; 10 by default'),
    paused: z.boolean().optional().describe('Whether the deployment is paused'),
    progressDeadlineSeconds: int32
      .optional()
      .describe('Seconds a rollout may go without progress before it is reported failed; 600 by default'),
  })
  .describe('The desired behaviour of a Deployment')
export type DeploymentSpec = z.infer<typeof DeploymentSpec>

export const DeploymentCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition: Available, Progressing or ReplicaFailure'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastUpdateTime: Time.optional().describe('The last time this condition was updated'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a deployment at a point in time')
export type DeploymentCondition = z.infer<typeof DeploymentCondition>

export const DeploymentStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('The generation the deployment controller last acted on'),
    replicas: int32.optional().describe('Non-terminating pods targeted by this deployment'),
    updatedReplicas: int32.optional().describe('Non-terminating pods that have the desired template'),
    readyReplicas: int32.optional().describe('Non-terminating pods with a Ready condition'),
    availableReplicas: int32.optional().describe('Non-terminating pods ready for at least minReadySeconds'),
    unavailableReplicas: int32.optional().describe('Pods still needed for 100% available capacity'),
    terminatingReplicas: int32
      .optional()
      .describe('Terminating pods (alpha, behind DeploymentReplicaSetTerminatingReplicas: never set here)'),
    conditions: z
      .array(DeploymentCondition)
      .optional()
      .describe('Latest observations of the deployment state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    collisionCount: int32.optional().describe('Hash collisions met when naming the newest ReplicaSet'),
  })
  .describe('The most recently observed state of a Deployment')
export type DeploymentStatus = z.infer<typeof DeploymentStatus>

export const Deployment = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Deployment'),
    apiVersion: z.string().optional().describe('Schema version of this object: apps/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: DeploymentSpec.optional().describe('Desired behaviour of the deployment'),
    status: DeploymentStatus.optional().describe('Observed state, written by the deployment controller'),
  })
  .describe('Declarative updates for pods and ReplicaSets')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'Deployment' }] })
export type Deployment = z.infer<typeof Deployment>
