// The simulated kubelet's stages (pure, KWOK-style): what a pod's status becomes when it is bound, started,
// completes, exceeds its deadline or is stopped. Each function returns a new status from the pod and the time.
import { containerProgram } from './container-program'
import { containerID, imageID } from './simulated-ids'
import { rfc3339 } from './time'

type Obj = Record<string, any>

export const condition = (type: string, status: 'True' | 'False', now: Date, reason?: string, message?: string) => {
  const c: Obj = { type, status, lastProbeTime: null, lastTransitionTime: rfc3339(now) }
  if (reason) c.reason = reason
  if (message) c.message = message
  return c
}

/** Replaces (by type) or adds conditions, keeping lastTransitionTime when the status did not change. */
export function setConditions(existing: Obj[] | undefined, next: Obj[]): Obj[] {
  const out = [...(existing ?? [])]
  for (const c of next) {
    const i = out.findIndex((x) => x.type === c.type)
    if (i < 0) out.push(c)
    else
      out[i] =
        out[i].status === c.status && out[i].reason === c.reason
          ? { ...c, lastTransitionTime: out[i].lastTransitionTime }
          : c
  }
  return out
}

export function scheduledCondition(now: Date) {
  return condition('PodScheduled', 'True', now)
}

export function unschedulableCondition(now: Date, message: string) {
  return condition('PodScheduled', 'False', now, 'Unschedulable', message)
}

/** Whether every container of a pod exits (so the pod may complete), and how. */
export function podCompletion(pod: Obj): { seconds: number; failed: boolean } | null {
  const policy = pod.spec?.restartPolicy ?? 'Always'
  if (policy === 'Always') return null
  let seconds = 0
  let failed = false
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    const p = containerProgram(c.command, c.args)
    if (!p.exit) return null
    if (p.exit.code !== 0 && policy === 'OnFailure') return null
    seconds = Math.max(seconds, p.exit.seconds)
    if (p.exit.code !== 0) failed = true
  }
  return { seconds, failed }
}

function readyFromGates(pod: Obj, conditions: Obj[]): { ready: boolean; reason?: string; message?: string } {
  const gates = (pod.spec?.readinessGates ?? []) as Obj[]
  // kubelet's GeneratePodReadyCondition: every unmet gate is named, with why.
  const unmet: string[] = []
  for (const g of gates) {
    const c = conditions.find((x) => x.type === g.conditionType)
    if (!c) unmet.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist`)
    else if (c.status !== 'True')
      unmet.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`)
  }
  if (unmet.length === 0) return { ready: true }
  return { ready: false, reason: 'ReadinessGatesNotReady', message: `${unmet.join(', ')}.` }
}

/** Bound and started: Running with IPs, conditions and container statuses (init containers completed). */
export function runningStatus(pod: Obj, ips: { podIP: string; hostIP: string }, now: Date): Obj {
  const ts = rfc3339(now)
  const uid = pod.metadata?.uid ?? ''
  const status: Obj = { ...(pod.status ?? {}) }
  const running = (c: Obj, ready: boolean) => ({
    name: c.name,
    state: { running: { startedAt: ts } },
    lastState: {},
    ready,
    restartCount: 0,
    image: c.image,
    imageID: imageID(c.image ?? ''),
    containerID: containerID(uid, c.name),
    started: true,
  })
  const init = (pod.spec?.initContainers ?? []) as Obj[]
  if (init.length) {
    status.initContainerStatuses = init.map((c) =>
      c.restartPolicy === 'Always'
        ? running(c, true)
        : {
            name: c.name,
            state: {
              terminated: {
                exitCode: 0,
                reason: 'Completed',
                startedAt: ts,
                finishedAt: ts,
                containerID: containerID(uid, c.name),
              },
            },
            lastState: {},
            ready: true,
            restartCount: 0,
            image: c.image,
            imageID: imageID(c.image ?? ''),
            containerID: containerID(uid, c.name),
            started: false,
          },
    )
  }
  status.containerStatuses = ((pod.spec?.containers ?? []) as Obj[]).map((c) => running(c, true))
  const base = setConditions(status.conditions, [
    condition('PodReadyToStartContainers', 'True', now),
    condition('Initialized', 'True', now),
    condition('ContainersReady', 'True', now),
    scheduledCondition(now),
  ])
  const gate = readyFromGates(pod, base)
  status.conditions = setConditions(base, [
    gate.ready ? condition('Ready', 'True', now) : condition('Ready', 'False', now, gate.reason, gate.message),
  ])
  status.phase = 'Running'
  status.hostIP = ips.hostIP
  status.hostIPs = [{ ip: ips.hostIP }]
  status.podIP = ips.podIP
  status.podIPs = [{ ip: ips.podIP }]
  status.startTime ??= ts
  return status
}

/**
 * ContainersReady as kubelet's GenerateContainersReadyCondition words it for a running pod (sidecars among the init
 * containers count too): "containers with unready status: [a b]" while any is not ready.
 */
function containersReadyCondition(pod: Obj, now: Date): Obj {
  const unready: string[] = []
  const statusOf = (list: Obj[] | undefined, name: string) => (list ?? []).find((x) => x.name === name)
  for (const c of (pod.spec?.initContainers ?? []) as Obj[]) {
    const s = statusOf(pod.status?.initContainerStatuses, c.name)
    if (c.restartPolicy === 'Always' && s && !s.ready) unready.push(c.name)
  }
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    const s = statusOf(pod.status?.containerStatuses, c.name)
    if (s && !s.ready) unready.push(c.name)
  }
  if (unready.length === 0) return condition('ContainersReady', 'True', now)
  return condition(
    'ContainersReady',
    'False',
    now,
    'ContainersNotReady',
    `containers with unready status: [${unready.join(' ')}]`,
  )
}

/**
 * The ContainersReady and Ready conditions a running pod should have now, where they differ from its own (containers
 * stop and start again, readiness gates change through /status): Ready takes ContainersReady's status, reason and
 * message while containers are not ready, then the readiness gates' verdict (GeneratePodReadyCondition).
 */
export function desiredReady(pod: Obj, now: Date): Obj[] | null {
  if (pod.status?.phase !== 'Running') return null
  const conditions = (pod.status?.conditions ?? []) as Obj[]
  const containers = containersReadyCondition(pod, now)
  const gate = readyFromGates(pod, conditions)
  const ready =
    containers.status !== 'True'
      ? condition('Ready', 'False', now, containers.reason, containers.message)
      : gate.ready
        ? condition('Ready', 'True', now)
        : condition('Ready', 'False', now, gate.reason, gate.message)
  const differs = (next: Obj) => {
    const current = conditions.find((c) => c.type === next.type)
    return (
      !current || current.status !== next.status || current.reason !== next.reason || current.message !== next.message
    )
  }
  const changed = [containers, ready].filter(differs)
  return changed.length ? changed : null
}

/** Every container stopped: Succeeded/Failed, or (reason given) a deadline or deletion. */
export function terminatedStatus(
  pod: Obj,
  now: Date,
  outcome: { phase: 'Succeeded' | 'Failed'; reason?: string; message?: string; killed?: boolean },
): Obj {
  const ts = rfc3339(now)
  const uid = pod.metadata?.uid ?? ''
  const status: Obj = { ...(pod.status ?? {}) }
  status.phase = outcome.phase
  if (outcome.reason) status.reason = outcome.reason
  if (outcome.message) status.message = outcome.message
  status.containerStatuses = ((pod.spec?.containers ?? []) as Obj[]).map((c) => {
    const prev = ((pod.status?.containerStatuses ?? []) as Obj[]).find((s) => s.name === c.name)
    // A container that already ended (its program exited and it is not restarted) keeps the end it had; one waiting
    // in CrashLoopBackOff is not started again, its last run is how it ended.
    if (prev?.state?.terminated) return prev
    if (prev?.state?.waiting && prev.lastState?.terminated)
      return { ...prev, state: { terminated: prev.lastState.terminated }, lastState: {}, ready: false, started: false }
    const program = containerProgram(c.command, c.args)
    const code = outcome.killed ? 137 : (program.exit?.code ?? 0)
    return {
      name: c.name,
      state: {
        terminated: {
          exitCode: code,
          reason: outcome.killed ? 'Error' : code === 0 ? 'Completed' : 'Error',
          startedAt: prev?.state?.running?.startedAt ?? ts,
          finishedAt: ts,
          containerID: prev?.containerID ?? containerID(uid, c.name),
        },
      },
      lastState: prev?.lastState ?? {},
      ready: false,
      restartCount: prev?.restartCount ?? 0,
      image: c.image,
      imageID: imageID(c.image ?? ''),
      containerID: prev?.containerID ?? containerID(uid, c.name),
      started: false,
    }
  })
  const reason = outcome.phase === 'Succeeded' ? 'PodCompleted' : 'PodFailed'
  status.conditions = setConditions(status.conditions, [
    condition('PodReadyToStartContainers', 'False', now),
    condition('Ready', 'False', now, reason),
    condition('ContainersReady', 'False', now, reason),
  ])
  return status
}

/** Statuses for ephemeral containers that have none yet (they start at once). */
export function ephemeralStatuses(pod: Obj, now: Date): Obj[] | null {
  const specs = (pod.spec?.ephemeralContainers ?? []) as Obj[]
  const have = (pod.status?.ephemeralContainerStatuses ?? []) as Obj[]
  if (specs.length === have.length) return null
  const ts = rfc3339(now)
  return specs.map(
    (c) =>
      have.find((s) => s.name === c.name) ?? {
        name: c.name,
        state: { running: { startedAt: ts } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: c.image,
        imageID: imageID(c.image ?? ''),
        containerID: containerID(pod.metadata?.uid ?? '', c.name),
        started: true,
      },
  )
}

/**
 * Whether the scheduler, the simulated kubelet or the garbage collector may still act on a pod: unbound, starting,
 * stopping, or running with something due (a deadline, completion, later log lines, readiness gates, ephemeral
 * containers without status). Settled pods need nothing until they change, and a change is a commit.
 */
export function podNeedsAttention(pod: Obj): boolean {
  if (pod.metadata?.deletionTimestamp) return true
  if (!pod.spec?.nodeName) return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed'
  const phase = pod.status?.phase ?? 'Pending'
  if (phase === 'Pending') return true
  if (phase !== 'Running') return false
  if (pod.spec.activeDeadlineSeconds !== undefined || (pod.spec.readinessGates ?? []).length > 0) return true
  if (
    ((pod.spec.ephemeralContainers ?? []) as Obj[]).length !==
    ((pod.status?.ephemeralContainerStatuses ?? []) as Obj[]).length
  )
    return true
  if (podCompletion(pod)) return true
  // A container whose program exits ends, and may start again (src/registry/container-restarts.ts).
  const statuses = (pod.status?.containerStatuses ?? []) as Obj[]
  const ends = (c: Obj) =>
    containerProgram(c.command, c.args).exit !== null && !statuses.find((s) => s.name === c.name)?.state?.terminated
  if (((pod.spec.containers ?? []) as Obj[]).some(ends)) return true
  // A sidecar (restartable init container) whose program exits is started again for as long as the pod runs.
  if (
    ((pod.spec.initContainers ?? []) as Obj[]).some(
      (c) => c.restartPolicy === 'Always' && containerProgram(c.command, c.args).exit !== null,
    )
  )
    return true
  return [...((pod.spec.initContainers ?? []) as Obj[]), ...((pod.spec.containers ?? []) as Obj[])].some((c) =>
    containerProgram(c.command, c.args).output.some((o) => o.at > 0),
  )
}
