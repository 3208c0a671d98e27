// intstr.IntOrString as kube's apps and policy validation check it (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent,
// getIntOrPercentValue, with the bad value printed as Go's %#v prints the struct) and as controllers resolve it
// against a total (intstr.GetScaledValueFromIntOrPercent).
import type { FieldError, FieldPath } from '../field-errors'
import { goQuote } from '../go-strings'
import { regexError } from './names'
import { validateNonnegativeField } from './object-meta'

export type IntOrString = number | string

const PERCENT = /^[0-9]+%$/

/** %#v of an intstr.IntOrString value (its String method has a pointer receiver, so fmt prints the struct). */
export function goIntOrString(v: IntOrString | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`
  return `intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`
}

/** An Invalid error whose bad value is an IntOrString. */
export const invalidIntOrString = (at: FieldPath, v: IntOrString | undefined, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: at.toString(),
  message: `Invalid value: ${goIntOrString(v)}: ${detail}`,
})

/** validation.IsValidPercent. */
const isValidPercent = (s: string) =>
  PERCENT.test(s)
    ? []
    : [regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%')]

/** ValidatePositiveIntOrPercent: a valid percentage, or a non-negative integer (ValidateNonnegativeField). */
export function validatePositiveIntOrPercent(v: IntOrString | undefined, at: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalidIntOrString(at, v, m))
  // ValidateNonnegativeField prints the int64 it was given, not the struct.
  return validateNonnegativeField(v ?? 0, at)
}

/** IsNotMoreThan100Percent: only a valid percentage is checked. */
export function isNotMoreThan100Percent(v: IntOrString | undefined, at: FieldPath): FieldError[] {
  if (typeof v !== 'string' || !PERCENT.test(v) || Number(v.slice(0, -1)) <= 100) return []
  return [invalidIntOrString(at, v, 'must not be greater than 100%')]
}

/** getIntOrPercentValue: a valid percentage's number, else IntValue() (a string's Atoi, 0 when it does not parse). */
export function intOrPercentValue(v: IntOrString | undefined): number {
  if (typeof v === 'number') return v
  if (v === undefined) return 0
  if (PERCENT.test(v)) return Number(v.slice(0, -1))
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is, a percentage of `total` rounded up or down; null for a string
 * that is not a percentage (kube's error: `invalid value for IntOrString: invalid value "x"`).
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number | null {
  if (v === undefined) return 0
  if (typeof v === 'number') return v
  const m = /^(-?\d+)%$/.exec(v)
  if (!m) return null
  const scaled = (Number(m[1]) * total) / 100
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled)
}
