// A pod's stale DisruptionTarget condition, as kube's disruption controller judges and clears it
// (nonTerminatingPodHasStaleDisruptionCondition, syncStalePodDisruption): a pod marked for disruption (an eviction, a
// preemption, a taint eviction) that was not deleted within two minutes gets the condition back to False, so the mark
// of a disruption that never happened does not stay on a running pod. Pure: the controller supplies the clock.
import type { KubeObject } from '../schema/meta'
import { rfc3339 } from './time'

type Obj = Record<string, any>

/** kube's stalePodDisruptionTimeout (DefaultStalePodDisruptionTimeout, not configurable there either). */
const STALE_POD_DISRUPTION_MS = 2 * 60 * 1000

const disruptionTarget = (pod: Obj): Obj | undefined =>
  ((pod.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'DisruptionTarget')

/**
 * When the pod's DisruptionTarget condition turns stale (ms since the epoch), or null when it never does: the pod is
 * being deleted, the condition is not True, the kubelet set it (TerminationByKubelet: its pod may take arbitrarily
 * long to terminate), or the pod has finished (no status writes for finished pods).
 */
export function staleDisruptionAt(pod: KubeObject): number | null {
  const p = pod as Obj
  if (p.metadata?.deletionTimestamp) return null
  const cond = disruptionTarget(p)
  if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet') return null
  const phase = p.status?.phase
  if (phase === 'Succeeded' || phase === 'Failed') return null
  // A missing transition time is Go's zero time: long past.
  const since = Date.parse(cond.lastTransitionTime ?? '')
  return (Number.isNaN(since) ? 0 : since) + STALE_POD_DISRUPTION_MS
}

/**
 * The pod with its DisruptionTarget condition set to False as podutil.UpdatePodCondition sets it: the condition
 * replaced by one carrying only its type, status and a new transition time (no reason or message), in place.
 */
export function withDisruptionCleared(pod: KubeObject, now: Date): KubeObject {
  const p = pod as KubeObject & Obj
  const conditions = ((p.status?.conditions ?? []) as Obj[]).map((c) =>
    c.type === 'DisruptionTarget'
      ? { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(now) }
      : c,
  )
  return { ...p, status: { ...p.status, conditions } }
}
