// What kube-apiserver's scheme (pkg/api/legacyscheme, every built-in group installed) knows: which kinds exist in
// which group/version, and the Go type each decodes into. A body naming a kind we do not serve is decoded against
// this, so it fails as kube's does: "no kind ... is registered" for kinds the scheme lacks, "unknown conversion"
// for kinds it has. The table is k8s.io/api's register.go files (release-1.33).
import { goQuote } from '../go-strings'

export interface GVK {
  group: string
  version: string
  kind: string
}

const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30'

/** Kinds each group/version registers (k8s.io/api <group>/<version>/register.go, addKnownTypes). */
const REGISTERED: [groupVersion: string, kinds: string][] = [
  ['admission.k8s.io/v1', 'AdmissionReview'],
  ['admission.k8s.io/v1beta1', 'AdmissionReview'],
  [
    'admissionregistration.k8s.io/v1',
    'ValidatingWebhookConfiguration ValidatingWebhookConfigurationList MutatingWebhookConfiguration MutatingWebhookConfigurationList ValidatingAdmissionPolicy ValidatingAdmissionPolicyList ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList',
  ],
  [
    'admissionregistration.k8s.io/v1alpha1',
    'ValidatingAdmissionPolicy ValidatingAdmissionPolicyList ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList MutatingAdmissionPolicy MutatingAdmissionPolicyList MutatingAdmissionPolicyBinding MutatingAdmissionPolicyBindingList',
  ],
  [
    'admissionregistration.k8s.io/v1beta1',
    'ValidatingWebhookConfiguration ValidatingWebhookConfigurationList MutatingWebhookConfiguration MutatingWebhookConfigurationList ValidatingAdmissionPolicy ValidatingAdmissionPolicyList ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList',
  ],
  ['internal.apiserver.k8s.io/v1alpha1', 'StorageVersion StorageVersionList'],
  [
    'apps/v1',
    'Deployment DeploymentList StatefulSet StatefulSetList DaemonSet DaemonSetList ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList',
  ],
  [
    'apps/v1beta1',
    'Deployment DeploymentList DeploymentRollback Scale StatefulSet StatefulSetList ControllerRevision ControllerRevisionList',
  ],
  [
    'apps/v1beta2',
    'Deployment DeploymentList Scale StatefulSet StatefulSetList DaemonSet DaemonSetList ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList',
  ],
  ['authentication.k8s.io/v1', 'TokenReview TokenRequest SelfSubjectReview'],
  ['authentication.k8s.io/v1alpha1', 'SelfSubjectReview'],
  ['authentication.k8s.io/v1beta1', 'SelfSubjectReview TokenReview'],
  [
    'authorization.k8s.io/v1',
    'SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview LocalSubjectAccessReview',
  ],
  [
    'authorization.k8s.io/v1beta1',
    'SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview LocalSubjectAccessReview',
  ],
  ['autoscaling/v1', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList Scale'],
  ['autoscaling/v2', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['autoscaling/v2beta1', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['autoscaling/v2beta2', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['batch/v1', 'Job JobList CronJob CronJobList'],
  ['batch/v1beta1', 'CronJob CronJobList'],
  ['certificates.k8s.io/v1', 'CertificateSigningRequest CertificateSigningRequestList'],
  ['certificates.k8s.io/v1alpha1', 'ClusterTrustBundle ClusterTrustBundleList'],
  [
    'certificates.k8s.io/v1beta1',
    'CertificateSigningRequest CertificateSigningRequestList ClusterTrustBundle ClusterTrustBundleList',
  ],
  ['coordination.k8s.io/v1', 'Lease LeaseList'],
  ['coordination.k8s.io/v1alpha2', 'LeaseCandidate LeaseCandidateList'],
  ['coordination.k8s.io/v1beta1', 'Lease LeaseList LeaseCandidate LeaseCandidateList'],
  ['discovery.k8s.io/v1', 'EndpointSlice EndpointSliceList'],
  ['discovery.k8s.io/v1beta1', 'EndpointSlice EndpointSliceList'],
  ['events.k8s.io/v1', 'Event EventList'],
  ['events.k8s.io/v1beta1', 'Event EventList'],
  [
    'extensions/v1beta1',
    'Deployment DeploymentList DeploymentRollback Scale DaemonSetList DaemonSet Ingress IngressList ReplicaSet ReplicaSetList NetworkPolicy NetworkPolicyList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta1',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta2',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta3',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  ['imagepolicy.k8s.io/v1alpha1', 'ImageReview'],
  [
    'networking.k8s.io/v1',
    'Ingress IngressList IngressClass IngressClassList NetworkPolicy NetworkPolicyList IPAddress IPAddressList ServiceCIDR ServiceCIDRList',
  ],
  ['networking.k8s.io/v1alpha1', 'IPAddress IPAddressList ServiceCIDR ServiceCIDRList'],
  [
    'networking.k8s.io/v1beta1',
    'Ingress IngressList IngressClass IngressClassList IPAddress IPAddressList ServiceCIDR ServiceCIDRList',
  ],
  ['node.k8s.io/v1', 'RuntimeClass RuntimeClassList'],
  ['node.k8s.io/v1alpha1', 'RuntimeClass RuntimeClassList'],
  ['node.k8s.io/v1beta1', 'RuntimeClass RuntimeClassList'],
  ['policy/v1', 'PodDisruptionBudget PodDisruptionBudgetList Eviction'],
  ['policy/v1beta1', 'PodDisruptionBudget PodDisruptionBudgetList Eviction'],
  [
    'rbac.authorization.k8s.io/v1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'rbac.authorization.k8s.io/v1alpha1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'rbac.authorization.k8s.io/v1beta1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'resource.k8s.io/v1alpha3',
    'DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList ResourceSlice ResourceSliceList DeviceTaintRule DeviceTaintRuleList',
  ],
  [
    'resource.k8s.io/v1beta1',
    'DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList ResourceSlice ResourceSliceList',
  ],
  [
    'resource.k8s.io/v1beta2',
    'DeviceClass DeviceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList ResourceSlice ResourceSliceList',
  ],
  ['scheduling.k8s.io/v1', 'PriorityClass PriorityClassList'],
  ['scheduling.k8s.io/v1alpha1', 'PriorityClass PriorityClassList'],
  ['scheduling.k8s.io/v1beta1', 'PriorityClass PriorityClassList'],
  [
    'storage.k8s.io/v1',
    'StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSINode CSINodeList CSIDriver CSIDriverList CSIStorageCapacity CSIStorageCapacityList',
  ],
  [
    'storage.k8s.io/v1alpha1',
    'VolumeAttachment VolumeAttachmentList CSIStorageCapacity CSIStorageCapacityList VolumeAttributesClass VolumeAttributesClassList',
  ],
  [
    'storage.k8s.io/v1beta1',
    'StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSIDriver CSIDriverList CSINode CSINodeList CSIStorageCapacity CSIStorageCapacityList VolumeAttributesClass VolumeAttributesClassList',
  ],
  ['storagemigration.k8s.io/v1alpha1', 'StorageVersionMigration StorageVersionMigrationList'],
  [
    'v1',
    'Pod PodList PodStatusResult PodTemplate PodTemplateList ReplicationController ReplicationControllerList Service ServiceProxyOptions ServiceList Endpoints EndpointsList Node NodeList NodeProxyOptions Binding Event EventList List LimitRange LimitRangeList ResourceQuota ResourceQuotaList Namespace NamespaceList Secret SecretList ServiceAccount ServiceAccountList PersistentVolume PersistentVolumeList PersistentVolumeClaim PersistentVolumeClaimList PodAttachOptions PodLogOptions PodExecOptions PodPortForwardOptions PodProxyOptions ComponentStatus ComponentStatusList SerializedReference RangeAllocation ConfigMap ConfigMapList Status',
  ],
]

/** metav1.AddToGroupVersion registers these in every group/version; their Go types live in meta/v1. */
const META_KINDS = [
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
]
/** ...and these "unversioned" types in v1 of the core group. */
const UNVERSIONED = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']

const known = new Map<string, Set<string>>()
for (const [gv, kinds] of REGISTERED) known.set(gv, new Set([...kinds.split(' '), ...META_KINDS]))
for (const kind of UNVERSIONED) known.get('v1')!.add(kind)
known.set('meta.k8s.io/v1', new Set(META_KINDS))

export const groupVersionString = (group: string, version: string) => (group ? `${group}/${version}` : version)

export const isRegistered = (g: GVK) => known.get(groupVersionString(g.group, g.version))?.has(g.kind) ?? false

/** Whether `g` is the same meta/v1 Go type as `target` (DeleteOptions from any group/version decodes as one). */
export const isSharedMetaKind = (g: GVK, target: GVK) =>
  g.kind === target.kind && META_KINDS.includes(g.kind) && isRegistered(g)

/** The Go type a registered kind decodes into, as reflect prints it: `v1.Service`, `v1beta1.Deployment`. */
export function goTypeOfKind(g: GVK): string {
  const pkg = META_KINDS.includes(g.kind) || (UNVERSIONED.includes(g.kind) && g.group === '') ? 'v1' : g.version
  return `${pkg}.${g.kind}`
}

/** The internal (hub) Go type a served kind converts into: `core.Pod`, `discovery.EndpointSlice`. */
export function internalTypeOf(g: GVK): string {
  return `${g.group === '' ? 'core' : g.group.split('.')[0]}.${g.kind}`
}

/**
 * Whether a registered kind is another version of the target's type, so it converts (and kube then refuses its
 * group/version) rather than failing conversion: same group and kind, or events.k8s.io's Event for core's.
 */
export function convertsTo(from: GVK, target: GVK): boolean {
  if (from.kind !== target.kind) return false
  return (
    from.group === target.group || (target.group === '' && target.kind === 'Event' && from.group === 'events.k8s.io')
  )
}

/** The scheme's message for a kind it does not know (runtime.notRegisteredErr). */
export function notRegisteredMessage(g: GVK): string {
  if (g.version === '__internal') {
    return `no kind ${goQuote(g.kind)} is registered for the internal version of group ${goQuote(g.group)} in scheme ${goQuote(SCHEME_NAME)}`
  }
  return `no kind ${goQuote(g.kind)} is registered for version ${goQuote(groupVersionString(g.group, g.version))} in scheme ${goQuote(SCHEME_NAME)}`
}
