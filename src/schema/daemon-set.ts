// apps/v1 DaemonSet: one pod per eligible node, fields in Go order (k8s.io/api apps/v1 types.go, release-1.33).
import { z } from 'zod'
import { IntOrString, ObjectMeta, Time, int32, int64 } from './meta'
import { LabelSelector } from './pod-common'
import { PodTemplateSpec } from './replication-controller'

export const RollingUpdateDaemonSet = z
  .strictObject({
    maxUnavailable: IntOrString.optional().describe(
      'Nodes whose daemon pod may be unavailable during the update: a number or a percentage (rounded up); 1 by default',
    ),
    maxSurge: IntOrString.optional().describe(
      'Nodes that may run an updated pod beside the old one during the update: a number or a percentage; 0 by default',
    ),
  })
  .describe('Parameters of a daemon set rolling update')

export const DaemonSetUpdateStrategy = z
  .strictObject({
    type: z.string().optional().describe('RollingUpdate (the default) or OnDelete'),
    rollingUpdate: RollingUpdateDaemonSet.optional().describe('Rolling update parameters; only for RollingUpdate'),
  })
  .describe('How daemon pods are replaced when the template changes')

export const DaemonSetSpec = z
  .strictObject({
    selector: LabelSelector.describe('Label query over the daemon pods; must match the template labels'),
    template: PodTemplateSpec.describe('The pod run on every eligible node'),
    updateStrategy: DaemonSetUpdateStrategy.optional().describe('How daemon pods are replaced with new ones'),
    minReadySeconds: int32
      .optional()
      .describe('Seconds a new pod must be ready, with no container crashing, to count as available'),
    revisionHistoryLimit: int32.optional().describe('Old revisions kept for rollback; 10 by default'),
  })
  .describe('The desired behaviour of a DaemonSet')
export type DaemonSetSpec = z.infer<typeof DaemonSetSpec>

export const DaemonSetCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a daemon set at a point in time')

export const DaemonSetStatus = z
  .strictObject({
    currentNumberScheduled: int32.describe('Nodes running at least one daemon pod that should run it'),
    numberMisscheduled: int32.describe('Nodes running a daemon pod that should not'),
    desiredNumberScheduled: int32.describe('Nodes that should run the daemon pod'),
    numberReady: int32.describe('Nodes that should run the daemon pod and run it Ready'),
    observedGeneration: int64.optional().describe('The generation the daemon set controller last acted on'),
    updatedNumberScheduled: int32.optional().describe('Nodes running the updated daemon pod'),
    numberAvailable: int32.optional().describe('Nodes running the daemon pod available for minReadySeconds'),
    numberUnavailable: int32.optional().describe('Nodes that should run the daemon pod and have none available'),
    collisionCount: int32.optional().describe('Hash collisions met when naming the newest ControllerRevision'),
    conditions: z
      .array(DaemonSetCondition)
      .optional()
      .describe('Latest observations of the daemon set state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
  })
  .describe('The most recently observed state of a DaemonSet')
export type DaemonSetStatus = z.infer<typeof DaemonSetStatus>

export const DaemonSet = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: DaemonSet'),
    apiVersion: z.string().optional().describe('Schema version of this object: apps/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: DaemonSetSpec.optional().describe('Desired behaviour of the daemon set'),
    status: DaemonSetStatus.optional().describe('Observed state, written by the daemon set controller'),
  })
  .describe('Runs a copy of a pod on every node that qualifies')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'DaemonSet' }] })
export type DaemonSet = z.infer<typeof DaemonSet>
