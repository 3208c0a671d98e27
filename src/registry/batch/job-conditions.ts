// A Job's conditions as kube's job controller reads and writes them: finished (Complete or Failed True), the
// conditions it appends (newCondition, both timestamps the controller's now) and ensureJobConditionStatus, which
// changes a condition only when its status, reason or message moves and never appends a False one.
import type { JobCondition, JobStatus } from '../../schema/batch'
import { rfc3339 } from '../time'

export const conditionTrue = (status: JobStatus | undefined, type: string) =>
  (status?.conditions ?? []).some((c) => c.type === type && c.status === 'True')

/** IsJobFinished: Complete or Failed is True. */
export const isJobFinished = (status: JobStatus | undefined) =>
  conditionTrue(status, 'Complete') || conditionTrue(status, 'Failed')

export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(new Date(now))
  const c: JobCondition = { type, status, lastProbeTime: t, lastTransitionTime: t }
  if (reason) c.reason = reason
  if (message) c.message = message
  return c
}

/** ensureJobConditionStatus: the list with the condition set, and whether it changed. */
export function ensureCondition(
  list: JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): { conditions: JobCondition[]; changed: boolean } {
  const i = list.findIndex((c) => c.type === type)
  if (i >= 0) {
    const c = list[i]!
    if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message)
      return { conditions: list, changed: false }
    const next = [...list]
    next[i] = newCondition(type, status, reason, message, now)
    return { conditions: next, changed: true }
  }
  if (status === 'False') return { conditions: list, changed: false }
  return { conditions: [...list, newCondition(type, status, reason, message, now)], changed: true }
}

/** The time a finished Job finished: its Complete or Failed condition's last transition (the TTL counts from it). */
export function finishTime(status: JobStatus | undefined): number | null {
  const c = (status?.conditions ?? []).find(
    (x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  )
  const t = c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN
  return Number.isNaN(t) ? null : t
}
