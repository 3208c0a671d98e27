// Volume sources that are a cloud provider's disks and shares: GCE, AWS, Azure, vSphere, Photon and OpenStack.
import { z } from 'zod'
import { int32 } from './meta'
import { LocalObjectReference } from './pod-common'

export const GCEPersistentDiskVolumeSource = z
  .strictObject({
    pdName: z.string().describe('Name of the GCE persistent disk'),
    fsType: z.string().optional().describe('Filesystem type'),
    partition: int32.optional().describe('Partition to mount'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A Google Compute Engine persistent disk')

export const AWSElasticBlockStoreVolumeSource = z
  .strictObject({
    volumeID: z.string().describe('ID of the EBS volume'),
    fsType: z.string().optional().describe('Filesystem type'),
    partition: int32.optional().describe('Partition to mount'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('An AWS Elastic Block Store volume')

export const CinderVolumeSource = z
  .strictObject({
    volumeID: z.string().describe('Cinder volume ID'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretRef: LocalObjectReference.optional().describe('Secret with OpenStack connection parameters'),
  })
  .describe('An OpenStack Cinder volume')

export const AzureFileVolumeSource = z
  .strictObject({
    secretName: z.string().describe('Secret with the storage account name and key'),
    shareName: z.string().describe('Azure file share name'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('An Azure File share')

export const VsphereVirtualDiskVolumeSource = z
  .strictObject({
    volumePath: z.string().describe('Path of the vmdk'),
    fsType: z.string().optional().describe('Filesystem type'),
    storagePolicyName: z.string().optional().describe('Storage policy name'),
    storagePolicyID: z.string().optional().describe('Storage policy ID'),
  })
  .describe('A vSphere virtual disk')

export const AzureDiskVolumeSource = z
  .strictObject({
    diskName: z.string().describe('Data disk name'),
    diskURI: z.string().describe('Data disk URI'),
    cachingMode: z.enum(['None', 'ReadOnly', 'ReadWrite']).optional().describe('Host caching mode'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    kind: z.enum(['Shared', 'Dedicated', 'Managed']).optional().describe('How the disk is provisioned'),
  })
  .describe('An Azure data disk')

export const PhotonPersistentDiskVolumeSource = z
  .strictObject({
    pdID: z.string().describe('Photon Controller disk ID'),
    fsType: z.string().optional().describe('Filesystem type'),
  })
  .describe('A Photon Controller persistent disk')
