// One run of a container as a host process: spawned in its own process group and working directory with its
// environment, stdout/stderr into its CRI log file, stdin kept open when the container asks for it; stopped as a
// container runtime stops one (SIGTERM to the group, SIGKILL after the grace period); its exit read as kube reports it.
import { type ChildProcess, spawn } from 'node:child_process'
import { constants } from 'node:os'
import type { Writable } from 'node:stream'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CriLogWriter } from './cri-log.ts'

export interface ProcessSpec {
  command: string[]
  env: Record<string, string>
  cwd: string
  stdin: boolean
  /** Run on a terminal (pty-helper.py): output is one stream, and the terminal can be resized. */
  tty?: boolean
  logFile: string
}

/** The terminal helper (Node has no pseudo-terminal of its own). */
export const PTY_HELPER = join(import.meta.dirname, 'pty-helper.py')

/** How a run ended, in ContainerStateTerminated's terms. */
export interface Exit {
  exitCode: number
  signal?: number
  reason: 'Completed' | 'Error' | 'StartError'
  message?: string
  finishedAt: Date
}

const signalNumber = (name: NodeJS.Signals) => (constants.signals as Record<string, number>)[name] ?? 0

export class ContainerProcess {
  readonly startedAt = new Date()
  readonly log: CriLogWriter
  readonly exited: Promise<Exit>
  /** Whether the process started (false: it ended with a StartError). */
  readonly spawned: Promise<boolean>
  private child: ChildProcess | null = null
  private done: Exit | null = null
  private killTimer: NodeJS.Timeout | null = null
  private readonly outputs = new Set<(stream: 'stdout' | 'stderr', chunk: Buffer) => void>()

  private constructor(spec: ProcessSpec) {
    this.log = new CriLogWriter(spec.logFile)
    const pidFile = spec.logFile.replace(/\.log$/, '.pid')
    let spawned: (ok: boolean) => void = () => undefined
    this.spawned = new Promise((resolve) => (spawned = resolve))
    this.exited = new Promise<Exit>((resolve) => {
      const finish = (exit: Exit) => {
        if (this.done) return
        if (this.killTimer) clearTimeout(this.killTimer)
        this.done = exit
        this.log.close()
        spawned(false)
        resolve(exit)
      }
      let child: ChildProcess
      try {
        const argv = spec.tty ? ['python3', PTY_HELPER, ...spec.command] : spec.command
        child = spawn(argv[0]!, argv.slice(1), {
          cwd: spec.cwd,
          env: spec.tty ? { TERM: 'xterm', ...spec.env } : spec.env,
          detached: true,
          stdio: [spec.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(spec.tty ? (['pipe'] as const) : [])],
        })
      } catch (e) {
        finish(startError(spec, e as Error))
        return
      }
      this.child = child
      // The pid is kept next to the log, so an agent that died leaves no process it cannot find again.
      child.once('spawn', () => {
        writeFileSync(pidFile, String(child.pid))
        spawned(true)
      })
      const output = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
        this.log.write(stream, d)
        for (const l of this.outputs) l(stream, d)
      }
      child.stdout!.on('data', output('stdout'))
      child.stderr!.on('data', output('stderr'))
      child.stdin?.on('error', () => undefined)
      child.on('error', (e) => finish(startError(spec, e)))
      let exit: Exit | null = null
      const ended = () => finish(exit!)
      child.on('exit', (code, signal) => {
        const exitCode = code ?? 128 + (signal ? signalNumber(signal) : 0)
        exit = {
          exitCode,
          ...(signal ? { signal: signalNumber(signal) } : {}),
          reason: exitCode === 0 ? 'Completed' : 'Error',
          finishedAt: new Date(),
        }
        // The container ends with its main process, as a runtime kills the rest of its cgroup: whatever it left
        // behind in its group goes too. Its output is read to the end ('close'), or given up on after a moment.
        this.groupSignal(child.pid, 'SIGKILL')
        setTimeout(ended, 2000).unref()
      })
      child.on('close', () => {
        if (exit) ended()
      })
    })
    void this.exited.then(() => rmSync(pidFile, { force: true }))
  }

  /** Starts a run; it has already ended (StartError) when the command cannot be executed. */
  static start(spec: ProcessSpec): ContainerProcess {
    return new ContainerProcess(spec)
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  get running(): boolean {
    return this.done === null
  }

  get stdin(): Writable | null {
    return this.child?.stdin ?? null
  }

  /** Tells `listener` every chunk of output as it comes (attach); answers how to stop. */
  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): () => void {
    this.outputs.add(listener)
    return () => this.outputs.delete(listener)
  }

  /** Resizes the terminal of a tty container. */
  resize(cols: number, rows: number) {
    const control = this.child?.stdio[3] as Writable | null | undefined
    control?.write(`${cols} ${rows}\n`)
  }

  /** SIGTERM to the process group, SIGKILL once `graceMs` has passed; answers the exit. */
  stop(graceMs: number): Promise<Exit> {
    if (this.done) return this.exited
    this.signal(graceMs <= 0 ? 'SIGKILL' : 'SIGTERM')
    if (graceMs > 0 && !this.killTimer) this.killTimer = setTimeout(() => this.signal('SIGKILL'), graceMs)
    return this.exited
  }

  private signal(sig: NodeJS.Signals) {
    if (!this.done) this.groupSignal(this.child?.pid, sig)
  }

  private groupSignal(pid: number | undefined, sig: NodeJS.Signals) {
    if (!pid) return
    try {
      process.kill(-pid, sig)
    } catch {
      // the group is gone
    }
  }
}

/** kube's StartError for a command that cannot run (containerd answers exit code 128 and the exec error). */
function startError(spec: ProcessSpec, e: Error): Exit {
  const code = (e as NodeJS.ErrnoException).code
  const cmd = JSON.stringify(spec.command[0] ?? '')
  const message =
    code === 'ENOENT'
      ? `exec: ${cmd}: executable file not found in $PATH`
      : code === 'EACCES'
        ? `exec: ${cmd}: permission denied`
        : `exec: ${cmd}: ${e.message}`
  return { exitCode: 128, reason: 'StartError', message, finishedAt: new Date() }
}
