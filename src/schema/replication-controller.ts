// core/v1 ReplicationController (with the PodTemplateSpec it embeds) and autoscaling/v1 Scale, its /scale view.
import { z } from 'zod'
import { ObjectMeta, StringMap, Time, int32, int64 } from './meta'
import { PodSpec } from './pod'

export const PodTemplateSpec = z
  .strictObject({
    metadata: ObjectMeta.optional().describe('Metadata of the pods created from this template'),
    spec: PodSpec.optional().describe('Spec of the pods created from this template'),
  })
  .describe('Describes the pods that will be created from a template')
export type PodTemplateSpec = z.infer<typeof PodTemplateSpec>

export const ReplicationControllerSpec = z
  .strictObject({
    replicas: int32.optional().describe('Number of desired replicas; 1 by default'),
    minReadySeconds: int32
      .optional()
      .describe('Seconds a new pod must be ready, with no container crashing, to count as available'),
    selector: StringMap.optional()
      .describe('Label query over the pods that count towards replicas; the template labels by default')
      .meta({ 'x-kubernetes-map-type': 'atomic' }),
    template: PodTemplateSpec.optional().describe('The pod created when too few replicas exist'),
  })
  .describe('The desired state of a replication controller')
export type ReplicationControllerSpec = z.infer<typeof ReplicationControllerSpec>

export const ReplicationControllerCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition, such as ReplicaFailure'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a replication controller at a point in time')

export const ReplicationControllerStatus = z
  .strictObject({
    replicas: int32.describe('Most recently observed number of replicas'),
    fullyLabeledReplicas: int32.optional().describe('Pods whose labels match the template labels'),
    readyReplicas: int32.optional().describe('Pods that are ready'),
    availableReplicas: int32.optional().describe('Pods ready for at least minReadySeconds'),
    observedGeneration: int64.optional().describe('The generation the controller last acted on'),
    conditions: z
      .array(ReplicationControllerCondition)
      .optional()
      .describe('Latest observations of the controller state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
  })
  .describe('The most recently observed state of a replication controller')
export type ReplicationControllerStatus = z.infer<typeof ReplicationControllerStatus>

export const ReplicationController = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ReplicationController'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: ReplicationControllerSpec.optional().describe('Desired state of the controller'),
    status: ReplicationControllerStatus.optional().describe('Observed state, written by the replication manager'),
  })
  .describe('Keeps a given number of pods matching a selector running, created from a template')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ReplicationController' }] })
export type ReplicationController = z.infer<typeof ReplicationController>

// ---------------------------------------------------------------------------------------------------------------
// autoscaling/v1 Scale: what GET/PUT/PATCH replicationcontrollers/{name}/scale speak.

export const Scale = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Scale'),
    apiVersion: z.string().optional().describe('Schema version of this object: autoscaling/v1'),
    metadata: ObjectMeta.optional().describe('Metadata of the scaled object'),
    spec: z
      .strictObject({ replicas: int32.optional().describe('Desired number of instances') })
      .optional()
      .describe('Desired state of the scale'),
    status: z
      .strictObject({
        replicas: int32.describe('Actual number of observed instances'),
        selector: z.string().optional().describe('Label query over the pods counted in replicas, in string form'),
      })
      .optional()
      .describe('Current state of the scale'),
  })
  .describe('The scaling request for a resource')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }] })
export type Scale = z.infer<typeof Scale>
