// core/v1 PersistentVolume: a piece of storage in the cluster. The volume sources pods use directly are shared with
// pod-volumes-*.ts; those whose PV form differs (secret references with a namespace) are declared here.
import { z } from 'zod'
import { ObjectMeta, StringMap, Time, int32 } from './meta'
import { ObjectReference } from './object-reference'
import { PersistentVolumeAccessMode, PersistentVolumeMode, ResourceList } from './pod-common'
import { NodeSelector } from './pod-scheduling'
import {
  AWSElasticBlockStoreVolumeSource,
  AzureDiskVolumeSource,
  GCEPersistentDiskVolumeSource,
  PhotonPersistentDiskVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from './pod-volumes-cloud'
import { HostPathVolumeSource } from './pod-volumes-local'
import {
  FCVolumeSource,
  FlockerVolumeSource,
  NFSVolumeSource,
  PortworxVolumeSource,
  QuobyteVolumeSource,
} from './pod-volumes-storage'
import { atomic } from './schema-helpers'

export const SecretReference = z
  .strictObject({
    name: z.string().optional().describe('Name of the secret'),
    namespace: z.string().optional().describe('Namespace of the secret'),
  })
  .describe('A secret in any namespace')
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export const GlusterfsPersistentVolumeSource = z
  .strictObject({
    endpoints: z.string().describe('Endpoints object describing the Gluster cluster'),
    path: z.string().describe('Gluster volume path'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    endpointsNamespace: z.string().optional().describe('Namespace of the endpoints object'),
  })
  .describe('A GlusterFS volume')

export const RBDPersistentVolumeSource = z
  .strictObject({
    monitors: z.array(z.string()).describe('Ceph monitor addresses').meta(atomic),
    image: z.string().describe('RADOS image name'),
    fsType: z.string().optional().describe('Filesystem type'),
    pool: z.string().optional().describe('RADOS pool'),
    user: z.string().optional().describe('RADOS user'),
    keyring: z.string().optional().describe('Path to the keyring'),
    secretRef: SecretReference.optional().describe('Secret holding the credentials'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A Ceph RADOS block device')

export const ISCSIPersistentVolumeSource = z
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
    secretRef: SecretReference.optional().describe('Secret holding the CHAP credentials'),
    initiatorName: z.string().optional().describe('Custom initiator name'),
  })
  .describe('An iSCSI disk')

export const CinderPersistentVolumeSource = z
  .strictObject({
    volumeID: z.string().describe('The Cinder volume'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretRef: SecretReference.optional().describe('Secret holding the OpenStack credentials'),
  })
  .describe('An OpenStack Cinder volume')

export const CephFSPersistentVolumeSource = z
  .strictObject({
    monitors: z.array(z.string()).describe('Ceph monitor addresses').meta(atomic),
    path: z.string().optional().describe('Path within the filesystem to mount as root'),
    user: z.string().optional().describe('RADOS user'),
    secretFile: z.string().optional().describe("Path to the user's secret file"),
    secretRef: SecretReference.optional().describe('Secret holding the credentials'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A CephFS filesystem')

export const FlexPersistentVolumeSource = z
  .strictObject({
    driver: z.string().describe('Name of the FlexVolume driver'),
    fsType: z.string().optional().describe('Filesystem type'),
    secretRef: SecretReference.optional().describe('Secret passed to the driver'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    options: StringMap.optional().describe('Extra options passed to the driver'),
  })
  .describe('A volume provided by an exec-based FlexVolume driver')

export const AzureFilePersistentVolumeSource = z
  .strictObject({
    secretName: z.string().describe('Secret holding the storage account name and key'),
    shareName: z.string().describe('Azure share name'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretNamespace: z.string().optional().describe('Namespace of the secret (the pod namespace by default)'),
  })
  .describe('An Azure File share')

export const ScaleIOPersistentVolumeSource = z
  .strictObject({
    gateway: z.string().describe('ScaleIO API gateway address'),
    system: z.string().describe('ScaleIO storage system name'),
    secretRef: SecretReference.describe('Secret holding the ScaleIO user credentials'),
    sslEnabled: z.boolean().optional().describe('Use SSL with the gateway'),
    protectionDomain: z.string().optional().describe('ScaleIO protection domain'),
    storagePool: z.string().optional().describe('ScaleIO storage pool'),
    storageMode: z.string().optional().describe('ThickProvisioned or ThinProvisioned'),
    volumeName: z.string().optional().describe('Name of a volume already created in the ScaleIO system'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('A ScaleIO volume')

export const LocalVolumeSource = z
  .strictObject({
    path: z.string().describe('Full path to the volume on the node: a directory or a block device'),
    fsType: z.string().optional().describe('Filesystem type, for block devices'),
  })
  .describe('A local disk of one node, mounted directly')

export const StorageOSPersistentVolumeSource = z
  .strictObject({
    volumeName: z.string().optional().describe('StorageOS volume name'),
    volumeNamespace: z.string().optional().describe('StorageOS namespace of the volume'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretRef: ObjectReference.optional().describe('Secret holding the StorageOS API credentials'),
  })
  .describe('A StorageOS volume')

export const CSIPersistentVolumeSource = z
  .strictObject({
    driver: z.string().describe('Name of the CSI driver'),
    volumeHandle: z.string().describe('The volume as the driver names it'),
    readOnly: z.boolean().optional().describe('Publish read-only'),
    fsType: z.string().optional().describe('Filesystem type'),
    volumeAttributes: StringMap.optional().describe('Attributes passed to the driver'),
    controllerPublishSecretRef: SecretReference.optional().describe('Secret for ControllerPublishVolume'),
    nodeStageSecretRef: SecretReference.optional().describe('Secret for NodeStageVolume'),
    nodePublishSecretRef: SecretReference.optional().describe('Secret for NodePublishVolume'),
    controllerExpandSecretRef: SecretReference.optional().describe('Secret for ControllerExpandVolume'),
    nodeExpandSecretRef: SecretReference.optional().describe('Secret for NodeExpandVolume'),
  })
  .describe('Storage managed by an external CSI driver')

export const VolumeNodeAffinity = z
  .strictObject({ required: NodeSelector.optional().describe('The nodes the volume can be reached from') })
  .describe('Which nodes a volume can be reached from')

export const PersistentVolumeSpec = z
  .strictObject({
    capacity: ResourceList.optional().describe("The volume's resources; storage only"),
    gcePersistentDisk: GCEPersistentDiskVolumeSource.optional().describe('A GCE persistent disk'),
    awsElasticBlockStore: AWSElasticBlockStoreVolumeSource.optional().describe('An AWS EBS disk'),
    hostPath: HostPathVolumeSource.optional().describe('A directory on the node (testing only)'),
    glusterfs: GlusterfsPersistentVolumeSource.optional().describe('A GlusterFS volume'),
    nfs: NFSVolumeSource.optional().describe('An NFS export'),
    rbd: RBDPersistentVolumeSource.optional().describe('A Ceph RADOS block device'),
    iscsi: ISCSIPersistentVolumeSource.optional().describe('An iSCSI disk'),
    cinder: CinderPersistentVolumeSource.optional().describe('An OpenStack Cinder volume'),
    cephfs: CephFSPersistentVolumeSource.optional().describe('A CephFS filesystem'),
    fc: FCVolumeSource.optional().describe('A Fibre Channel disk'),
    flocker: FlockerVolumeSource.optional().describe('A Flocker dataset'),
    flexVolume: FlexPersistentVolumeSource.optional().describe('A FlexVolume driver volume'),
    azureFile: AzureFilePersistentVolumeSource.optional().describe('An Azure File share'),
    vsphereVolume: VsphereVirtualDiskVolumeSource.optional().describe('A vSphere disk'),
    quobyte: QuobyteVolumeSource.optional().describe('A Quobyte volume'),
    azureDisk: AzureDiskVolumeSource.optional().describe('An Azure data disk'),
    photonPersistentDisk: PhotonPersistentDiskVolumeSource.optional().describe('A Photon Controller disk'),
    portworxVolume: PortworxVolumeSource.optional().describe('A Portworx volume'),
    scaleIO: ScaleIOPersistentVolumeSource.optional().describe('A ScaleIO volume'),
    local: LocalVolumeSource.optional().describe('A local disk of one node'),
    storageos: StorageOSPersistentVolumeSource.optional().describe('A StorageOS volume'),
    csi: CSIPersistentVolumeSource.optional().describe('A CSI driver volume'),
    accessModes: z
      .array(PersistentVolumeAccessMode)
      .optional()
      .describe('The ways the volume can be mounted')
      .meta(atomic),
    claimRef: ObjectReference.optional()
      .describe('The claim bound to this volume')
      .meta({ 'x-kubernetes-map-type': 'granular' }),
    persistentVolumeReclaimPolicy: z.string().optional().describe('Retain (default), Delete or Recycle'),
    storageClassName: z.string().optional().describe('The StorageClass the volume belongs to'),
    mountOptions: z.array(z.string()).optional().describe('Mount options for the volume').meta(atomic),
    volumeMode: PersistentVolumeMode.optional().describe('Block or Filesystem; Filesystem by default'),
    nodeAffinity: VolumeNodeAffinity.optional().describe('Which nodes the volume can be reached from'),
    volumeAttributesClassName: z.string().optional().describe('The VolumeAttributesClass the volume uses'),
  })
  .describe('The characteristics of a persistent volume')

export const PersistentVolumeStatus = z
  .strictObject({
    phase: z.string().optional().describe('Pending, Available, Bound, Released or Failed'),
    message: z.string().optional().describe('Human-readable message about the phase'),
    reason: z.string().optional().describe('Machine-readable reason for a failure'),
    lastPhaseTransitionTime: Time.optional().describe('When the volume last changed phase'),
  })
  .describe('The observed state of a persistent volume')

export const PersistentVolume = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: PersistentVolume'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: PersistentVolumeSpec.optional().describe('The characteristics of the volume'),
    status: PersistentVolumeStatus.optional().describe('The observed state of the volume'),
  })
  .describe('A piece of storage in the cluster, provisioned by an administrator or a StorageClass')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'PersistentVolume' }] })

export type PersistentVolume = z.infer<typeof PersistentVolume>
