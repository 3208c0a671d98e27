// Volume sources a pod can mount: the Volume that names one, here, and the sources by family (re-exported).
import { z } from 'zod'
import { EmptyDirVolumeSource, GitRepoVolumeSource, HostPathVolumeSource, ImageVolumeSource } from './pod-volumes-local'
import { ConfigMapVolumeSource, DownwardAPIVolumeSource, SecretVolumeSource } from './pod-volumes-files'
import { ProjectedVolumeSource } from './pod-volumes-projected'
import {
  AWSElasticBlockStoreVolumeSource,
  AzureDiskVolumeSource,
  AzureFileVolumeSource,
  CinderVolumeSource,
  GCEPersistentDiskVolumeSource,
  PhotonPersistentDiskVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from './pod-volumes-cloud'
import {
  CephFSVolumeSource,
  CSIVolumeSource,
  FCVolumeSource,
  FlexVolumeSource,
  FlockerVolumeSource,
  GlusterfsVolumeSource,
  ISCSIVolumeSource,
  NFSVolumeSource,
  PortworxVolumeSource,
  QuobyteVolumeSource,
  RBDVolumeSource,
  ScaleIOVolumeSource,
  StorageOSVolumeSource,
} from './pod-volumes-storage'
import { EphemeralVolumeSource, PersistentVolumeClaimVolumeSource } from './pod-volumes-claims'
export * from './pod-volumes-local'
export * from './pod-volumes-files'
export * from './pod-volumes-projected'
export * from './pod-volumes-cloud'
export * from './pod-volumes-storage'
export * from './pod-volumes-claims'

export const Volume = z
  .strictObject({
    name: z.string().describe('Name of the volume, unique within the pod'),
    hostPath: HostPathVolumeSource.optional().describe('A path on the node'),
    emptyDir: EmptyDirVolumeSource.optional().describe('A scratch directory living as long as the pod'),
    gcePersistentDisk: GCEPersistentDiskVolumeSource.optional().describe('A GCE persistent disk'),
    awsElasticBlockStore: AWSElasticBlockStoreVolumeSource.optional().describe('An AWS EBS volume'),
    gitRepo: GitRepoVolumeSource.optional().describe('Deprecated: a cloned git repository'),
    secret: SecretVolumeSource.optional().describe('Files from a Secret'),
    nfs: NFSVolumeSource.optional().describe('An NFS export'),
    iscsi: ISCSIVolumeSource.optional().describe('An iSCSI disk'),
    glusterfs: GlusterfsVolumeSource.optional().describe('A GlusterFS volume'),
    persistentVolumeClaim: PersistentVolumeClaimVolumeSource.optional().describe('The volume bound to a claim'),
    rbd: RBDVolumeSource.optional().describe('A Ceph block device'),
    flexVolume: FlexVolumeSource.optional().describe('A FlexVolume driver volume'),
    cinder: CinderVolumeSource.optional().describe('An OpenStack Cinder volume'),
    cephfs: CephFSVolumeSource.optional().describe('A CephFS filesystem'),
    flocker: FlockerVolumeSource.optional().describe('A Flocker dataset'),
    downwardAPI: DownwardAPIVolumeSource.optional().describe('Files with pod information'),
    fc: FCVolumeSource.optional().describe('A Fibre Channel disk'),
    azureFile: AzureFileVolumeSource.optional().describe('An Azure File share'),
    configMap: ConfigMapVolumeSource.optional().describe('Files from a ConfigMap'),
    vsphereVolume: VsphereVirtualDiskVolumeSource.optional().describe('A vSphere virtual disk'),
    quobyte: QuobyteVolumeSource.optional().describe('A Quobyte volume'),
    azureDisk: AzureDiskVolumeSource.optional().describe('An Azure data disk'),
    photonPersistentDisk: PhotonPersistentDiskVolumeSource.optional().describe('A Photon Controller disk'),
    projected: ProjectedVolumeSource.optional().describe('Several sources in one directory'),
    portworxVolume: PortworxVolumeSource.optional().describe('A Portworx volume'),
    scaleIO: ScaleIOVolumeSource.optional().describe('A ScaleIO volume'),
    storageos: StorageOSVolumeSource.optional().describe('A StorageOS volume'),
    csi: CSIVolumeSource.optional().describe('An inline CSI driver volume'),
    ephemeral: EphemeralVolumeSource.optional().describe('A claim created and deleted with the pod'),
    image: ImageVolumeSource.optional().describe('The contents of an image or OCI artifact'),
  })
  .describe('A named volume containers of the pod can mount; set exactly one source')
export type Volume = z.infer<typeof Volume>
