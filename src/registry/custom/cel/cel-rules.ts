// x-kubernetes-validations (apiextensions pkg/apiserver/schema/cel compilation.go, validation.go), compiled with
// @bufbuild/cel: at CRD create/update every rule of a schema is checked (syntax, types, oldSelf where it cannot be
// correlated, optionalOldSelf, cost) and refused with kube's field errors; at write time each rule runs on every
// value its schema node applies to, oldSelf bound to the correlated old value (transition rules run only when there
// is one, unless optionalOldSelf), and a false result is a field error with the rule's message, messageExpression,
// reason and fieldPath as kube makes it.
import { celEnv, parse, plan } from '@bufbuild/cel'
import { isCelError } from '@bufbuild/cel'
import { deepEqual } from '../../deep-equal'
import type { ValidationRule } from '../../crd/json-schema'
import type { Structural } from '../../crd/structural'
import { validFieldPath } from '../../crd/field-path'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import type { RuleValidator } from '../custom-strategy'
import { EXPRESSION_COST_LIMIT, checkExpr, formatCelError } from './cel-check'
import { KUBERNETES_FUNCS, optionalOf } from './cel-libs'
import { toCel } from './cel-model'

/** kube's StaticEstimatedCRDCostLimit: every rule of a schema together. */
const CRD_COST_LIMIT = 100_000_000

const env = celEnv({ funcs: KUBERNETES_FUNCS })

type Program = (vars: Record<string, unknown>) => unknown

interface CompiledRule {
  rule: ValidationRule
  program?: Program
  message?: Program
  usesOldSelf: boolean
  fieldPath?: string
}

/** A compiled rule, or why it does not compile (cel.Error.Detail). */
interface Compiled {
  rule?: CompiledRule
  error?: string
  messageError?: string
  cost: number
}

const programs = new Map<string, Program>()

function programOf(source: string, parsed: ReturnType<typeof parse>): Program {
  let p = programs.get(source)
  if (!p) {
    p = plan(env, parsed) as unknown as Program
    if (programs.size > 5000) programs.clear()
    programs.set(source, p)
  }
  return p
}

function compileOne(rule: ValidationRule, self: Structural, isRoot: boolean): Compiled {
  const source = rule.rule ?? ''
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(source)
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e)
    const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(text)
    const offset = m ? offsetOf(source, Number(m[1]), Number(m[2])) : 0
    return {
      error: `compilation failed: ${formatCelError(source, offset, `Syntax error: ${m ? m[3] : text}`)}`,
      cost: 0,
    }
  }
  const checked = checkExpr(parsed, self, isRoot, rule.optionalOldSelf === true)
  if (checked.errors.length > 0) {
    const issues = checked.errors.map((x) => formatCelError(source, x.offset, x.message)).join('\n')
    return { error: `compilation failed: ${issues}`, cost: checked.cost }
  }
  if (checked.result.kind !== 'bool' && checked.result.kind !== 'dyn')
    return { error: 'cel expression must evaluate to a bool', cost: checked.cost }
  const compiled: CompiledRule = { rule, program: programOf(source, parsed), usesOldSelf: checked.usesOldSelf }
  const result: Compiled = { rule: compiled, cost: checked.cost }
  if (rule.messageExpression) {
    try {
      const m = parse(rule.messageExpression)
      const mc = checkExpr(m, self, isRoot, rule.optionalOldSelf === true)
      if (mc.errors.length > 0)
        result.messageError = `messageExpression compilation failed: ${mc.errors.map((x) => formatCelError(rule.messageExpression!, x.offset, x.message)).join('\n')}`
      else if (mc.result.kind !== 'string' && mc.result.kind !== 'dyn')
        result.messageError = 'messageExpression must evaluate to a string'
      else compiled.message = programOf(rule.messageExpression, m)
    } catch (e) {
      result.messageError = `messageExpression compilation failed: ${e instanceof Error ? e.message : String(e)}`
    }
  }
  if (rule.fieldPath) {
    const found = validFieldPath(rule.fieldPath, self)
    if (!('error' in found)) compiled.fieldPath = found.path.path
  }
  return result
}

function offsetOf(source: string, line: number, column: number): number {
  const lines = source.split('\n')
  let offset = 0
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1
  return offset + column - 1
}

/** %#v of an apiextensions.ValidationRule, the value kube's compile errors quote. */
function ruleValue(rule: ValidationRule): string {
  const q = (s: string | undefined) => JSON.stringify(s ?? '')
  const reason =
    rule.reason === undefined
      ? '(*apiextensions.FieldValueErrorReason)(nil)'
      : `(*apiextensions.FieldValueErrorReason)(${q(rule.reason)})`
  const old = rule.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${rule.optionalOldSelf})`
  return `apiextensions.ValidationRule{Rule:${q(rule.rule)}, Message:${q(rule.message)}, MessageExpression:${q(rule.messageExpression)}, Reason:${reason}, FieldPath:${q(rule.fieldPath)}, OptionalOldSelf:${old}}`
}

const invalidRule = (field: string, rule: ValidationRule, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${ruleValue(rule)}: ${detail}`,
})

function costMessage(name: string, cost: number, limit: number) {
  const factor = cost / limit
  const f = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`
  return `${name} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`
}

/**
 * The CRD-time check of every rule in a structural schema (the CEL part of ValidateCustomResourceDefinitionOpenAPISchema).
 * `path` is the schema's own (…openAPIV3Schema).
 */
export function checkRules(root: Structural, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let total = 0
  const expensive: { field: string; cost: number }[] = []
  const visit = (s: Structural, at: FieldPath, isRoot: boolean, uncorrelatable: string | null) => {
    ;(s.validations ?? []).forEach((rule, i) => {
      const field = at.child('x-kubernetes-validations').index(i)
      const c = compileOne(rule, s, isRoot)
      const cardinality = 1
      const cost = c.cost * cardinality
      total += cost
      expensive.push({ field: field.child('rule').path, cost })
      if (cost > EXPRESSION_COST_LIMIT)
        errs.push(
          fieldError.forbidden(
            field.child('rule').path,
            costMessage('estimated rule cost', cost, EXPRESSION_COST_LIMIT),
          ),
        )
      if (c.error) errs.push(invalidRule(field.child('rule').path, rule, c.error))
      if (c.messageError) errs.push(invalidRule(field.child('messageExpression').path, rule, c.messageError))
      if (c.rule?.usesOldSelf) {
        if (uncorrelatable !== null)
          errs.push(
            fieldError.invalid(
              field.child('rule').path,
              rule.rule,
              `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
            ),
          )
      } else if (c.rule && rule.optionalOldSelf !== undefined) {
        errs.push(
          fieldError.invalid(
            field.child('optionalOldSelf').path,
            rule.optionalOldSelf,
            'may not be set if oldSelf is not used in rule',
          ),
        )
      }
    })
    const mapCorrelatable = s.mapType === undefined || s.mapType === 'granular'
    for (const [k, p] of Object.entries(s.properties ?? {}))
      visit(p, at.child('properties').key(k), false, uncorrelatable ?? (mapCorrelatable ? null : at.path))
    if (s.additionalProperties?.structural)
      visit(
        s.additionalProperties.structural,
        at.child('additionalProperties'),
        false,
        uncorrelatable ?? (mapCorrelatable ? null : at.path),
      )
    if (s.items) visit(s.items, at.child('items'), false, uncorrelatable ?? (s.listType === 'map' ? null : at.path))
  }
  visit(root, path, true, null)
  if (total > CRD_COST_LIMIT) {
    for (const e of expensive.sort((a, b) => b.cost - a.cost).slice(0, 4))
      errs.push(
        fieldError.forbidden(
          e.field,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      )
    errs.push(
      fieldError.forbidden(
        path.path,
        costMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          total,
          CRD_COST_LIMIT,
        ),
      ),
    )
  }
  return errs
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The rules of a version, compiled once: what runs on every write (null when the schema has none). */
export function ruleValidator(root: Structural | null): RuleValidator | undefined {
  if (!root) return undefined
  const compiled = new WeakMap<Structural, CompiledRule[]>()
  let any = false
  const prepare = (s: Structural, isRoot: boolean) => {
    const rules = (s.validations ?? []).map((r) => compileOne(r, s, isRoot).rule).filter((r): r is CompiledRule => !!r)
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
      const errs: FieldError[] = []
      walk(root, obj, old ?? undefined, old !== null && old !== undefined, new FieldPath(), true, errs, compiled)
      return errs
    },
  }
}

function walk(
  s: Structural,
  value: unknown,
  old: unknown,
  hasOld: boolean,
  path: FieldPath,
  isRoot: boolean,
  errs: FieldError[],
  compiled: WeakMap<Structural, CompiledRule[]>,
) {
  if (value === undefined || value === null) return
  const rules = compiled.get(s)
  if (rules) evaluate(s, rules, value, old, hasOld, path, isRoot, errs)
  if (isMap(value)) {
    for (const [k, v] of Object.entries(value)) {
      const prop = s.properties?.[k]
      const oldMap = hasOld && isMap(old) ? old : null
      const hasChildOld = oldMap !== null && k in oldMap
      if (prop) walk(prop, v, hasChildOld ? oldMap![k] : undefined, hasChildOld, path.child(k), false, errs, compiled)
      else if (s.additionalProperties?.structural)
        walk(
          s.additionalProperties.structural,
          v,
          hasChildOld ? oldMap![k] : undefined,
          hasChildOld,
          path.key(k),
          false,
          errs,
          compiled,
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
      walk(s.items!, item, match, match !== undefined, path.index(i), false, errs, compiled)
    })
  }
}

function evaluate(
  s: Structural,
  rules: CompiledRule[],
  value: unknown,
  old: unknown,
  hasOld: boolean,
  path: FieldPath,
  isRoot: boolean,
  errs: FieldError[],
) {
  const type = s.type ?? ''
  const self = toCel(value, s, isRoot)
  // Ratcheting: an unchanged value's failing rules are not the update's fault (kube only warns about them).
  const unchanged = hasOld && deepEqual(value, old)
  for (const c of rules) {
    const optional = c.rule.optionalOldSelf === true
    if (c.usesOldSelf && !hasOld && !optional) continue
    const vars: Record<string, unknown> = { self }
    if (c.usesOldSelf)
      vars.oldSelf = optional ? optionalOf(hasOld ? toCel(old, s, isRoot) : null, hasOld) : toCel(old, s, isRoot)
    const result = c.program!(vars)
    const ruleText = c.rule.message?.trim() || c.rule.rule.trim()
    if (isCelError(result)) {
      errs.push(fieldError.invalid(path.path, type, `${(result as Error).message} evaluating rule: ${ruleText}`))
      continue
    }
    if (result === true) continue
    if (!c.usesOldSelf && unchanged) continue
    const at = c.fieldPath
      ? new FieldPath(path.path ? `${path.path}${c.fieldPath.startsWith('[') ? '' : '.'}${c.fieldPath}` : c.fieldPath)
      : path
    let message = c.rule.message?.trim() ? c.rule.message.trim() : `failed rule: ${c.rule.rule.trim()}`
    if (c.message) {
      const m = c.message(vars)
      if (typeof m === 'string' && m.trim() !== '') message = m
    }
    errs.push(errorForReason(at.path, type, message, c.rule.reason))
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
