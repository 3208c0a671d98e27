// Volume sources served by storage systems and drivers: network filesystems, SAN disks, Ceph, FlexVolume and CSI.
import { z } from 'zod'
import { int32, StringMap } from './meta'
import { atomic } from './schema-helpers'
import { LocalObjectReference } from './pod-common'

export const NFSVolumeSource = z
  .strictObject({
    server: z.string().describe('NFS server address'),
    path: z.string().describe('Exported path'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('An NFS export')

export const ISCSIVolumeSource = z
  .strictObject({
    targetPortal: z.string().describe('Target portal address, with an optional port'),
    iqn: z.string().describe('Target qualified name'),
    lun: int32.describe('Target LUN'),
    iscsiInterface: z.string().optional().describe('iSCSI interface to use'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    portals: z.array(z.string()).optional().describe('Additional target portals').meta(atomic),
    chapAuthDiscovery: z.boolean().optional().describe('Use CHAP for discovery'),
    chapAuthSession: z.boolean().optional().describe('Use CHAP for the session'),
    secretRef: LocalObjectReference.optional().describe('Secret holding the CHAP credentials'),
    initiatorName: z.string().optional().describe('Custom initiator name'),
  })
  .describe('An iSCSI disk')

export const GlusterfsVolumeSource = z
  .strictObject({
    endpoints: z.string().describe('Endpoints object describing the Gluster cluster'),
    path: z.string().describe('Gluster volume path'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A GlusterFS volume')

export const RBDVolumeSource = z
  .strictObject({
    monitors: z.array(z.string()).describe('Ceph monitor addresses').meta(atomic),
    image: z.string().describe('RADOS image name'),
    fsType: z.string().optional().describe('Filesystem type'),
    pool: z.string().optional().describe('RADOS pool'),
    user: z.string().optional().describe('RADOS user'),
    keyring: z.string().optional().describe('Path to the keyring'),
    secretRef: LocalObjectReference.optional().describe('Secret holding the credentials'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A Ceph RADOS block device')

export const FlexVolumeSource = z
  .strictObject({
    driver: z.string().describe('Name of the FlexVolume driver'),
    fsType: z.string().optional().describe('Filesystem type'),
    secretRef: LocalObjectReference.optional().describe('Secret passed to the driver'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    options: StringMap.optional().describe('Extra options passed to the driver'),
  })
  .describe('A volume provided by an exec-based FlexVolume driver')

export const CephFSVolumeSource = z
  .strictObject({
    monitors: z.array(z.string()).describe('Ceph monitor addresses').meta(atomic),
    path: z.string().optional().describe('Path within the filesystem to mount as root'),
    user: z.string().optional().describe('RADOS user'),
    secretFile: z.string().optional().describe("Path to the user's secret file"),
    secretRef: LocalObjectReference.optional().describe('Secret holding the credentials'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A CephFS filesystem')

export const FlockerVolumeSource = z
  .strictObject({
    datasetName: z.string().optional().describe('Flocker dataset name'),
    datasetUUID: z.string().optional().describe('Flocker dataset UUID'),
  })
  .describe('A Flocker dataset')

export const FCVolumeSource = z
  .strictObject({
    targetWWNs: z.array(z.string()).optional().describe('Target world wide names').meta(atomic),
    lun: int32.optional().describe('Target LUN'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    wwids: z.array(z.string()).optional().describe('Volume world wide identifiers').meta(atomic),
  })
  .describe('A Fibre Channel disk')

export const QuobyteVolumeSource = z
  .strictObject({
    registry: z.string().describe('Quobyte registry addresses as host:port, comma separated'),
    volume: z.string().describe('Quobyte volume name'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    user: z.string().optional().describe('User to map access to'),
    group: z.string().optional().describe('Group to map access to'),
    tenant: z.string().optional().describe('Tenant that owns the volume'),
  })
  .describe('A Quobyte volume')

export const PortworxVolumeSource = z
  .strictObject({
    volumeID: z.string().describe('Portworx volume ID'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A Portworx volume')

export const ScaleIOVolumeSource = z
  .strictObject({
    gateway: z.string().describe('ScaleIO API gateway address'),
    system: z.string().describe('ScaleIO storage system name'),
    secretRef: LocalObjectReference.describe('Secret with the ScaleIO credentials'),
    sslEnabled: z.boolean().optional().describe('Use TLS to reach the gateway'),
    protectionDomain: z.string().optional().describe('Protection domain of the storage'),
    storagePool: z.string().optional().describe('Storage pool of the protection domain'),
    storageMode: z.string().optional().describe('ThickProvisioned or ThinProvisioned'),
    volumeName: z.string().optional().describe('Existing ScaleIO volume name'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A ScaleIO volume')

export const StorageOSVolumeSource = z
  .strictObject({
    volumeName: z.string().optional().describe('StorageOS volume name'),
    volumeNamespace: z.string().optional().describe("StorageOS namespace; the pod's namespace by default"),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretRef: LocalObjectReference.optional().describe('Secret with the StorageOS API credentials'),
  })
  .describe('A StorageOS volume')

export const CSIVolumeSource = z
  .strictObject({
    driver: z.string().describe('Name of the CSI driver'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    fsType: z.string().optional().describe('Filesystem type; the driver picks when empty'),
    volumeAttributes: StringMap.optional().describe('Driver-specific attributes'),
    nodePublishSecretRef: LocalObjectReference.optional().describe('Secret passed to the driver when publishing'),
  })
  .describe('An inline volume provided by a CSI driver')
