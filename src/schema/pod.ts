// core/v1 Pod: its spec and status here, and (re-exported) every type it embeds; fields as of Kubernetes 1.36.
// Objects are strict so unknown fields surface as `unrecognized_keys`. Only shapes and types are checked here:
// required-ness and value rules (DNS labels, ranges, mutual exclusion) belong to the pod strategy's validate.
// List metadata mirrors the patchStrategy/patchMergeKey/listType/listMapKey tags of k8s.io/api core/v1 types.go,
// which strategic merge patch, server-side apply and kubectl's client-side apply all read from the OpenAPI document.
import { z } from 'zod'
import { int32, int64, ObjectMeta, StringMap, Time } from './meta'
import { NullableTime, atomic, atomicMap, keyed, set } from './schema-helpers'
import {
  ConditionStatus,
  DNSPolicy,
  LocalObjectReference,
  PodPhase,
  PodQOSClass,
  PreemptionPolicy,
  ResourceList,
  RestartPolicy,
} from './pod-common'
import { Container, EphemeralContainer, ResourceRequirements } from './pod-containers'
import { PodSecurityContext } from './pod-security-context'
import { Volume } from './pod-volumes'
import { ContainerStatus } from './pod-container-status'
import {
  Affinity,
  HostAlias,
  PodDNSConfig,
  PodOS,
  PodReadinessGate,
  PodResourceClaim,
  PodSchedulingGate,
  PodSchedulingGroup,
  Toleration,
  TopologySpreadConstraint,
} from './pod-scheduling'
export * from './pod-common'
export * from './pod-containers'
export * from './pod-security-context'
export * from './pod-container-status'
export * from './pod-volumes'
export * from './pod-scheduling'

// ---------------------------------------------------------------------------------------------------------------
// PodSpec

export const PodSpec = z
  .strictObject({
    volumes: z
      .array(Volume)
      .optional()
      .describe('Volumes containers may mount')
      .meta(keyed(['name'], 'merge,retainKeys')),
    initContainers: z
      .array(Container)
      .optional()
      .describe('Containers run to completion, in order, before the others start')
      .meta(keyed(['name'])),
    containers: z
      .array(Container)
      .describe('Containers of the pod; at least one')
      .meta(keyed(['name'])),
    ephemeralContainers: z
      .array(EphemeralContainer)
      .optional()
      .describe('Debugging containers added through the ephemeralcontainers subresource')
      .meta(keyed(['name'])),
    restartPolicy: RestartPolicy.optional().describe('When containers are restarted; Always by default'),
    terminationGracePeriodSeconds: int64
      .optional()
      .describe('Seconds between the stop signal and a forced kill; 30 by default'),
    activeDeadlineSeconds: int64.optional().describe('Seconds the pod may run on a node before it is marked failed'),
    dnsPolicy: DNSPolicy.optional().describe('How DNS is configured; ClusterFirst by default'),
    nodeSelector: StringMap.optional().describe('Labels a node must have to run the pod').meta(atomicMap),
    serviceAccountName: z.string().optional().describe('ServiceAccount the pod runs as'),
    serviceAccount: z.string().optional().describe('Deprecated alias of serviceAccountName'),
    automountServiceAccountToken: z.boolean().optional().describe('Whether an API token is mounted automatically'),
    nodeName: z.string().optional().describe('Node the pod is bound to; set by the scheduler or directly'),
    hostNetwork: z.boolean().optional().describe("Use the node's network namespace"),
    hostPID: z.boolean().optional().describe("Use the node's process namespace"),
    hostIPC: z.boolean().optional().describe("Use the node's IPC namespace"),
    shareProcessNamespace: z.boolean().optional().describe("Let containers see and signal each other's processes"),
    securityContext: PodSecurityContext.optional().describe('Security settings for all containers'),
    imagePullSecrets: z
      .array(LocalObjectReference)
      .optional()
      .describe('Secrets with registry credentials for pulling images')
      .meta(keyed(['name'])),
    hostname: z.string().optional().describe('Hostname of the pod; the pod name by default'),
    subdomain: z.string().optional().describe('Subdomain giving the pod a fully qualified name under a service'),
    affinity: Affinity.optional().describe('Scheduling constraints'),
    schedulerName: z.string().optional().describe('Scheduler responsible for the pod'),
    tolerations: z.array(Toleration).optional().describe('Taints the pod tolerates').meta(atomic),
    hostAliases: z
      .array(HostAlias)
      .optional()
      .describe("Entries added to the pod's hosts file")
      .meta(keyed(['ip'])),
    priorityClassName: z.string().optional().describe("PriorityClass that sets the pod's priority"),
    priority: int32.optional().describe('Scheduling priority, filled in from the priority class'),
    dnsConfig: PodDNSConfig.optional().describe('DNS settings added to those of the DNS policy'),
    readinessGates: z
      .array(PodReadinessGate)
      .optional()
      .describe('Extra conditions required for readiness')
      .meta(atomic),
    runtimeClassName: z.string().optional().describe('RuntimeClass used to run the pod'),
    enableServiceLinks: z
      .boolean()
      .optional()
      .describe('Inject Docker-link style variables for services; true by default'),
    preemptionPolicy: PreemptionPolicy.optional().describe('Whether the pod may preempt lower-priority pods'),
    overhead: ResourceList.optional().describe('Resources the runtime itself uses for this pod'),
    topologySpreadConstraints: z
      .array(TopologySpreadConstraint)
      .optional()
      .describe('How the pod is spread across topology domains')
      .meta(keyed(['topologyKey', 'whenUnsatisfiable'])),
    setHostnameAsFQDN: z.boolean().optional().describe('Use the fully qualified name as the hostname'),
    os: PodOS.optional().describe('Operating system the pod targets'),
    hostUsers: z.boolean().optional().describe("Use the node's user namespace; false isolates users"),
    schedulingGates: z
      .array(PodSchedulingGate)
      .optional()
      .describe('Gates that block scheduling until removed')
      .meta(keyed(['name'])),
    resourceClaims: z
      .array(PodResourceClaim)
      .optional()
      .describe('Dynamically allocated resources the pod needs')
      .meta(keyed(['name'], 'merge,retainKeys')),
    resources: ResourceRequirements.optional().describe('Pod-level resource requests and limits'),
    hostnameOverride: z.string().optional().describe('Hostname seen inside the pod, overriding hostname and subdomain'),
    schedulingGroup: PodSchedulingGroup.optional().describe('Group the pod is scheduled with'),
  })
  .describe('Desired state of a pod')
export type PodSpec = z.infer<typeof PodSpec>

// ---------------------------------------------------------------------------------------------------------------
// PodStatus

export const PodCondition = z
  .strictObject({
    type: z.string().describe('Condition type, such as Ready or PodScheduled'),
    observedGeneration: int64.optional().describe('Pod generation the condition was computed for'),
    status: ConditionStatus.describe('Whether the condition holds'),
    lastProbeTime: NullableTime.optional().describe('When the condition was last checked'),
    lastTransitionTime: NullableTime.optional().describe('When the status last changed'),
    reason: z.string().optional().describe('Machine-readable reason for the last change'),
    message: z.string().optional().describe('Human-readable detail of the last change'),
  })
  .describe('One observed condition of a pod')
export type PodCondition = z.infer<typeof PodCondition>

export const HostIP = z
  .strictObject({
    ip: z.string().describe('An IP address of the node'),
  })
  .describe("An IP address of the pod's node")

export const PodIP = z
  .strictObject({
    ip: z.string().describe('An IP address of the pod'),
  })
  .describe('An IP address allocated to the pod')

export const PodResourceClaimStatus = z
  .strictObject({
    name: z.string().describe('Name of the entry in spec.resourceClaims'),
    resourceClaimName: z.string().optional().describe('Name of the ResourceClaim generated for it'),
  })
  .describe('The claim generated for a pod resource claim')

export const ContainerExtendedResourceRequest = z
  .strictObject({
    containerName: z.string().describe('Container that asked for the extended resource'),
    resourceName: z.string().describe('Extended resource name'),
    requestName: z.string().describe('Request in the generated claim that satisfies it'),
  })
  .describe("Links a container's extended resource to a claim request")

export const PodExtendedResourceClaimStatus = z
  .strictObject({
    requestMappings: z
      .array(ContainerExtendedResourceRequest)
      .describe('Which claim request serves each container resource')
      .meta(atomic),
    resourceClaimName: z.string().describe('Name of the generated ResourceClaim'),
  })
  .describe('The claim generated for extended resources backed by dynamic allocation')

const NodeAllocatableResourceClaimStatus = z
  .strictObject({
    resourceClaimName: z.string().describe('Claim that caused the allocation'),
    containers: z.array(z.string()).optional().describe('Containers that reference the claim').meta(set),
    resources: ResourceList.describe('Node-allocatable amounts allocated through the claim'),
  })
  .describe('Node-allocatable resources (cpu, memory, ...) allocated through a claim')

export const PodStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('Pod generation this status reflects'),
    phase: PodPhase.optional().describe('Coarse lifecycle stage'),
    conditions: z
      .array(PodCondition)
      .optional()
      .describe('Observed conditions, such as Ready')
      .meta(keyed(['type'])),
    message: z.string().optional().describe("Human-readable detail of the pod's state"),
    reason: z.string().optional().describe('Machine-readable reason for the state, such as Evicted'),
    nominatedNodeName: z.string().optional().describe('Node the pod is expected to land on after preemption'),
    hostIP: z.string().optional().describe('Primary IP address of the node'),
    // Upstream merges by ip for strategic patches but leaves the list atomic for server-side apply.
    hostIPs: z.array(HostIP).optional().describe('IP addresses of the node, primary first').meta({
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-patch-merge-key': 'ip',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    podIP: z.string().optional().describe('Primary IP address of the pod'),
    podIPs: z
      .array(PodIP)
      .optional()
      .describe('IP addresses of the pod, primary first, at most one per family')
      .meta(keyed(['ip'])),
    startTime: Time.optional().describe('When the kubelet accepted the pod'),
    initContainerStatuses: z.array(ContainerStatus).optional().describe('One status per init container').meta(atomic),
    containerStatuses: z.array(ContainerStatus).optional().describe('One status per container').meta(atomic),
    qosClass: PodQOSClass.optional().describe('Quality of service class'),
    ephemeralContainerStatuses: z
      .array(ContainerStatus)
      .optional()
      .describe('One status per ephemeral container that has run')
      .meta(atomic),
    resize: z
      .enum(['Proposed', 'InProgress', 'Deferred', 'Infeasible'])
      .optional()
      .describe('Deprecated: progress of an in-place resize, now reported as conditions'),
    resourceClaimStatuses: z
      .array(PodResourceClaimStatus)
      .optional()
      .describe("Claims generated for the pod's resource claims")
      .meta(keyed(['name'], 'merge,retainKeys')),
    extendedResourceClaimStatus: PodExtendedResourceClaimStatus.optional().describe(
      'Claim generated for extended resources',
    ),
    allocatedResources: ResourceList.optional().describe('Total requests the node allocated to the pod'),
    resources: ResourceRequirements.optional().describe('Pod-level requests and limits actually applied'),
    nodeAllocatableResourceClaimStatuses: z
      .array(NodeAllocatableResourceClaimStatus)
      .optional()
      .describe('Node-allocatable resources allocated through claims')
      .meta(atomic),
  })
  .describe('Observed state of a pod; may lag behind reality')
export type PodStatus = z.infer<typeof PodStatus>

// ---------------------------------------------------------------------------------------------------------------
// Pod

export const Pod = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Pod'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    // Optional on input so a bare create body decodes; the store fills it in and always returns it.
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: PodSpec.optional().describe('Desired state of the pod'),
    status: PodStatus.optional().describe('Observed state, written by the scheduler and kubelet'),
  })
  .describe('A group of containers scheduled together on one node, sharing network and storage')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }] })
export type Pod = z.infer<typeof Pod>
