// Containers and what they are made of: environment, ports, mounts, probes, lifecycle hooks and resources (security
// contexts: ./pod-security-context.ts).
import { z } from 'zod'
import { int32, int64, IntOrString } from './meta'
import { applyKeyed, atomic, keyed, set } from './schema-helpers'
import { SecurityContext } from './pod-security-context'
import {
  ConfigMapKeySelector,
  FileKeySelector,
  MountPropagationMode,
  ObjectFieldSelector,
  Protocol,
  PullPolicy,
  RecursiveReadOnlyMode,
  ResourceFieldSelector,
  ResourceList,
  RestartPolicy,
  SecretKeySelector,
  TerminationMessagePolicy,
  URIScheme,
} from './pod-common'

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
      .describe("Grace period used when a failing probe kills the container, overriding the pod's"),
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
    name: z.string().describe("Name of an entry in the pod's resourceClaims"),
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
// Containers

const containerFields = {
  image: z.string().optional().describe('Container image reference'),
  command: z.array(z.string()).optional().describe("Entrypoint, replacing the image's ENTRYPOINT").meta(atomic),
  args: z.array(z.string()).optional().describe("Arguments, replacing the image's CMD").meta(atomic),
  workingDir: z.string().optional().describe('Working directory of the entrypoint'),
  ports: z
    .array(ContainerPort)
    .optional()
    .describe('Ports the container exposes, for information and naming')
    .meta(keyed(['containerPort', 'protocol'])),
  envFrom: z.array(EnvFromSource).optional().describe('Bulk sources of environment variables').meta(atomic),
  env: z
    .array(EnvVar)
    .optional()
    .describe('Environment variables')
    .meta(keyed(['name'])),
  resources: ResourceRequirements.optional().describe('Compute resources requested and allowed'),
  resizePolicy: z
    .array(ContainerResizePolicy)
    .optional()
    .describe('How each resource may be resized in place')
    .meta(atomic),
  restartPolicy: RestartPolicy.optional().describe(
    "Restart behaviour overriding the pod's; Always makes an init container a sidecar",
  ),
  restartPolicyRules: z
    .array(ContainerRestartRule)
    .optional()
    .describe('Rules checked in order when the container exits')
    .meta(atomic),
  volumeMounts: z
    .array(VolumeMount)
    .optional()
    .describe('Volumes mounted into the filesystem')
    .meta(keyed(['mountPath'])),
  volumeDevices: z
    .array(VolumeDevice)
    .optional()
    .describe('Raw block volumes mapped in')
    .meta(keyed(['devicePath'])),
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
    targetContainerName: z.string().optional().describe('Container whose namespaces this one joins, for debugging'),
  })
  .describe('A temporary container added to a running pod, usually for debugging')
export type EphemeralContainer = z.infer<typeof EphemeralContainer>
