// resource.Quantity: canonical re-serialization, comparison and scaled values, ported from apimachinery
// pkg/api/resource, and the zod schema of a quantity on the wire (parsing: ./quantity-parse.ts).
// Values are exact: a bigint mantissa times a power of ten, never a float, so "0.1" + "0.2" style drift cannot occur.
import { z } from 'zod'
import {
  abs,
  BINARY_SUFFIXES,
  compareMagnitude,
  DECIMAL_SUFFIXES,
  type ParsedQuantity,
  parseQuantity,
  pow10,
  quantityError,
} from './quantity-parse'

export {
  type ParsedQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_NUMERIC_ERROR,
  QUANTITY_SUFFIX_ERROR,
  quantityError,
} from './quantity-parse'

const DECIMAL_SUFFIX_BY_EXPONENT = new Map([...DECIMAL_SUFFIXES].map(([s, e]) => [e, s]))
const BINARY_SUFFIX_BY_EXPONENT = new Map([...BINARY_SUFFIXES].map(([s, e]) => [e, s]))

/** Renders a parsed quantity in canonical form (Quantity.CanonicalizeBytes), ignoring any verbatim input. */
export function formatQuantity(q: ParsedQuantity): string {
  if (q.mantissa === 0n) return '0'
  let format = q.format
  let integral: bigint | undefined
  if (format === 'BinarySI') {
    if (compareMagnitude(abs(q.mantissa), q.exponent, 1024n, 0) < 0) {
      format = 'DecimalSI'
    } else if (q.exponent >= 0) {
      integral = q.mantissa * pow10(q.exponent)
    } else {
      const divisor = pow10(-q.exponent)
      // Inexact binary values fall back to DecimalSI rather than lose precision.
      if (q.mantissa % divisor === 0n) integral = q.mantissa / divisor
      else format = 'DecimalSI'
    }
  }

  if (format === 'BinarySI' && integral !== undefined) {
    let amount = integral
    let times = 0
    while (abs(amount) >= 1024n && amount % 1024n === 0n) {
      amount /= 1024n
      times++
    }
    return `${amount}${BINARY_SUFFIX_BY_EXPONENT.get(times * 10) ?? ''}`
  }

  let amount = q.mantissa
  let exponent = q.exponent
  while (abs(amount) >= 10n && amount % 10n === 0n) {
    amount /= 10n
    exponent++
  }
  // Lower the exponent to a multiple of three so it maps onto an SI suffix.
  while (exponent % 3 !== 0) {
    amount *= 10n
    exponent--
  }
  if (format === 'DecimalSI') {
    const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exponent)
    // DecimalSI has no suffix past "E": newer apimachinery falls back to exponent notation instead of dropping it.
    if (suffix !== undefined) return `${amount}${suffix}`
  }
  return exponent === 0 ? `${amount}` : `${amount}e${exponent}`
}

/** The string the apiserver writes back for this quantity (its MarshalJSON), or null if invalid. */
export function canonicalQuantity(input: string | number): string | null {
  const parsed = parseQuantity(input)
  if (parsed === null) return null
  return parsed.verbatim ?? formatQuantity(parsed)
}

function toParsed(input: string | number | ParsedQuantity): ParsedQuantity {
  if (typeof input === 'object') return input
  const parsed = parseQuantity(input)
  if (parsed === null) throw new RangeError(`invalid quantity ${JSON.stringify(input)}: ${quantityError(input)}`)
  return parsed
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. Throws RangeError on an invalid quantity. */
export function compareQuantities(
  a: string | number | ParsedQuantity,
  b: string | number | ParsedQuantity,
): -1 | 0 | 1 {
  const x = toParsed(a)
  const y = toParsed(b)
  const signX = x.mantissa === 0n ? 0 : x.mantissa < 0n ? -1 : 1
  const signY = y.mantissa === 0n ? 0 : y.mantissa < 0n ? -1 : 1
  if (signX !== signY) return signX < signY ? -1 : 1
  const magnitude = compareMagnitude(abs(x.mantissa), x.exponent, abs(y.mantissa), y.exponent)
  return (signX < 0 ? -magnitude : magnitude) as -1 | 0 | 1
}

// "1e2000000000" is a valid quantity (the exponent is int32); refusing to scale it keeps a request from
// building a two-billion-digit bigint.
const MAX_SCALE_SHIFT = 1024

/**
 * ceil(q / 10^scale) as an exact bigint, like Quantity.ScaledValue (scale -3 is MilliValue, 0 is Value).
 * Unlike Go it never overflows; callers that mirror int64 behaviour must bound-check themselves.
 * Null when the input is invalid or its magnitude exceeds 10^1024 units.
 */
export function quantityScaledValue(input: string | number | ParsedQuantity, scale: number): bigint | null {
  let q: ParsedQuantity
  try {
    q = toParsed(input)
  } catch {
    return null
  }
  const shift = q.exponent - scale
  if (shift > MAX_SCALE_SHIFT) return null
  if (shift >= 0) return q.mantissa * pow10(shift)
  // A value far below one unit: its ceiling is 1 when positive and 0 otherwise.
  if (-shift > abs(q.mantissa).toString().length) return q.mantissa > 0n ? 1n : 0n
  const divisor = pow10(-shift)
  const quotient = q.mantissa / divisor
  // bigint division truncates toward zero, so only positive remainders need the step up to the ceiling.
  return q.mantissa % divisor !== 0n && q.mantissa > 0n ? quotient + 1n : quotient
}

/** Milli-units rounded up (cpu "250m" is 250, "1" is 1000); null when invalid. */
export function quantityToMilli(input: string | number): number | null {
  const milli = quantityScaledValue(input, -3)
  return milli === null ? null : Number(milli)
}

/** Whole units rounded up (memory "1Ki" is 1024); null when invalid. Exact up to 2^53. */
export function quantityToNumber(input: string | number): number | null {
  const value = quantityScaledValue(input, 0)
  return value === null ? null : Number(value)
}

/** A resource.Quantity on the wire: a string, or a JSON number, both holding the quantity grammar. */
export const Quantity = z
  .union([z.string(), z.number()])
  .check((ctx) => {
    const problem = quantityError(ctx.value)
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  })
  .describe('A fixed-point amount with an optional suffix, such as 500m, 2, 1.5Gi or 1e3')
export type Quantity = z.infer<typeof Quantity>
