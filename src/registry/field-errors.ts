// Field errors: the equivalent of apimachinery's field.ErrorList, rendered with kube's exact wording.
import { goQuote } from './go-strings'

/** A cause's machine-readable reason, as kube puts it in Status.details.causes[].reason. */
type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError'

/** One validation failure at a field path such as `spec.containers[0].image`. */
export interface FieldError {
  type: FieldErrorType
  field: string
  /** The message without the field prefix, e.g. `Invalid value: "x": must be ...` */
  message: string
}

/** Renders a value the way Go's %v/%q does in field errors: strings quoted (Go's escapes), numbers and booleans bare. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) return `[]string{${value.map((v) => goQuote(v)).join(', ')}}`
    return `[${value.map(formatValue).join(' ')}]`
  }
  return JSON.stringify(value)
}

const withDetail = (head: string, detail?: string) => (detail ? `${head}: ${detail}` : head)

export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({
    type: 'FieldValueRequired',
    field,
    message: withDetail('Required value', detail),
  }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${formatValue(value)}`, detail),
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message:
      `Unsupported value: ${formatValue(value)}` +
      (supported.length ? `: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : ''),
  }),
  duplicate: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    message: `Duplicate value: ${formatValue(value)}`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden',
    field,
    message: withDetail('Forbidden', detail),
  }),
  tooLong: (field: string, maxBytes: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    message: `Too long: may not be more than ${maxBytes} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} items`,
  }),
  notFound: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    message: `Not found: ${formatValue(value)}`,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    message: withDetail(`Invalid value: ${formatValue(value)}`, detail),
  }),
}

/** `field: message`, as kube joins them in Status.message. */
export const renderFieldError = (e: FieldError) => (e.field ? `${e.field}: ${e.message}` : e.message)

/** Builds child paths the way field.Path.String() prints them: `a.b[0].c`, `m[key]`. */
export class FieldPath {
  constructor(readonly path: string = '') {}
  child(name: string): FieldPath {
    return new FieldPath(this.path ? `${this.path}.${name}` : name)
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.path}[${i}]`)
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.path}[${k}]`)
  }
  toString(): string {
    return this.path
  }
}
