// Which pods the namespace's scheduler takes and in which order: kube's scheduler filters (its own schedulerName,
// unbound, not being deleted, no scheduling gates, not Succeeded/Failed) and its PrioritySort queue order. Pure.
import type { Stored } from '../registry/store'

type Obj = Record<string, any>

/** The component name kube's scheduler writes events and status under. */
export const SCHEDULER = 'default-scheduler'

/** Succeeded or Failed: kube's scheduler watches pods with `status.phase!=Succeeded,status.phase!=Failed` only. */
export const terminal = (pod: Obj | null | undefined) =>
  pod?.status?.phase === 'Succeeded' || pod?.status?.phase === 'Failed'

export const wantsScheduling = (pod: Obj) =>
  !pod.spec?.nodeName &&
  !pod.metadata?.deletionTimestamp &&
  (pod.spec?.schedulerName ?? SCHEDULER) === SCHEDULER &&
  !(pod.spec?.schedulingGates?.length > 0) &&
  pod.status?.phase !== 'Succeeded' &&
  pod.status?.phase !== 'Failed'

/** kube's PrioritySort queue order: higher priority first; among equals, the one created first. */
export function byPriority(a: Stored, b: Stored): number {
  const pa = (a.object as Obj).spec?.priority ?? 0
  const pb = (b.object as Obj).spec?.priority ?? 0
  if (pa !== pb) return pb - pa
  const ta = a.object.metadata.creationTimestamp ?? ''
  const tb = b.object.metadata.creationTimestamp ?? ''
  return ta < tb ? -1 : ta > tb ? 1 : 0
}
