// Numbers as Go's strconv.FormatFloat(f, 'g', -1, 64) writes them (the values below are Go's own outputs).
import { describe, expect, it } from 'vitest'
import { goFloat } from '../../src/metrics/go-float'

describe('goFloat', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [-1, '-1'],
    [0.005, '0.005'],
    [1.25, '1.25'],
    [60, '60'],
    [123456, '123456'],
    [1000000, '1e+06'],
    [1234567, '1.234567e+06'],
    [123456789, '1.23456789e+08'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.000015, '1.5e-05'],
    [1e21, '1e+21'],
    [0.1 + 0.2, '0.30000000000000004'],
    [-2.5e-7, '-2.5e-07'],
    [Number.POSITIVE_INFINITY, '+Inf'],
    [Number.NEGATIVE_INFINITY, '-Inf'],
    [Number.NaN, 'NaN'],
  ])('%d → %s', (f, text) => {
    expect(goFloat(f)).toBe(text)
  })
})
