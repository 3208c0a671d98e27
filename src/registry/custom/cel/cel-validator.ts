// The write-time side of x-kubernetes-validations (apiextensions pkg/apiserver/schema/cel validation.go): each
// compiled rule runs on every value its schema node applies to, oldSelf bound to the correlated old value (transition
// rules run only when there is one, unless optionalOldSelf); a false result is a field error with the rule's message,
// messageExpression, reason and fieldPath as kube makes it. Every evaluation is metered (cel-cost.ts): a rule past
// kube's per-call limit, or the rules of one write past kube's budget, stop validation with kube's errors.
import { isCelError } from '@bufbuild/cel'
import { deepEqual } from '../../deep-equal'
import type { Structural } from '../../crd/structural'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import type { RuleValidator } from '../custom-strategy'
import { COST_LIMIT_EXCEEDED, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from './cel-cost'
import { optionalOf } from './cel-optional'
import { toCel } from './cel-model'
import { type CompiledRule, compileRule } from './cel-rules'

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The rules of a version, compiled once: what runs on every write (null when the schema has none). */
export function ruleValidator(root: Structural | null): RuleValidator | undefined {
  if (!root) return undefined
  const compiled = new WeakMap<Structural, CompiledRule[]>()
  let any = false
  const prepare = (s: Structural, isRoot: boolean) => {
    const rules = (s.validations ?? []).map((r) => compileRule(r, s, isRoot).rule).filter((r): r is CompiledRule => !!r)
    if (rules.length > 0) {
      compiled.set(s, rules)
      any = true
    }
    for (const p of Object.values(s.properties ?? {})) prepare(p, false)
    if (s.additionalProperties?.structural) prepare(s.additionalProperties.structural, false)
    if (s.items) prepare(s.items, false)
  }
  prepare(root, true)
  if (!any) return undefined
  return {
    validate(obj, old) {
      const run: Run = { errs: [], compiled, budget: RUNTIME_CEL_COST_BUDGET }
      walk(run, root, obj, old ?? undefined, old !== null && old !== undefined, new FieldPath(), true)
      return run.errs
    },
  }
}

/** One validation call: its errors, the compiled rules, and what is left of kube's cost budget (< 0: stopped). */
interface Run {
  errs: FieldError[]
  compiled: WeakMap<Structural, CompiledRule[]>
  budget: number
}

function walk(
  run: Run,
  s: Structural,
  value: unknown,
  old: unknown,
  hasOld: boolean,
  path: FieldPath,
  isRoot: boolean,
) {
  if (value === undefined || value === null || run.budget < 0) return
  const rules = run.compiled.get(s)
  if (rules) evaluate(run, s, rules, value, old, hasOld, path, isRoot)
  if (isMap(value)) {
    const oldMap = hasOld && isMap(old) ? old : null
    for (const [k, v] of Object.entries(value)) {
      if (run.budget < 0) return
      const prop = s.properties?.[k]
      const hasChildOld = oldMap !== null && k in oldMap
      const child = prop ?? s.additionalProperties?.structural
      if (child)
        walk(
          run,
          child,
          v,
          hasChildOld ? oldMap![k] : undefined,
          hasChildOld,
          prop ? path.child(k) : path.key(k),
          false,
        )
    }
  } else if (Array.isArray(value) && s.items) {
    // Old items correlate only in map lists, by their keys.
    const keys = s.listType === 'map' ? (s.listMapKeys ?? []) : null
    const oldItems = hasOld && Array.isArray(old) && keys ? old : []
    value.forEach((item, i) => {
      const match = keys
        ? oldItems.find((o) => isMap(o) && isMap(item) && keys.every((k) => deepEqual(o[k], item[k])))
        : undefined
      walk(run, s.items!, item, match, match !== undefined, path.index(i), false)
    })
  }
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run'
/** kube's MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024

/** The rules of one schema node on one value (validateExpressions), each evaluation charged to the run's budget. */
function evaluate(
  run: Run,
  s: Structural,
  rules: CompiledRule[],
  value: unknown,
  old: unknown,
  hasOld: boolean,
  path: FieldPath,
  isRoot: boolean,
) {
  const type = s.type ?? ''
  const errs = run.errs
  if (run.budget <= 0) {
    errs.push(fieldError.invalid(path.path, type, OUT_OF_BUDGET))
    run.budget = -1
    return
  }
  const self = toCel(value, s, isRoot)
  // Ratcheting: an unchanged value's failing rules are not the update's fault (kube only warns about them).
  const unchanged = hasOld && deepEqual(value, old)
  for (const c of rules) {
    const optional = c.rule.optionalOldSelf === true
    if (c.usesOldSelf && !hasOld && !optional) continue
    const vars: Record<string, unknown> = { self }
    if (c.usesOldSelf)
      vars.oldSelf = optional ? optionalOf(hasOld ? toCel(old, s, isRoot) : null, hasOld) : toCel(old, s, isRoot)
    const ruleText = c.rule.message?.trim() || c.rule.rule.trim()
    const evaluated = c.program!.run(vars, PER_CALL_LIMIT)
    if (evaluated.cost > run.budget) {
      errs.push(fieldError.invalid(path.path, type, OUT_OF_BUDGET))
      run.budget = -1
      return
    }
    run.budget -= evaluated.cost
    if (evaluated.exceeded) {
      errs.push(
        fieldError.invalid(
          path.path,
          type,
          `'${COST_LIMIT_EXCEEDED}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`,
        ),
      )
      run.budget = -1
      return
    }
    const result = evaluated.value
    if (isCelError(result)) {
      errs.push(fieldError.invalid(path.path, type, `${(result as Error).message} evaluating rule: ${ruleText}`))
      continue
    }
    if (result === true) continue
    const ratcheted = !c.usesOldSelf && unchanged
    const at = c.fieldPath
      ? new FieldPath(path.path ? `${path.path}${c.fieldPath.startsWith('[') ? '' : '.'}${c.fieldPath}` : c.fieldPath)
      : path
    let message = c.rule.message?.trim() ? c.rule.message.trim() : `failed rule: ${c.rule.rule.trim()}`
    if (c.message) {
      // The message expression sees oldSelf as the rule would without optionalOldSelf (kube's `activation`).
      const mvars: Record<string, unknown> = { self }
      if (hasOld) mvars.oldSelf = toCel(old, s, isRoot)
      const m = c.message.run(mvars, PER_CALL_LIMIT)
      const source = JSON.stringify(c.rule.messageExpression ?? '')
      if (m.cost > run.budget || m.exceeded) {
        if (!ratcheted)
          errs.push(
            fieldError.invalid(
              at.path,
              type,
              m.exceeded
                ? `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${source}`
                : `messageExpression ${OUT_OF_BUDGET}`,
            ),
          )
        run.budget = -1
        return
      }
      run.budget -= m.cost
      const text = typeof m.value === 'string' ? m.value.trim() : ''
      if (text !== '' && text.length <= MAX_MESSAGE_BYTES && !text.includes('\n')) message = text
    }
    if (!ratcheted) errs.push(errorForReason(at.path, type, message, c.rule.reason))
  }
}

/** fieldErrorForReason. */
function errorForReason(field: string, value: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(field, detail)
    case 'FieldValueRequired':
      return fieldError.required(field, detail)
    case 'FieldValueDuplicate':
      return fieldError.duplicate(field, value)
    default:
      return fieldError.invalid(field, value, detail)
  }
}
