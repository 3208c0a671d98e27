// The PodStatus a kubelet reports, computed from the container statuses (pure): phase by kubelet's getPhase, the
// kubelet's conditions (PodReadyToStartContainers, Initialized, ContainersReady, Ready with readiness gates), IPs and
// startTime. Conditions others own (PodScheduled, gates, DisruptionTarget) are left to them.
import type { Obj } from './obj.ts'
import { isSidecar } from './sidecars.ts'

export interface PodStatusInput {
  pod: Obj
  initStatuses: Obj[]
  statuses: Obj[]
  /** Ephemeral containers' statuses (kubectl debug); they count for neither the phase nor the conditions. */
  ephemeralStatuses?: Obj[]
  /** The pod will run nothing more (deleted and stopped, or past its deadline). */
  terminal: boolean
  hostIP: string
  /** The pod's own address (a network namespace of its own); null while it has none yet; by default the host's. */
  podIP?: string | null
  startTime: string
  now: string
  /** A pod-level reason and message (DeadlineExceeded). */
  reason?: string
  message?: string
}

const byName = (list: Obj[], name: string) => list.find((s) => s.name === name)

/** kubelet 1.33's getPhase: sidecars (restartPolicy Always init containers) count as running containers once started. */
export function podPhase(pod: Obj, initStatuses: Obj[], statuses: Obj[], terminal: boolean): string {
  const policy = pod.spec?.restartPolicy ?? 'Always'
  let pendingInit = 0
  let pendingSidecars = 0
  let failedInit = 0
  let unknown = 0
  let running = 0
  let waiting = 0
  let stopped = 0
  let succeeded = 0
  for (const c of (pod.spec?.initContainers ?? []) as Obj[]) {
    const s = byName(initStatuses, c.name)
    if (isSidecar(c)) {
      // A sidecar that ended (or waits to run again after it ended) does not count.
      if (!s) unknown++
      else if (s.state?.running) {
        if (s.started !== true) pendingSidecars++
        running++
      } else if (s.state?.terminated) {
        // not counted
      } else if (s.state?.waiting) {
        if (!s.lastState?.terminated) {
          pendingSidecars++
          waiting++
        }
      } else {
        pendingSidecars++
        unknown++
      }
    } else if (!s || s.state?.running) pendingInit++
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++
    } else if (s.state?.waiting && s.lastState?.terminated) {
      if (s.lastState.terminated.exitCode !== 0) failedInit++
    } else pendingInit++
  }
  // kubelet's HasAnyActiveRegularContainerStarted: a sidecar restarting later does not make the pod Pending again.
  let initialized = false
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    const s = byName(statuses, c.name)
    if (!s) unknown++
    else if (s.state?.running) {
      running++
      initialized = true
    } else if (s.state?.terminated) {
      stopped++
      if (s.state.terminated.exitCode === 0) succeeded++
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++
      else waiting++
    } else unknown++
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed'
  if (pendingInit > 0 || (pendingSidecars > 0 && !initialized) || waiting > 0) return 'Pending'
  if (running > 0 && unknown === 0) return 'Running'
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed'
    if (policy === 'Always') return 'Running'
    if (stopped === succeeded) return 'Succeeded'
    if (policy === 'Never') return 'Failed'
    return 'Running'
  }
  return 'Pending'
}

const cond = (type: string, ok: boolean, now: string, reason?: string, message?: string): Obj => ({
  type,
  status: ok ? 'True' : 'False',
  lastProbeTime: null,
  lastTransitionTime: now,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
})

/** Our conditions merged into the pod's: a condition whose status and reason did not change keeps its transition time. */
export function mergeConditions(existing: Obj[], ours: Obj[]): Obj[] {
  const out = existing.map((c) => ({ ...c }))
  for (const c of ours) {
    const i = out.findIndex((x) => x.type === c.type)
    if (i < 0) out.push(c)
    else if (out[i]!.status === c.status && out[i]!.reason === c.reason)
      out[i] = { ...c, lastTransitionTime: out[i]!.lastTransitionTime }
    else out[i] = c
  }
  return out
}

function readinessGates(pod: Obj, conditions: Obj[]): string[] {
  const unmet: string[] = []
  for (const g of (pod.spec?.readinessGates ?? []) as Obj[]) {
    const c = conditions.find((x) => x.type === g.conditionType)
    if (!c) unmet.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist`)
    else if (c.status !== 'True')
      unmet.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`)
  }
  return unmet
}

/** The status fields the kubelet owns, as they are now. */
export function podStatus(input: PodStatusInput): Obj {
  const { pod, initStatuses, statuses, now } = input
  const phase = podPhase(pod, initStatuses, statuses, input.terminal)
  const finished = phase === 'Succeeded' || phase === 'Failed'
  const initContainers = (pod.spec?.initContainers ?? []) as Obj[]
  // GeneratePodInitializedCondition: a sidecar is done once started, a regular init container once completed.
  const incompleteInit = initContainers
    .filter((c) => {
      const s = byName(initStatuses, c.name)
      return isSidecar(c) ? s?.started !== true : s?.state?.terminated?.exitCode !== 0
    })
    .map((c) => c.name as string)
  const regularStarted = statuses.some((s) => s.state?.running || s.state?.terminated)
  const initialized = incompleteInit.length === 0 || phase === 'Succeeded' || regularStarted
  // GenerateContainersReadyCondition: the sidecars, then the containers.
  const unready = [...initContainers.filter(isSidecar), ...((pod.spec?.containers ?? []) as Obj[])]
    .filter((c) => byName(isSidecar(c) ? initStatuses : statuses, c.name)?.ready !== true)
    .map((c) => c.name as string)
  const finishedReason = phase === 'Failed' ? 'PodFailed' : 'PodCompleted'
  const containersReady = finished
    ? cond('ContainersReady', false, now, finishedReason)
    : unready.length
      ? cond(
          'ContainersReady',
          false,
          now,
          'ContainersNotReady',
          `containers with unready status: [${unready.join(' ')}]`,
        )
      : cond('ContainersReady', true, now)
  const existing = (pod.status?.conditions ?? []) as Obj[]
  const unmet = readinessGates(pod, existing)
  const ready =
    containersReady.status !== 'True'
      ? { ...containersReady, type: 'Ready' }
      : unmet.length
        ? cond('Ready', false, now, 'ReadinessGatesNotReady', `${unmet.join(', ')}.`)
        : cond('Ready', true, now)
  const ours = [
    cond('PodReadyToStartContainers', !finished, now),
    initialized
      ? cond('Initialized', true, now, phase === 'Succeeded' ? 'PodCompleted' : undefined)
      : cond(
          'Initialized',
          false,
          now,
          'ContainersNotInitialized',
          `containers with incomplete status: [${incompleteInit.join(' ')}]`,
        ),
    ready,
    containersReady,
    // The kubelet reports the pod scheduled (a pod created with nodeName never met the scheduler).
    cond('PodScheduled', true, now),
  ]
  const status: Obj = {
    phase,
    conditions: mergeConditions(existing, ours),
    message: input.message ?? null,
    reason: input.reason ?? null,
    hostIP: input.hostIP,
    hostIPs: [{ ip: input.hostIP }],
    podIP: input.podIP === undefined ? input.hostIP : input.podIP,
    podIPs: input.podIP === null ? null : [{ ip: input.podIP ?? input.hostIP }],
    startTime: input.startTime,
    initContainerStatuses: initStatuses.length ? initStatuses : null,
    containerStatuses: statuses,
  }
  if (input.ephemeralStatuses?.length) status.ephemeralContainerStatuses = input.ephemeralStatuses
  return status
}
