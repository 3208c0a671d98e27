// Go's time.Parse for metav1.Time and MicroTime (its acceptance and error messages), and fmt's %v, %#v and %T over
// decoded JSON, which kube's patch and apply messages print.
import { describe, expect, it } from 'vitest'
import { goTimeCanonical, goTimeError } from '../../../src/registry/decoding/go-time'
import { goFloat, goSharpV, goTypeName, goV } from '../../../src/registry/decoding/go-format'

const RFC = '"2006-01-02T15:04:05Z07:00"'

describe('time.Parse(time.RFC3339, ...)', () => {
  const CASES: [string, string | null][] = [
    ['2024-01-01T00:00:00Z', null],
    ['2024-01-01T00:00:00.123Z', null],
    ['2024-02-29T23:59:59+02:00', null],
    ['2024-01-01T1:00:00Z', null],
    ['', `parsing time "" as ${RFC}: cannot parse "" as "2006"`],
    ['yesterday', `parsing time "yesterday" as ${RFC}: cannot parse "yesterday" as "2006"`],
    ['2024-1-01T00:00:00Z', `parsing time "2024-1-01T00:00:00Z" as ${RFC}: cannot parse "1-01T00:00:00Z" as "01"`],
    ['2024-01-01 00:00:00Z', `parsing time "2024-01-01 00:00:00Z" as ${RFC}: cannot parse " 00:00:00Z" as "T"`],
    ['2024-01-01T00:00:00', `parsing time "2024-01-01T00:00:00" as ${RFC}: cannot parse "" as "Z07:00"`],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01T00:60:00Z', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
    ['2024-01-01T00:00:60Z', 'parsing time "2024-01-01T00:00:60Z": second out of range'],
    ['2024-01-01T00:00:00+25:00', 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range'],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ['héllo', `parsing time "h\\xc3\\xa9llo" as ${RFC}: cannot parse "h\\xc3\\xa9llo" as "2006"`],
  ]
  it.each(CASES)('%j', (value, message) => expect(goTimeError(value, 'RFC3339')).toBe(message))

  it('MicroTime wants exactly six fractional digits', () => {
    expect(goTimeError('2024-01-01T00:00:00.123456Z', 'RFC3339Micro')).toBeNull()
    expect(goTimeError('2024-01-01T00:00:00Z', 'RFC3339Micro')).toBe(
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    )
    expect(goTimeError('2024-01-01T00:00:00.5Z', 'RFC3339Micro')).toBe(
      'parsing time "2024-01-01T00:00:00.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"',
    )
  })
})

describe('timestamps as metav1 writes them back (UTC; Time to seconds, MicroTime to microseconds)', () => {
  it.each([
    ['2026-11-24T10:00:00Z', 'RFC3339', '2026-11-24T10:00:00Z'],
    ['2026-11-24T10:00:00+02:00', 'RFC3339', '2026-11-24T08:00:00Z'],
    ['2026-11-24T10:00:00.987654Z', 'RFC3339', '2026-11-24T10:00:00Z'],
    ['2026-01-01T01:30:00.5+02:30', 'RFC3339', '2025-12-31T23:00:00Z'],
    ['2026-11-24T23:30:00-01:00', 'RFC3339', '2026-11-25T00:30:00Z'],
    ['2024-02-29T00:00:00-00:00', 'RFC3339', '2024-02-29T00:00:00Z'],
    ['2026-11-24T10:00:00.123456Z', 'RFC3339Micro', '2026-11-24T10:00:00.123456Z'],
    ['2026-11-24T10:00:00.123456+05:45', 'RFC3339Micro', '2026-11-24T04:15:00.123456Z'],
  ] as const)('%s (%s) -> %s', (value, layout, want) => {
    expect(goTimeError(value, layout)).toBeNull()
    expect(goTimeCanonical(value, layout)).toBe(want)
  })
})

describe("fmt's verbs over decoded JSON", () => {
  it.each([
    [1e6, '1e+06'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [1.5, '1.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [1e21, '1e+21'],
    [0, '0'],
  ])('%v of float64 %d', (n, text) => expect(goFloat(n)).toBe(text))

  it('%v of maps sorts keys; ints stay ints when the decoder preserved them', () => {
    const v = { b: [1, 'x', true], a: { c: null }, d: 2.5 }
    expect(goV(v, 'preserveInts')).toBe('map[a:map[c:<nil>] b:[1 x true] d:2.5]')
    expect(goV({ n: 1000000 }, 'preserveInts')).toBe('map[n:1000000]')
    expect(goV({ n: 1000000 }, 'floats')).toBe('map[n:1e+06]')
  })

  it('%#v and %T as structured-merge-diff prints them', () => {
    expect(goSharpV({ a: 'b', c: [1] }, 'floats')).toBe('map[string]interface {}{"a":"b", "c":[]interface {}{1}}')
    expect(goSharpV(null, 'floats')).toBe('interface {}(nil)')
    expect(goTypeName('x', 'floats')).toBe('string')
    expect(goTypeName({}, 'floats')).toBe('map[string]interface {}')
    expect(goTypeName([], 'floats')).toBe('[]interface {}')
  })
})
