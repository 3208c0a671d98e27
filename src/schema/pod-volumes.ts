// Volume sources a pod can mount.
import { z } from 'zod'
import { int32, int64, ObjectMeta, StringMap } from './meta'
import { Quantity } from './quantity'
import { atomic } from './schema-helpers'
import { HostPathType, LabelSelector, LocalObjectReference, ObjectFieldSelector, PersistentVolumeAccessMode, PersistentVolumeMode, PullPolicy, ResourceFieldSelector, ResourceList, TypedLocalObjectReference, TypedObjectReference } from './pod-common'

// ---------------------------------------------------------------------------------------------------------------
// Volume sources

export const KeyToPath = z
  .strictObject({
    key: z.string().describe('Key to project'),
    path: z.string().describe('Relative file path the key is written to'),
    mode: int32.optional().describe('Permission bits of the file, as a decimal number'),
  })
  .describe('Maps a key to a file path in a volume')

export const HostPathVolumeSource = z
  .strictObject({
    path: z.string().describe('Path on the node'),
    type: HostPathType.optional().describe('What must exist at the path'),
  })
  .describe('A file or directory on the node')

export const EmptyDirVolumeSource = z
  .strictObject({
    medium: z.string().optional().describe('Backing medium: empty for node disk, Memory or HugePages'),
    sizeLimit: Quantity.optional().describe('Most storage the directory may use'),
  })
  .describe('A scratch directory that lives as long as the pod')

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

export const GitRepoVolumeSource = z
  .strictObject({
    repository: z.string().describe('Repository URL'),
    revision: z.string().optional().describe('Commit to check out'),
    directory: z.string().optional().describe('Directory to clone into'),
  })
  .describe('Deprecated: a git repository cloned into an empty directory')

export const SecretVolumeSource = z
  .strictObject({
    secretName: z.string().optional().describe('Name of the Secret'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
    optional: z.boolean().optional().describe('Whether a missing Secret or key is tolerated'),
  })
  .describe('Files made from the keys of a Secret')

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

export const PersistentVolumeClaimVolumeSource = z
  .strictObject({
    claimName: z.string().describe('Name of the claim in the pod\'s namespace'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('The volume bound to a PersistentVolumeClaim')

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

export const CinderVolumeSource = z
  .strictObject({
    volumeID: z.string().describe('Cinder volume ID'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    secretRef: LocalObjectReference.optional().describe('Secret with OpenStack connection parameters'),
  })
  .describe('An OpenStack Cinder volume')

export const CephFSVolumeSource = z
  .strictObject({
    monitors: z.array(z.string()).describe('Ceph monitor addresses').meta(atomic),
    path: z.string().optional().describe('Path within the filesystem to mount as root'),
    user: z.string().optional().describe('RADOS user'),
    secretFile: z.string().optional().describe('Path to the user\'s secret file'),
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

export const DownwardAPIVolumeFile = z
  .strictObject({
    path: z.string().describe('Relative file path to create'),
    fieldRef: ObjectFieldSelector.optional().describe('Pod field written to the file'),
    resourceFieldRef: ResourceFieldSelector.optional().describe('Container resource written to the file'),
    mode: int32.optional().describe('Permission bits of the file'),
  })
  .describe('A file holding a pod field or container resource value')

export const DownwardAPIVolumeSource = z
  .strictObject({
    items: z.array(DownwardAPIVolumeFile).optional().describe('Files to create').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
  })
  .describe('Files exposing information about the pod')

export const FCVolumeSource = z
  .strictObject({
    targetWWNs: z.array(z.string()).optional().describe('Target world wide names').meta(atomic),
    lun: int32.optional().describe('Target LUN'),
    fsType: z.string().optional().describe('Filesystem type'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    wwids: z.array(z.string()).optional().describe('Volume world wide identifiers').meta(atomic),
  })
  .describe('A Fibre Channel disk')

export const AzureFileVolumeSource = z
  .strictObject({
    secretName: z.string().describe('Secret with the storage account name and key'),
    shareName: z.string().describe('Azure file share name'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
  })
  .describe('An Azure File share')

export const ConfigMapVolumeSource = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap or key is tolerated'),
  })
  .describe('Files made from the keys of a ConfigMap')

export const VsphereVirtualDiskVolumeSource = z
  .strictObject({
    volumePath: z.string().describe('Path of the vmdk'),
    fsType: z.string().optional().describe('Filesystem type'),
    storagePolicyName: z.string().optional().describe('Storage policy name'),
    storagePolicyID: z.string().optional().describe('Storage policy ID'),
  })
  .describe('A vSphere virtual disk')

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

export const SecretProjection = z
  .strictObject({
    name: z.string().optional().describe('Name of the Secret'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    optional: z.boolean().optional().describe('Whether a missing Secret or key is tolerated'),
  })
  .describe('Secret keys projected into a volume')

export const DownwardAPIProjection = z
  .strictObject({
    items: z.array(DownwardAPIVolumeFile).optional().describe('Files to create').meta(atomic),
  })
  .describe('Pod information projected into a volume')

export const ConfigMapProjection = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap or key is tolerated'),
  })
  .describe('ConfigMap keys projected into a volume')

export const ServiceAccountTokenProjection = z
  .strictObject({
    audience: z.string().optional().describe('Intended audience of the token; the API server by default'),
    expirationSeconds: int64.optional().describe('Requested lifetime of the token'),
    path: z.string().describe('Relative file path of the token'),
  })
  .describe('A service account token projected into a volume and rotated by the kubelet')

export const ClusterTrustBundleProjection = z
  .strictObject({
    name: z.string().optional().describe('Select one bundle by name'),
    signerName: z.string().optional().describe('Select all bundles of this signer'),
    labelSelector: LabelSelector.optional().describe('Narrow the signer\'s bundles by label'),
    optional: z.boolean().optional().describe('Start the pod even if nothing matches'),
    path: z.string().describe('Relative file path of the bundle'),
  })
  .describe('ClusterTrustBundle certificates projected into a volume')

export const PodCertificateProjection = z
  .strictObject({
    signerName: z.string().describe('Signer the certificate requests are sent to'),
    keyType: z
      .enum(['RSA3072', 'RSA4096', 'ECDSAP256', 'ECDSAP384', 'ECDSAP521', 'ED25519'])
      .describe('Type of key pair the kubelet generates'),
    maxExpirationSeconds: int32.optional().describe('Longest certificate lifetime accepted'),
    credentialBundlePath: z.string().optional().describe('File holding the key followed by the certificate chain'),
    keyPath: z.string().optional().describe('File holding only the private key'),
    certificateChainPath: z.string().optional().describe('File holding only the certificate chain'),
    userAnnotations: StringMap.optional().describe('Extra information passed through to the signer'),
  })
  .describe('A key and certificate issued to the pod and projected into a volume')

export const VolumeProjection = z
  .strictObject({
    secret: SecretProjection.optional().describe('Project Secret keys'),
    downwardAPI: DownwardAPIProjection.optional().describe('Project pod information'),
    configMap: ConfigMapProjection.optional().describe('Project ConfigMap keys'),
    serviceAccountToken: ServiceAccountTokenProjection.optional().describe('Project a service account token'),
    clusterTrustBundle: ClusterTrustBundleProjection.optional().describe('Project trust bundle certificates'),
    podCertificate: PodCertificateProjection.optional().describe('Project a pod certificate and key'),
  })
  .describe('One source of a projected volume; set exactly one')

export const ProjectedVolumeSource = z
  .strictObject({
    sources: z.array(VolumeProjection).optional().describe('Sources merged into the volume').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
  })
  .describe('Several sources combined into one directory')

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
    volumeNamespace: z.string().optional().describe('StorageOS namespace; the pod\'s namespace by default'),
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
    volumeClaimTemplate: PersistentVolumeClaimTemplate.optional().describe('Claim created with the pod and deleted with it'),
  })
  .describe('A volume from a claim whose lifetime is tied to the pod')

export const ImageVolumeSource = z
  .strictObject({
    reference: z.string().optional().describe('Image or OCI artifact reference'),
    pullPolicy: PullPolicy.optional().describe('When the reference is pulled'),
  })
  .describe('The contents of an image or OCI artifact, mounted read-only')

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
