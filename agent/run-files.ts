// What a container run's shim (shim.py) leaves in the container's directory, read back by this agent or the next:
// <n>.run (the shim's and the command's pid with their start times, the run's start), <n>.exit (how it ended, read as
// the Exit kube reports), whether a recorded process is still the one recorded (pid and start time from
// /proc/<pid>/stat, so that a pid the kernel gave to someone else since is never taken for ours), and a shim that was
// started but has not recorded its run yet: <n>.shim, its pid as the agent recorded it at launch, tells a shim still
// starting (waited for however long it takes) from one that died (a short wait where an older agent left no record).
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { killTree } from './process-tree.ts'

/** How a run ended, in ContainerStateTerminated's terms. */
export interface Exit {
  exitCode: number
  signal?: number
  reason: 'Completed' | 'Error' | 'StartError' | 'ContainerStatusUnknown' | 'OOMKilled'
  message?: string
  finishedAt: Date
}

/** <n>.run: written by the shim once the command runs. */
export interface RunRecord {
  shimPid: number
  shimStart: number
  pid: number
  pidStart: number
  /** ms since the epoch. */
  startedAt: number
}

/** <n>.exit: written by the shim when the command has exited (or could not start). */
export interface ExitRecord {
  exitCode: number
  signal?: number
  /** ms since the epoch. */
  finishedAt: number
  startError?: { code: string; message: string; command: string }
  /** Recorded by an agent, not the shim: the shim went away without recording an exit (recordLost). */
  lost?: boolean
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return null
  }
}

export const readRun = (dir: string, attempt: number) => readJson<RunRecord>(join(dir, `${attempt}.run`))
export const readExit = (dir: string, attempt: number) => readJson<ExitRecord>(join(dir, `${attempt}.exit`))

/** <n>.shim: written by the agent as it starts a shim, before the shim records anything (seconds on a loaded host). */
export interface ShimRecord {
  shimPid: number
  shimStart: number
}

export const readShim = (dir: string, attempt: number) => readJson<ShimRecord>(join(dir, `${attempt}.shim`))

/** Records the shim just started for run <attempt>: its pid and start time. */
export function recordShim(dir: string, attempt: number, pid: number) {
  const path = join(dir, `${attempt}.shim`)
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify({ shimPid: pid, shimStart: processStart(pid) }))
    renameSync(`${path}.tmp`, path)
  } catch {
    // the directory is gone (the pod with it)
  }
}

/** The shim of run <attempt> while it still starts it: alive as recorded at launch, its run and exit not recorded. */
export function shimStarting(dir: string, attempt: number): ShimRecord | null {
  if (readRun(dir, attempt) || readExit(dir, attempt)) return null
  const shim = readShim(dir, attempt)
  return shim && sameProcess(shim.shimPid, shim.shimStart) ? shim : null
}

/** The runs a container directory has records of, in order (a run the agent was starting has its shim.err). */
export function recordedAttempts(dir: string): number[] {
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const found = new Set<number>()
  for (const n of names) {
    const m = /^(\d+)\.(run|exit|shim|shim\.err)$/.exec(n)
    if (m) found.add(Number(m[1]))
  }
  return [...found].sort((a, b) => a - b)
}

/** A process's start time in clock ticks since boot (0: no such process, or no /proc). */
export function processStart(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) || 0
  } catch {
    return 0
  }
}

/** Whether this host has /proc (Linux); elsewhere a pid is taken at its word, start times unchecked. */
const PROC = existsSync('/proc/self/stat')

/** Whether pid still is the process that started at `start` (and has not exited: a zombie is gone). */
export function sameProcess(pid: number, start: number): boolean {
  if (!(pid > 0)) return false
  if (!PROC) {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  if (!start) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[0] !== 'Z' && Number(fields[19]) === start
  } catch {
    return false
  }
}

/** The environment a process was started with (exec after re-adoption runs with the container's own). */
export function processEnv(pid: number): Record<string, string> | null {
  try {
    const env: Record<string, string> = {}
    for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
      const eq = entry.indexOf('=')
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1)
    }
    return env
  } catch {
    return null
  }
}

/** SIGKILLs every run in a container directory whose command still runs, and all below it (a pod gone). */
export function killRecordedRuns(dir: string): number {
  let killed = 0
  for (const attempt of recordedAttempts(dir)) {
    // A shim still starting its run: it goes (its group) before it starts a command nobody would stop.
    const starting = shimStarting(dir, attempt)
    if (starting)
      try {
        process.kill(-starting.shimPid, 'SIGKILL')
        killed++
      } catch {
        // gone meanwhile
      }
    const run = readRun(dir, attempt)
    if (!run || readExit(dir, attempt) || !sameProcess(run.pid, run.pidStart)) continue
    killTree(run.pid)
    killed++
  }
  return killed
}

/** The Exit a shim's exit record says. */
export function exitOf(rec: ExitRecord): Exit {
  const finishedAt = new Date(rec.finishedAt)
  if (rec.lost)
    return {
      exitCode: 137,
      reason: 'ContainerStatusUnknown',
      message: 'The container could not be located when the pod was terminated',
      finishedAt,
    }
  // The container's volumes could not be mounted in its mount namespace (shim.py), as runc reports a mount failure;
  // the shim's securityContext step reports through the same code, its message already saying what failed.
  if (rec.startError?.code === 'MOUNT') {
    const why = rec.startError.message
    const message = why.startsWith('securityContext: ') ? why : `error mounting volumes: ${why}`
    return { exitCode: 128, reason: 'StartError', message, finishedAt }
  }
  if (rec.startError?.code === 'SHIM')
    return { exitCode: 128, reason: 'StartError', message: `shim: ${rec.startError.message}`, finishedAt }
  if (rec.startError) {
    const cmd = JSON.stringify(rec.startError.command)
    const { code } = rec.startError
    // kube's StartError for a command that cannot run (containerd answers exit code 128 and the exec error).
    const message =
      code === 'ENOENT'
        ? `exec: ${cmd}: executable file not found in $PATH`
        : code === 'EACCES'
          ? `exec: ${cmd}: permission denied`
          : `exec: ${cmd}: ${rec.startError.message}`
    return { exitCode: 128, reason: 'StartError', message, finishedAt }
  }
  return {
    exitCode: rec.exitCode,
    ...(rec.signal ? { signal: rec.signal } : {}),
    reason: rec.exitCode === 0 ? 'Completed' : 'Error',
    finishedAt,
  }
}

/**
 * A run whose shim went away without recording an exit (killed, crashed): its command, if it still runs, is killed
 * (nobody would record its end or read its output, and a restart must not run beside it), and the exit is recorded
 * here, so that every later agent reports the same one: before the command started, a StartError with what the shim
 * said; after, nobody can account for the run (kube's ContainerStatusUnknown, 137).
 */
export function recordLost(dir: string, attempt: number, run: RunRecord | null, why: string): Exit {
  if (run && sameProcess(run.pid, run.pidStart)) killTree(run.pid)
  const rec: ExitRecord = run
    ? { exitCode: 137, finishedAt: Date.now(), lost: true }
    : {
        exitCode: 128,
        finishedAt: Date.now(),
        startError: { code: 'SHIM', message: why || 'it exited before starting the command', command: '' },
      }
  const path = join(dir, `${attempt}.exit`)
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(rec))
    renameSync(`${path}.tmp`, path)
  } catch {
    // the directory is gone (the pod with it)
  }
  return exitOf(rec)
}

/**
 * An agent that died just after starting a shim leaves a run whose shim has not recorded it yet (it does within
 * milliseconds): for a run started in the last few seconds with no record, wait up to 2 s for one, so the next agent
 * does not start that run again beside it. (Synchronous: it happens at most once per container, at the agent's start.)
 */
export function awaitShim(dir: string, attempt: number) {
  const started = join(dir, `${attempt}.shim.err`)
  const pending = () => !readRun(dir, attempt) && !readExit(dir, attempt)
  let fresh = false
  try {
    fresh = Date.now() - statSync(started).mtimeMs < 5000
  } catch {
    return
  }
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let waited = 0; fresh && pending() && waited < 2000; waited += 50) Atomics.wait(pause, 0, 0, 50)
}
