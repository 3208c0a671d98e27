// Go's time.ParseDuration, for cron's `@every <duration>`: the same grammar ([-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, units
// ns us µs μs ms s m h) and the same error texts. Answers milliseconds (fractions of a millisecond kept as decimals).
import { goQuote } from '../go-strings'

const UNITS_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
}

/** 1<<63 nanoseconds: beyond it a duration overflows. */
const MAX_NS = 2 ** 63

export function parseGoDuration(input: string): { ok: true; ms: number } | { ok: false; message: string } {
  const invalid = { ok: false as const, message: `time: invalid duration ${goQuote(input)}` }
  let s = input
  let neg = false
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-'
    s = s.slice(1)
  }
  if (s === '0') return { ok: true, ms: 0 }
  if (s === '') return invalid
  let total = 0
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) return invalid
    const whole = /^[0-9]*/.exec(s)![0]
    s = s.slice(whole.length)
    let fraction = ''
    if (s[0] === '.') {
      s = s.slice(1)
      fraction = /^[0-9]*/.exec(s)![0]
      s = s.slice(fraction.length)
    }
    if (whole === '' && fraction === '') return invalid
    const unit = /^[^0-9.]*/.exec(s)![0]
    if (unit === '') return { ok: false, message: `time: missing unit in duration ${goQuote(input)}` }
    s = s.slice(unit.length)
    const scale = UNITS_NS[unit]
    if (scale === undefined)
      return { ok: false, message: `time: unknown unit ${goQuote(unit)} in duration ${goQuote(input)}` }
    const v = Number(whole || '0')
    if (v > MAX_NS / scale) return invalid
    total += v * scale + (fraction ? Number(`0.${fraction}`) * scale : 0)
    if (total > MAX_NS) return invalid
  }
  if (!neg && total > MAX_NS - 1) return invalid
  return { ok: true, ms: (neg ? -total : total) / 1e6 }
}
