// The simulated kubelet's container lifecycle after start (pure): a container whose program exits
// (src/registry/container-program.ts) ends at its start plus the program's seconds; the pod's restartPolicy says
// whether it runs again (Always: every exit; OnFailure: a non-zero exit; Never: none), and the kubelet's crash-loop
// back-off says when (client-go's flowcontrol.Backoff as kubelet 1.33 holds it: the first restart at once, then 10s
// doubling to 5m counted from the exit, reset after a run longer than 10 minutes). Everything is read from the
// container's status, so a step at any later time replays what happened meanwhile, at the times it happened.
import { containerProgram } from './container-program'
import { rfc3339 } from './time'

type Obj = Record<string, any>

const BACKOFF_INITIAL_MS = 10_000
const BACKOFF_MAX_MS = 300_000
/** kubelet's HasExpiredFunc: an exit more than 600 s after the last restart finds the back-off entry expired. */
const BACKOFF_RESET_MS = 600_000
/** Transitions replayed per container and step at most (a pod asleep for a year is caught up over several steps). */
const MAX_TRANSITIONS = 1000

/** Whether the kubelet starts a container again after it exited with `code` (kubelet's ShouldContainerBeRestarted). */
export const restartsAfter = (policy: string | undefined, code: number) =>
  (policy ?? 'Always') === 'Always' || (policy === 'OnFailure' && code !== 0)

/**
 * How long the kubelet waits before starting again a container that has `restartCount` restarts behind it and whose
 * run lasted `runMs`: IsInBackOffSince from the exit. No entry before the first restart; each restart (Next) doubles
 * the entry's delay; an exit more than twice the cap after the last restart finds the entry expired (at once, and the
 * delay starts over).
 */
export function backoffMs(restartCount: number, runMs: number): number {
  if (restartCount === 0 || runMs > BACKOFF_RESET_MS) return 0
  return Math.min(BACKOFF_INITIAL_MS * 2 ** (restartCount - 1), BACKOFF_MAX_MS)
}

/** Go's Duration.String() for the whole seconds a back-off is: "10s", "1m20s", "5m0s". */
function goSeconds(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`
}

interface ContainerSteps {
  /** The containers' statuses as of `now` (the input's, when nothing happened). */
  statuses: Obj[]
  /** The init containers' statuses as of `now` (sidecars run, end and restart as containers do). */
  initStatuses: Obj[]
  changed: boolean
  /** When the next exit or restart falls due (null: none pending). */
  due: number | null
  /** Runs that ended, in order: the container and the run's restart count (its log lines follow the run's). */
  exits: { name: string; run: number }[]
  /** Containers started again, and containers that entered CrashLoopBackOff (with the kubelet's message). */
  restarted: string[]
  backedOff: { name: string; message: string }[]
}

/**
 * Advances the regular containers and the sidecars (init containers with restartPolicy Always, restarted after every
 * exit whatever the pod's policy) of a Running pod to `now`: runs that exit end (terminated, or restarted at once, or
 * waiting in CrashLoopBackOff with the last run as lastState), back-offs that ran out restart. `idOf(name, run)`
 * names a run's container.
 */
export function stepContainers(pod: Obj, now: number, idOf: (name: string, run: number) => string): ContainerSteps {
  const out: ContainerSteps = {
    statuses: [],
    initStatuses: [],
    changed: false,
    due: null,
    exits: [],
    restarted: [],
    backedOff: [],
  }
  const sidecars = ((pod.spec?.initContainers ?? []) as Obj[]).filter((c) => c.restartPolicy === 'Always')
  out.initStatuses = stepList(out, pod, sidecars, pod.status?.initContainerStatuses ?? [], 'Always', now, idOf)
  const policy = pod.spec?.restartPolicy as string | undefined
  out.statuses = stepList(out, pod, pod.spec?.containers ?? [], pod.status?.containerStatuses ?? [], policy, now, idOf)
  return out
}

/** stepContainers for one list of statuses, whose containers (the ones in `specs`) restart by `policy`. */
function stepList(
  out: ContainerSteps,
  pod: Obj,
  specs: Obj[],
  current: Obj[],
  policy: string | undefined,
  now: number,
  idOf: (name: string, run: number) => string,
): Obj[] {
  const podRef = `${pod.metadata?.name}_${pod.metadata?.namespace}(${pod.metadata?.uid})`
  const dueAt = (t: number) => {
    out.due = out.due === null ? t : Math.min(out.due, t)
  }
  const statuses: Obj[] = []
  for (const s of current) {
    const spec = specs.find((c) => c.name === s.name)
    const exit = spec ? containerProgram(spec.command, spec.args).exit : null
    let cs = s
    let i = 0
    for (; exit && i < MAX_TRANSITIONS; i++) {
      const runMs = exit.seconds * 1000
      if (cs.state?.running) {
        const startedAt = Date.parse(cs.state.running.startedAt)
        // A status without a start time (written so through pods/status) has no exit to compute.
        if (!Number.isFinite(startedAt)) break
        const exitAt = startedAt + runMs
        if (exitAt > now) {
          dueAt(exitAt)
          break
        }
        const terminated = {
          exitCode: exit.code,
          reason: exit.code === 0 ? 'Completed' : 'Error',
          startedAt: cs.state.running.startedAt,
          finishedAt: rfc3339(new Date(exitAt)),
          containerID: cs.containerID,
        }
        out.exits.push({ name: cs.name, run: cs.restartCount ?? 0 })
        if (!restartsAfter(policy, exit.code)) {
          cs = { ...cs, state: { terminated }, ready: false, started: false }
          break
        }
        const wait = backoffMs(cs.restartCount ?? 0, runMs)
        if (wait === 0) {
          cs = restartedStatus(cs, terminated, exitAt, idOf)
          out.restarted.push(cs.name)
          continue
        }
        const message = `back-off ${goSeconds(wait)} restarting failed container=${cs.name} pod=${podRef}`
        cs = {
          ...cs,
          state: { waiting: { reason: 'CrashLoopBackOff', message } },
          lastState: { terminated },
          ready: false,
          started: false,
        }
        out.backedOff.push({ name: cs.name, message })
        continue
      }
      const last = cs.lastState?.terminated
      if (cs.state?.waiting?.reason !== 'CrashLoopBackOff' || !last) break
      const finishedAt = Date.parse(last.finishedAt)
      if (!Number.isFinite(finishedAt)) break
      const ran = finishedAt - Date.parse(last.startedAt)
      const restartAt = finishedAt + backoffMs(cs.restartCount ?? 0, Number.isFinite(ran) ? ran : 0)
      if (restartAt > now) {
        dueAt(restartAt)
        break
      }
      cs = restartedStatus(cs, last, restartAt, idOf)
      out.restarted.push(cs.name)
    }
    // Stopped at the cap with time still to replay: the next step goes on at once.
    if (i === MAX_TRANSITIONS) dueAt(now)
    if (cs !== s) out.changed = true
    statuses.push(cs)
  }
  return statuses
}

/** A container started again at `at`: running, the run that ended as lastState, one more restart, a new ID. */
function restartedStatus(cs: Obj, terminated: Obj, at: number, idOf: (name: string, run: number) => string): Obj {
  const run = (cs.restartCount ?? 0) + 1
  return {
    ...cs,
    state: { running: { startedAt: rfc3339(new Date(at)) } },
    lastState: { terminated },
    ready: true,
    restartCount: run,
    containerID: idOf(cs.name, run),
    started: true,
  }
}
