// Cron schedules as kube reads them: robfig/cron v3's ParseStandard (five fields minute hour day-of-month month
// day-of-week with names, ranges, steps, `*` and `?`; the descriptors @yearly @annually @monthly @weekly @daily
// @midnight @hourly and @every <duration>; a leading TZ= or CRON_TZ=), with its error texts, and its Next(): the first
// matching second after a time, computed in the schedule's zone (five years ahead at most, else Go's zero time).
import { goQuote } from '../go-strings'
import { parseGoDuration } from './go-duration'
import { loadLocation, UTC_ZONE, type Zone } from './time-zone'

/** time.Time{} as ms since the epoch: what Next answers when nothing matches within five years. */
export const GO_ZERO_TIME = -62135596800000

export interface CronSchedule {
  /** The first time after `after` (ms since the epoch) the schedule fires, or GO_ZERO_TIME. */
  next(after: number): number
}

interface Bounds {
  min: number
  max: number
  names?: Record<string, number>
}

const MINUTES: Bounds = { min: 0, max: 59 }
const HOURS: Bounds = { min: 0, max: 23 }
const DOM: Bounds = { min: 1, max: 31 }
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
}
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } }

/** One field's bits: the values it matches, and robfig's starBit (the field was `*` or `?` with no step). */
interface Field {
  values: Set<number>
  star: boolean
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string }
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message })

/** strconv.Atoi's error texts, wrapped as robfig's mustParseInt wraps them. */
function mustParseInt(expr: string): Parsed<number> {
  const m = /^[+-]?[0-9]+$/.exec(expr)
  if (!m) return fail(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`)
  const n = Number(expr)
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63) {
    return fail(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`)
  }
  if (n < 0) return fail(`negative number (${n}) not allowed: ${expr}`)
  return { ok: true, value: n }
}

function parseIntOrName(expr: string, names?: Record<string, number>): Parsed<number> {
  const named = names?.[expr.toLowerCase()]
  if (named !== undefined && Object.hasOwn(names!, expr.toLowerCase())) return { ok: true, value: named }
  return mustParseInt(expr)
}

/** getRange: number | number "-" number [ "/" number ], or `*`/`?` with an optional step. */
function getRange(expr: string, r: Bounds, into: Field): string | null {
  const rangeAndStep = expr.split('/')
  const lowAndHigh = rangeAndStep[0]!.split('-')
  const singleDigit = lowAndHigh.length === 1
  let start: number
  let end: number
  let star = false
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min
    end = r.max
    star = true
  } else {
    const s = parseIntOrName(lowAndHigh[0]!, r.names)
    if (!s.ok) return s.message
    start = s.value
    if (lowAndHigh.length === 1) end = start
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1]!, r.names)
      if (!e.ok) return e.message
      end = e.value
    } else return `too many hyphens: ${expr}`
  }
  let step = 1
  if (rangeAndStep.length === 2) {
    const st = mustParseInt(rangeAndStep[1]!)
    if (!st.ok) return st.message
    step = st.value
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max
    if (step > 1) star = false
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`
  if (start < r.min) return `beginning of range (${start}) below minimum (${r.min}): ${expr}`
  if (end > r.max) return `end of range (${end}) above maximum (${r.max}): ${expr}`
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`
  if (step === 0) return `step of range should be a positive number: ${expr}`
  for (let v = start; v <= end; v += step) into.values.add(v)
  if (star) into.star = true
  return null
}

/** getField: a comma-separated list of ranges (empty parts skipped, as strings.FieldsFunc skips them). */
function getField(text: string, r: Bounds): Parsed<Field> {
  const field: Field = { values: new Set(), star: false }
  for (const expr of text.split(',').filter((p) => p !== '')) {
    const err = getRange(expr, r, field)
    if (err) return fail(err)
  }
  return { ok: true, value: field }
}

const every = (b: Bounds): Field => {
  const values = new Set<number>()
  for (let v = b.min; v <= b.max; v++) values.add(v)
  return { values, star: true }
}
const only = (v: number): Field => ({ values: new Set([v]), star: false })

/** strings.Fields: split on (Unicode) white space, dropping empty parts. */
const goFields = (s: string) => s.split(/[\s\u0085\u00a0]+/u).filter((p) => p !== '')

/** cron.ParseStandard. */
export function parseCronSchedule(input: string): Parsed<CronSchedule> {
  if (input.length === 0) return fail('empty spec string')
  let spec = input
  // Without TZ= robfig uses the process's zone; the simulated controller manager runs in UTC.
  let zone: Zone = UTC_ZONE
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    // robfig slices up to the first space; a spec that has none panics there. Read the whole rest as the name.
    const space = spec.indexOf(' ')
    const name = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space)
    const loaded = loadLocation(name)
    if (!loaded.ok) return fail(`provided bad location ${name}: ${loaded.message}`)
    zone = loaded.zone
    spec = space < 0 ? '' : spec.slice(space).trim()
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, zone)
  const fields = goFields(spec)
  if (fields.length !== 5) return fail(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`)
  const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW]
  const parsed: Field[] = []
  for (let i = 0; i < 5; i++) {
    const f = getField(fields[i]!, bounds[i]!)
    if (!f.ok) return f
    parsed.push(f.value)
  }
  const [minute, hour, dom, month, dow] = parsed as [Field, Field, Field, Field, Field]
  return { ok: true, value: specSchedule({ second: only(0), minute, hour, dom, month, dow }, zone) }
}

function parseDescriptor(descriptor: string, zone: Zone): Parsed<CronSchedule> {
  const s = (f: Partial<Record<'minute' | 'hour' | 'dom' | 'month' | 'dow', Field>>) =>
    specSchedule(
      {
        second: only(0),
        minute: f.minute ?? only(0),
        hour: f.hour ?? only(0),
        dom: f.dom ?? every(DOM),
        month: f.month ?? every(MONTHS),
        dow: f.dow ?? every(DOW),
      },
      zone,
    )
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return { ok: true, value: s({ dom: only(1), month: only(1) }) }
    case '@monthly':
      return { ok: true, value: s({ dom: only(1) }) }
    case '@weekly':
      return { ok: true, value: s({ dow: only(0) }) }
    case '@daily':
    case '@midnight':
      return { ok: true, value: s({}) }
    case '@hourly':
      return { ok: true, value: s({ hour: every(HOURS) }) }
  }
  const prefix = '@every '
  if (descriptor.startsWith(prefix)) {
    const d = parseGoDuration(descriptor.slice(prefix.length))
    if (!d.ok) return fail(`failed to parse duration ${descriptor}: ${d.message}`)
    // cron.Every: at least a second, whole seconds only.
    const delay = d.ms < 1000 ? 1000 : d.ms - (d.ms % 1000)
    return { ok: true, value: { next: (t) => t - mod(t, 1000) + delay } }
  }
  return fail(`unrecognized descriptor: ${descriptor}`)
}

const mod = (a: number, b: number) => ((a % b) + b) % b

interface Spec {
  second: Field
  minute: Field
  hour: Field
  dom: Field
  month: Field
  dow: Field
}

/** SpecSchedule.Next, field by field as robfig walks them (wrapping to re-check earlier fields), in the zone. */
function specSchedule(spec: Spec, zone: Zone): CronSchedule {
  const dayMatches = (day: number, weekday: number) => {
    const domMatch = spec.dom.values.has(day)
    const dowMatch = spec.dow.values.has(weekday)
    return spec.dom.star || spec.dow.star ? domMatch && dowMatch : domMatch || dowMatch
  }
  return {
    next(after: number): number {
      // The upcoming whole second.
      let t = after - mod(after, 1000) + 1000
      let added = false
      const yearLimit = zone.wall(t).year + 5
      for (;;) {
        let w = zone.wall(t)
        if (w.year > yearLimit) return GO_ZERO_TIME
        let wrapped = false
        while (!spec.month.values.has(w.month)) {
          if (!added) {
            added = true
            t = zone.instant(w.year, w.month, 1, 0, 0, 0)
            w = zone.wall(t)
          }
          t = zone.instant(w.year, w.month + 1, w.day, w.hour, w.minute, w.second)
          w = zone.wall(t)
          if (w.month === 1) {
            wrapped = true
            break
          }
        }
        if (wrapped) continue
        while (!dayMatches(w.day, w.weekday)) {
          if (!added) {
            added = true
            t = zone.instant(w.year, w.month, w.day, 0, 0, 0)
            w = zone.wall(t)
          }
          t = zone.instant(w.year, w.month, w.day + 1, w.hour, w.minute, w.second)
          w = zone.wall(t)
          // Midnight may not exist (DST): come back to it from either side.
          if (w.hour !== 0) {
            t += (w.hour > 12 ? 24 - w.hour : -w.hour) * 3_600_000
            w = zone.wall(t)
          }
          if (w.day === 1) {
            wrapped = true
            break
          }
        }
        if (wrapped) continue
        while (!spec.hour.values.has(w.hour)) {
          if (!added) {
            added = true
            t = zone.instant(w.year, w.month, w.day, w.hour, 0, 0)
          }
          t += 3_600_000
          w = zone.wall(t)
          if (w.hour === 0) {
            wrapped = true
            break
          }
        }
        if (wrapped) continue
        while (!spec.minute.values.has(w.minute)) {
          if (!added) {
            added = true
            t -= mod(t, 60_000)
          }
          t += 60_000
          w = zone.wall(t)
          if (w.minute === 0) {
            wrapped = true
            break
          }
        }
        if (wrapped) continue
        while (!spec.second.values.has(w.second)) {
          if (!added) {
            added = true
            t -= mod(t, 1000)
          }
          t += 1000
          w = zone.wall(t)
          if (w.second === 0) {
            wrapped = true
            break
          }
        }
        if (wrapped) continue
        return t
      }
    },
  }
}
