// core/v1 PersistentVolumeClaim: a request for storage (its spec, PersistentVolumeClaimSpec, is shared with pods'
// ephemeral volumes in pod-volumes-claims.ts) and the status a volume controller would write. No storage is
// simulated here: claims stay Pending unless a client writes their status.
import { z } from 'zod'
import { ObjectMeta, Time } from './meta'
import { ConditionStatus, PersistentVolumeAccessMode, ResourceList } from './pod-common'
import { PersistentVolumeClaimSpec } from './pod-volumes-claims'
import { atomic, keyed } from './schema-helpers'

export const PersistentVolumeClaimCondition = z
  .strictObject({
    type: z.string().describe('Type of the condition, such as Resizing'),
    status: ConditionStatus.describe('Status of the condition'),
    lastProbeTime: Time.optional().describe('When the condition was last probed'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Machine-readable reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of a claim at a point in time')

export const ModifyVolumeStatus = z
  .strictObject({
    targetVolumeAttributesClassName: z
      .string()
      .optional()
      .describe('The VolumeAttributesClass the claim is being modified to'),
    status: z.string().describe('Pending, InProgress or Infeasible'),
  })
  .describe('The state of a volume modification')

export const PersistentVolumeClaimStatus = z
  .strictObject({
    phase: z.string().optional().describe('Pending, Bound or Lost'),
    accessModes: z
      .array(PersistentVolumeAccessMode)
      .optional()
      .describe('Access modes the bound volume has')
      .meta(atomic),
    capacity: ResourceList.optional().describe('Resources of the bound volume'),
    conditions: z
      .array(PersistentVolumeClaimCondition)
      .optional()
      .describe('Current conditions of the claim')
      .meta(keyed(['type'])),
    allocatedResources: ResourceList.optional().describe('Resources allocated to the claim (for resizing)'),
    allocatedResourceStatuses: z
      .record(z.string(), z.string())
      .optional()
      .describe('Status of resizing each resource')
      .meta({ 'x-kubernetes-map-type': 'granular' }),
    currentVolumeAttributesClassName: z
      .string()
      .optional()
      .describe('The VolumeAttributesClass the volume currently uses'),
    modifyVolumeStatus: ModifyVolumeStatus.optional().describe('State of an ongoing volume modification'),
  })
  .describe('The observed state of a claim')

export const PersistentVolumeClaim = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: PersistentVolumeClaim'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: PersistentVolumeClaimSpec.optional().describe('What the claim asks for'),
    status: PersistentVolumeClaimStatus.optional().describe('The observed state of the claim'),
  })
  .describe("A user's request for storage")
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'PersistentVolumeClaim' }] })

export type PersistentVolumeClaim = z.infer<typeof PersistentVolumeClaim>
