// One run of a container as a host process, under its shim (shim.py, in a session of its own, so the run outlives
// the agent): the shim starts the command in its own session and working directory with its environment, writes its
// output to the CRI log file, keeps stdin on a fifo and records the exit. This side starts a shim or adopts the one
// an earlier agent started, follows the log file (attach, logs -f), writes stdin and resizes through the fifos, stops
// the run as a container runtime stops one (SIGTERM to the group, SIGKILL after the grace period) and reads its exit.
import { type ChildProcess, spawn } from 'node:child_process'
import {
  closeSync,
  constants as fsConstants,
  type FSWatcher,
  openSync,
  readFileSync,
  readSync,
  statSync,
  watch,
  writeSync,
} from 'node:fs'
import { Socket } from 'node:net'
import type { Writable } from 'node:stream'
import { basename, dirname, join } from 'node:path'
import { CriLogWriter, parseRecords } from './cri-log.ts'
import { hostPython } from './host-tools.ts'
import { killTree } from './process-tree.ts'
import type { ProcessSecurity } from './runtime/process-security.ts'
import {
  awaitShim,
  type Exit,
  exitOf,
  processEnv,
  readExit,
  readRun,
  recordLost,
  readShim,
  recordShim,
  type RunRecord,
  sameProcess,
  type ShimRecord,
  shimStarting,
} from './run-files.ts'

import type { Mount } from './volumes/mount.ts'

export { type Exit, exitOf } from './run-files.ts'

export interface ProcessSpec {
  command: string[]
  env: Record<string, string>
  cwd: string
  stdin: boolean
  /** Run on a terminal: output is one stream, and the terminal can be resized. */
  tty?: boolean
  /** <container dir>/<attempt>.log: the shim's files sit beside it. */
  logFile: string
  /** Volumes bound in a mount namespace of the run's own (shim.py). */
  mounts?: Mount[]
  /** The pod's network namespace (/var/run/netns/<name>) the shim enters before the command runs. */
  netns?: string
  /** Who the command runs as and what it may not do (runtime/process-security.ts), applied by the shim. */
  security?: ProcessSecurity
  /**
   * A PID namespace of the run's own (runtime/pid-namespace.ts): the recorded pid is then its init's, which passes
   * SIGTERM on to the command and whose death (SIGKILL) ends everything in it.
   */
  pidns?: boolean
  /** The host pid of a process whose PID namespace the run joins instead (an ephemeral container's target). */
  pidnsOf?: number
  /** That process's start time (run-files.ts: processStart), which the shim checks again as it joins. */
  pidnsOfStart?: number
}

/** The terminal helper exec -t uses (Node has no pseudo-terminal of its own). */
export const PTY_HELPER = join(import.meta.dirname, 'pty-helper.py')
/** The shim every run is started under. */
export const SHIM = join(import.meta.dirname, 'shim.py')

/** How often an adopted run's shim is looked at (its exit file is also watched for). */
const CHECK_MS = 1000

export class ContainerProcess {
  /** The shim's record of the run's start (the agent's own clock until the shim reports). */
  startedAt = new Date()
  readonly log: CriLogWriter
  readonly exited: Promise<Exit>
  /** Whether the process started (false: it ended with a StartError). */
  readonly spawned: Promise<boolean>
  private run: RunRecord | null = null
  private done: Exit | null = null
  private killTimer: NodeJS.Timeout | null = null
  private readonly outputs = new Set<(stream: 'stdout' | 'stderr', chunk: Buffer) => void>()
  private readonly dir: string
  private readonly prefix: string
  private readonly attempt: number
  private readonly wantsStdin: boolean
  private finish: (exit: Exit) => void = () => undefined
  private started: (ok: boolean) => void = () => undefined
  private watcher: FSWatcher | null = null
  private checker: NodeJS.Timeout | null = null
  private offset = 0
  private ctlFd: number | null = null
  private stdinSocket: Socket | null = null
  private stdinClosed = false

  private constructor(logFile: string, stdin: boolean) {
    this.dir = dirname(logFile)
    this.attempt = Number(basename(logFile, '.log'))
    this.prefix = join(this.dir, String(this.attempt))
    this.wantsStdin = stdin
    this.log = new CriLogWriter(logFile, true)
    this.spawned = new Promise((resolve) => (this.started = resolve))
    this.exited = new Promise<Exit>((resolve) => {
      this.finish = (exit) => {
        if (this.done) return
        this.done = exit
        if (this.killTimer) clearTimeout(this.killTimer)
        if (this.checker) clearInterval(this.checker)
        this.watcher?.close()
        this.logChanged()
        if (this.ctlFd !== null) closeSync(this.ctlFd)
        this.ctlFd = null
        this.stdinSocket?.destroy()
        this.started(false)
        resolve(exit)
      }
    })
  }

  /** Starts a run under a new shim; it has already ended (StartError) when the command cannot be executed. */
  static start(spec: ProcessSpec): ContainerProcess {
    const p = new ContainerProcess(spec.logFile, spec.stdin)
    p.launch(spec)
    return p
  }

  /**
   * The run <attempt> an earlier agent started, from its files: still running (its shim alive: adopted), ended (its
   * exit as the shim recorded it), or lost (no shim left and no exit recorded: recordLost).
   */
  static adopt(logFile: string, stdin: boolean): ContainerProcess | Exit {
    const dir = dirname(logFile)
    const attempt = Number(basename(logFile, '.log'))
    // A shim still starting the run (recorded at launch, alive, nothing recorded by it yet): followed once it has.
    const starting = shimStarting(dir, attempt)
    if (starting) {
      const p = new ContainerProcess(logFile, stdin)
      p.awaitRecord(starting)
      return p
    }
    // A shim an agent without launch records started: a short wait for its records.
    if (!readShim(dir, attempt)) awaitShim(dir, attempt)
    const ended = readExit(dir, attempt)
    if (ended) return exitOf(ended)
    const run = readRun(dir, attempt)
    if (!run || !sameProcess(run.shimPid, run.shimStart)) return recordLost(dir, attempt, run, shimStderr(dir, attempt))
    const p = new ContainerProcess(logFile, stdin)
    p.follow(run)
    return p
  }

  private launch(spec: ProcessSpec) {
    let child: ChildProcess
    const errFd = openSync(`${this.prefix}.shim.err`, 'w')
    try {
      const options = JSON.stringify({
        command: spec.command,
        dir: this.dir,
        attempt: this.attempt,
        tty: spec.tty === true,
        stdin: spec.stdin,
        ...(spec.mounts ? { mounts: spec.mounts } : {}),
        ...(spec.security ? { security: spec.security } : {}),
        ...(spec.netns ? { netns: spec.netns } : {}),
        ...(spec.pidns ? { pidns: true } : {}),
        ...(spec.pidnsOf ? { pidnsOf: spec.pidnsOf } : {}),
        ...(spec.pidnsOfStart ? { pidnsOfStart: spec.pidnsOfStart } : {}),
      })
      child = spawn(hostPython(), ['-I', '-S', SHIM, options], {
        cwd: spec.cwd,
        env: spec.tty ? { TERM: 'xterm', ...spec.env } : spec.env,
        detached: true,
        stdio: ['ignore', 'pipe', errFd],
      })
    } catch (e) {
      this.finish(shimError(e as Error))
      return
    } finally {
      closeSync(errFd)
    }
    // Recorded at once: an agent started again while the shim is still starting the run (a loaded host) waits for it.
    if (child.pid) recordShim(this.dir, this.attempt, child.pid)
    // The shim outlives us; nothing here waits for it.
    child.unref()
    child.on('error', (e) => this.finish(shimError(e)))
    let said = ''
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (d: string) => {
      said += d
      if (!said.includes('\n')) return
      const run = said.startsWith('started') ? readRun(this.dir, this.attempt) : null
      if (run) this.follow(run)
      else this.check()
    })
    child.on('exit', () => this.check())
  }

  /** Waits for a starting shim to record its run (then follows it) or its failure, or to go without either. */
  private awaitRecord(shim: ShimRecord) {
    this.checker = setInterval(() => {
      const run = readRun(this.dir, this.attempt)
      if (run) {
        if (this.checker) clearInterval(this.checker)
        this.follow(run)
      } else if (readExit(this.dir, this.attempt) || !sameProcess(shim.shimPid, shim.shimStart)) this.check()
    }, 50)
  }

  /** The run is going: follow its files. */
  private follow(run: RunRecord) {
    this.run = run
    this.startedAt = new Date(run.startedAt)
    try {
      this.offset = statSync(this.log.path).size
    } catch {
      this.offset = 0
    }
    try {
      this.watcher = watch(this.dir, (_event, name) => {
        if (name === `${this.attempt}.log`) this.logChanged()
        else if (name === `${this.attempt}.exit`) this.check()
      })
      this.watcher.on('error', () => undefined)
    } catch {
      this.watcher = null
    }
    this.checker = setInterval(() => {
      this.logChanged()
      this.check()
    }, CHECK_MS)
    this.started(true)
    this.check()
  }

  /** The run ended when its exit is recorded, or is lost when its shim is gone without recording one. */
  private check() {
    if (this.done) return
    const ended = readExit(this.dir, this.attempt)
    if (ended) return this.finish(exitOf(ended))
    const run = this.run ?? readRun(this.dir, this.attempt)
    if (run && sameProcess(run.shimPid, run.shimStart)) return
    // Gone: a last look, since the shim writes the exit file just before it exits.
    const last = readExit(this.dir, this.attempt)
    if (last) return this.finish(exitOf(last))
    this.finish(recordLost(this.dir, this.attempt, run, this.shimStderr()))
  }

  private shimStderr(): string {
    return shimStderr(this.dir, this.attempt)
  }

  /** Output appended to the log: tells log followers, and attach listeners what the records say. */
  private logChanged() {
    if (!this.log.listening && this.outputs.size === 0) {
      try {
        this.offset = statSync(this.log.path).size
      } catch {
        // not there yet
      }
      return
    }
    let fd: number
    try {
      fd = openSync(this.log.path, 'r')
    } catch {
      return
    }
    try {
      const size = statSync(this.log.path).size
      if (size <= this.offset) return
      const buf = Buffer.alloc(size - this.offset)
      readSync(fd, buf, 0, buf.length, this.offset)
      const end = buf.lastIndexOf(0x0a)
      if (end < 0) return
      this.offset += end + 1
      const records = parseRecords(buf.subarray(0, end + 1).toString('utf8'))
      for (const r of records) {
        const chunk = Buffer.from(r.full ? `${r.text}\n` : r.text)
        for (const l of this.outputs) l(r.stream, chunk)
      }
      this.log.announce(records)
    } finally {
      closeSync(fd)
    }
  }

  /** The command's pid (the leader of its process group), or its init's when the run has a PID namespace. */
  get pid(): number | undefined {
    return this.run?.pid
  }

  get running(): boolean {
    return this.done === null
  }

  /**
   * Whether the command's process is still there (not gone, not a zombie, its pid not someone else's now). A run is
   * running until its shim records the exit, which it does up to 2 s after it (the output of leftovers is drained).
   */
  get alive(): boolean {
    return this.run !== null && sameProcess(this.run.pid, this.run.pidStart)
  }

  /**
   * The environment the command was started with (what exec runs with after a re-adoption), from /proc; where there
   * is none (not Linux), only the agent's PATH.
   */
  environment(): Record<string, string> | null {
    if (!this.run) return null
    return processEnv(this.run.pid) ?? { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' }
  }

  /**
   * The container's stdin (its fifo), shared by every attach; ending it closes the container's stdin for good
   * (stdinOnce), which the shim is told, as it holds the fifo open between clients.
   */
  get stdin(): Writable | null {
    if (!this.wantsStdin || this.done || this.stdinClosed) return null
    if (this.stdinSocket && !this.stdinSocket.destroyed) return this.stdinSocket
    let fd: number
    try {
      fd = openSync(`${this.prefix}.stdin`, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK)
    } catch {
      return null
    }
    const socket = new Socket({ fd, readable: false, writable: true })
    socket.on('error', () => undefined)
    socket.once('finish', () => {
      this.stdinClosed = true
      this.control('close-stdin')
    })
    this.stdinSocket = socket
    return socket
  }

  /** Tells `listener` every chunk of output as it comes (attach); answers how to stop. */
  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): () => void {
    if (this.outputs.size === 0 && !this.log.listening) this.logChanged()
    this.outputs.add(listener)
    return () => this.outputs.delete(listener)
  }

  /** Resizes the terminal of a tty container. */
  resize(cols: number, rows: number) {
    this.control(`resize ${cols} ${rows}`)
  }

  private control(line: string) {
    if (this.done) return
    try {
      this.ctlFd ??= openSync(`${this.prefix}.ctl`, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK)
      writeSync(this.ctlFd, `${line}\n`)
    } catch {
      // the shim is gone or busy: the order is lost, as a resize to a gone terminal is
    }
  }

  /**
   * SIGTERM to the process group, SIGKILL once `graceMs` has passed (to everything below the run's process first, then
   * its group: process-tree.ts); answers the exit. With a PID namespace of its own the group is its init's alone: it
   * passes SIGTERM to the command, and its death takes everything in the namespace.
   */
  async stop(graceMs: number): Promise<Exit> {
    if (this.done) return this.exited
    await this.spawned
    this.signal(graceMs <= 0 ? 'SIGKILL' : 'SIGTERM')
    if (graceMs > 0 && !this.killTimer) this.killTimer = setTimeout(() => this.signal('SIGKILL'), graceMs)
    return this.exited
  }

  private signal(sig: NodeJS.Signals) {
    const run = this.run
    if (this.done || !run || !sameProcess(run.pid, run.pidStart)) return
    // A SIGKILL takes what is below the run's process too (what left its group, where no namespace ends with it).
    if (sig === 'SIGKILL') return killTree(run.pid)
    try {
      process.kill(-run.pid, sig)
    } catch {
      // the group is gone
    }
  }
}

/** The last line a run's shim wrote on its stderr (why it failed, if it did). */
function shimStderr(dir: string, attempt: number): string {
  try {
    return (
      readFileSync(join(dir, `${attempt}.shim.err`), 'utf8')
        .trim()
        .split('\n')
        .at(-1) ?? ''
    )
  } catch {
    return ''
  }
}

/** The shim itself could not be run (no python3 on the node). */
function shimError(e: Error): Exit {
  const code = (e as NodeJS.ErrnoException).code
  const message = code === 'ENOENT' ? 'the node agent runs containers under python3, which this node lacks' : e.message
  return { exitCode: 128, reason: 'StartError', message, finishedAt: new Date() }
}
