// core/v1 Node: a machine pods run on (for now the control plane's virtual nodes).
import { z } from 'zod'
import { ObjectMeta, Time, int32, int64 } from './meta'
import { ResourceList, TaintEffect } from './pod'

export const Taint = z
  .strictObject({
    key: z.string().describe('Taint key applied to the node'),
    value: z.string().optional().describe('Taint value for the key'),
    effect: TaintEffect.describe('What happens to pods that do not tolerate the taint'),
    timeAdded: Time.optional().describe('When the taint was added (NoExecute taints only)'),
  })
  .describe('Repels pods that do not tolerate it')

export const NodeConfigSource = z
  .strictObject({
    configMap: z
      .strictObject({
        namespace: z.string().describe('Namespace of the config map'),
        name: z.string().describe('Name of the config map'),
        uid: z.string().optional().describe('UID of the config map'),
        resourceVersion: z.string().optional().describe('resourceVersion of the config map'),
        kubeletConfigKey: z.string().describe('Key holding the kubelet configuration'),
      })
      .optional()
      .describe('A config map holding the node configuration'),
  })
  .describe('Deprecated source of dynamic node configuration')

const NodeSpec = z
  .strictObject({
    podCIDR: z.string().optional().describe('Pod IP range assigned to the node'),
    podCIDRs: z
      .array(z.string())
      .optional()
      .describe('Pod IP ranges assigned to the node, one per family')
      .meta({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' }),
    providerID: z.string().optional().describe('Cloud provider ID of the node'),
    unschedulable: z.boolean().optional().describe('Whether new pods may be scheduled onto the node'),
    taints: z.array(Taint).optional().describe('Taints of the node').meta({ 'x-kubernetes-list-type': 'atomic' }),
    configSource: NodeConfigSource.optional().describe('Deprecated'),
    externalID: z.string().optional().describe('Deprecated'),
  })
  .describe('The desired state of a node')

export const NodeCondition = z
  .strictObject({
    type: z
      .string()
      .describe('Type of node condition: Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastHeartbeatTime: Time.optional().describe('Last time the condition was reported'),
    lastTransitionTime: Time.optional().describe('Last time the condition changed status'),
    reason: z.string().optional().describe('Machine-readable reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of one aspect of a node')

export const NodeAddress = z
  .strictObject({
    type: z.string().describe('Address type: Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS'),
    address: z.string().describe('The address'),
  })
  .describe('One address of a node')

export const NodeSystemInfo = z
  .strictObject({
    machineID: z.string().describe('Machine ID of the node'),
    systemUUID: z.string().describe('System UUID of the node'),
    bootID: z.string().describe('Boot ID of the node'),
    kernelVersion: z.string().describe('Kernel version'),
    osImage: z.string().describe('Operating system image'),
    containerRuntimeVersion: z.string().describe('Container runtime and version'),
    kubeletVersion: z.string().describe('Kubelet version'),
    kubeProxyVersion: z.string().describe('Deprecated kube-proxy version'),
    operatingSystem: z.string().describe('Operating system: linux or windows'),
    architecture: z.string().describe('CPU architecture'),
    swap: z
      .strictObject({ capacity: int64.optional().describe('Swap capacity in bytes') })
      .optional()
      .describe('Swap information'),
  })
  .describe('Facts about the node software')

export const NodeStatus = z
  .strictObject({
    capacity: ResourceList.optional().describe('Total resources of the node'),
    allocatable: ResourceList.optional().describe('Resources available for scheduling'),
    phase: z.string().optional().describe('Deprecated lifecycle phase'),
    conditions: z
      .array(NodeCondition)
      .optional()
      .describe('Current conditions of the node')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    addresses: z
      .array(NodeAddress)
      .optional()
      .describe('Addresses of the node')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    daemonEndpoints: z
      .strictObject({
        kubeletEndpoint: z
          .strictObject({ Port: int32.describe('Port of the kubelet endpoint') })
          .optional()
          .describe('Kubelet endpoint'),
      })
      .optional()
      .describe('Endpoints of daemons on the node'),
    nodeInfo: NodeSystemInfo.optional().describe('Facts about the node'),
    images: z
      .array(
        z.strictObject({
          names: z.array(z.string()).optional().describe('Names of the image'),
          sizeBytes: int64.optional().describe('Image size'),
        }),
      )
      .optional()
      .describe('Images on the node')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    volumesInUse: z
      .array(z.string())
      .optional()
      .describe('Volumes in use on the node')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    volumesAttached: z
      .array(
        z.strictObject({
          name: z.string().describe('Name of the volume'),
          devicePath: z.string().describe('Device path'),
        }),
      )
      .optional()
      .describe('Volumes attached to the node')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    config: z.record(z.string(), z.unknown()).optional().describe('Status of dynamic configuration'),
    runtimeHandlers: z
      .array(
        z.strictObject({
          name: z.string().optional().describe('Handler name'),
          features: z.record(z.string(), z.unknown()).optional().describe('Handler features'),
        }),
      )
      .optional()
      .describe('Available runtime handlers')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    features: z.record(z.string(), z.unknown()).optional().describe('Features the node supports'),
  })
  .describe('The observed state of a node')

export const Node = z
  .strictObject({
    kind: z.string().optional().describe('REST resource this object represents'),
    apiVersion: z.string().optional().describe('Versioned schema of this representation'),
    metadata: ObjectMeta.optional(),
    spec: NodeSpec.optional(),
    status: NodeStatus.optional(),
  })
  .describe('A worker machine that runs pods')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Node' }] })

export type Node = z.infer<typeof Node>
