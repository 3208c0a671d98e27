// Volume sources backed by PersistentVolumeClaims: an existing claim, or one created with the pod (ephemeral).
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { atomic } from './schema-helpers'
import {
  LabelSelector,
  PersistentVolumeAccessMode,
  PersistentVolumeMode,
  ResourceList,
  TypedLocalObjectReference,
  TypedObjectReference,
} from './pod-common'

export const PersistentVolumeClaimVolumeSource = z
  .strictObject({
    claimName: z.string().describe("Name of the claim in the pod's namespace"),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('The volume bound to a PersistentVolumeClaim')

export const VolumeResourceRequirements = z
  .strictObject({
    limits: ResourceList.optional().describe('Most storage the volume may use'),
    requests: ResourceList.optional().describe('Storage the volume needs at least'),
  })
  .describe('Storage requests and limits of a claim')

export const PersistentVolumeClaimSpec = z
  .strictObject({
    accessModes: z
      .array(PersistentVolumeAccessMode)
      .optional()
      .describe('Access modes the volume must support')
      .meta(atomic),
    selector: LabelSelector.optional().describe('Label query over volumes that may be bound'),
    resources: VolumeResourceRequirements.optional().describe('Storage the claim needs'),
    volumeName: z.string().optional().describe('Name of the PersistentVolume to bind'),
    storageClassName: z.string().optional().describe('StorageClass the claim requires'),
    volumeMode: PersistentVolumeMode.optional().describe('Block or Filesystem; Filesystem by default'),
    dataSource: TypedLocalObjectReference.optional().describe('Snapshot or claim to copy initial data from'),
    dataSourceRef: TypedObjectReference.optional().describe('Any populator object to fill the volume from'),
    volumeAttributesClassName: z.string().optional().describe('VolumeAttributesClass applied to the volume'),
  })
  .describe('What a PersistentVolumeClaim asks for')

export const PersistentVolumeClaimTemplate = z
  .strictObject({
    metadata: ObjectMeta.optional().describe('Labels and annotations copied to the created claim'),
    spec: PersistentVolumeClaimSpec.describe('Spec of the created claim'),
  })
  .describe('Template of the claim created for an ephemeral volume')

export const EphemeralVolumeSource = z
  .strictObject({
    volumeClaimTemplate: PersistentVolumeClaimTemplate.optional().describe(
      'Claim created with the pod and deleted with it',
    ),
  })
  .describe('A volume from a claim whose lifetime is tied to the pod')
