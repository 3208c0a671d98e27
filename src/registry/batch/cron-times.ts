// The CronJob controller's arithmetic of time (pkg/controller/cronjob/utils.go): the most recent scheduled time a Job
// is owed (counting from lastScheduleTime, or the CronJob's creation, no earlier than startingDeadlineSeconds ago),
// how many were missed (more than 100 is "too many"), when to look again (the next time, plus 100 ms), and the Job a
// scheduled time makes: `<cronjob>-<minutes since the epoch>`, with its scheduled time annotated in the CronJob's zone.
import type { JobSpec } from '../../schema/batch'
import type { KubeObject, ObjectMeta } from '../../schema/meta'
import type { CronSchedule } from './cron-schedule'
import { CRONJOB_SCHEDULED_TIMESTAMP, type CronJobObject } from './job-labels'
import type { Zone } from './time-zone'

/** The padding kube adds to a requeue, so a clock a little ahead does not wake the controller just too early. */
const NEXT_SCHEDULE_DELTA_MS = 100

type Missed = 'none' | 'few' | 'many'

interface MostRecent {
  earliest: number
  /** The most recent scheduled time not after now, or null. */
  mostRecent: number | null
  missed: Missed
  error?: string
}

/** mostRecentScheduleTime. */
function mostRecentScheduleTime(
  cj: CronJobObject,
  now: number,
  schedule: CronSchedule,
  withDeadline: boolean,
): MostRecent {
  let earliest = Date.parse(cj.metadata.creationTimestamp ?? '') || 0
  if (cj.status?.lastScheduleTime) earliest = Date.parse(cj.status.lastScheduleTime)
  const deadline = cj.spec?.startingDeadlineSeconds
  if (withDeadline && deadline !== undefined) {
    // The controller schedules nothing before this point.
    const schedulingDeadline = now - deadline * 1000
    if (schedulingDeadline > earliest) earliest = schedulingDeadline
  }
  const t1 = schedule.next(earliest)
  const t2 = schedule.next(t1)
  if (now < t1) return { earliest, mostRecent: null, missed: 'none' }
  if (now < t2) return { earliest, mostRecent: t1, missed: 'none' }
  // A schedule that never fires (31 February) gives the same zero time twice.
  const between = Math.round((t2 - t1) / 1000)
  if (between < 1)
    return {
      earliest,
      mostRecent: null,
      missed: 'none',
      error: 'time difference between two schedules is less than 1 second',
    }
  const missedCount = Math.trunc((now - t1) / 1000 / between) + 1
  let mostRecent = 0
  let found = false
  for (let t = schedule.next(t1 + (missedCount - 2) * between * 1000); t <= now; t = schedule.next(t)) {
    mostRecent = t
    found = true
  }
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none'
  return { earliest, mostRecent: found ? mostRecent : null, missed }
}

/** nextScheduleTime: the scheduled time a Job is owed now, if any; `tooMany` asks for the TooManyMissedTimes event. */
export function nextScheduleTime(
  cj: CronJobObject,
  now: number,
  schedule: CronSchedule,
): { time: number | null; tooMany: boolean; error?: string } {
  const r = mostRecentScheduleTime(cj, now, schedule, true)
  if (r.mostRecent === null || r.mostRecent > now) return { time: null, tooMany: false, error: r.error }
  return { time: r.mostRecent, tooMany: r.missed === 'many', error: r.error }
}

/** nextScheduleTimeDuration, as the time to look again (ms since the epoch). */
export function nextWakeUp(cj: CronJobObject, now: number, schedule: CronSchedule): number {
  const r = mostRecentScheduleTime(cj, now, schedule, false)
  let from: number
  if (r.error) from = now
  else if (r.mostRecent === null) from = r.missed === 'none' ? r.earliest : now
  else from = r.mostRecent
  return schedule.next(from) + NEXT_SCHEDULE_DELTA_MS
}

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export const cronJobName = (cj: CronJobObject, scheduled: number) =>
  `${cj.metadata.name}-${Math.floor(Math.floor(scheduled / 1000) / 60)}`

/** time.Time.Format(time.RFC3339) in a zone: `Z` in UTC, else the zone's offset at that time. */
export function rfc3339In(instant: number, zone: Zone): string {
  const w = zone.wall(instant)
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  const wallMs = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  const offsetMinutes = Math.round((wallMs - Math.floor(instant / 1000) * 1000) / 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const off = Math.abs(offsetMinutes)
  // Z07:00: a zero offset is written Z, in any zone.
  const suffix = offsetMinutes === 0 ? 'Z' : `${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${suffix}`
}

/** getJobFromTemplate2: the template's labels and annotations, the scheduled time, owned by the CronJob. */
export function jobFromTemplate(cj: CronJobObject, scheduled: number, zone: Zone): KubeObject {
  const template = cj.spec?.jobTemplate ?? {}
  const meta: ObjectMeta = {
    name: cronJobName(cj, scheduled),
    labels: { ...template.metadata?.labels },
    annotations: { ...template.metadata?.annotations, [CRONJOB_SCHEDULED_TIMESTAMP]: rfc3339In(scheduled, zone) },
    ownerReferences: [
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: cj.metadata.name!,
        uid: cj.metadata.uid!,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  }
  if (Object.keys(meta.labels!).length === 0) delete meta.labels
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta,
    spec: structuredClone(template.spec ?? ({} as JobSpec)),
  }
}
