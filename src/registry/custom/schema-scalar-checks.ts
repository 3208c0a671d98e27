// kube-openapi's validators of one value that look at no nested value (k8s.io/kube-openapi pkg/validation/validate
// type.go, validator.go): the type, a string's length and pattern, its format, a number's bounds and factor, an enum.
import { compileGoRegexp } from '../crd/go-regexp'
import type { JSONSchemaProps } from '../crd/json-schema'
import { checkFormat } from './formats'
import { goPrint, jsonType } from './go-values'
import { IN, type Problem, Result, typeMessage } from './schema-result'

/** typeValidator.Validate. */
export function typeCheck(types: string[], format: string, data: unknown, path: string): Problem | null {
  const schType = jsonType(data)
  const isFloatInt = schType === 'number' && Number.isInteger(data) && types.includes('integer')
  const isIntFloat = schType === 'integer' && types.includes('number')
  // A formatted string is the format's business, not the type's.
  if (
    !(types.includes('number') || types.includes('integer')) &&
    format &&
    (schType === 'string' || schType === 'array')
  )
    return null
  if (!(types.includes(schType) || isFloatInt || isIntFloat))
    return { code: 'type', name: path, message: typeMessage(path, types.join(','), schType), value: schType }
  return null
}

const runeCount = (s: string) => [...s].length

/** stringValidator: length in runes, then the pattern (Go's regexp syntax). */
export function stringChecks(s: JSONSchemaProps, data: string, path: string): Result | null {
  const r = new Result()
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    r.add({
      code: 'tooLong',
      name: path,
      message: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
      value: data,
      valid: s.maxLength,
    })
    return r
  }
  if (s.minLength !== undefined && runeCount(data) < s.minLength) {
    r.add({
      code: 'other',
      name: path,
      message: `${path} in ${IN} should be at least ${s.minLength} chars long`,
      value: data,
    })
    return r
  }
  if (s.pattern) {
    const re = compileGoRegexp(s.pattern)
    if ('error' in re) {
      r.add({
        code: 'other',
        name: path,
        message: `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.error}'`,
        value: data,
      })
    } else if (!re.re.test(data)) {
      r.add({ code: 'other', name: path, message: `${path} in ${IN} should match '${s.pattern}'`, value: data })
    }
  }
  return r
}

/** formatValidator: the formats CRDs support (formats.ts). */
export function formatCheck(format: string, data: string, path: string): Result | null {
  if (!format || checkFormat(format, data)) return null
  const r = new Result()
  r.add({ code: 'type', name: path, message: typeMessage(path, format, data), value: data })
  return r
}

/** numberValidator: multipleOf, minimum, maximum, with Go's int64/float64 distinction. */
export function numberChecks(s: JSONSchemaProps, data: number, path: string): Result {
  const r = new Result()
  // A value read from JSON is an int64 when it has no fraction (Go's unstructured decoding), a float64 otherwise.
  const isInt = Number.isInteger(data)
  const bound = (b: number) => (isInt ? Math.trunc(b) : b)
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf
    if (factor <= 0)
      r.add({
        code: 'other',
        name: path,
        message: `factor MultipleOf declared for ${path} must be positive: ${goPrint(factor)}`,
        value: factor,
      })
    else if (
      isInt && Number.isInteger(factor)
        ? data % factor !== 0
        : !Number.isInteger(factor < 1 ? (1 / factor) * data : data / factor)
    )
      r.add({
        code: 'other',
        name: path,
        message: `${path} in ${IN} should be a multiple of ${goPrint(isInt ? Math.trunc(factor) : factor)}`,
        value: data,
      })
  }
  if (s.minimum !== undefined) {
    const min = bound(s.minimum)
    if ((!s.exclusiveMinimum && data < min) || (s.exclusiveMinimum && data <= min))
      r.add({
        code: 'other',
        name: path,
        message: `${path} in ${IN} should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goPrint(min)}`,
        value: data,
      })
  }
  if (s.maximum !== undefined) {
    const max = bound(s.maximum)
    if ((!s.exclusiveMaximum && data > max) || (s.exclusiveMaximum && data >= max))
      r.add({
        code: 'other',
        name: path,
        message: `${path} in ${IN} should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goPrint(max)}`,
        value: data,
      })
  }
  return r
}

/** basicCommonValidator: the value is one of the enum's. */
export function enumCheck(s: JSONSchemaProps, data: unknown, path: string): Result | null {
  if (!s.enum?.length) return null
  for (const e of s.enum) if (enumEqual(e, data)) return null
  const r = new Result()
  r.add({
    code: 'enum',
    name: path,
    message: `${path} in ${IN} should be one of ${goPrint(s.enum)}`,
    value: data,
    values: s.enum,
  })
  return r
}

/** reflect.DeepEqual after Go's convertibility: a number equals a number of the same value. */
function enumEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b
  return JSON.stringify(a) === JSON.stringify(b)
}
