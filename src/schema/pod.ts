// core/v1 Pod and every type it embeds (spec, containers, volumes, scheduling, status); fields as of Kubernetes 1.36.
// Objects are strict so unknown fields surface as `unrecognized_keys`. Only shapes and types are checked here:
// required-ness and value rules (DNS labels, ranges, mutual exclusion) belong to the pod strategy's validate.
// List metadata mirrors the patchStrategy/patchMergeKey/listType/listMapKey tags of k8s.io/api core/v1 types.go,
// which strategic merge patch, server-side apply and kubectl's client-side apply all read from the OpenAPI document.
import { z } from 'zod'
import { int32, int64, IntOrString, ObjectMeta, StringMap, Time } from './meta'
import { Quantity } from './quantity'

// ---------------------------------------------------------------------------------------------------------------
// List and map metadata

/** The list is replaced as a whole by every kind of patch. */
const atomic = { 'x-kubernetes-list-type': 'atomic' } as const
/** A list of unique scalars; server-side apply merges it as a set. */
const set = { 'x-kubernetes-list-type': 'set' } as const
/** A list of objects keyed by `keys`; strategic merge patch merges entries by the first key. */
function keyed(keys: [string, ...string[]], strategy: 'merge' | 'merge,retainKeys' = 'merge') {
  return {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': keys,
    'x-kubernetes-patch-merge-key': keys[0],
    'x-kubernetes-patch-strategy': strategy,
  } as const
}
/** A keyed list for server-side apply that strategic merge patch still replaces wholesale (no patch tags upstream). */
function applyKeyed(keys: [string, ...string[]]) {
  return { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys } as const
}
/** A map or struct that server-side apply treats as one value (+mapType=atomic / +structType=atomic). */
const atomicMap = { 'x-kubernetes-map-type': 'atomic' } as const

/** Timestamps that Go serializes as `null` when unset (non-pointer metav1.Time), so null must round-trip. */
const NullableTime = Time.nullable()

/** Compute resources by name (cpu, memory, hugepages-2Mi, vendor.com/gpu, ...). */
export const ResourceList = z.record(z.string(), Quantity).describe('Amounts of compute resources, keyed by resource name')

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
  .describe('Where a terminated container\'s message comes from')
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
export const LabelSelectorOperator = z
  .enum(['In', 'NotIn', 'Exists', 'DoesNotExist'])
  .describe('Relation between a label and a set of values')
export const TaintEffect = z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).describe('What a taint does')
export const TolerationOperator = z
  .enum(['Exists', 'Equal', 'Lt', 'Gt'])
  .describe('How a toleration compares its value with a taint')
export const RestartPolicy = z.enum(['Always', 'OnFailure', 'Never']).describe('When containers are restarted')
export const DNSPolicy = z
  .enum(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'])
  .describe('Where a pod\'s DNS settings come from')
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
    namespace: z.string().optional().describe('Namespace of the object, when it differs from the claim\'s'),
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
  .describe('Reads a container\'s resource request or limit')
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

// ---------------------------------------------------------------------------------------------------------------
// Environment, ports, mounts

export const EnvVarSource = z
  .strictObject({
    fieldRef: ObjectFieldSelector.optional().describe('Take the value from a pod field'),
    resourceFieldRef: ResourceFieldSelector.optional().describe('Take the value from a container resource'),
    configMapKeyRef: ConfigMapKeySelector.optional().describe('Take the value from a ConfigMap key'),
    secretKeyRef: SecretKeySelector.optional().describe('Take the value from a Secret key'),
    fileKeyRef: FileKeySelector.optional().describe('Take the value from an env file in a volume'),
  })
  .describe('Where an environment variable gets its value; set exactly one')

export const EnvVar = z
  .strictObject({
    name: z.string().describe('Variable name'),
    value: z.string().optional().describe('Literal value; $(VAR) references to earlier variables are expanded'),
    valueFrom: EnvVarSource.optional().describe('Source of the value when it is not literal'),
  })
  .describe('An environment variable of a container')

export const ConfigMapEnvSource = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap is tolerated'),
  })
  .describe('Imports every key of a ConfigMap as variables')

export const SecretEnvSource = z
  .strictObject({
    name: z.string().optional().describe('Name of the Secret'),
    optional: z.boolean().optional().describe('Whether a missing Secret is tolerated'),
  })
  .describe('Imports every key of a Secret as variables')

export const EnvFromSource = z
  .strictObject({
    prefix: z.string().optional().describe('Prefix added to every imported variable name'),
    configMapRef: ConfigMapEnvSource.optional().describe('ConfigMap to import'),
    secretRef: SecretEnvSource.optional().describe('Secret to import'),
  })
  .describe('A bulk source of environment variables')

export const ContainerPort = z
  .strictObject({
    name: z.string().optional().describe('Name services can refer to; unique within the pod'),
    hostPort: int32.optional().describe('Port opened on the node for this container port'),
    containerPort: int32.describe('Port the container listens on'),
    protocol: Protocol.optional().describe('Protocol of the port; TCP by default').meta({ default: 'TCP' }),
    hostIP: z.string().optional().describe('Node address the host port binds to'),
  })
  .describe('A port a container exposes')

export const VolumeMount = z
  .strictObject({
    name: z.string().describe('Name of the pod volume to mount'),
    readOnly: z.boolean().optional().describe('Mount read-only'),
    recursiveReadOnly: RecursiveReadOnlyMode.optional().describe('Also make submounts read-only'),
    mountPath: z.string().describe('Path inside the container to mount at'),
    subPath: z.string().optional().describe('Path inside the volume to mount instead of its root'),
    mountPropagation: MountPropagationMode.optional().describe('How mounts propagate across the boundary'),
    subPathExpr: z.string().optional().describe('Like subPath, with $(VAR) environment references expanded'),
  })
  .describe('Mounts a pod volume into a container')

export const VolumeDevice = z
  .strictObject({
    name: z.string().describe('Name of the claim-backed pod volume'),
    devicePath: z.string().describe('Path inside the container where the block device appears'),
  })
  .describe('Maps a raw block volume into a container')

// ---------------------------------------------------------------------------------------------------------------
// Probes and lifecycle hooks

export const HTTPHeader = z
  .strictObject({
    name: z.string().describe('Header name'),
    value: z.string().describe('Header value'),
  })
  .describe('A header sent with an HTTP probe')

export const HTTPGetAction = z
  .strictObject({
    path: z.string().optional().describe('Request path'),
    port: IntOrString.describe('Port number or named container port'),
    host: z.string().optional().describe('Host to connect to; the pod IP by default'),
    scheme: URIScheme.optional().describe('HTTP or HTTPS; HTTP by default'),
    httpHeaders: z.array(HTTPHeader).optional().describe('Extra request headers').meta(atomic),
  })
  .describe('An HTTP GET request')

export const TCPSocketAction = z
  .strictObject({
    port: IntOrString.describe('Port number or named container port'),
    host: z.string().optional().describe('Host to connect to; the pod IP by default'),
  })
  .describe('Opens a TCP connection')

export const GRPCAction = z
  .strictObject({
    port: int32.describe('Port of the gRPC health service'),
    service: z.string().optional().describe('Service name sent in the health check request'),
  })
  .describe('Calls the standard gRPC health check')

export const ExecAction = z
  .strictObject({
    command: z.array(z.string()).optional().describe('Command and arguments, run without a shell').meta(atomic),
  })
  .describe('Runs a command inside the container')

export const SleepAction = z
  .strictObject({
    seconds: int64.describe('How long to sleep'),
  })
  .describe('Pauses for a number of seconds')

export const Probe = z
  .strictObject({
    exec: ExecAction.optional().describe('Check by running a command'),
    httpGet: HTTPGetAction.optional().describe('Check with an HTTP GET'),
    tcpSocket: TCPSocketAction.optional().describe('Check by opening a TCP connection'),
    grpc: GRPCAction.optional().describe('Check with a gRPC health call'),
    initialDelaySeconds: int32.optional().describe('Seconds after start before the first check'),
    timeoutSeconds: int32.optional().describe('Seconds before a check times out'),
    periodSeconds: int32.optional().describe('Seconds between checks'),
    successThreshold: int32.optional().describe('Consecutive successes that count as passing again'),
    failureThreshold: int32.optional().describe('Consecutive failures that count as failing'),
    terminationGracePeriodSeconds: int64
      .optional()
      .describe('Grace period used when a failing probe kills the container, overriding the pod\'s'),
  })
  .describe('A periodic health check of a container')

export const LifecycleHandler = z
  .strictObject({
    exec: ExecAction.optional().describe('Run a command'),
    httpGet: HTTPGetAction.optional().describe('Send an HTTP GET'),
    tcpSocket: TCPSocketAction.optional().describe('Deprecated and not run; kept for compatibility'),
    sleep: SleepAction.optional().describe('Sleep before continuing'),
  })
  .describe('An action run at a container lifecycle event')

export const Lifecycle = z
  .strictObject({
    postStart: LifecycleHandler.optional().describe('Runs right after the container is created'),
    preStop: LifecycleHandler.optional().describe('Runs before the container is stopped'),
    stopSignal: z.string().optional().describe('Signal sent to stop the container, such as SIGTERM'),
  })
  .describe('Hooks run at container lifecycle events')

// ---------------------------------------------------------------------------------------------------------------
// Resources and restart behaviour

export const ResourceClaim = z
  .strictObject({
    name: z.string().describe('Name of an entry in the pod\'s resourceClaims'),
    request: z.string().optional().describe('Single request of that claim to use; all requests when empty'),
  })
  .describe('Gives a container access to a pod resource claim')

export const ResourceRequirements = z
  .strictObject({
    limits: ResourceList.optional().describe('Most of each resource that may be used'),
    requests: ResourceList.optional().describe('Amount of each resource reserved; defaults to the limits'),
    claims: z
      .array(ResourceClaim)
      .optional()
      .describe('Dynamically allocated resources the container uses')
      .meta(applyKeyed(['name'])),
  })
  .describe('Compute resource requests and limits')
export type ResourceRequirements = z.infer<typeof ResourceRequirements>

export const ContainerResizePolicy = z
  .strictObject({
    resourceName: z.string().describe('Resource the policy applies to: cpu or memory'),
    restartPolicy: z
      .enum(['NotRequired', 'RestartContainer'])
      .describe('Whether resizing this resource restarts the container'),
  })
  .describe('How a container reacts when one of its resources is resized')

export const ContainerRestartRuleOnExitCodes = z
  .strictObject({
    operator: z.enum(['In', 'NotIn']).describe('Whether the exit code must be in or outside the values'),
    values: z.array(int32).optional().describe('Exit codes to test against').meta(set),
  })
  .describe('Matches container exits by exit code')

export const ContainerRestartRule = z
  .strictObject({
    action: z.enum(['Restart']).describe('What to do when the rule matches'),
    exitCodes: ContainerRestartRuleOnExitCodes.optional().describe('Exit codes that trigger the rule'),
  })
  .describe('A rule deciding whether an exited container is restarted')

// ---------------------------------------------------------------------------------------------------------------
// Security contexts

export const Capabilities = z
  .strictObject({
    add: z.array(z.string()).optional().describe('Capabilities to grant').meta(atomic),
    drop: z.array(z.string()).optional().describe('Capabilities to remove').meta(atomic),
  })
  .describe('POSIX capability changes for a container')

export const SELinuxOptions = z
  .strictObject({
    user: z.string().optional().describe('SELinux user label'),
    role: z.string().optional().describe('SELinux role label'),
    type: z.string().optional().describe('SELinux type label'),
    level: z.string().optional().describe('SELinux level label'),
  })
  .describe('SELinux labels applied to a container')

export const WindowsSecurityContextOptions = z
  .strictObject({
    gmsaCredentialSpecName: z.string().optional().describe('Name of the GMSA credential spec to use'),
    gmsaCredentialSpec: z.string().optional().describe('Inline contents of the GMSA credential spec'),
    runAsUserName: z.string().optional().describe('Windows user that runs the entrypoint'),
    hostProcess: z.boolean().optional().describe('Run as a Windows host process container'),
  })
  .describe('Windows-specific security settings')

export const SeccompProfile = z
  .strictObject({
    type: SeccompProfileType.describe('Which kind of profile applies'),
    localhostProfile: z.string().optional().describe('Profile file on the node; only for Localhost'),
  })
  .describe('Seccomp profile selection')

export const AppArmorProfile = z
  .strictObject({
    type: AppArmorProfileType.describe('Which kind of profile applies'),
    localhostProfile: z.string().optional().describe('Profile loaded on the node; only for Localhost'),
  })
  .describe('AppArmor profile selection')

export const SecurityContext = z
  .strictObject({
    capabilities: Capabilities.optional().describe('Capabilities to add or drop'),
    privileged: z.boolean().optional().describe('Run with host root privileges'),
    seLinuxOptions: SELinuxOptions.optional().describe('SELinux labels for the container'),
    windowsOptions: WindowsSecurityContextOptions.optional().describe('Windows-specific settings'),
    runAsUser: int64.optional().describe('UID that runs the entrypoint'),
    runAsGroup: int64.optional().describe('GID that runs the entrypoint'),
    runAsNonRoot: z.boolean().optional().describe('Refuse to start if the process would run as root'),
    readOnlyRootFilesystem: z.boolean().optional().describe('Mount the root filesystem read-only'),
    allowPrivilegeEscalation: z.boolean().optional().describe('Allow a process to gain more privileges than its parent'),
    procMount: ProcMountType.optional().describe('How /proc is masked'),
    seccompProfile: SeccompProfile.optional().describe('Seccomp profile, overriding the pod\'s'),
    appArmorProfile: AppArmorProfile.optional().describe('AppArmor profile, overriding the pod\'s'),
  })
  .describe('Container-level security settings; they override the pod-level ones')

export const Sysctl = z
  .strictObject({
    name: z.string().describe('Kernel parameter name'),
    value: z.string().describe('Value to set'),
  })
  .describe('A namespaced kernel parameter')

export const PodSecurityContext = z
  .strictObject({
    seLinuxOptions: SELinuxOptions.optional().describe('SELinux labels for all containers'),
    windowsOptions: WindowsSecurityContextOptions.optional().describe('Windows settings for all containers'),
    runAsUser: int64.optional().describe('UID that runs container entrypoints'),
    runAsGroup: int64.optional().describe('GID that runs container entrypoints'),
    runAsNonRoot: z.boolean().optional().describe('Refuse to start containers that would run as root'),
    supplementalGroups: z
      .array(int64)
      .optional()
      .describe('Extra groups for the first process of every container')
      .meta(atomic),
    supplementalGroupsPolicy: z
      .enum(['Merge', 'Strict'])
      .optional()
      .describe('Whether image-defined groups are added to supplementalGroups'),
    fsGroup: int64.optional().describe('Group that owns supported volumes'),
    sysctls: z.array(Sysctl).optional().describe('Namespaced kernel parameters for the pod').meta(atomic),
    fsGroupChangePolicy: z
      .enum(['OnRootMismatch', 'Always'])
      .optional()
      .describe('When volume ownership is changed to fsGroup'),
    seccompProfile: SeccompProfile.optional().describe('Seccomp profile for all containers'),
    appArmorProfile: AppArmorProfile.optional().describe('AppArmor profile for all containers'),
    seLinuxChangePolicy: z
      .enum(['MountOption', 'Recursive'])
      .optional()
      .describe('How volumes get the pod\'s SELinux label'),
  })
  .describe('Pod-level security settings shared by all containers')

// ---------------------------------------------------------------------------------------------------------------
// Containers

const containerFields = {
  image: z.string().optional().describe('Container image reference'),
  command: z.array(z.string()).optional().describe('Entrypoint, replacing the image\'s ENTRYPOINT').meta(atomic),
  args: z.array(z.string()).optional().describe('Arguments, replacing the image\'s CMD').meta(atomic),
  workingDir: z.string().optional().describe('Working directory of the entrypoint'),
  ports: z
    .array(ContainerPort)
    .optional()
    .describe('Ports the container exposes, for information and naming')
    .meta(keyed(['containerPort', 'protocol'])),
  envFrom: z.array(EnvFromSource).optional().describe('Bulk sources of environment variables').meta(atomic),
  env: z.array(EnvVar).optional().describe('Environment variables').meta(keyed(['name'])),
  resources: ResourceRequirements.optional().describe('Compute resources requested and allowed'),
  resizePolicy: z
    .array(ContainerResizePolicy)
    .optional()
    .describe('How each resource may be resized in place')
    .meta(atomic),
  restartPolicy: RestartPolicy.optional().describe('Restart behaviour overriding the pod\'s; Always makes an init container a sidecar'),
  restartPolicyRules: z
    .array(ContainerRestartRule)
    .optional()
    .describe('Rules checked in order when the container exits')
    .meta(atomic),
  volumeMounts: z.array(VolumeMount).optional().describe('Volumes mounted into the filesystem').meta(keyed(['mountPath'])),
  volumeDevices: z.array(VolumeDevice).optional().describe('Raw block volumes mapped in').meta(keyed(['devicePath'])),
  livenessProbe: Probe.optional().describe('Check that restarts the container when it fails'),
  readinessProbe: Probe.optional().describe('Check that removes the pod from service endpoints when it fails'),
  startupProbe: Probe.optional().describe('Check that must pass before the other probes start'),
  lifecycle: Lifecycle.optional().describe('Hooks run after start and before stop'),
  terminationMessagePath: z.string().optional().describe('File whose contents become the termination message'),
  terminationMessagePolicy: TerminationMessagePolicy.optional().describe('Where the termination message is read from'),
  imagePullPolicy: PullPolicy.optional().describe('When the image is pulled'),
  securityContext: SecurityContext.optional().describe('Security settings for this container'),
  stdin: z.boolean().optional().describe('Keep a stdin buffer open for attach'),
  stdinOnce: z.boolean().optional().describe('Close stdin after the first attach disconnects'),
  tty: z.boolean().optional().describe('Allocate a terminal'),
}

export const Container = z
  .strictObject({
    name: z.string().describe('Name of the container, unique within the pod'),
    ...containerFields,
  })
  .describe('An application container run in a pod')
export type Container = z.infer<typeof Container>

export const EphemeralContainer = z
  .strictObject({
    name: z.string().describe('Name of the ephemeral container, unique within the pod'),
    ...containerFields,
    targetContainerName: z
      .string()
      .optional()
      .describe('Container whose namespaces this one joins, for debugging'),
  })
  .describe('A temporary container added to a running pod, usually for debugging')
export type EphemeralContainer = z.infer<typeof EphemeralContainer>

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

// ---------------------------------------------------------------------------------------------------------------
// Scheduling

export const NodeSelectorRequirement = z
  .strictObject({
    key: z.string().describe('Node label key or field name'),
    operator: NodeSelectorOperator.describe('How the node\'s value relates to the values'),
    values: z
      .array(z.string())
      .optional()
      .describe('Values to compare with; one integer for Gt and Lt, none for Exists')
      .meta(atomic),
  })
  .describe('One test on a node label or field')

export const NodeSelectorTerm = z
  .strictObject({
    matchExpressions: z
      .array(NodeSelectorRequirement)
      .optional()
      .describe('Tests on node labels')
      .meta(atomic),
    matchFields: z.array(NodeSelectorRequirement).optional().describe('Tests on node fields').meta(atomic),
  })
  .describe('Node tests that must all pass')
  .meta(atomicMap)

export const NodeSelector = z
  .strictObject({
    nodeSelectorTerms: z
      .array(NodeSelectorTerm)
      .describe('Terms of which at least one must match')
      .meta(atomic),
  })
  .describe('Matches nodes satisfying any of its terms')
  .meta(atomicMap)

export const PreferredSchedulingTerm = z
  .strictObject({
    weight: int32.describe('Weight added to a node that matches, 1 to 100'),
    preference: NodeSelectorTerm.describe('Node tests for this preference'),
  })
  .describe('A weighted node preference')

export const NodeAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: NodeSelector.optional().describe(
      'Nodes the pod may be scheduled on',
    ),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(PreferredSchedulingTerm)
      .optional()
      .describe('Weighted node preferences')
      .meta(atomic),
  })
  .describe('Rules about which nodes the pod runs on')

export const PodAffinityTerm = z
  .strictObject({
    labelSelector: LabelSelector.optional().describe('Pods this term refers to'),
    namespaces: z
      .array(z.string())
      .optional()
      .describe('Namespaces searched for those pods, in addition to namespaceSelector')
      .meta(atomic),
    topologyKey: z.string().describe('Node label whose value defines co-location'),
    namespaceSelector: LabelSelector.optional().describe('Namespaces searched, chosen by label'),
    matchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values are added to the selector as In terms')
      .meta(atomic),
    mismatchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values are added to the selector as NotIn terms')
      .meta(atomic),
  })
  .describe('Pods to be co-located with (or kept away from) within a topology domain')

export const WeightedPodAffinityTerm = z
  .strictObject({
    weight: int32.describe('Weight added to a node that satisfies the term, 1 to 100'),
    podAffinityTerm: PodAffinityTerm.describe('The term'),
  })
  .describe('A weighted pod affinity term')

export const PodAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: z
      .array(PodAffinityTerm)
      .optional()
      .describe('Terms that must hold to schedule the pod')
      .meta(atomic),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(WeightedPodAffinityTerm)
      .optional()
      .describe('Terms the scheduler tries to satisfy')
      .meta(atomic),
  })
  .describe('Rules to place the pod near other pods')

export const PodAntiAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: z
      .array(PodAffinityTerm)
      .optional()
      .describe('Terms that must not hold to schedule the pod')
      .meta(atomic),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(WeightedPodAffinityTerm)
      .optional()
      .describe('Terms the scheduler tries to avoid')
      .meta(atomic),
  })
  .describe('Rules to keep the pod away from other pods')

export const Affinity = z
  .strictObject({
    nodeAffinity: NodeAffinity.optional().describe('Node placement rules'),
    podAffinity: PodAffinity.optional().describe('Co-location rules'),
    podAntiAffinity: PodAntiAffinity.optional().describe('Separation rules'),
  })
  .describe('Scheduling constraints of the pod')

export const Toleration = z
  .strictObject({
    key: z.string().optional().describe('Taint key tolerated; empty with Exists matches every taint'),
    operator: TolerationOperator.optional().describe('How the value is compared; Equal by default'),
    value: z.string().optional().describe('Taint value tolerated'),
    // Unlike a taint's effect, a toleration's may be empty, which kube documents as matching every effect.
    effect: z
      .enum(['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'])
      .optional()
      .describe('Taint effect tolerated; empty matches every effect'),
    tolerationSeconds: int64.optional().describe('How long a NoExecute taint is tolerated before eviction'),
  })
  .describe('Lets the pod schedule or keep running despite matching taints')
export type Toleration = z.infer<typeof Toleration>

export const TopologySpreadConstraint = z
  .strictObject({
    maxSkew: int32.describe('Largest allowed difference in matching pods between domains'),
    topologyKey: z.string().describe('Node label whose values are the domains'),
    whenUnsatisfiable: z
      .enum(['DoNotSchedule', 'ScheduleAnyway'])
      .describe('Whether to refuse or merely avoid an unbalanced placement'),
    labelSelector: LabelSelector.optional().describe('Pods counted in each domain'),
    minDomains: int32.optional().describe('Fewest eligible domains assumed to exist'),
    nodeAffinityPolicy: z
      .enum(['Honor', 'Ignore'])
      .optional()
      .describe('Whether node affinity limits the domains counted'),
    nodeTaintsPolicy: z.enum(['Honor', 'Ignore']).optional().describe('Whether taints limit the domains counted'),
    matchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values narrow the counted pods')
      .meta(atomic),
  })
  .describe('How matching pods are spread across topology domains')

export const HostAlias = z
  .strictObject({
    ip: z.string().describe('IP address of the hosts file entry'),
    hostnames: z.array(z.string()).optional().describe('Names for that address').meta(atomic),
  })
  .describe('An entry added to the pod\'s hosts file')

export const PodDNSConfigOption = z
  .strictObject({
    name: z.string().optional().describe('Resolver option name'),
    value: z.string().optional().describe('Resolver option value'),
  })
  .describe('A resolver option')

export const PodDNSConfig = z
  .strictObject({
    nameservers: z.array(z.string()).optional().describe('Extra name server addresses').meta(atomic),
    searches: z.array(z.string()).optional().describe('Extra search domains').meta(atomic),
    options: z.array(PodDNSConfigOption).optional().describe('Extra resolver options').meta(atomic),
  })
  .describe('DNS settings merged into those the DNS policy generates')

export const PodReadinessGate = z
  .strictObject({
    conditionType: z.string().describe('Pod condition that must be True for the pod to be ready'),
  })
  .describe('An extra condition required for readiness')

export const PodSchedulingGate = z
  .strictObject({
    name: z.string().describe('Name of the gate'),
  })
  .describe('A gate that holds the pod back from scheduling until removed')

export const PodResourceClaim = z
  .strictObject({
    name: z.string().describe('Name containers use to refer to the claim'),
    resourceClaimName: z.string().optional().describe('Existing ResourceClaim in the pod\'s namespace'),
    resourceClaimTemplateName: z
      .string()
      .optional()
      .describe('ResourceClaimTemplate to create a per-pod claim from'),
  })
  .describe('A dynamically allocated resource the pod needs')

export const PodOS = z
  .strictObject({
    name: z.string().describe('Operating system of the containers: linux or windows'),
  })
  .describe('Operating system the pod targets')

export const PodSchedulingGroup = z
  .strictObject({
    podGroupName: z.string().optional().describe('PodGroup object that represents this group at runtime'),
  })
  .describe('Group the pod is scheduled with')

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
    containers: z.array(Container).describe('Containers of the pod; at least one').meta(keyed(['name'])),
    ephemeralContainers: z
      .array(EphemeralContainer)
      .optional()
      .describe('Debugging containers added through the ephemeralcontainers subresource')
      .meta(keyed(['name'])),
    restartPolicy: RestartPolicy.optional().describe('When containers are restarted; Always by default'),
    terminationGracePeriodSeconds: int64
      .optional()
      .describe('Seconds between the stop signal and a forced kill; 30 by default'),
    activeDeadlineSeconds: int64
      .optional()
      .describe('Seconds the pod may run on a node before it is marked failed'),
    dnsPolicy: DNSPolicy.optional().describe('How DNS is configured; ClusterFirst by default'),
    nodeSelector: StringMap.optional().describe('Labels a node must have to run the pod').meta(atomicMap),
    serviceAccountName: z.string().optional().describe('ServiceAccount the pod runs as'),
    serviceAccount: z.string().optional().describe('Deprecated alias of serviceAccountName'),
    automountServiceAccountToken: z
      .boolean()
      .optional()
      .describe('Whether an API token is mounted automatically'),
    nodeName: z.string().optional().describe('Node the pod is bound to; set by the scheduler or directly'),
    hostNetwork: z.boolean().optional().describe('Use the node\'s network namespace'),
    hostPID: z.boolean().optional().describe('Use the node\'s process namespace'),
    hostIPC: z.boolean().optional().describe('Use the node\'s IPC namespace'),
    shareProcessNamespace: z
      .boolean()
      .optional()
      .describe('Let containers see and signal each other\'s processes'),
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
      .describe('Entries added to the pod\'s hosts file')
      .meta(keyed(['ip'])),
    priorityClassName: z.string().optional().describe('PriorityClass that sets the pod\'s priority'),
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
    hostUsers: z.boolean().optional().describe('Use the node\'s user namespace; false isolates users'),
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

export const ContainerStateWaiting = z
  .strictObject({
    reason: z.string().optional().describe('Why the container is not running yet'),
    message: z.string().optional().describe('Detail of why it is waiting'),
  })
  .describe('A container that has not started yet')

export const ContainerStateRunning = z
  .strictObject({
    startedAt: NullableTime.optional().describe('When the container last started'),
  })
  .describe('A running container')

export const ContainerStateTerminated = z
  .strictObject({
    exitCode: int32.describe('Exit code of the process'),
    signal: int32.optional().describe('Signal that ended the process'),
    reason: z.string().optional().describe('Why the container ended'),
    message: z.string().optional().describe('Detail of why it ended'),
    startedAt: NullableTime.optional().describe('When this run started'),
    finishedAt: NullableTime.optional().describe('When this run ended'),
    containerID: z.string().optional().describe('Runtime ID of the ended container'),
  })
  .describe('A container that has exited')

export const ContainerState = z
  .strictObject({
    waiting: ContainerStateWaiting.optional().describe('Set while waiting'),
    running: ContainerStateRunning.optional().describe('Set while running'),
    terminated: ContainerStateTerminated.optional().describe('Set once exited'),
  })
  .describe('State of a container; at most one member is set')

export const ResourceHealth = z
  .strictObject({
    resourceID: z.string().describe('Device identifier, unique for the pod on its node'),
    health: z.enum(['Healthy', 'Unhealthy', 'Unknown']).optional().describe('Latest health of the device'),
    message: z.string().optional().describe('Human-readable context for the health, from the device plugin'),
  })
  .describe('Health of one allocated device')

export const ResourceStatus = z
  .strictObject({
    name: z.string().describe('Resource name, or claim:<claim>/<request> for dynamic resources'),
    resources: z
      .array(ResourceHealth)
      .optional()
      .describe('Health of each device backing the resource')
      .meta(applyKeyed(['resourceID'])),
  })
  .describe('Health of the devices allocated for one resource')

export const LinuxContainerUser = z
  .strictObject({
    uid: int64.describe('UID of the first process'),
    gid: int64.describe('GID of the first process'),
    supplementalGroups: z.array(int64).optional().describe('Supplemental groups of the first process').meta(atomic),
  })
  .describe('Linux identity of a container\'s first process')

export const ContainerUser = z
  .strictObject({
    linux: LinuxContainerUser.optional().describe('Identity on Linux'),
  })
  .describe('Identity a container\'s first process started with')

export const ImageVolumeStatus = z
  .strictObject({
    imageRef: z.string().describe('Resolved image ID of the mounted image'),
  })
  .describe('Status of an image volume')

export const VolumeStatus = z
  .strictObject({
    image: ImageVolumeStatus.optional().describe('Status of an image volume'),
  })
  .describe('Source-specific status of a mounted volume')

export const VolumeMountStatus = z
  .strictObject({
    name: z.string().describe('Name of the volume mount'),
    mountPath: z.string().describe('Path the volume is mounted at'),
    readOnly: z.boolean().optional().describe('Whether the mount is read-only'),
    recursiveReadOnly: RecursiveReadOnlyMode.optional().describe('Effective recursive read-only mode'),
    volumeStatus: VolumeStatus.optional().describe('Source-specific status'),
  })
  .describe('Observed state of a volume mount')

export const ContainerStatus = z
  .strictObject({
    name: z.string().describe('Name of the container'),
    state: ContainerState.optional().describe('Current state'),
    lastState: ContainerState.optional().describe('State of the previous run, for diagnosing restarts'),
    ready: z.boolean().describe('Whether the container passes its readiness check'),
    restartCount: int32.describe('How many times the container has restarted'),
    image: z.string().describe('Image the container runs, as resolved by the runtime'),
    imageID: z.string().describe('ID of that image'),
    containerID: z.string().optional().describe('Runtime ID, as <type>://<id>'),
    started: z.boolean().optional().describe('Whether the startup probe and postStart hook have passed'),
    allocatedResources: ResourceList.optional().describe('Resources the node allocated to the container'),
    resources: ResourceRequirements.optional().describe('Requests and limits actually applied'),
    volumeMounts: z
      .array(VolumeMountStatus)
      .optional()
      .describe('Observed volume mounts')
      .meta(keyed(['mountPath'])),
    user: ContainerUser.optional().describe('Identity the first process started with'),
    allocatedResourcesStatus: z
      .array(ResourceStatus)
      .optional()
      .describe('Health of the devices allocated to the container')
      .meta(keyed(['name'])),
    stopSignal: z.string().optional().describe('Signal used to stop the container'),
  })
  .describe('Observed state of one container')
export type ContainerStatus = z.infer<typeof ContainerStatus>

export const HostIP = z
  .strictObject({
    ip: z.string().describe('An IP address of the node'),
  })
  .describe('An IP address of the pod\'s node')

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
  .describe('Links a container\'s extended resource to a claim request')

export const PodExtendedResourceClaimStatus = z
  .strictObject({
    requestMappings: z
      .array(ContainerExtendedResourceRequest)
      .describe('Which claim request serves each container resource')
      .meta(atomic),
    resourceClaimName: z.string().describe('Name of the generated ResourceClaim'),
  })
  .describe('The claim generated for extended resources backed by dynamic allocation')

export const NodeAllocatableResourceClaimStatus = z
  .strictObject({
    resourceClaimName: z.string().describe('Claim that caused the allocation'),
    containers: z
      .array(z.string())
      .optional()
      .describe('Containers that reference the claim')
      .meta(set),
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
    message: z.string().optional().describe('Human-readable detail of the pod\'s state'),
    reason: z.string().optional().describe('Machine-readable reason for the state, such as Evicted'),
    nominatedNodeName: z.string().optional().describe('Node the pod is expected to land on after preemption'),
    hostIP: z.string().optional().describe('Primary IP address of the node'),
    // Upstream merges by ip for strategic patches but leaves the list atomic for server-side apply.
    hostIPs: z
      .array(HostIP)
      .optional()
      .describe('IP addresses of the node, primary first')
      .meta({ 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-merge-key': 'ip', 'x-kubernetes-patch-strategy': 'merge' }),
    podIP: z.string().optional().describe('Primary IP address of the pod'),
    podIPs: z
      .array(PodIP)
      .optional()
      .describe('IP addresses of the pod, primary first, at most one per family')
      .meta(keyed(['ip'])),
    startTime: Time.optional().describe('When the kubelet accepted the pod'),
    initContainerStatuses: z
      .array(ContainerStatus)
      .optional()
      .describe('One status per init container')
      .meta(atomic),
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
      .describe('Claims generated for the pod\'s resource claims')
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
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    kind: z.string().optional().describe('Kind of this object: Pod'),
    // Optional on input so a bare create body decodes; the store fills it in and always returns it.
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: PodSpec.optional().describe('Desired state of the pod'),
    status: PodStatus.optional().describe('Observed state, written by the scheduler and kubelet'),
  })
  .describe('A group of containers scheduled together on one node, sharing network and storage')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }] })
export type Pod = z.infer<typeof Pod>
