// The simulated kubelet's delays (KWOK-style): a scheduled pod starts `startDelayMs` after its PodScheduled=True, and a
// deleted one stops `stopDelayMs` into its grace period (never after its deletionTimestamp), so watchers see each stage.
type Obj = Record<string, any>

interface KubeletDelays {
  startDelayMs: number
  stopDelayMs: number
}

/**
 * When the pod's next stage falls due, if it is a start or stop that waits for the kubelet's delay and the time has
 * not come; null otherwise (a stage is due now, or none waits on a delay).
 */
export function stageDueAt(pod: Obj, now: number, delays: KubeletDelays): number | null {
  let due: number
  if (pod.metadata.deletionTimestamp) {
    const removeAt = Date.parse(pod.metadata.deletionTimestamp)
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000
    due = Math.min(removeAt - grace + delays.stopDelayMs, removeAt)
  } else {
    const phase = pod.status?.phase ?? 'Pending'
    if (phase === 'Running' || phase === 'Succeeded' || phase === 'Failed') return null
    const scheduled = ((pod.status?.conditions ?? []) as Obj[]).find(
      (c) => c.type === 'PodScheduled' && c.status === 'True',
    )
    const since = Date.parse(
      scheduled?.lastTransitionTime ?? pod.metadata.creationTimestamp ?? new Date(now).toISOString(),
    )
    due = since + delays.startDelayMs
  }
  return now < due ? due : null
}
