// One run of a container through a docker or podman CLI: `run` attached (not -d), so the container's stdout and
// stderr come through the client's streams into the CRI log file the agent writes, its stdin through the client's
// (-i), its terminal through pty-helper.py (-t; a resize reaches the container as the client's SIGWINCH). The id comes
// from --cidfile; `inspect` says when it started and how it ended (exit code, OOMKilled, StartError); `stop -t` stops
// it with a grace period, `kill` at once; the ended container is removed (its logs are the agent's files).
import { readFileSync } from 'node:fs'
import type { Writable } from 'node:stream'
import { ContainerProcess, type Exit } from '../container-process.ts'
import type { CriLogWriter } from '../cri-log.ts'
import type { Cli } from './cli.ts'
import type { RunExit, RuntimeRun } from './runtime.ts'

/** The part of a container's inspect state the agent reads (docker's and podman's share these names). */
interface State {
  Status?: string
  Running?: boolean
  OOMKilled?: boolean
  ExitCode?: number
  Error?: string
  StartedAt?: string
  FinishedAt?: string
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** A Go time, or null for its zero value. */
const goTime = (t: string | undefined) => {
  const ms = t ? Date.parse(t) : Number.NaN
  return Number.isNaN(ms) || ms <= 0 ? null : new Date(ms)
}

export interface CliRunSpec {
  argv: string[]
  /** The client's environment: the agent's, with the container's variables `-e NAME` passes on. */
  env: Record<string, string>
  cwd: string
  stdin: boolean
  tty: boolean
  logFile: string
  cidFile: string
  imageID: string
}

export class CliRun implements RuntimeRun {
  startedAt = new Date()
  containerID?: string
  readonly imageID: string
  readonly log: CriLogWriter
  readonly spawned: Promise<boolean>
  readonly exited: Promise<RunExit>
  private readonly cli: Cli
  private readonly client: ContainerProcess
  private readonly cidFile: string
  private id = ''
  /** The client has ended (the container with it, or it lost the container). */
  private clientEnded = false
  /** The run's end is known: it no longer runs for anyone asking. */
  private done = false
  /** Whether the container started, as far as the client's life tells. */
  private readonly started: Promise<boolean>
  private stopping = false
  /** The engine's state said the container started (startedAt is then the engine's). */
  private engineStarted = false
  /** The client's last words on stderr (why `run` failed before the container could start). */
  private stderr = ''

  /** Starts a run: the client under the process runtime's shim, so it outlives the agent as a process run does. */
  static start(cli: Cli, spec: CliRunSpec): CliRun {
    const client = ContainerProcess.start({
      command: [cli.path, ...spec.argv],
      env: spec.env,
      cwd: spec.cwd,
      stdin: spec.stdin,
      tty: spec.tty,
      logFile: spec.logFile,
    })
    return new CliRun(cli, client, spec.cidFile, spec.imageID)
  }

  /** A run around its client: one just started, or one an earlier agent started (adopted from the shim's records). */
  constructor(cli: Cli, client: ContainerProcess, cidFile: string, imageID: string) {
    this.cli = cli
    this.cidFile = cidFile
    this.imageID = imageID
    this.client = client
    this.startedAt = client.startedAt
    this.readId()
    this.log = this.client.log
    this.client.onOutput((stream, chunk) => {
      if (stream === 'stderr') this.stderr = (this.stderr + chunk.toString()).slice(-4096)
    })
    this.started = this.waitStarted()
    this.exited = this.client.exited.then((exit) => this.finish(exit))
    // A run that never started is answered once its end is known, as a process that cannot be executed is.
    this.spawned = this.started.then((ok) => ok || this.exited.then(() => false))
  }

  get running(): boolean {
    return !this.done
  }

  get starting(): boolean {
    return !this.engineStarted && !this.done
  }

  get stdin(): Writable | null {
    return this.client.stdin
  }

  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): () => void {
    return this.client.onOutput(listener)
  }

  resize(cols: number, rows: number) {
    this.client.resize(cols, rows)
  }

  /** `stop -t <seconds>` (the engine sends SIGTERM, then SIGKILL), or `kill` for no grace. */
  stop(graceMs: number): Promise<RunExit> {
    // A client that ended may have lost a container that still runs (its end is waited for): that one is stopped too.
    if (this.done) return this.exited
    void this.signal(graceMs)
    return this.exited
  }

  private async signal(graceMs: number) {
    // A stop asked while the container is being created waits for its id (or the client's end).
    while (!this.id && !this.clientEnded && !this.readId()) await sleep(25)
    if (!this.id || this.done) return
    if (graceMs <= 0) {
      await this.cli.run(['kill', this.id])
      return
    }
    if (this.stopping) return
    this.stopping = true
    const r = await this.cli.run(['stop', '-t', String(Math.ceil(graceMs / 1000)), this.id], graceMs + 30_000)
    // An engine that cannot stop it: the client goes, and the container is left to be reaped by its labels.
    if (r.code !== 0 && !this.clientEnded) await this.client.stop(0)
  }

  private readId(): boolean {
    try {
      this.id = readFileSync(this.cidFile, 'utf8').trim()
    } catch {
      this.id = ''
    }
    if (this.id) this.containerID = `${this.cli.name}://${this.id}`
    return this.id !== ''
  }

  private async inspect(): Promise<State | null> {
    const r = await this.cli.run(['inspect', '--type', 'container', '--format', '{{json .State}}', this.id])
    if (r.code !== 0) return null
    try {
      return JSON.parse(r.stdout) as State
    } catch {
      return null
    }
  }

  /** Whether the container started: its id appears, then its state says it ran (or the client ends without it). */
  private async waitStarted(): Promise<boolean> {
    while (!this.clientEnded && !this.readId()) await sleep(25)
    if (!this.id && !this.readId()) return false
    for (;;) {
      const state = await this.inspect()
      const started = goTime(state?.StartedAt)
      if (started && (state?.Running || state?.Status !== 'created')) {
        this.startedAt = started
        this.engineStarted = true
        return true
      }
      if (this.clientEnded) return false
      await sleep(50)
    }
  }

  /** The client ended: the container's own account of its end, then the container goes. */
  private async finish(clientExit: Exit): Promise<RunExit> {
    this.clientEnded = true
    const exit = await this.account(clientExit)
    this.done = true
    return exit
  }

  private async account(clientExit: Exit): Promise<RunExit> {
    await this.started
    if (!this.id) return startError(this.stderr || `${this.cli.name} run exited with code ${clientExit.exitCode}`)
    let state = await this.inspect()
    // The client lost its container (the engine restarted): wait for the container itself.
    if (state?.Running) {
      await this.cli.run(['wait', this.id], 2 ** 31 - 1)
      state = await this.inspect()
    }
    await this.remove()
    if (!state) return { ...clientExit, reason: clientExit.exitCode === 0 ? 'Completed' : 'Error' }
    const started = goTime(state.StartedAt)
    if (!started) return startError(state.Error || this.stderr || 'the container did not start')
    this.startedAt = started
    const exitCode = state.ExitCode ?? clientExit.exitCode
    return {
      exitCode,
      reason: state.OOMKilled ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error',
      ...(state.Error ? { message: state.Error } : {}),
      finishedAt: goTime(state.FinishedAt) ?? clientExit.finishedAt,
    }
  }

  /**
   * The ended container goes. podman keeps one that another container joined (`--pid container:<id>`: a debugger with
   * this one as its target) until that one is removed: the debugger ended with this one's namespace and goes as its
   * own end is read, so this one is removed again shortly after, without holding back this run's exit.
   */
  private async remove() {
    const held = (r: { code: number; stderr: string }) => r.code !== 0 && /dependent containers/.test(r.stderr)
    if (!held(await this.cli.run(['rm', '-f', this.id]))) return
    void (async () => {
      for (let tries = 0; tries < 150; tries++) {
        await sleep(200)
        if (!held(await this.cli.run(['rm', '-f', this.id]))) return
      }
    })()
  }
}

/** kube's StartError: exit code 128 and the engine's reason. */
const startError = (message: string): RunExit => ({
  exitCode: 128,
  reason: 'StartError',
  message: message.trim().split('\n').at(-1)!,
  finishedAt: new Date(),
})
