// Cron schedules as robfig/cron v3's ParseStandard reads them (kube 1.33 validates and runs CronJobs with it): the
// error texts, and Next() for fields, names, steps, descriptors, @every, time zones and DST days.
import { describe, expect, it } from 'vitest'
import { GO_ZERO_TIME, parseCronSchedule } from '../../../src/registry/batch/cron-schedule'
import { loadLocation } from '../../../src/registry/batch/time-zone'
import { parseGoDuration } from '../../../src/registry/batch/go-duration'
import {
  formatIntervals,
  parseIndexes,
  validateIndexesFormat,
  withIndexes,
} from '../../../src/registry/batch/index-intervals'

const at = (iso: string) => Date.parse(iso)
function nextTimes(spec: string, from: string, n = 3): string[] {
  const p = parseCronSchedule(spec)
  if (!p.ok) throw new Error(p.message)
  const out: string[] = []
  let t = at(from)
  for (let i = 0; i < n; i++) {
    t = p.value.next(t)
    out.push(t === GO_ZERO_TIME ? 'zero' : new Date(t).toISOString())
  }
  return out
}

describe('ParseStandard errors', () => {
  const cases: [string, string][] = [
    ['', 'empty spec string'],
    ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every 5y', 'failed to parse duration @every 5y: time: unknown unit "y" in duration "5y"'],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ]
  for (const [spec, message] of cases) {
    it(JSON.stringify(spec), () => {
      const p = parseCronSchedule(spec)
      expect(p.ok ? 'parsed' : p.message).toBe(message)
    })
  }
})

describe('Next', () => {
  const from = '2025-03-29T12:34:56.789Z' // a Saturday
  const cases: [string, string[]][] = [
    ['*/15 * * * *', ['2025-03-29T12:45:00.000Z', '2025-03-29T13:00:00.000Z', '2025-03-29T13:15:00.000Z']],
    ['0 9 * * MON-FRI', ['2025-03-31T09:00:00.000Z', '2025-04-01T09:00:00.000Z', '2025-04-02T09:00:00.000Z']],
    ['30 6-16/4 * * 1-5', ['2025-03-31T06:30:00.000Z', '2025-03-31T10:30:00.000Z', '2025-03-31T14:30:00.000Z']],
    // Day of month and day of week both restricted: either matches (cron's OR).
    ['0 0 1 * 0', ['2025-03-30T00:00:00.000Z', '2025-04-01T00:00:00.000Z', '2025-04-06T00:00:00.000Z']],
    ['0 0 29 feb ?', ['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z', '2036-02-29T00:00:00.000Z']],
    ['@hourly', ['2025-03-29T13:00:00.000Z', '2025-03-29T14:00:00.000Z', '2025-03-29T15:00:00.000Z']],
    ['@daily', ['2025-03-30T00:00:00.000Z', '2025-03-31T00:00:00.000Z', '2025-04-01T00:00:00.000Z']],
    ['@weekly', ['2025-03-30T00:00:00.000Z', '2025-04-06T00:00:00.000Z', '2025-04-13T00:00:00.000Z']],
    ['@monthly', ['2025-04-01T00:00:00.000Z', '2025-05-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z']],
    ['@yearly', ['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']],
    // @every counts from the given time, in whole seconds.
    ['@every 1m30s', ['2025-03-29T12:36:26.000Z', '2025-03-29T12:37:56.000Z', '2025-03-29T12:39:26.000Z']],
    // Never: nothing within five years gives Go's zero time.
    ['59 23 31 2 *', ['zero', 'zero', 'zero']],
    // Europe/Berlin moves to summer time on 2025-03-30 at 02:00: 09:00 is 08:00Z before and 07:00Z after.
    [
      'TZ=Europe/Berlin 0 9 * * *',
      ['2025-03-30T07:00:00.000Z', '2025-03-31T07:00:00.000Z', '2025-04-01T07:00:00.000Z'],
    ],
    // 02:xx does not exist in Berlin on 2025-03-30 (01:59 is followed by 03:00): robfig skips that day.
    [
      'CRON_TZ=Europe/Berlin 30 2 * * *',
      ['2025-03-31T00:30:00.000Z', '2025-04-01T00:30:00.000Z', '2025-04-02T00:30:00.000Z'],
    ],
  ]
  for (const [spec, times] of cases) {
    it(spec, () => expect(nextTimes(spec, from)).toEqual(times))
  }
})

describe('time zones and durations', () => {
  it('loads IANA names as spelled, UTC and the empty name', () => {
    expect(loadLocation('America/New_York').ok).toBe(true)
    expect(loadLocation('').ok).toBe(true)
    expect(loadLocation('UTC').ok).toBe(true)
    expect(loadLocation('america/new_york')).toEqual({ ok: false, message: 'unknown time zone america/new_york' })
    expect(loadLocation('+01:00')).toEqual({ ok: false, message: 'unknown time zone +01:00' })
  })

  it('parses Go durations', () => {
    expect(parseGoDuration('1h2m3.5s')).toEqual({ ok: true, ms: 3723500 })
    expect(parseGoDuration('-1.5h')).toEqual({ ok: true, ms: -5400000 })
    expect(parseGoDuration('0')).toEqual({ ok: true, ms: 0 })
    expect(parseGoDuration('')).toEqual({ ok: false, message: 'time: invalid duration ""' })
    expect(parseGoDuration('.s')).toEqual({ ok: false, message: 'time: invalid duration ".s"' })
  })
})

describe('completion index intervals', () => {
  it('validates as kube does', () => {
    expect(validateIndexesFormat('0,2-4,7', 8)).toEqual({ ok: true, total: 5 })
    expect(validateIndexesFormat('1-2-3', 8)).toEqual({
      ok: false,
      message: `the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`,
    })
    expect(validateIndexesFormat('8', 8)).toEqual({ ok: false, message: 'too large index: "8"' })
    expect(validateIndexesFormat('a', 8)).toEqual({
      ok: false,
      message: 'cannot convert string to integer for index: "a"',
    })
    expect(validateIndexesFormat('3,1', 8)).toEqual({
      ok: false,
      message: 'non-increasing order, previous: 3, current: 1',
    })
  })

  it('reads leniently and writes merged runs', () => {
    expect(formatIntervals(parseIndexes('0,1,3-4,x,9', 5))).toBe('0-1,3-4')
    expect(formatIntervals(withIndexes(parseIndexes('0,2', 5), [1, 4]))).toBe('0-2,4')
  })
})
