// apps/v1 StatefulSet: pods with stable names and ordinals, created and updated in order, fields in Go order
// (k8s.io/api apps/v1 types.go, release-1.33). volumeClaimTemplates are core/v1 PersistentVolumeClaims.
import { z } from 'zod'
import { IntOrString, ObjectMeta, Time, int32, int64 } from './meta'
import { PersistentVolumeClaim } from './persistent-volume-claim'
import { LabelSelector } from './pod-common'
import { PodTemplateSpec } from './replication-controller'
import { atomic } from './schema-helpers'

export const RollingUpdateStatefulSetStrategy = z
  .strictObject({
    partition: int32.optional().describe('Ordinals at or above this one are updated; 0 by default'),
    maxUnavailable: IntOrString.optional().describe(
      'Pods that may be unavailable during the update (alpha, behind MaxUnavailableStatefulSet: not applied here)',
    ),
  })
  .describe('Parameters of a stateful set rolling update')

export const StatefulSetUpdateStrategy = z
  .strictObject({
    type: z.string().optional().describe('RollingUpdate (the default) or OnDelete'),
    rollingUpdate: RollingUpdateStatefulSetStrategy.optional().describe('Rolling update parameters'),
  })
  .describe('How pods are replaced when the template changes')

export const StatefulSetPersistentVolumeClaimRetentionPolicy = z
  .strictObject({
    whenDeleted: z.string().optional().describe('Retain (the default) or Delete the claims when the set is deleted'),
    whenScaled: z.string().optional().describe('Retain (the default) or Delete the claims of pods scaled away'),
  })
  .describe('What happens to the claims made from volumeClaimTemplates')

export const StatefulSetOrdinals = z
  .strictObject({ start: int32.describe('The first ordinal; 0 by default') })
  .describe('Where the ordinals of the pods start')

export const StatefulSetSpec = z
  .strictObject({
    replicas: int32.optional().describe('Number of desired pods; 1 by default'),
    selector: LabelSelector.describe('Label query over the pods of this set; must match the template labels'),
    template: PodTemplateSpec.describe('The pods that will be created, named <set>-<ordinal>'),
    volumeClaimTemplates: z
      .array(PersistentVolumeClaim)
      .optional()
      .meta(atomic)
      .describe('Claims each pod gets, mounted by name (no storage is simulated: claims stay Pending)'),
    serviceName: z.string().describe('The headless service giving the pods their DNS names (hostname.serviceName)'),
    podManagementPolicy: z.string().optional().describe('OrderedReady (the default) or Parallel'),
    updateStrategy: StatefulSetUpdateStrategy.optional().describe('How pods are replaced with new ones'),
    revisionHistoryLimit: int32.optional().describe('Old revisions kept for rollback; 10 by default'),
    minReadySeconds: int32
      .optional()
      .describe('Seconds a new pod must be ready, with no container crashing, to count as available'),
    persistentVolumeClaimRetentionPolicy: StatefulSetPersistentVolumeClaimRetentionPolicy.optional().describe(
      'What happens to the claims when the set is deleted or scaled down',
    ),
    ordinals: StatefulSetOrdinals.optional().describe('Where the ordinals start'),
  })
  .describe('The desired behaviour of a StatefulSet')
export type StatefulSetSpec = z.infer<typeof StatefulSetSpec>

export const StatefulSetCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a stateful set at a point in time')

export const StatefulSetStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('The generation the stateful set controller last acted on'),
    replicas: int32.describe('Pods created by the controller'),
    readyReplicas: int32.optional().describe('Pods with a Ready condition'),
    currentReplicas: int32.optional().describe('Pods of the currentRevision'),
    updatedReplicas: int32.optional().describe('Pods of the updateRevision'),
    currentRevision: z.string().optional().describe('The revision of the pods in [0, currentReplicas)'),
    updateRevision: z.string().optional().describe('The revision of the pods in [replicas-updatedReplicas, replicas)'),
    collisionCount: int32.optional().describe('Hash collisions met when naming the newest ControllerRevision'),
    conditions: z
      .array(StatefulSetCondition)
      .optional()
      .describe('Latest observations of the stateful set state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    availableReplicas: int32.describe('Pods ready for at least minReadySeconds'),
  })
  .describe('The most recently observed state of a StatefulSet')
export type StatefulSetStatus = z.infer<typeof StatefulSetStatus>

export const StatefulSet = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: StatefulSet'),
    apiVersion: z.string().optional().describe('Schema version of this object: apps/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: StatefulSetSpec.optional().describe('Desired behaviour of the stateful set'),
    status: StatefulSetStatus.optional().describe('Observed state, written by the stateful set controller'),
  })
  .describe('Pods with stable identities and storage, created, updated and removed in order')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'StatefulSet' }] })
export type StatefulSet = z.infer<typeof StatefulSet>
