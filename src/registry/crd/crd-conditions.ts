// The conditions of a CRD's status (apihelpers SetCRDCondition, FindCRDCondition): a transition time moves only
// when the status does.
import { rfc3339 } from '../time'
import type { Crd, CrdCondition } from './json-schema'

/** Sets a condition in place, keeping its lastTransitionTime unless the status changes. */
export function setCondition(crd: Crd, next: Omit<CrdCondition, 'lastTransitionTime'>, now: Date) {
  crd.status ??= {}
  const conditions = (crd.status.conditions ??= [])
  const existing = conditions.find((c) => c.type === next.type)
  if (!existing) {
    conditions.push({
      type: next.type,
      status: next.status,
      lastTransitionTime: rfc3339(now),
      reason: next.reason,
      message: next.message,
    })
    return
  }
  if (existing.status !== next.status || !existing.lastTransitionTime) existing.lastTransitionTime = rfc3339(now)
  existing.status = next.status
  existing.reason = next.reason
  existing.message = next.message
}
