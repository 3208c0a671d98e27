// What the kubelet reports of one container in a pod's status: its state (waiting, running, terminated), the
// resources and devices it holds, its user and its volume mounts.
import { z } from 'zod'
import { int32, int64 } from './meta'
import { NullableTime, applyKeyed, atomic, keyed } from './schema-helpers'
import { RecursiveReadOnlyMode, ResourceList } from './pod-common'
import { ResourceRequirements } from './pod-containers'

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
  .describe("Linux identity of a container's first process")

export const ContainerUser = z
  .strictObject({
    linux: LinuxContainerUser.optional().describe('Identity on Linux'),
  })
  .describe("Identity a container's first process started with")

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
