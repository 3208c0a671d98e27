// The seam between a pod worker and what runs its containers: a runtime starts a run of a container, says how to run
// a command inside it (exec, exec probes), readies its image, and clears what an earlier agent left behind. Two
// runtimes sit behind it: host processes (process-runtime.ts) and a docker or podman CLI (cli-runtime.ts).
import type { Writable } from 'node:stream'
import type { ContainerProcess, Exit } from '../container-process.ts'
import type { CriLogWriter } from '../cri-log.ts'
import type { Obj } from '../obj.ts'
import type { Mount } from '../volumes/mount.ts'

/** How a run ended, in ContainerStateTerminated's terms. */
export type RunExit = Exit

/** One run of a container, as the pod worker, attach, logs and probes see it. */
export interface RuntimeRun {
  /** When the run started (a container runtime's own startedAt once it is known). */
  readonly startedAt: Date
  /** The run's CRI log file, written by the agent from the run's output. */
  readonly log: CriLogWriter
  readonly exited: Promise<RunExit>
  /** Whether the run started (false: it ended with a StartError). */
  readonly spawned: Promise<boolean>
  readonly running: boolean
  /**
   * Running, but its runtime has not yet said that the container started (an engine still creating it): the kubelet
   * reports such a container as waiting (ContainerCreating), not running. Absent: never so (host processes).
   */
  readonly starting?: boolean
  readonly stdin: Writable | null
  /** The runtime's id of the run (`docker://<id>`), once known; the process runtime has none of its own. */
  readonly containerID?: string
  /** The image the run uses, as ContainerStatus.imageID reports it. */
  readonly imageID?: string
  /** The run's host process (process runtime), while known. */
  readonly pid?: number
  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): () => void
  resize(cols: number, rows: number): void
  /** Stops the run: SIGTERM, SIGKILL once `graceMs` has passed (at once for 0); answers the exit. */
  stop(graceMs: number): Promise<RunExit>
}

/** What a run is made of. */
export interface RunSpec {
  /** The container as the pod spec has it (image, command, args, workingDir, stdin, tty, resources). */
  container: Obj
  /** The pod (its securityContext; its spec does not change while it runs). */
  pod?: Obj
  podUID: string
  podName: string
  podNamespace: string
  /** Which run of the container this is (0 first). */
  attempt: number
  /** The argv the process runtime runs (command + args, expanded); a container runtime maps spec.command/args. */
  command: string[]
  env: Record<string, string>
  /** The container's own directory on the host, and its working directory there (process runtime). */
  dir: string
  cwd: string
  logFile: string
  /** The container's volumes as bind mounts (volumes/pod-volumes.ts). */
  mounts?: Mount[]
  /** The pod's network namespace (/var/run/netns/<name>, --pod-network bridge) the run joins; none: the host's. */
  netns?: string
  /**
   * An ephemeral container's target (targetContainerName): the host pid of its running process, whose PID namespace
   * the run joins (process runtime); a shareProcessNamespace pod's holder (process runtime; podman as root).
   */
  targetPid?: number
  /**
   * A container runtime's run joins this container's PID namespace (`--pid container:<id>`, the engine's id): an
   * ephemeral container's target, or (docker) a running container of a shareProcessNamespace pod.
   */
  targetContainer?: string
}

/** How to run a command inside a running container: the host argv, its environment and directory. */
export interface HostCommand {
  argv: string[]
  env: Record<string, string>
  cwd: string
  /**
   * Ends what the command runs in the container, which outlives a killed host process under a container runtime
   * (its exec client): called when a probe's timeout passes or a hook is cut short, as the kubelet's CRI ends it.
   */
  end?(): void
}

/** The container a command runs in: the environment and directories of its current run. */
export interface ExecTarget {
  env: Record<string, string>
  cwd: string
  dir: string
}

/** Why a container cannot start yet (its image), as the kubelet's waiting state and when to try again. */
export interface ImageWait {
  reason: string
  message?: string
  /** When to ask again (ms since the epoch); none while a pull is under way (its end triggers a sync). */
  retryAt?: number
}

export type RuntimeEvent = (type: 'Normal' | 'Warning', reason: string, message: string) => void

/** What readying a container's image needs of its pod. */
export interface ImageContext {
  /** The pod (its uid, namespace and imagePullSecrets). */
  pod: Obj
  /** Reads a Secret of the pod's namespace (a node may read those its pods reference). */
  secret(name: string): Promise<Obj>
  /** An event about the container (its image). */
  event: RuntimeEvent
  /** An event about the pod itself (FailedToRetrieveImagePullSecret). */
  podEvent: RuntimeEvent
  /** Told when a pull under way ends. */
  pulled(): void
}

export interface ContainerRuntime {
  /** process, docker or podman. */
  readonly name: string
  /** nodeInfo.containerRuntimeVersion (`docker://28.2.2`). */
  readonly version: string
  /** The address a pod's ports are reached at: both runtimes share the host's network (podIP = hostIP). */
  readonly podHost: string
  /** The variables the runtime adds under the pod's env (the process runtime's PATH, HOME, HOSTNAME; an image has its own). */
  baseEnv(cwd: string, podName: string): Record<string, string>
  /** The command of a container; throws ConfigError when the runtime cannot run it (a process without a command). */
  command(container: Obj, env: Record<string, string>, imageDefaults: Map<string, string[]>): string[]
  /**
   * Readies the container's image by its imagePullPolicy: null when it is there, else why the container waits
   * (ContainerCreating while it pulls; ErrImagePull, ImagePullBackOff, ErrImageNeverPull), with the pod's
   * imagePullSecrets for credentials.
   */
  ensureImage(container: Obj, ctx: ImageContext): Promise<ImageWait | null>
  /**
   * Refuses a container the runtime cannot run as its (pod's and its own) securityContext asks, or that breaks
   * runAsNonRoot, with a ConfigError (CreateContainerConfigError); asked once its image is ready, as the kubelet
   * builds a container's config after the pull.
   */
  verify?(pod: Obj, container: Obj): Promise<void>
  start(spec: RunSpec): RuntimeRun
  /**
   * A run an earlier agent started, whose process the shim's records gave back (container-record.ts): the runtime's
   * own view of it (a container runtime's client: the container behind it). None: the process is the run.
   */
  adopt?(process: ContainerProcess, logFile: string): RuntimeRun
  /**
   * The latest run an earlier agent started, when it is not adopted (it ended, or its shim went without recording an
   * end): what the runtime still holds of it goes. A container runtime's container outlives a client killed with its
   * shim; left running, the restart would run beside it.
   */
  discard?(logFile: string): void
  /** How `command` runs inside `run` (exec and exec probes), with stdin kept open and a terminal when asked. */
  exec(run: RuntimeRun, spec: ExecTarget, command: string[], opts: { stdin: boolean; tty: boolean }): HostCommand
  /**
   * Removes what an earlier agent left (containers labelled for this node): those of pods `keep` does not name, and
   * ended ones (their runs were accounted for by their clients' records).
   */
  reapLeftovers(keep: (podUID: string) => boolean, log: (msg: string) => void): Promise<void>
}
