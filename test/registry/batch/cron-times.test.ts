// The CronJob controller's time arithmetic (kube's pkg/controller/cronjob/utils.go): the scheduled time owed now, the
// missed-schedule counting, the next look, Job names and the scheduled-timestamp annotation in a time zone.
import { describe, expect, it } from 'vitest'
import { parseCronSchedule } from '../../../src/registry/batch/cron-schedule'
import { cronJobName, nextScheduleTime, nextWakeUp, rfc3339In } from '../../../src/registry/batch/cron-times'
import type { CronJobObject } from '../../../src/registry/batch/job-labels'
import { loadLocation, UTC_ZONE } from '../../../src/registry/batch/time-zone'

const at = (iso: string) => Date.parse(iso)
const schedule = (spec: string) => {
  const p = parseCronSchedule(spec)
  if (!p.ok) throw new Error(p.message)
  return p.value
}
const cj = (created: string, status: Record<string, string> = {}, deadline?: number): CronJobObject => ({
  metadata: { name: 'cj', creationTimestamp: created },
  spec: { schedule: '', jobTemplate: {}, ...(deadline !== undefined ? { startingDeadlineSeconds: deadline } : {}) },
  status,
})

describe('nextScheduleTime', () => {
  const hourly = schedule('0 * * * *')
  it('nothing owed before the first time; the first time once it has come', () => {
    const c = cj('2026-03-01T10:20:00Z')
    expect(nextScheduleTime(c, at('2026-03-01T10:59:59Z'), hourly)).toEqual({ time: null, tooMany: false })
    expect(nextScheduleTime(c, at('2026-03-01T11:00:00Z'), hourly)).toEqual({
      time: at('2026-03-01T11:00:00Z'),
      tooMany: false,
    })
  })
  it('after missed times, only the most recent is owed', () => {
    const c = cj('2026-03-01T10:20:00Z', { lastScheduleTime: '2026-03-01T11:00:00Z' })
    expect(nextScheduleTime(c, at('2026-03-01T15:30:00Z'), hourly)).toEqual({
      time: at('2026-03-01T15:00:00Z'),
      tooMany: false,
    })
  })
  it('more than 100 missed times are too many, and the most recent is still owed', () => {
    const c = cj('2026-03-01T00:00:30Z')
    expect(nextScheduleTime(c, at('2026-03-01T02:00:30Z'), schedule('* * * * *'))).toEqual({
      time: at('2026-03-01T02:00:00Z'),
      tooMany: true,
    })
  })
  it('startingDeadlineSeconds: times before the deadline are not looked at', () => {
    const c = cj('2026-03-01T10:20:00Z', {}, 300)
    expect(nextScheduleTime(c, at('2026-03-01T11:04:00Z'), hourly).time).toBe(at('2026-03-01T11:00:00Z'))
    expect(nextScheduleTime(c, at('2026-03-01T11:06:00Z'), hourly).time).toBeNull()
  })
  it('a schedule that never fires is an error', () => {
    const c = cj('2026-03-01T10:20:00Z')
    expect(nextScheduleTime(c, at('2026-03-02T00:00:00Z'), schedule('59 23 31 2 *'))).toEqual({
      time: null,
      tooMany: false,
      error: 'time difference between two schedules is less than 1 second',
    })
  })
})

describe('the next look, names and annotations', () => {
  it('looks again 100 ms after the next scheduled time', () => {
    const c = cj('2026-03-01T10:20:00Z', { lastScheduleTime: '2026-03-01T11:00:00Z' })
    expect(nextWakeUp(c, at('2026-03-01T11:00:05Z'), schedule('0 * * * *'))).toBe(at('2026-03-01T12:00:00.100Z'))
  })
  it('names Jobs by the scheduled minute since the epoch', () => {
    expect(cronJobName(cj('2026-03-01T10:20:00Z'), at('2026-03-01T11:00:00Z'))).toBe(
      `cj-${at('2026-03-01T11:00:00Z') / 60_000}`,
    )
  })
  it('writes the scheduled time as RFC 3339 in the zone', () => {
    const berlin = loadLocation('Europe/Berlin')
    if (!berlin.ok) throw new Error(berlin.message)
    expect(rfc3339In(at('2026-01-10T08:00:00Z'), berlin.zone)).toBe('2026-01-10T09:00:00+01:00')
    expect(rfc3339In(at('2026-07-10T08:00:00Z'), berlin.zone)).toBe('2026-07-10T10:00:00+02:00')
    expect(rfc3339In(at('2026-07-10T08:00:00Z'), UTC_ZONE)).toBe('2026-07-10T08:00:00Z')
    const london = loadLocation('Europe/London')
    if (!london.ok) throw new Error(london.message)
    expect(rfc3339In(at('2026-01-10T08:00:00Z'), london.zone)).toBe('2026-01-10T08:00:00Z')
  })
})
