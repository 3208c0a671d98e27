// resource.Quantity's grammar: ParseQuantity ported from apimachinery pkg/api/resource (suffixes, the scan, rounding
// to nano units, the int64 bound, apimachinery's error wording), and the exact arithmetic on mantissa and exponent
// that parsing, rendering and comparison share. Rendering, comparison and the zod schema: ./quantity.ts.

/** How kube remembers a quantity was written; it re-serializes in the same family. */
type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent'

/** An exactly parsed quantity: its value is `mantissa * 10^exponent`, the mantissa free of trailing zeros. */
export interface ParsedQuantity {
  mantissa: bigint
  exponent: number
  format: QuantityFormat
  /**
   * The input string when apimachinery keeps it verbatim instead of re-rendering it (its fast path judges the
   * input already canonical). This is why "+1" and "1." survive a round trip through a real apiserver.
   */
  verbatim?: string
}

// The exact error strings apimachinery returns; the decoder surfaces them in its 400 "cannot be handled" message.
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity'
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix"

const NANO = -9
const MAX_INT64 = (1n << 63n) - 1n
const SUFFIX_CHARS = 'eEinumkKMGTP'
export const DECIMAL_SUFFIXES = new Map<string, number>([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
])
export const BINARY_SUFFIXES = new Map<string, number>([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
])

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9'

interface Scanned {
  positive: boolean
  /** The signed number without its suffix, as written. */
  value: string
  num: string
  denom: string
  suffix: string
}

/** Port of parseQuantityString, quirks included: "", "+", "." and bare suffixes such as "m" scan as zero. */
function scan(str: string): Scanned | string {
  let positive = true
  let pos = 0
  const end = str.length
  if (pos < end) {
    if (str[0] === '-') {
      positive = false
      pos++
    } else if (str[0] === '+') {
      pos++
    }
  }
  while (pos < end && str[pos] === '0') pos++
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' }

  const numStart = pos
  while (pos < end && isDigit(str[pos])) pos++
  if (pos >= end) return { positive, value: str, num: str.slice(numStart), denom: '', suffix: '' }
  const num = pos > numStart ? str.slice(numStart, pos) : '0'

  let denom = ''
  if (str[pos] === '.') {
    pos++
    const denomStart = pos
    while (pos < end && isDigit(str[pos])) pos++
    denom = str.slice(denomStart, pos)
    if (pos >= end) return { positive, value: str, num, denom, suffix: '' }
  }
  const value = str.slice(0, pos)

  const suffixStart = pos
  while (pos < end && SUFFIX_CHARS.includes(str[pos] as string)) pos++
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++
  while (pos < end && isDigit(str[pos])) pos++
  if (pos < end) return QUANTITY_FORMAT_ERROR
  return { positive, value, num, denom, suffix: str.slice(suffixStart) }
}

interface Suffix {
  base: 2 | 10
  exponent: number
  format: QuantityFormat
}

function interpretSuffix(suffix: string): Suffix | null {
  const decimal = DECIMAL_SUFFIXES.get(suffix)
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' }
  const binary = BINARY_SUFFIXES.get(suffix)
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' }
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const digits = suffix.slice(1)
    if (!/^[+-]?[0-9]+$/.test(digits)) return null
    const parsed = BigInt(digits)
    // strconv.ParseInt(.., 64) rejects what does not fit; the result is then truncated to int32, as Go does.
    if (parsed > MAX_INT64 || parsed < -MAX_INT64 - 1n) return null
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' }
  }
  return null
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n)
export const abs = (n: bigint): bigint => (n < 0n ? -n : n)

/** Parses the signed decimal inf.Dec would accept ("1.", ".5", "-3.25"), as mantissa and exponent. */
function parseDecimal(value: string): { mantissa: bigint; exponent: number } | null {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value)
  if (match === null) return null
  const int = match[2] ?? ''
  const frac = match[3] ?? ''
  if (int.length + frac.length === 0) return null
  const mantissa = BigInt(int + frac === '' ? '0' : int + frac)
  return { mantissa: match[1] === '-' ? -mantissa : mantissa, exponent: -frac.length }
}

/** Rounds a non-zero magnitude up to whole nano units, as ParseQuantity does for finer values. */
function roundUpToNano(mantissa: bigint, exponent: number): { mantissa: bigint; exponent: number } {
  if (exponent >= NANO || mantissa === 0n) return { mantissa, exponent }
  const drop = NANO - exponent
  // Dividing by 10^drop with drop beyond the mantissa's digits always leaves a remainder: the result is one nano.
  if (drop > mantissa.toString().length) return { mantissa: 1n, exponent: NANO }
  const divisor = pow10(drop)
  const quotient = mantissa / divisor
  return { mantissa: mantissa % divisor === 0n ? quotient : quotient + 1n, exponent: NANO }
}

/** Moves trailing zeros of the mantissa into the exponent, so equal values have one representation. */
function normalize(mantissa: bigint, exponent: number): { mantissa: bigint; exponent: number } {
  if (mantissa === 0n) return { mantissa, exponent: 0 }
  while (mantissa % 10n === 0n) {
    mantissa /= 10n
    exponent++
  }
  return { mantissa, exponent }
}

/** Compares two non-negative exact values without building huge powers of ten. */
export function compareMagnitude(a: bigint, ae: number, b: bigint, be: number): -1 | 0 | 1 {
  if (a === 0n || b === 0n) return a === b ? 0 : a === 0n ? -1 : 1
  const orderA = a.toString().length + ae
  const orderB = b.toString().length + be
  if (orderA !== orderB) return orderA < orderB ? -1 : 1
  const shift = ae - be
  const left = shift > 0 ? a * pow10(shift) : a
  const right = shift < 0 ? b * pow10(-shift) : b
  return left === right ? 0 : left < right ? -1 : 1
}

/** Port of ParseQuantity; returns apimachinery's error string when the input is rejected. */
function parseStrict(str: string): ParsedQuantity | string {
  if (str.length === 0) return QUANTITY_FORMAT_ERROR
  if (str === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', verbatim: str }
  const scanned = scan(str)
  if (typeof scanned === 'string') return scanned
  const { positive, value, num, denom } = scanned
  const suffix = interpretSuffix(scanned.suffix)
  if (suffix === null) return QUANTITY_SUFFIX_ERROR
  const { base, exponent } = suffix
  let { format } = suffix

  // The int64 fast path: only it may keep the input string verbatim, so its exact conditions matter.
  let precision: number
  let scale: number
  let multiplier = 1n
  if (format === 'BinarySI') {
    scale = 0
    if (exponent >= 0 && denom.length === 0) {
      multiplier = 1n << BigInt(exponent)
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1
    } else {
      precision = -1
    }
  } else {
    scale = exponent
    precision = 18 - (num.length + denom.length)
  }
  if (precision >= 0) {
    scale -= denom.length
    if (scale >= NANO) {
      const shifted = num + denom
      const unsigned = BigInt(shifted)
      const result = unsigned * multiplier
      if (result <= MAX_INT64) {
        const keep =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (unsigned & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0'
        return {
          ...normalize(positive ? result : -result, scale),
          format,
          ...(keep ? { verbatim: str } : {}),
        }
      }
    }
  }

  // The inf.Dec slow path: arbitrary precision, rounded up to nano, binary values capped at 2^63-1.
  const decimal = parseDecimal(value)
  if (decimal === null) return QUANTITY_NUMERIC_ERROR
  let magnitude = abs(decimal.mantissa)
  let magnitudeExponent = decimal.exponent
  if (base === 10) magnitudeExponent += exponent
  else magnitude *= 1n << BigInt(exponent)
  ;({ mantissa: magnitude, exponent: magnitudeExponent } = roundUpToNano(magnitude, magnitudeExponent))
  if (format === 'BinarySI' && compareMagnitude(magnitude, magnitudeExponent, MAX_INT64, 0) > 0) {
    magnitude = MAX_INT64
    magnitudeExponent = 0
  }
  if (format === 'BinarySI' && magnitude !== 0n && compareMagnitude(magnitude, magnitudeExponent, 1n, 0) < 0) {
    format = 'DecimalSI'
  }
  return { ...normalize(decimal.mantissa < 0n ? -magnitude : magnitude, magnitudeExponent), format }
}

/** Normalizes what arrives on the wire: JSON numbers are quantities too, and Quantity.UnmarshalJSON trims spaces. */
function wireString(input: string | number): string {
  return typeof input === 'number' ? String(input) : input.trim()
}

/** Parses a quantity as the apiserver's JSON decoder would; null when it would reject it. */
export function parseQuantity(input: string | number): ParsedQuantity | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null
  const parsed = parseStrict(wireString(input))
  return typeof parsed === 'string' ? null : parsed
}

/** The apimachinery error message for an invalid quantity, or null when it is valid. */
export function quantityError(input: string | number): string | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return QUANTITY_NUMERIC_ERROR
  const parsed = parseStrict(wireString(input))
  return typeof parsed === 'string' ? parsed : null
}
