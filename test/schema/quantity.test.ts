// Table-driven checks of the resource.Quantity port; expectations come from apimachinery's quantity_test.go.
import { describe, expect, it } from 'vitest'
import {
  canonicalQuantity,
  compareQuantities,
  parseQuantity,
  Quantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_NUMERIC_ERROR,
  QUANTITY_SUFFIX_ERROR,
  quantityError,
  quantityScaledValue,
  quantityToMilli,
  quantityToNumber,
} from '../../src/schema/quantity'

describe('canonicalQuantity', () => {
  // [input, what the apiserver writes back]
  const table: [string | number, string][] = [
    ['0', '0'],
    ['1', '1'],
    ['0.5', '500m'],
    ['.5', '500m'],
    ['1000m', '1'],
    ['5000m', '5'],
    ['250m', '250m'],
    ['1.5', '1500m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['1000u', '1m'],
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['307200Ki', '300Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Mi', '512Ki'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['100.035Ki', '102435840m'],
    ['100M', '100M'],
    ['1000M', '1G'],
    ['0.001T', '1G'],
    ['12E', '12E'],
    ['1E', '1E'],
    // DecimalSI stops at E; larger values fall back to exponent notation instead of losing magnitude.
    ['1000E', '1e21'],
    ['5000E', '5e21'],
    ['1000000E', '1e24'],
    // DecimalExponent input stays in exponent notation.
    ['1e3', '1e3'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['1.2e3', '1200'],
    ['1.3E+6', '1300e3'],
    // Finer than nano rounds up, away from zero.
    ['3.001n', '4n'],
    ['0.9n', '1n'],
    ['0.0000000001', '1n'],
    ['1.1E-9', '2e-9'],
    ['-0.5', '-500m'],
    ['-1Ki', '-1Ki'],
    // Binary values are capped at 2^63-1.
    ['9Ei', '9223372036854775807'],
    ['8Ei', '9223372036854775807'],
    ['00', '0'],
    // The JSON decoder trims spaces, and JSON numbers are quantities too.
    [' 1', '1'],
    ['1 ', '1'],
    [2, '2'],
    [0.5, '500m'],
    [1.5, '1500m'],
    // apimachinery keeps an input its fast path deems canonical byte for byte, quirks included.
    ['+1', '+1'],
    ['1.', '1.'],
    ['100.035k', '100.035k'],
    // Bare signs, dots and suffixes scan as zero upstream.
    ['m', '0'],
    ['+', '0'],
    ['.', '0'],
  ]
  it.each(table)('%j is written back as %j', (input, expected) => {
    expect(quantityError(input)).toBeNull()
    expect(canonicalQuantity(input)).toBe(expected)
  })
})

describe('parseQuantity', () => {
  it.each([
    ['1', 'DecimalSI'],
    ['500m', 'DecimalSI'],
    ['1Ki', 'BinarySI'],
    ['1e3', 'DecimalExponent'],
    ['1E', 'DecimalSI'],
    ['1E-3', 'DecimalExponent'],
    // A binary value below one switches to DecimalSI so it can be written without rounding.
    ['0.000000000001Ki', 'DecimalSI'],
  ] as const)('%s is %s', (input, format) => {
    expect(parseQuantity(input)?.format).toBe(format)
  })

  it('keeps exact values', () => {
    expect(parseQuantity('1.5Gi')).toMatchObject({ mantissa: 1610612736n, exponent: 0 })
    expect(parseQuantity('250m')).toMatchObject({ mantissa: 25n, exponent: -2 })
    expect(parseQuantity('1000m')).toMatchObject({ mantissa: 1n, exponent: 0 })
    expect(parseQuantity('-0')).toMatchObject({ mantissa: 0n, exponent: 0 })
    expect(parseQuantity('18446744073709551616')?.mantissa).toBe(18446744073709551616n)
  })

  it('returns null for invalid input', () => {
    expect(parseQuantity('abc')).toBeNull()
    expect(parseQuantity(Number.NaN)).toBeNull()
  })
})

describe('quantityError', () => {
  const table: [string, string][] = [
    ['', QUANTITY_FORMAT_ERROR],
    ['aoeu', QUANTITY_FORMAT_ERROR],
    ['1.1.M', QUANTITY_FORMAT_ERROR],
    ['1+1.0M', QUANTITY_FORMAT_ERROR],
    ['0.1am', QUANTITY_FORMAT_ERROR],
    ['1KiB', QUANTITY_FORMAT_ERROR],
    ['0.1mi', QUANTITY_SUFFIX_ERROR],
    ['.5i', QUANTITY_SUFFIX_ERROR],
    ['1i', QUANTITY_SUFFIX_ERROR],
    ['-3.01e-', QUANTITY_SUFFIX_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['1K', QUANTITY_SUFFIX_ERROR],
    ['e-10', QUANTITY_NUMERIC_ERROR],
  ]
  it.each(table)('%j is rejected with %j', (input, message) => {
    expect(quantityError(input)).toBe(message)
    expect(canonicalQuantity(input)).toBeNull()
  })

  it('uses the apimachinery wording', () => {
    expect(QUANTITY_FORMAT_ERROR).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    )
  })
})

describe('compareQuantities', () => {
  const table: [string, string, number][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1Gi', '1G', 1],
    ['1000m', '1', 0],
    ['1Ki', '1024', 0],
    ['1e21', '1000E', 0],
    ['-1', '0', -1],
    ['-2', '-1', -1],
    ['1n', '0', 1],
    ['1e2000000000', '1E', 1],
  ]
  it.each(table)('%s vs %s is %i', (a, b, expected) => {
    expect(compareQuantities(a, b)).toBe(expected)
    expect(compareQuantities(b, a)).toBe(-expected || 0)
  })

  it('throws on invalid input', () => {
    expect(() => compareQuantities('abc', '1')).toThrow(RangeError)
  })
})

describe('scaled values', () => {
  const milli: [string, number][] = [
    ['250m', 250],
    ['1', 1000],
    ['0.1', 100],
    ['1.5', 1500],
    ['2', 2000],
    ['1n', 1],
    ['0', 0],
  ]
  it.each(milli)('%s is %i millis', (input, expected) => {
    expect(quantityToMilli(input)).toBe(expected)
  })

  const units: [string, number][] = [
    ['1Ki', 1024],
    ['128Mi', 134217728],
    ['1G', 1_000_000_000],
    ['1.5', 2],
    ['100m', 1],
    ['0', 0],
  ]
  it.each(units)('%s is %i units', (input, expected) => {
    expect(quantityToNumber(input)).toBe(expected)
  })

  it('is exact beyond 2^53 as a bigint', () => {
    expect(quantityScaledValue('8Ei', 0)).toBe(9223372036854775807n)
    expect(quantityScaledValue('1Ei', -3)).toBe(1152921504606846976000n)
  })

  it('returns null for invalid or absurdly large input', () => {
    expect(quantityToMilli('abc')).toBeNull()
    expect(quantityToNumber('1e2000000000')).toBeNull()
  })
})

describe('Quantity schema', () => {
  it.each(['500m', '1Gi', '0', 2, 0.25, '1e3'])('accepts %j', (input) => {
    expect(Quantity.safeParse(input).success).toBe(true)
  })

  it('reports the apimachinery message for an invalid string', () => {
    const result = Quantity.safeParse('12 apples')
    expect(result.success).toBe(false)
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'custom', message: QUANTITY_FORMAT_ERROR })])
  })

  it('rejects other JSON types', () => {
    expect(Quantity.safeParse(true).success).toBe(false)
    expect(Quantity.safeParse(null).success).toBe(false)
    expect(Quantity.safeParse({}).success).toBe(false)
  })
})
