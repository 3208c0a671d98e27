// IANA time zones as Go's time.LoadLocation knows them, read through Intl (the tz database the runtime ships): whether
// a name loads, and wall-clock fields of an instant in a zone and back, which cron schedules are computed in.
// Go's zone names are case-sensitive file names; Intl matches case-insensitively, so a name is accepted only when it
// is the zone's own spelling (or an alias Intl resolves to another zone).

/** Wall-clock fields of an instant in a zone; month 1-12, weekday 0 (Sunday)-6. */
interface WallTime {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  weekday: number
}

/** A loaded zone: its name, and conversions between instants (ms since the epoch) and wall-clock time. */
export interface Zone {
  readonly name: string
  wall(instant: number): WallTime
  /** time.Date in the zone: fields may overflow (day 32, month 13) and are normalized first, as Go's are. */
  instant(year: number, month: number, day: number, hour: number, minute: number, second: number): number
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

function utcWall(instant: number): WallTime {
  const d = new Date(instant)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  }
}

/** Wall-clock fields read as if they were UTC: normalizes overflowing fields and gives the "wall instant". */
function wallAsUtc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  d.setUTCFullYear(year, month - 1, day)
  d.setUTCHours(hour, minute, second, 0)
  return d.getTime()
}

export const UTC_ZONE: Zone = {
  name: 'UTC',
  wall: utcWall,
  instant: wallAsUtc,
}

class IntlZone implements Zone {
  private readonly format: Intl.DateTimeFormat

  constructor(readonly name: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    })
  }

  wall(instant: number): WallTime {
    const parts: Record<string, string> = {}
    for (const p of this.format.formatToParts(new Date(instant))) parts[p.type] = p.value
    const year = Number(parts.year)
    return {
      year: parts.era === 'BC' ? 1 - year : year,
      month: Number(parts.month),
      day: Number(parts.day),
      hour: Number(parts.hour),
      minute: Number(parts.minute),
      second: Number(parts.second),
      weekday: WEEKDAYS[parts.weekday ?? 'Sun'] ?? 0,
    }
  }

  /** The zone's offset from UTC at an instant, in ms. */
  private offset(instant: number): number {
    const w = this.wall(instant)
    const seconds = Math.floor(instant / 1000) * 1000
    return wallAsUtc(w.year, w.month, w.day, w.hour, w.minute, w.second) - seconds
  }

  instant(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
    // Go's time.Date: take the offset in force at the wall time read as UTC; when the instant that gives lies outside
    // that offset's period (near a transition), use the offset in force at that instant instead.
    const wall = wallAsUtc(year, month, day, hour, minute, second)
    const guessed = this.offset(wall)
    const utc = wall - guessed
    const actual = this.offset(utc)
    return actual === guessed ? utc : wall - actual
  }
}

const loaded = new Map<string, Zone | string>()

/**
 * time.LoadLocation: "" and "UTC" are UTC; otherwise an IANA name the tz database knows, spelled as it spells it.
 * Answers the zone, or Go's error text. "Local" is the host's zone in Go; kube refuses it before loading, and here it
 * loads as UTC, the zone the simulated controllers run in.
 */
export function loadLocation(name: string): { ok: true; zone: Zone } | { ok: false; message: string } {
  if (name === '' || name === 'UTC' || name === 'Local') return { ok: true, zone: UTC_ZONE }
  let found = loaded.get(name)
  if (found === undefined) {
    found = probe(name)
    loaded.set(name, found)
  }
  return typeof found === 'string' ? { ok: false, message: found } : { ok: true, zone: found }
}

function probe(name: string): Zone | string {
  const unknown = `unknown time zone ${name}`
  // Go refuses these before looking anything up (time.containsDotDot and the leading separators).
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name'
  // Intl takes UTC offsets ("+01:00") as zones; Go's tz database has no such names.
  if (/^[+-]\d/.test(name)) return unknown
  let resolved: string
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return unknown
  }
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return unknown
  return new IntlZone(name)
}
