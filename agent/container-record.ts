// One container of a pod across its runs: the current process, the last termination, restarts, probes, and the
// ContainerStatus the kubelet would report for it. Each run logs to its own file (<attempt>.log; the previous run's
// is kept for `logs --previous`) beside its shim's records (<attempt>.run, <attempt>.exit), from which an agent that
// starts again carries on: a run still going is adopted, one that ended meanwhile is reported as it ended.
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ContainerProcess, type Exit, exitOf } from './container-process.ts'
import { type ProbeKind, ProbeWorker } from './probes.ts'
import type { ContainerRuntime, HostCommand, RuntimeRun } from './runtime/runtime.ts'
import { readExit, readRun, recordedAttempts } from './run-files.ts'
import { rfc3339 } from './time.ts'
import type { Obj } from './obj.ts'
import type { Mount } from './volumes/mount.ts'

/** ContainerStateTerminated, with the run it ended. */
export interface Termination {
  exitCode: number
  signal?: number
  reason: string
  message?: string
  startedAt?: string
  finishedAt: string
  containerID?: string
  attempt: number
  /** finishedAt in milliseconds (the back-off counts from it; finishedAt has whole seconds). */
  finishedMs: number
}

/** What a container needs of its pod worker. */
export interface RecordHost {
  /** The pod's directory on the host. */
  podDir: string
  /** The address probes reach the pod at. */
  host: string
  /** The pod's network namespace (--pod-network bridge), which its runs join. */
  netns?: string
  /** The host pid of a running container of the pod (an ephemeral container joins its target's PID namespace). */
  pidOf?(container: string): number | undefined
  /** The holder of the pod's shared PID namespace (shareProcessNamespace), which every run joins. */
  sharedPid?(): number | undefined
  /** The engine's id of a running container of the pod (a container runtime's; --target: `--pid container:<id>`). */
  containerOf?(container: string): string | undefined
  /** shareProcessNamespace without a holder (docker): the engine's id of a running container of the pod but `self`. */
  sharedContainer?(self: string): string | undefined
  /** What runs the container (runtime/), and the pod it is part of (a container runtime labels its runs so). */
  runtime: ContainerRuntime
  podName: string
  podNamespace: string
  /** The pod as it is now (a run reads its securityContext). */
  pod?(): Obj
  /** The container's run changed (started, exited, probe result). */
  changed(): void
  event(type: 'Normal' | 'Warning', reason: string, message: string): void
  /** A liveness or startup probe failed for good: the pod worker kills the run. */
  unhealthy(record: ContainerRecord, kind: ProbeKind, output: string): void
}

export class ContainerRecord {
  restartCount = 0
  /** How many runs have started (the next run's attempt number). */
  attempts = 0
  proc: RuntimeRun | null = null
  /** How the latest run ended (null while it runs or before any run). */
  current: Termination | null = null
  last: Termination | null = null
  waiting: { reason: string; message?: string } | null = { reason: 'ContainerCreating' }
  /** The environment of the current run, which `exec` runs with too. */
  env: Record<string, string> = {}
  /** The volumes the next run binds (set by the pod worker before start). */
  mounts: Mount[] = []
  private probes: ProbeWorker[] = []
  private containerID = ''
  /** An adopted run and the image the status had for it (an adopted runtime client knows its container, not its image). */
  private adopted: { run: RuntimeRun; imageID: string; running?: Obj } | null = null

  readonly spec: Obj
  readonly init: boolean
  private readonly podUID: string
  private readonly host: RecordHost

  constructor(spec: Obj, init: boolean, podUID: string, host: RecordHost) {
    this.spec = spec
    this.init = init
    this.podUID = podUID
    this.host = host
  }

  /**
   * Carries on from a status reported before this agent started (it restarted): the restart count, and the run that
   * was going then, which is gone now (kube's ContainerStatusUnknown), or that had ended.
   */
  seed(previous: Obj | undefined, now: string) {
    if (this.restore(previous)) return
    if (!previous?.containerID) return
    this.restartCount = previous.restartCount ?? 0
    this.attempts = this.restartCount + 1
    // Ended (or waiting to restart after it ended): that run; running: lost with the agent that ran it.
    const ended = previous.state?.terminated ?? (previous.state?.waiting ? previous.lastState?.terminated : undefined)
    this.current = ended
      ? { ...ended, attempt: this.restartCount, finishedMs: Date.parse(ended.finishedAt) }
      : unknownTermination(this.restartCount, now)
    if (previous.state?.running && previous.lastState?.terminated)
      this.last = {
        ...previous.lastState.terminated,
        attempt: this.restartCount - 1,
        finishedMs: Date.parse(previous.lastState.terminated.finishedAt),
      }
    this.containerID = previous.containerID
    this.waiting = null
  }

  /**
   * Carries on from the runs an earlier agent left in the container's directory: the latest, still running, is
   * adopted (same pid, startedAt, restart count and container ID; probes resume from the started and ready the pod's
   * status had, as kubelet 1.35 does (KEP-4781): a startup probe that had passed stays passed, a ready container
   * stays ready until its readiness probe fails its threshold); one that ended while no agent watched is reported
   * with the exit its shim recorded (the pod worker then restarts it as restartPolicy says); one nothing accounts for
   * is kube's ContainerStatusUnknown. Answers whether there was any run on record.
   */
  private restore(previous: Obj | undefined): boolean {
    const attempt = recordedAttempts(this.dir).at(-1)
    if (attempt === undefined) return false
    this.attempts = attempt + 1
    this.restartCount = attempt
    this.containerID = containerIDOf(this.podUID, this.name, attempt)
    this.waiting = null
    this.last = attempt > 0 ? this.recorded(attempt - 1) : null
    const found = ContainerProcess.adopt(this.logFile(attempt), this.spec.stdin === true)
    if (found instanceof ContainerProcess) {
      const run: RuntimeRun = this.host.runtime.adopt?.(found, this.logFile(attempt)) ?? found
      if (run.containerID) this.containerID = run.containerID
      const same = previous?.containerID === this.containerID
      this.adopted = {
        run,
        imageID: same ? String(previous!.imageID ?? '') : '',
        ...(same && previous!.state?.running ? { running: previous!.state.running as Obj } : {}),
      }
      this.proc = run
      this.current = null
      this.env = found.environment() ?? {}
      void run.exited.then((exit) => this.ended(run, exit, attempt))
      // A container runtime's adopted run reports running once its engine's state is read again.
      if (run.starting) void run.spawned.then(() => this.proc === run && this.host.changed())
      this.startProbes(this.env, { started: previous?.started === true, ready: previous?.ready === true })
    } else {
      this.current = found ? this.terminationOf(found, attempt) : unknownTermination(attempt, rfc3339())
      this.host.runtime.discard?.(this.logFile(attempt))
    }
    return true
  }

  /** How run `attempt` ended, from its shim's records. */
  private recorded(attempt: number): Termination | null {
    const exit = readExit(this.dir, attempt)
    return exit ? this.terminationOf(exitOf(exit), attempt) : unknownTermination(attempt, rfc3339())
  }

  get name(): string {
    return this.spec.name
  }

  get dir(): string {
    return join(this.host.podDir, this.name)
  }

  /** The working directory of its processes: workingDir inside the container's own root directory. */
  get cwd(): string {
    return join(this.dir, 'root', String(this.spec.workingDir ?? '/'))
  }

  logFile(attempt: number): string {
    return join(this.dir, `${attempt}.log`)
  }

  get running(): boolean {
    return this.proc?.running === true
  }

  /** How `command` runs inside the current run (exec, exec probes), as its runtime runs it. */
  execIn(command: string[], opts: { stdin: boolean; tty: boolean }): HostCommand {
    return this.host.runtime.exec(this.proc!, { env: this.env, cwd: this.cwd, dir: this.dir }, command, opts)
  }

  /** Records an event about this container (its image's, told by the pod worker). */
  event(type: 'Normal' | 'Warning', reason: string, message: string) {
    this.host.event(type, reason, message)
  }

  /** The running process of the container an ephemeral container targets (kubectl debug --target). */
  private targetPid(): number | undefined {
    const target = this.spec.targetContainerName
    return typeof target === 'string' && target ? this.host.pidOf?.(target) : undefined
  }

  /**
   * Starts a run with the prepared command and environment; answers once it runs (or failed to start) and `started`
   * (the postStart hook) has answered: its probes begin only if that says so, as kubelet's probe nothing until then.
   */
  async start(command: string[], env: Record<string, string>, started?: () => Promise<boolean>): Promise<void> {
    const attempt = this.attempts++
    if (attempt > 0) {
      this.restartCount++
      this.last = this.current
    }
    this.current = null
    this.waiting = null
    this.env = env
    mkdirSync(this.cwd, { recursive: true })
    // Only the current and the previous run's logs are kept, as a kubelet keeps them.
    if (attempt >= 2)
      for (const suffix of ['log', 'run', 'exit', 'shim', 'shim.err'])
        rmSync(join(this.dir, `${attempt - 2}.${suffix}`), { force: true })
    this.containerID = containerIDOf(this.podUID, this.name, attempt)
    const targetPid = this.host.sharedPid?.() ?? this.targetPid()
    // A container runtime's: the container whose namespace the run joins (the process runtime has none).
    const target = this.spec.targetContainerName
    const targetContainer = targetPid
      ? undefined
      : ((typeof target === 'string' && target ? this.host.containerOf?.(target) : undefined) ??
        this.host.sharedContainer?.(this.name))
    const proc = this.host.runtime.start({
      container: this.spec,
      ...(this.host.pod ? { pod: this.host.pod() } : {}),
      podUID: this.podUID,
      podName: this.host.podName,
      podNamespace: this.host.podNamespace,
      attempt,
      command,
      env,
      dir: this.dir,
      cwd: this.cwd,
      logFile: this.logFile(attempt),
      mounts: this.mounts,
      ...(this.host.netns ? { netns: this.host.netns } : {}),
      ...(targetPid ? { targetPid } : {}),
      ...(targetContainer ? { targetContainer } : {}),
    })
    this.proc = proc
    void proc.exited.then((exit) => this.ended(proc, exit, attempt))
    if (await proc.spawned) {
      // A container runtime's run has its own id.
      if (proc.containerID && this.proc === proc) this.containerID = proc.containerID
      this.host.event('Normal', 'Created', `Created container: ${this.name}`)
      this.host.event('Normal', 'Started', `Started container ${this.name}`)
      // A run that ended while its postStart ran has nothing to probe.
      if (started && (!(await started()) || this.proc !== proc || !proc.running)) return
      this.startProbes(env)
    }
  }

  private ended(proc: RuntimeRun, exit: Exit, attempt: number) {
    if (this.proc !== proc) return
    this.stopProbes()
    if (proc.containerID) this.containerID = proc.containerID
    this.current = this.terminationOf(exit, attempt, proc.startedAt)
    if (exit.reason === 'StartError')
      this.host.event('Warning', 'Failed', `Error: failed to start container "${this.name}": ${exit.message}`)
    this.host.changed()
  }

  /** A run's end as ContainerStateTerminated (startedAt from the shim's record when not given). */
  private terminationOf(exit: Exit, attempt: number, startedAt?: Date): Termination {
    const started = startedAt?.getTime() ?? readRun(this.dir, attempt)?.startedAt
    return {
      exitCode: exit.exitCode,
      ...(exit.signal ? { signal: exit.signal } : {}),
      reason: exit.reason,
      ...(exit.message ? { message: exit.message } : {}),
      ...(exit.reason === 'StartError' || started === undefined ? {} : { startedAt: rfc3339(new Date(started)) }),
      finishedAt: rfc3339(exit.finishedAt),
      containerID: this.containerID,
      attempt,
      finishedMs: exit.finishedAt.getTime(),
    }
  }

  /**
   * Which run's log a request reads, as the kubelet's validateContainerLogStatus picks it: `previous` the run the
   * last state names; else the running one, the one that ended, or the last that ended; or kube's refusal.
   */
  logRun(pod: string, previous: boolean): { attempt: number; proc: RuntimeRun | null } | { error: string } {
    const lastState = this.running ? this.last : this.waiting ? (this.current ?? this.last) : this.last
    if (previous) {
      if (!lastState) return { error: `previous terminated container "${this.name}" in pod "${pod}" not found` }
      return { attempt: lastState.attempt, proc: null }
    }
    if (this.running) return { attempt: this.attempts - 1, proc: this.proc }
    if (!this.waiting && this.current) return { attempt: this.current.attempt, proc: null }
    if (lastState) return { attempt: lastState.attempt, proc: null }
    const reason = this.waiting?.reason ?? 'ContainerCreating'
    return { error: `container "${this.name}" in pod "${pod}" is waiting to start: ${reason}` }
  }

  /** The pod runs nothing more: a container that never ran (or waited to run again) is reported terminated. */
  settle() {
    if (!this.waiting) return
    this.current ??= unknownTermination(this.attempts, rfc3339())
    this.waiting = null
  }

  /** Stops the current run (SIGTERM, SIGKILL after graceMs). */
  async stop(graceMs: number): Promise<void> {
    this.stopProbes()
    if (this.proc?.running) await this.proc.stop(graceMs)
  }

  /** Starts the run's probes; `before`: what the status said of an adopted run (its probes carry on from it). */
  private startProbes(env: Record<string, string>, before?: { started: boolean; ready: boolean }) {
    const target = {
      env,
      cwd: this.cwd,
      ports: (this.spec.ports ?? []) as Obj[],
      host: this.host.host,
      exec: (command: string[]) => this.execIn(command, { stdin: false, tty: false }),
    }
    const make = (kind: ProbeKind, probe: Obj) =>
      new ProbeWorker(
        kind,
        probe,
        target,
        (ok, output) => {
          if (kind === 'startup' && ok) {
            for (const p of this.probes.filter((x) => x.kind !== 'startup')) p.start()
          }
          if (!ok && kind !== 'readiness') this.host.unhealthy(this, kind, output)
          this.host.changed()
        },
        (output) => this.host.event('Warning', 'Unhealthy', `${probeTitle(kind)} probe failed: ${output}`),
      )
    const startup = this.spec.startupProbe && !before?.started ? make('startup', this.spec.startupProbe) : null
    this.probes = [
      ...(startup ? [startup] : []),
      ...(this.spec.livenessProbe ? [make('liveness', this.spec.livenessProbe)] : []),
      ...(this.spec.readinessProbe ? [make('readiness', this.spec.readinessProbe)] : []),
    ]
    const readiness = this.probe('readiness')
    if (readiness && before?.ready) readiness.result = true
    // Liveness and readiness wait for the startup probe's first success.
    if (startup) startup.start()
    else for (const p of this.probes) p.start()
  }

  private stopProbes() {
    for (const p of this.probes) p.stop()
    this.probes = []
  }

  private probe(kind: ProbeKind): ProbeWorker | undefined {
    return this.probes.find((p) => p.kind === kind)
  }

  /**
   * Whether the status shows the run running: its runtime said the container started, or (an adopted run whose engine
   * state is being read again) the status the earlier agent wrote showed it running.
   */
  private get shownRunning(): boolean {
    if (!this.running) return false
    return !this.proc!.starting || (this.proc === this.adopted?.run && this.adopted.running !== undefined)
  }

  /** started: running and past its startup probe. */
  get started(): boolean {
    return this.shownRunning && (this.probe('startup')?.result ?? true)
  }

  get ready(): boolean {
    return this.started && (this.probe('readiness')?.result ?? true)
  }

  /** kube's ContainerStatus, in Go's field order. */
  status(): Obj {
    const state: Obj = {}
    // Waiting to restart (CrashLoopBackOff), the run that just ended is the last state.
    let last = this.last
    // A run its engine has not said started yet: a new one as the kubelet reports a container being created, an adopted
    // one as the earlier agent's status had it (read from the engine then).
    if (this.shownRunning && this.proc!.starting) state.running = this.adopted!.running
    else if (this.running && this.proc!.starting) state.waiting = { reason: 'ContainerCreating' }
    else if (this.running) state.running = { startedAt: rfc3339(this.proc!.startedAt) }
    else if (this.waiting) {
      state.waiting = this.waiting
      last = this.current ?? this.last
    } else if (this.current) state.terminated = termination(this.current)
    const out: Obj = {
      name: this.name,
      state,
      lastState: last ? { terminated: termination(last) } : {},
      // A completed init container counts as ready, as the kubelet reports it.
      ready: this.ready || (this.init && this.current?.exitCode === 0 && !this.waiting && !this.running),
      restartCount: this.restartCount,
      image: this.spec.image ?? '',
      imageID: this.proc?.imageID || (this.proc && this.proc === this.adopted?.run ? this.adopted.imageID : ''),
    }
    if (this.attempts > 0) out.containerID = this.containerID
    out.started = this.started
    return out
  }
}

/** The ID a run is reported under (the same for a run an agent that started again adopts). */
const containerIDOf = (podUID: string, name: string, attempt: number) =>
  `process://${createHash('sha256').update(`${podUID}/${name}/${attempt}`).digest('hex')}`

/** kube's ContainerStatusUnknown: a run nobody can account for. */
const unknownTermination = (attempt: number, now: string): Termination => ({
  exitCode: 137,
  reason: 'ContainerStatusUnknown',
  message: 'The container could not be located when the pod was terminated',
  finishedAt: now,
  attempt,
  finishedMs: Date.parse(now),
})

function termination(t: Termination): Obj {
  const { attempt: _attempt, finishedMs: _finishedMs, ...rest } = t
  return {
    exitCode: rest.exitCode,
    ...(rest.signal ? { signal: rest.signal } : {}),
    reason: rest.reason,
    ...(rest.message ? { message: rest.message } : {}),
    ...(rest.startedAt ? { startedAt: rest.startedAt } : {}),
    finishedAt: rest.finishedAt,
    ...(rest.containerID ? { containerID: rest.containerID } : {}),
  }
}

const probeTitle = (kind: ProbeKind) => `${kind[0]!.toUpperCase()}${kind.slice(1)}`
