// Enumerations, references and selectors that pods (and the kinds embedding pod types) share.
import { z } from 'zod'
import { StringMap } from './meta'
import { Quantity } from './quantity'
import { atomic, atomicMap } from './schema-helpers'

/** Compute resources by name (cpu, memory, hugepages-2Mi, vendor.com/gpu, ...). */
export const ResourceList = z
  .record(z.string(), Quantity)
  .describe('Amounts of compute resources, keyed by resource name')

// ---------------------------------------------------------------------------------------------------------------
// Enumerations (values fixed by k8s.io/api; validation rejects anything else with "Unsupported value")

export const Protocol = z.enum(['TCP', 'UDP', 'SCTP']).describe('Network protocol')
export const PullPolicy = z.enum(['Always', 'Never', 'IfNotPresent']).describe('When the kubelet pulls an image')
export const ConditionStatus = z.enum(['True', 'False', 'Unknown']).describe('Whether a condition holds')
export const URIScheme = z.enum(['HTTP', 'HTTPS']).describe('Scheme of an HTTP request')
export const MountPropagationMode = z
  .enum(['None', 'HostToContainer', 'Bidirectional'])
  .describe('How mounts propagate between host and container')
export const RecursiveReadOnlyMode = z
  .enum(['Disabled', 'IfPossible', 'Enabled'])
  .describe('Whether a read-only mount is also read-only for its submounts')
export const TerminationMessagePolicy = z
  .enum(['File', 'FallbackToLogsOnError'])
  .describe("Where a terminated container's message comes from")
export const ProcMountType = z.enum(['Default', 'Unmasked']).describe('How /proc is mounted in a container')
export const SeccompProfileType = z
  .enum(['Unconfined', 'RuntimeDefault', 'Localhost'])
  .describe('Kind of seccomp profile')
export const AppArmorProfileType = z
  .enum(['Unconfined', 'RuntimeDefault', 'Localhost'])
  .describe('Kind of AppArmor profile')
export const NodeSelectorOperator = z
  .enum(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'])
  .describe('Relation between a node label or field and a set of values')
const LabelSelectorOperator = z
  .enum(['In', 'NotIn', 'Exists', 'DoesNotExist'])
  .describe('Relation between a label and a set of values')
export const TaintEffect = z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).describe('What a taint does')
export const TolerationOperator = z
  .enum(['Exists', 'Equal', 'Lt', 'Gt'])
  .describe('How a toleration compares its value with a taint')
export const RestartPolicy = z.enum(['Always', 'OnFailure', 'Never']).describe('When containers are restarted')
export const DNSPolicy = z
  .enum(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'])
  .describe("Where a pod's DNS settings come from")
export const PreemptionPolicy = z
  .enum(['PreemptLowerPriority', 'Never'])
  .describe('Whether a pod may evict lower-priority pods')
export const PodPhase = z
  .enum(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'])
  .describe('Coarse lifecycle stage of a pod')
export const PodQOSClass = z
  .enum(['Guaranteed', 'Burstable', 'BestEffort'])
  .describe('Quality of service class derived from requests and limits')
export const HostPathType = z
  .enum(['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'])
  .describe('What must exist at a host path; empty skips the check')
export const PersistentVolumeAccessMode = z
  .enum(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'])
  .describe('How a volume may be mounted')
export const PersistentVolumeMode = z.enum(['Block', 'Filesystem']).describe('Raw block device or formatted filesystem')

// ---------------------------------------------------------------------------------------------------------------
// References and selectors

export const LocalObjectReference = z
  .strictObject({
    name: z.string().optional().describe('Name of the object in the same namespace'),
  })
  .describe('Names an object in the same namespace')
  .meta(atomicMap)

export const TypedLocalObjectReference = z
  .strictObject({
    apiGroup: z.string().optional().describe('API group of the object; empty for the core group'),
    kind: z.string().describe('Kind of the object'),
    name: z.string().describe('Name of the object'),
  })
  .describe('Names an object of a given kind in the same namespace')
  .meta(atomicMap)

export const TypedObjectReference = z
  .strictObject({
    apiGroup: z.string().optional().describe('API group of the object; empty for the core group'),
    kind: z.string().describe('Kind of the object'),
    name: z.string().describe('Name of the object'),
    namespace: z.string().optional().describe("Namespace of the object, when it differs from the claim's"),
  })
  .describe('Names an object of a given kind, possibly in another namespace')

export const LabelSelectorRequirement = z
  .strictObject({
    key: z.string().describe('Label key the requirement tests'),
    operator: LabelSelectorOperator.describe('How the label value relates to the values'),
    values: z
      .array(z.string())
      .optional()
      .describe('Values to compare with; empty for Exists and DoesNotExist')
      .meta(atomic),
  })
  .describe('One label test in a selector')

export const LabelSelector = z
  .strictObject({
    matchLabels: StringMap.optional().describe('Labels that must be present with exactly these values'),
    matchExpressions: z
      .array(LabelSelectorRequirement)
      .optional()
      .describe('Label tests that must all pass')
      .meta(atomic),
  })
  .describe('Selects objects by label; all terms must match, and an empty selector matches everything')
  .meta(atomicMap)

export const ObjectFieldSelector = z
  .strictObject({
    apiVersion: z.string().optional().describe('API version the field path is written for; v1 by default'),
    fieldPath: z.string().describe('Path of the pod field to read, such as metadata.name'),
  })
  .describe('Reads one field of the pod')
  .meta(atomicMap)

export const ResourceFieldSelector = z
  .strictObject({
    containerName: z.string().optional().describe('Container whose resources are read; required in volumes'),
    resource: z.string().describe('Resource to read, such as limits.cpu or requests.memory'),
    divisor: Quantity.optional().describe('Unit the value is divided by before it is exposed; 1 by default'),
  })
  .describe("Reads a container's resource request or limit")
  .meta(atomicMap)

export const ConfigMapKeySelector = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    key: z.string().describe('Key to read'),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap or key is tolerated'),
  })
  .describe('Reads one key of a ConfigMap')
  .meta(atomicMap)

export const SecretKeySelector = z
  .strictObject({
    name: z.string().optional().describe('Name of the Secret'),
    key: z.string().describe('Key to read'),
    optional: z.boolean().optional().describe('Whether a missing Secret or key is tolerated'),
  })
  .describe('Reads one key of a Secret')
  .meta(atomicMap)

export const FileKeySelector = z
  .strictObject({
    volumeName: z.string().describe('Volume that holds the env file'),
    path: z.string().describe('Relative path of the env file within the volume'),
    key: z.string().describe('Variable to read from the file'),
    optional: z.boolean().optional().describe('Whether a missing file or key is tolerated'),
  })
  .describe('Reads one variable from an env file in a volume')
  .meta(atomicMap)
