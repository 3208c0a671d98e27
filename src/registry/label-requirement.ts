// Label requirements: one ANDed term of a selector, built and checked the way labels.NewRequirement does it so every
// route to a selector (query string, metav1.LabelSelector) reports kube's exact message.
import { compareUtf8, goQuote } from './go-strings'
import { invalid, labelKeyError, labelValueError } from './label-validation'

/** selection.Operator spellings, as kube prints them (`!` is DoesNotExist, `gt`/`lt` are the numeric comparisons). */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt'

/** One ANDed term. `values` is sorted and de-duplicated when it came from a selector string. */
export interface LabelRequirement {
  key: string
  operator: LabelOperator
  values: string[]
}

// ---------------------------------------------------------------------------------------------------------------
// Label-selector message helpers

/** Go's %#v of a []string; every empty slice that can reach NewRequirement is a nil one. */
const goStringSlice = (values: readonly string[]) =>
  values.length === 0 ? '[]string(nil)' : `[]string{${values.map(goQuote).join(', ')}}`

/** utilerrors.NewAggregate(...).Error(): one message bare, several de-duplicated inside brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)]
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null
  const n = BigInt(s.startsWith('+') ? s.slice(1) : s)
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : null
}

/**
 * labels.NewRequirement: validates a requirement and returns kube's aggregated message on failure.
 * Paths are rendered as kube does with no base path: `key`, `values`, `values[0][app]`.
 */
export function newLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[],
): { ok: true; requirement: LabelRequirement } | { ok: false; message: string } {
  const errs: string[] = []
  const keyErr = labelKeyError(key)
  if (keyErr) errs.push(invalid('key', goQuote(key), keyErr))
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        errs.push(invalid('values', goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"))
      break
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        errs.push(invalid('values', goStringSlice(values), 'exact-match compatibility requires one single value'))
      break
    case 'exists':
    case '!':
      if (values.length !== 0)
        errs.push(invalid('values', goStringSlice(values), 'values set must be empty for exists and does not exist'))
      break
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push(invalid('values', goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"))
      values.forEach((v, i) => {
        if (parseInt64(v) === null)
          errs.push(invalid(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"))
      })
      break
  }
  values.forEach((v, i) => {
    const valueErr = labelValueError(v)
    if (valueErr) errs.push(invalid(`values[${i}][${key}]`, goQuote(v), valueErr))
  })
  if (errs.length) return { ok: false, message: aggregate(errs) }
  return { ok: true, requirement: { key, operator, values: [...values] } }
}

// ---------------------------------------------------------------------------------------------------------------
// Matching and printing

export function matchesRequirement(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  // Own properties only: `constructor` and `__proto__` are valid label keys.
  const has = labels !== undefined && Object.hasOwn(labels, r.key)
  const value = has ? labels[r.key]! : ''
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(value)
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value)
    case 'exists':
      return has
    case '!':
      return !has
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false
      const actual = parseInt64(value)
      const bound = parseInt64(r.values[0]!)
      if (actual === null || bound === null) return false
      return r.operator === 'gt' ? actual > bound : actual < bound
    }
  }
}

const printedOperator: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  exists: '',
  '!': '',
  gt: '>',
  lt: '<',
}

export function requirementString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key
  if (r.operator === '!') return `!${r.key}`
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareUtf8).join(',')
  const body = r.operator === 'in' || r.operator === 'notin' ? `(${values})` : values
  return `${r.key}${printedOperator[r.operator]}${body}`
}
