// One pod on this node, as a kubelet's pod worker runs it: init containers in order, then the containers, restarted by
// restartPolicy with kube's back-off; probes; activeDeadlineSeconds; status written through pods/{name}/status
// whenever it changes; lifecycle hooks (postStart after a start, holding the pod's sync as kubelet's does; preStop
// within the grace period of every kill); a deleted pod's processes stopped within its grace period (preStop, SIGTERM,
// then SIGKILL), its final status written, and its deletion confirmed with grace 0. Every step is taken by sync(), one
// at a time.
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Backoff } from './backoff.ts'
import { ContainerHooks } from './container-hooks.ts'
import { ContainerRecord, type RecordHost } from './container-record.ts'
import { goDuration } from './durations.ts'
import type { EventFn } from './events.ts'
import type { AgentConfig } from './flags.ts'
import { isNotFound, type KubeClient } from './kube-client.ts'
import type { BridgeNetwork, PodNet } from './network/bridge-network.ts'
import { hostPorts } from './network/host-ports.ts'
import { recordKillSpec } from './orphan-kill.ts'
import { ConfigError, containerEnv } from './pod-env.ts'
import { podStatus } from './pod-status.ts'
import type { ProbeKind } from './probes.ts'
import { pidNamespaces } from './runtime/pid-namespace.ts'
import { engineID, podPidHolder, releasePodPidNamespace, sharesHolder } from './runtime/pod-pid-namespace.ts'
import { processRuntime } from './runtime/process-runtime.ts'
import type { ContainerRuntime } from './runtime/runtime.ts'
import { isSidecar, stepInit, TerminationOrdering } from './sidecars.ts'
import { StatusWriter } from './status-writer.ts'
import { rfc3339 } from './time.ts'
import { PodVolumes } from './volumes/pod-volumes.ts'
import type { Obj } from './obj.ts'

export interface WorkerDeps {
  config: AgentConfig
  client: KubeClient
  hostIP: string
  allocatable: Obj
  backoff: Backoff
  event: EventFn
  log(msg: string): void
  /** The pod is gone and its processes stopped. */
  done(uid: string): void
  /** What runs the containers (the process runtime when not given). */
  runtime?: ContainerRuntime
  /** --pod-network bridge: every pod but a hostNetwork one gets a network namespace of its own (network/). */
  network?: BridgeNetwork | null
}

/** A start held up by its image: carried on when asked again, with no back-off of its own (the pull has one). */
const IMAGE_WAIT = /^(ContainerCreating|ErrImagePull|ImagePullBackOff|ErrImageNeverPull)$/

export class PodWorker {
  readonly uid: string
  readonly dir: string
  readonly init: ContainerRecord[]
  readonly containers: ContainerRecord[]
  /** The ephemeral containers started so far (kubectl debug): run once, never restarted. */
  readonly ephemeral: ContainerRecord[] = []
  private readonly newRecord: (spec: Obj, kind: ContainerKind) => ContainerRecord
  /** Every init container has done its part once: from now on only the sidecars among them are kept running. */
  private initialized: boolean
  private pod: Obj
  private readonly startTime: string
  /** The pod runs nothing more: deleted, past its deadline, or finished. */
  private terminal = false
  private reason?: string
  private message?: string
  private gone = false
  /** Our grace-0 delete has been sent. */
  private confirmed = false
  private finished = false
  private syncing: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private readonly status: StatusWriter
  /** The pod's volumes, set up before any container starts (volumes/). */
  private readonly volumes: PodVolumes
  /** The containers whose postStart hook runs, with the status they had before their start (what kubelet reports). */
  private readonly hooking = new Map<ContainerRecord, Obj>()
  private readonly hooks: ContainerHooks<ContainerRecord>
  /** The pod's network namespace and address (--pod-network bridge, not hostNetwork), and whether it is made. */
  netns?: PodNet
  private netReady = false
  /** The pod needs a network namespace of its own (bridge network, not hostNetwork). */
  private readonly ownNetwork: boolean

  private readonly deps: WorkerDeps

  constructor(pod: Obj, deps: WorkerDeps) {
    this.deps = deps
    this.pod = pod
    this.uid = pod.metadata.uid
    this.status = new StatusWriter(deps.client, this.uid)
    this.dir = join(deps.config.dataDir, 'pods', this.uid)
    this.startTime = pod.status?.startTime ?? rfc3339()
    this.ownNetwork = !!deps.network && pod.spec?.hostNetwork !== true
    if (this.ownNetwork)
      try {
        this.netns = deps.network!.podNet(this.uid)
        // An earlier agent made it: the pod keeps its namespace and address (its containers run in there).
        this.netReady = existsSync(this.netns.path)
      } catch {
        // No address free: ensureNetwork says so, and asks again.
      }
    // Its hostPort rules too, made again if they went (with the node's rules, say).
    if (this.netReady && this.netns)
      try {
        deps.network!.ensureHostPorts(this.uid, this.netns.ip, hostPorts(pod))
      } catch (e) {
        deps.log(`pod ${pod.metadata.name}: its hostPorts: ${(e as Error).message}`)
      }
    // The pod's address and netns are read when used: a pod given none yet (its range was full) gets them later.
    const worker = this
    this.hooks = new ContainerHooks({
      pod: () => this.pod,
      get podIP() {
        return worker.netns?.ip ?? deps.hostIP
      },
      podEvent: (type, reason, message) => deps.event(this.pod, type, reason, message),
    })
    this.volumes = new PodVolumes({
      podDir: this.dir,
      pod: () => this.pod,
      client: deps.client,
      allocatable: deps.allocatable,
      event: (type, reason, message) => deps.event(this.pod, type, reason, message),
      log: (msg) => deps.log(`pod ${this.name}: ${msg}`),
    })
    const host = {
      podDir: this.dir,
      get host() {
        return worker.podHost
      },
      get netns() {
        return worker.netns?.path
      },
      runtime: this.runtime,
      podName: pod.metadata.name as string,
      podNamespace: pod.metadata.namespace as string,
      pod: () => this.pod,
      changed: () => this.sync(),
      unhealthy: (r: ContainerRecord, kind: ProbeKind, output: string) => this.unhealthy(r, kind, output),
      pidOf: (name: string) => {
        const target = [...this.init, ...this.containers].find((r) => r.name === name)
        return target?.running ? target.proc?.pid : undefined
      },
      sharedPid: () => this.sharedPid(),
      containerOf: (name: string) => {
        const target = [...this.init, ...this.containers].find((r) => r.name === name)
        return target?.running ? engineID(target.proc?.containerID) : undefined
      },
      sharedContainer: (self: string) => this.sharedContainer(self),
    }
    const record = (spec: Obj, kind: ContainerKind) => {
      const path = `spec.${kind}{${spec.name}}`
      // Over `host` (not a copy of it: its getters stay live).
      const own: RecordHost = Object.assign(Object.create(host) as typeof host, {
        event: (type: 'Normal' | 'Warning', reason: string, message: string) =>
          deps.event(this.pod, type, reason, message, path),
      })
      const r = new ContainerRecord(spec, kind === 'initContainers', this.uid, own)
      const previous = (this.pod.status?.[STATUS_OF[kind]] ?? []) as Obj[]
      r.seed(
        previous.find((s) => s.name === spec.name),
        rfc3339(),
      )
      return r
    }
    this.newRecord = record
    this.init = ((pod.spec?.initContainers ?? []) as Obj[]).map((c) => record(c, 'initContainers'))
    this.containers = ((pod.spec?.containers ?? []) as Obj[]).map((c) => record(c, 'containers'))
    // A regular container ran before (an agent restarted): the pod had initialized.
    this.initialized = this.containers.some((r) => r.attempts > 0)
    if (!this.initialized && this.init.length)
      // kubelet's default state while a pod has init containers, for those too (kubectl prints Init:0/N).
      for (const r of [...this.init, ...this.containers])
        if (r.attempts === 0) r.waiting = { reason: 'PodInitializing' }
  }

  /**
   * shareProcessNamespace under the process runtime: the holder of the pod's one PID namespace, which its containers
   * join (runtime/pod-pid-namespace.ts); none where the host gives no PID namespace (they share the host's then).
   */
  private sharedPid(): number | undefined {
    if (this.pod.spec?.shareProcessNamespace !== true || !sharesHolder(this.runtime.name) || !pidNamespaces()) return
    const holder = podPidHolder(this.dir)
    if (typeof holder === 'number') return holder
    this.deps.log(`pod ${this.name}: no shared PID namespace (${holder.message}): its containers share the host's`)
  }

  /**
   * shareProcessNamespace under docker (or podman where no holder can be had): the engine's id of a running container
   * of the pod other than `self`, whose namespace it joins (`--pid container:<id>`), as every running one of them did;
   * none running: the run's own namespace, which the next ones join.
   */
  private sharedContainer(self: string): string | undefined {
    if (this.pod.spec?.shareProcessNamespace !== true || this.runtime.name === 'process') return
    for (const r of this.all) {
      const id = r.name !== self && r.running ? engineID(r.proc?.containerID) : undefined
      if (id) return id
    }
  }

  /** Where the pod's ports are reached from the node: its own address on the bridge network, else the runtime's. */
  get podHost(): string {
    return this.netns?.ip ?? this.runtime.podHost
  }

  /** A container of the pod by name (init containers too). */
  record(name: string): ContainerRecord | undefined {
    return this.all.find((r) => r.name === name)
  }

  /** Every container record: init, regular and ephemeral. */
  private get all(): ContainerRecord[] {
    return [...this.init, ...this.containers, ...this.ephemeral]
  }

  get name(): string {
    return `${this.pod.metadata.namespace}/${this.pod.metadata.name}`
  }

  get current(): Obj {
    return this.pod
  }

  /**
   * Whether the pod still holds its room on the node (kubelet's active pods, what admission counts): not finished, or
   * finished only because it is being deleted and its containers are not stopped yet.
   */
  get active(): boolean {
    return !this.finished && !this.terminal
  }

  /** A newer version of the pod from the API. */
  update(pod: Obj) {
    // Our own status writes answer newer versions than a watch may still be delivering.
    if (Number(pod.metadata.resourceVersion) < Number(this.pod.metadata.resourceVersion)) return
    this.pod = pod
    // kubelet cancels a sync under way when the pod is to be killed: a postStart hook does not hold its deletion.
    if (pod.metadata.deletionTimestamp) this.hooks.endPostStarts()
    this.sync()
  }

  /** The pod left the API (deleted with grace 0 by someone, or by us). */
  removed() {
    this.gone = true
    this.hooks.endPostStarts()
    this.sync()
  }

  /** Stops every process at once (the agent is shutting down); the pod's status is left as it is. */
  async shutdown(): Promise<void> {
    this.finished = true
    if (this.timer) clearTimeout(this.timer)
    this.volumes.stop()
    this.hooks.endPostStarts()
    await Promise.all(this.all.map((r) => r.stop(2000)))
    // A start the sync pass under way had begun finishes after the stops above: stop what it started too.
    if (this.syncing) {
      await this.syncing
      await Promise.all(this.all.map((r) => r.stop(2000)))
    }
  }

  /** Runs a sync pass now, or right after the one under way. */
  sync() {
    if (this.finished) return
    if (this.syncing) {
      this.again = true
      return
    }
    this.syncing = this.syncOnce()
      .catch((e: unknown) => this.deps.log(`pod ${this.name}: ${(e as Error).stack ?? e}`))
      .finally(() => {
        this.syncing = null
        if (this.again) {
          this.again = false
          this.sync()
        }
      })
  }

  private async syncOnce() {
    if (this.gone) return this.teardown()
    if (this.pod.metadata.deletionTimestamp) return this.terminate()
    if (this.terminal) return
    const deadline = this.pod.spec?.activeDeadlineSeconds as number | undefined
    if (deadline !== undefined && Date.now() >= Date.parse(this.startTime) + deadline * 1000) {
      this.reason = 'DeadlineExceeded'
      this.message = 'Pod was active on the node longer than the specified deadline'
      this.deps.event(this.pod, 'Normal', 'DeadlineExceeded', this.message)
      await this.stopAll(this.graceSeconds())
      this.terminal = true
      this.volumes.teardown()
      releasePodPidNamespace(this.dir)
      return this.writeStatus()
    }
    const wakeups: number[] = deadline !== undefined ? [Date.parse(this.startTime) + deadline * 1000] : []
    await this.runEphemeral(wakeups)
    const initialized = await this.runInit(wakeups)
    if (initialized) await this.runContainers(wakeups)
    if (this.terminal) {
      // Finished with sidecars (or debuggers) still running: the status says so, then the kubelet kills the pod's
      // remaining containers in its termination order.
      if (this.all.some((r) => r.running)) {
        await this.writeStatus()
        await this.stopRunning(this.graceSeconds())
      }
      // A sidecar that was waiting to run again will not: its last run is its final state.
      for (const r of this.init) if (isSidecar(r.spec) && r.attempts > 0) r.settle()
      // kubelet unmounts a terminated pod's volumes: a memory emptyDir's tmpfs gives its memory back.
      this.volumes.teardown()
      releasePodPidNamespace(this.dir)
    }
    await this.writeStatus()
    this.wakeAt(wakeups)
  }

  /** Init containers in order, sidecars kept running (sidecars.ts); answers whether the containers may run. */
  private async runInit(wakeups: number[]): Promise<boolean> {
    const step = await stepInit(this.init, this.policy, this.initialized, {
      start: (r) => this.start(r, wakeups),
      restart: (r) => this.restart(r, wakeups),
    })
    if (step === 'failed') this.terminal = true
    if (step !== 'initialized') return false
    if (!this.initialized) {
      this.initialized = true
      for (const r of this.containers)
        if (r.waiting?.reason === 'PodInitializing') r.waiting = { reason: 'ContainerCreating' }
    }
    return true
  }

  /**
   * Ephemeral containers added to the pod (kubectl debug) start at once, initialized or not, as the kubelet starts
   * them before the init containers; one run each, never restarted (one that could not be created is tried again).
   */
  private async runEphemeral(wakeups: number[]) {
    for (const spec of (this.pod.spec?.ephemeralContainers ?? []) as Obj[]) {
      let r = this.ephemeral.find((x) => x.name === spec.name)
      if (!r) {
        r = this.newRecord(spec, 'ephemeralContainers')
        this.ephemeral.push(r)
      }
      if (r.attempts === 0 || r.waiting?.reason.startsWith('CreateContainer')) await this.start(r, wakeups)
    }
  }

  private async runContainers(wakeups: number[]) {
    let more = false
    for (const r of this.containers) {
      if (r.running) {
        more = true
        continue
      }
      if (r.attempts === 0 || r.waiting?.reason.startsWith('CreateContainer')) {
        await this.start(r, wakeups)
        more = true
      } else if (r.current && this.restarts(r.current.exitCode)) {
        await this.restart(r, wakeups)
        more = true
      }
    }
    // Nothing runs or will run again: the pod has finished (Succeeded or Failed by its containers' exits).
    if (!more) this.terminal = true
  }

  private get runtime(): ContainerRuntime {
    return this.deps.runtime ?? processRuntime
  }

  private get policy(): string {
    return this.pod.spec?.restartPolicy ?? 'Always'
  }

  private restarts(exitCode: number): boolean {
    return this.policy === 'Always' || (this.policy === 'OnFailure' && exitCode !== 0)
  }

  private async start(r: ContainerRecord, wakeups: number[]) {
    // Deleted (or stopping) while this pass ran, a postStart hook ended for it: nothing more starts.
    if (this.pod.metadata.deletionTimestamp || this.gone || this.finished) return
    // kubelet's WaitForAttachAndMount: no container starts before the pod's volumes are set up.
    const volumesAt = await this.volumes.ensure()
    if (volumesAt !== null) return void wakeups.push(volumesAt)
    if (!this.ensureNetwork(r, wakeups)) return
    let command: string[]
    let env: Record<string, string>
    try {
      env = await containerEnv(this.pod, r.spec, {
        client: this.deps.client,
        hostIP: this.deps.hostIP,
        ...(this.netns ? { podIP: this.netns.ip } : {}),
        allocatable: this.deps.allocatable,
        base: this.runtime.baseEnv(r.cwd, this.pod.metadata.name),
        // A pod of its own network dials the `kubernetes` Service where the node DNATs it to a loopback server.
        apiServer: (this.ownNetwork && this.deps.network!.apiService?.url) || this.deps.client.server,
      })
      command = this.runtime.command(r.spec, env, this.deps.config.imageDefaults)
      r.mounts = this.volumes.mountsFor(r.spec, env, this.runtime.name)
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      const reason = /needs a command/.test(e.message) ? 'CreateContainerError' : 'CreateContainerConfigError'
      if (r.waiting?.message !== e.message) this.deps.event(this.pod, 'Warning', 'Failed', `Error: ${e.message}`)
      r.waiting = { reason, message: e.message }
      wakeups.push(Date.now() + this.deps.config.backoffInitialMs)
      return
    }
    const image = await this.runtime.ensureImage(r.spec, {
      pod: this.pod,
      secret: (name) => this.deps.client.get(`/api/v1/namespaces/${this.pod.metadata.namespace}/secrets/${name}`),
      event: (...e) => r.event(...e),
      podEvent: (...e) => this.deps.event(this.pod, ...e),
      pulled: () => this.sync(),
    })
    if (image) {
      r.waiting = { reason: image.reason, ...(image.message ? { message: image.message } : {}) }
      if (image.retryAt) wakeups.push(image.retryAt)
      return
    }
    try {
      await this.runtime.verify?.(this.pod, r.spec)
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      if (r.waiting?.message !== e.message) r.event('Warning', 'Failed', `Error: ${e.message}`)
      r.waiting = { reason: 'CreateContainerConfigError', message: e.message }
      wakeups.push(Date.now() + this.deps.config.backoffInitialMs)
      return
    }
    // What an agent started after this pod is gone needs to kill the run as kubelet would (orphan-kill.ts).
    recordKillSpec(r.dir, {
      pod: { name: this.pod.metadata.name, namespace: this.pod.metadata.namespace, uid: this.uid },
      podIP: this.netns?.ip ?? this.deps.hostIP,
      container: {
        name: r.name,
        ports: r.spec.ports,
        preStop: r.spec.lifecycle?.preStop,
        stdin: r.spec.stdin === true,
      },
      graceSeconds: this.graceSeconds(),
      cwd: r.cwd,
    })
    const postStart = r.spec.lifecycle?.postStart as Obj | undefined
    if (!postStart) return r.start(command, env)
    this.hooking.set(r, r.status())
    try {
      await r.start(command, env, () => this.postStart(r, postStart))
    } finally {
      this.hooking.delete(r)
    }
  }

  /**
   * The pod's sandbox network (kubelet's createPodSandbox before any container): its netns and veth, made once; a
   * failure is kube's FailedCreatePodSandBox event and a ContainerCreating wait, tried again after the back-off.
   */
  private ensureNetwork(r: ContainerRecord, wakeups: number[]): boolean {
    if (!this.ownNetwork || this.netReady) return true
    try {
      this.netns = this.deps.network!.ensure(this.uid, hostPorts(this.pod))
      this.netReady = true
      return true
    } catch (e) {
      const message = `Failed to create pod sandbox: plugin type="bridge" failed (add): ${(e as Error).message}`
      this.deps.event(this.pod, 'Warning', 'FailedCreatePodSandBox', message)
      r.waiting = { reason: 'ContainerCreating' }
      wakeups.push(Date.now() + this.deps.config.backoffInitialMs)
      return false
    }
  }

  /**
   * kubelet's startContainer step 4: the postStart hook, right after the start; a failure is a FailedPostStartHook
   * event (without the message, so that no secret leaks), a kill (preStop included) with the message
   * FailedPostStartHook, and a container waiting in PostStartHookError with the hook's message until it runs again.
   * Answers whether the container goes on (its probes start).
   */
  private async postStart(r: ContainerRecord, handler: Obj): Promise<boolean> {
    // kubelet's status manager has the status computed before this start (a first run's ContainerCreating) while the
    // hook holds the sync: it is written now, not once the hook is over.
    await this.writeStatus()
    const { failure, ended } = await this.hooks.postStart(r, handler)
    if (failure === null) return true
    // Ended for the pod's deletion: its kill comes from the termination.
    if (ended) return false
    r.event('Warning', 'FailedPostStartHook', 'PostStartHook failed')
    await this.hooks.kill(r, this.graceSeconds(), 'FailedPostStartHook')
    // kubelet's reason cache shows only for a container that is to run again (convertToAPIContainerStatuses): a
    // sidecar always is.
    if (r.current && (isSidecar(r.spec) || this.restarts(r.current.exitCode)))
      r.waiting = { reason: 'PostStartHookError', message: failure }
    return false
  }

  private async restart(r: ContainerRecord, wakeups: number[]) {
    if (IMAGE_WAIT.test(r.waiting?.reason ?? '')) return this.start(r, wakeups)
    const key = `${this.uid}/${r.name}`
    const finishedAt = r.current!.finishedMs
    const at = this.deps.backoff.restartAt(key, finishedAt)
    if (at <= Date.now()) {
      this.deps.backoff.next(key, finishedAt)
      await this.start(r, wakeups)
      return
    }
    const pod = `${this.pod.metadata.name}_${this.pod.metadata.namespace}(${this.uid})`
    if (r.waiting?.reason !== 'CrashLoopBackOff')
      this.deps.event(this.pod, 'Warning', 'BackOff', `Back-off restarting failed container ${r.name} in pod ${pod}`)
    r.waiting = {
      reason: 'CrashLoopBackOff',
      message: `back-off ${goDuration(this.deps.backoff.delay(key))} restarting failed container=${r.name} pod=${pod}`,
    }
    wakeups.push(at)
  }

  private unhealthy(r: ContainerRecord, kind: ProbeKind, _output: string) {
    // kubelet's wording: a sidecar's message names it an init container (computeInitContainerActions).
    const message = r.init
      ? `Init container ${r.name} failed ${kind} probe`
      : `Container ${r.name} failed ${kind} probe, will be restarted`
    // setTerminationGracePeriod: a deletion's grace, else the probe's own, else the pod's.
    const probe = kind === 'liveness' ? r.spec.livenessProbe : r.spec.startupProbe
    const seconds =
      this.pod.metadata.deletionGracePeriodSeconds ??
      probe?.terminationGracePeriodSeconds ??
      this.pod.spec?.terminationGracePeriodSeconds ??
      30
    void this.hooks.kill(r, seconds, message)
  }

  private graceSeconds(): number {
    return this.pod.metadata.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30
  }

  /** Kills what runs, each with its Killing event; the sidecars stop after the others, last one first (sidecars.ts). */
  private stopRunning(graceSeconds: number): Promise<void> {
    return this.stopInTurn(graceSeconds, true)
  }

  private stopInTurn(graceSeconds: number, events = false): Promise<void> {
    const running = this.all.filter((r) => r.running)
    const sidecars = this.init.filter((r) => isSidecar(r.spec) && r.running)
    const others = running.filter((r) => !sidecars.includes(r))
    const order = new TerminationOrdering(others, sidecars)
    return Promise.all(
      running.map((r) => this.hooks.kill(r, graceSeconds, events ? `Stopping container ${r.name}` : null, order)),
    ).then(() => undefined)
  }

  private async stopAll(graceSeconds: number) {
    await this.stopRunning(graceSeconds)
    for (const r of this.all) r.settle()
  }

  /** Deleted gracefully: stop, report the final status, confirm the deletion (grace 0, this pod only). */
  private async terminate() {
    if (this.confirmed) return
    if (this.timer) clearTimeout(this.timer)
    await this.stopAll(this.graceSeconds())
    this.terminal = true
    await this.writeStatus()
    const { namespace, name } = this.pod.metadata
    try {
      await this.deps.client.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid: this.uid },
      })
    } catch (e) {
      if (!isNotFound(e)) {
        this.deps.log(`pod ${this.name}: confirming the deletion failed: ${(e as Error).message}`)
        this.timer = setTimeout(() => this.sync(), 1000)
        return
      }
    }
    this.confirmed = true
  }

  private async teardown() {
    this.finished = true
    if (this.timer) clearTimeout(this.timer)
    await this.stopInTurn(this.graceSeconds())
    await this.status.settled()
    this.volumes.teardown()
    releasePodPidNamespace(this.dir)
    if (this.ownNetwork)
      try {
        this.deps.network!.remove(this.uid)
      } catch (e) {
        this.deps.log(`pod ${this.name}: removing its network: ${(e as Error).message}`)
      }
    rmSync(this.dir, { recursive: true, force: true })
    this.deps.backoff.forget(`${this.uid}/`)
    this.deps.done(this.uid)
  }

  private wakeAt(times: number[]) {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (times.length === 0) return
    const ms = Math.max(0, Math.min(...times) - Date.now())
    this.timer = setTimeout(() => this.sync(), ms)
  }

  /** The status as of now, written when it differs from the last one written. */
  statusNow(): Obj {
    return podStatus({
      pod: this.pod,
      initStatuses: this.init.map((r) => this.hooking.get(r) ?? r.status()),
      statuses: this.containers.map((r) => this.hooking.get(r) ?? r.status()),
      ephemeralStatuses: this.ephemeral.map((r) => ephemeralStatus(r.status())),
      terminal: this.terminal,
      hostIP: this.deps.hostIP,
      // Before its sandbox is made a pod has no address of its own yet (kubelet reports none).
      ...(this.ownNetwork ? { podIP: this.netReady && this.netns ? this.netns.ip : null } : {}),
      startTime: this.startTime,
      now: rfc3339(),
      reason: this.reason,
      message: this.message,
    })
  }

  private writeStatus(): Promise<void> {
    if (this.gone) return Promise.resolve()
    return this.status.write(
      () => this.pod,
      () => this.statusNow(),
      (pod) => (this.pod = pod),
      (e) => {
        this.deps.log(`pod ${this.name}: writing status failed: ${e.message}`)
        setTimeout(() => this.sync(), 1000)
      },
    )
  }
}

/** Which containers of the spec a record runs; its status list is STATUS_OF[kind]. */
type ContainerKind = 'initContainers' | 'containers' | 'ephemeralContainers'

const STATUS_OF: Record<ContainerKind, string> = {
  initContainers: 'initContainerStatuses',
  containers: 'containerStatuses',
  ephemeralContainers: 'ephemeralContainerStatuses',
}

/** An ephemeral container's status: never ready (it has no probes), and no `started` (the prober leaves it alone). */
function ephemeralStatus(status: Obj): Obj {
  const { started: _started, ...rest } = status
  return { ...rest, ready: false }
}
