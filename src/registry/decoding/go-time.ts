// Go's time.Parse over the two layouts metav1 decodes (Time: RFC 3339; MicroTime: RFC 3339 with exactly six
// fractional digits), for its acceptance and its error messages: `parsing time "x" as "2006-01-02T15:04:05Z07:00":
// cannot parse "x" as "2006"`, `parsing time "...": month out of range`.

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz'
/** Each layout as Go's nextStdChunk splits it: the literal before a element, the element, its text in the layout. */
type Chunk = [prefix: string, std: Std, text: string]

const HEAD: Chunk[] = [
  ['', 'year', '2006'],
  ['-', 'month', '01'],
  ['-', 'day', '02'],
  ['T', 'hour', '15'],
  [':', 'minute', '04'],
  [':', 'second', '05'],
]
const LAYOUTS = {
  RFC3339: { text: '2006-01-02T15:04:05Z07:00', chunks: [...HEAD, ['', 'tz', 'Z07:00']] as Chunk[] },
  RFC3339Micro: {
    text: '2006-01-02T15:04:05.000000Z07:00',
    chunks: [...HEAD, ['', 'frac6', '.000000'], ['', 'tz', 'Z07:00']] as Chunk[],
  },
}
type TimeLayout = keyof typeof LAYOUTS

const FAST = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** The error time.Parse gives for `value` in the layout, or null if it parses. */
export function goTimeError(value: string, layout: TimeLayout): string | null {
  // The common case, checked cheaply: a well-formed timestamp whose fields are in range.
  const m = FAST.exec(value)
  if (m && (layout === 'RFC3339' || m[7]?.length === 7) && inRange(m)) return null
  return parse(new TextEncoder().encode(value), layout)
}

function inRange(m: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || second > 59)
    return false
  const tz = m[8]!
  return tz === 'Z' || (Number(tz.slice(1, 3)) <= 24 && Number(tz.slice(4, 6)) <= 60)
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
}

const isDigit = (b: Uint8Array, i: number) => i < b.length && b[i]! >= 0x30 && b[i]! <= 0x39
const text = (b: Uint8Array) => new TextDecoder().decode(b)

/** time's own quote: printable ASCII as is, every other byte as \xNN. */
function quote(b: Uint8Array): string {
  let out = '"'
  for (const c of b) {
    if (c >= 0x80 || c < 0x20) out += `\\x${c.toString(16).padStart(2, '0')}`
    else out += (c === 0x22 || c === 0x5c ? '\\' : '') + String.fromCharCode(c)
  }
  return out + '"'
}
const quoteText = (s: string) => quote(new TextEncoder().encode(s))

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(b: Uint8Array, fixed: boolean): [number, Uint8Array] | null {
  if (!isDigit(b, 0)) return null
  if (!isDigit(b, 1)) return fixed ? null : [b[0]! - 0x30, b.subarray(1)]
  return [(b[0]! - 0x30) * 10 + (b[1]! - 0x30), b.subarray(2)]
}

function parse(all: Uint8Array, layoutName: TimeLayout): string | null {
  const layout = LAYOUTS[layoutName]
  const cannot = (valueElem: Uint8Array, layoutElem: string) =>
    `parsing time ${quote(all)} as ${quoteText(layout.text)}: cannot parse ${quote(valueElem)} as ${quoteText(layoutElem)}`
  const outOfRange = (what: string) => `parsing time ${quote(all)}: ${what} out of range`
  let value = all
  let year = 0
  let month = -1
  let day = -1
  for (let c = 0; ; c++) {
    const chunk = layout.chunks[c]
    if (!chunk) {
      if (value.length > 0) return `parsing time ${quote(all)}: extra text: ${quote(value)}`
      break
    }
    const [prefix, std, stdText] = chunk
    if (prefix !== '') {
      if (value.length === 0 || value[0] !== prefix.charCodeAt(0)) return cannot(value, prefix)
      value = value.subarray(1)
    }
    const hold = value
    let bad = false
    let range = ''
    switch (std) {
      case 'year': {
        if (value.length < 4 || !isDigit(value, 0)) {
          bad = true
          break
        }
        const digits = value.subarray(0, 4)
        value = value.subarray(4)
        if (!digits.every((_, i) => isDigit(digits, i))) bad = true
        else year = Number(text(digits))
        break
      }
      case 'month':
      case 'day':
      case 'minute':
      case 'hour': {
        const got = getnum(value, std !== 'hour')
        if (!got) {
          bad = true
          break
        }
        const [n, rest] = got
        value = rest
        if (std === 'month') {
          month = n
          if (n <= 0 || n > 12) range = 'month'
        } else if (std === 'day') day = n
        else if (std === 'hour' && n >= 24) range = 'hour'
        else if (std === 'minute' && n >= 60) range = 'minute'
        break
      }
      case 'second': {
        const got = getnum(value, true)
        if (!got) {
          bad = true
          break
        }
        value = got[1]
        if (got[0] >= 60) {
          range = 'second'
          break
        }
        // A fraction the layout does not spell out is accepted after the seconds (any number of digits).
        const comma = value[0] === 0x2e || value[0] === 0x2c
        if (layoutName === 'RFC3339' && value.length >= 2 && comma && isDigit(value, 1)) {
          let n = 2
          while (isDigit(value, n)) n++
          value = value.subarray(n)
        }
        break
      }
      case 'frac6': {
        if (value.length < 7 || (value[0] !== 0x2e && value[0] !== 0x2c)) {
          bad = true
          break
        }
        // Go reads the digits with atoi, which takes a sign: "-" makes a negative (out of range) fraction.
        const sign = value[1] === 0x2b || value[1] === 0x2d ? value[1] : 0
        const digits = value.subarray(sign ? 2 : 1, 7)
        if (!digits.every((_, i) => isDigit(digits, i))) bad = true
        else if (sign === 0x2d && digits.some((d) => d !== 0x30)) range = 'fractional second'
        value = value.subarray(7)
        break
      }
      case 'tz': {
        if (value.length >= 1 && value[0] === 0x5a) {
          value = value.subarray(1)
          break
        }
        if (value.length < 6 || value[3] !== 0x3a) {
          bad = true
          break
        }
        const sign = value[0]
        const hours = getnum(value.subarray(1, 3), true)
        const minutes = hours ? getnum(value.subarray(4, 6), true) : null
        value = value.subarray(6)
        if ((hours?.[0] ?? 0) > 24) range = 'time zone offset hour'
        if ((minutes?.[0] ?? 0) > 60) range = 'time zone offset minute'
        if (!hours || !minutes || (sign !== 0x2b && sign !== 0x2d)) bad = true
        break
      }
    }
    if (range) return outOfRange(range)
    if (bad) return cannot(hold, stdText)
  }
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day')
  return null
}

/**
 * A timestamp that parsed, as kube writes it back (metav1.Time and MicroTime marshal `t.UTC().Format(layout)`): in
 * UTC, Time to whole seconds (time.Parse accepted a fraction the layout does not print), MicroTime to six digits.
 */
export function goTimeCanonical(value: string, layout: TimeLayout): string {
  if (value.endsWith('Z') && (layout === 'RFC3339Micro' || !value.includes('.'))) return value
  const m = FAST.exec(value)
  if (!m) return value
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const tz = m[8]!
  const offsetMinutes =
    tz === 'Z' ? 0 : (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)))
  const at = new Date(0)
  at.setUTCFullYear(year, month - 1, day)
  at.setUTCHours(hour, minute - offsetMinutes, second, 0)
  const whole = at.toISOString().replace(/\.\d{3}Z$/, '')
  return layout === 'RFC3339' ? `${whole}Z` : `${whole}${(m[7] ?? '.000000').padEnd(7, '0')}Z`
}
