// x-kubernetes-validations compiled with @bufbuild/cel (apiextensions pkg/apiserver/schema/cel compilation.go and
// pkg/apis/apiextensions/validation's CEL checks): at CRD create/update every rule of a schema is checked (syntax,
// types, oldSelf where it cannot be correlated, optionalOldSelf, the estimated cost of the rule times how often its
// node can occur, of its messageExpression, and of the whole schema) and refused with kube's field errors. The
// compiled rules are what the write-time validator runs (cel-validator.ts).
import { parse } from '@bufbuild/cel'
import type { ValidationRule } from '../../crd/json-schema'
import type { Structural } from '../../crd/structural'
import { validFieldPath } from '../../crd/field-path'
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { EXPRESSION_COST_LIMIT, checkExpr, formatCelError } from './cel-check'
import { type MeteredProgram, meteredEnv, planMetered } from './cel-cost'
import { KUBERNETES_FUNCS } from './cel-libs'
import { MAX_REQUEST_BYTES, minSerializedSize } from './cel-sizes'

/** kube's StaticEstimatedCRDCostLimit: every rule of a schema together. */
const CRD_COST_LIMIT = 100_000_000

const env = meteredEnv(KUBERNETES_FUNCS)

type Program = MeteredProgram

export interface CompiledRule {
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
  messageCost: number
}

const programs = new Map<string, Program>()

function programOf(source: string, parsed: ReturnType<typeof parse>): Program {
  let p = programs.get(source)
  if (!p) {
    p = planMetered(env, parsed)
    if (programs.size > 5000) programs.clear()
    programs.set(source, p)
  }
  return p
}

export function compileRule(rule: ValidationRule, self: Structural, isRoot: boolean): Compiled {
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
      messageCost: 0,
    }
  }
  const checked = checkExpr(parsed, self, isRoot, rule.optionalOldSelf === true)
  if (checked.errors.length > 0) {
    const issues = checked.errors.map((x) => formatCelError(source, x.offset, x.message)).join('\n')
    return { error: `compilation failed: ${issues}`, cost: checked.cost, messageCost: 0 }
  }
  if (checked.result.kind !== 'bool' && checked.result.kind !== 'dyn')
    return { error: 'cel expression must evaluate to a bool', cost: checked.cost, messageCost: 0 }
  const compiled: CompiledRule = { rule, program: programOf(source, parsed), usesOldSelf: checked.usesOldSelf }
  const result: Compiled = { rule: compiled, cost: checked.cost, messageCost: 0 }
  if (rule.messageExpression) {
    try {
      const m = parse(rule.messageExpression)
      const mc = checkExpr(m, self, isRoot, rule.optionalOldSelf === true)
      result.messageCost = mc.cost
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
export function checkRules(root: Structural, path: FieldPath, suppressPerExpressionCost = false): FieldError[] {
  const errs: FieldError[] = []
  let total = 0
  const expensive: { field: string; cost: number }[] = []
  const observe = (field: string, cost: number) => {
    total += cost
    // Only rules worth 1 % of the schema's limit are named (TotalCost.ObserveExpressionCost).
    if (cost >= CRD_COST_LIMIT / 100) expensive.push({ field, cost })
  }
  /** `cardinality`: how often the node can occur (null: under an unbounded list or map). */
  const visit = (
    s: Structural,
    at: FieldPath,
    isRoot: boolean,
    uncorrelatable: string | null,
    cardinality: number | null,
  ) => {
    ;(s.validations ?? []).forEach((rule, i) => {
      const field = at.child('x-kubernetes-validations').index(i)
      const c = compileRule(rule, s, isRoot)
      // getExpressionCost: the rule's cost times the node's cardinality, or, unbounded, the most times a value of
      // the node's least serialized size fits in a request.
      const cost = c.cost * (cardinality ?? Math.floor(MAX_REQUEST_BYTES / (minSerializedSize(s) + 1)))
      if (!suppressPerExpressionCost && cost > EXPRESSION_COST_LIMIT)
        errs.push(
          fieldError.forbidden(
            field.child('rule').path,
            costMessage('estimated rule cost', cost, EXPRESSION_COST_LIMIT),
          ),
        )
      observe(field.child('rule').path, cost)
      if (c.error) errs.push(invalidRule(field.child('rule').path, rule, c.error))
      if (c.messageError) errs.push(invalidRule(field.child('messageExpression').path, rule, c.messageError))
      else if (c.rule?.message) {
        if (!suppressPerExpressionCost && c.messageCost > EXPRESSION_COST_LIMIT)
          errs.push(
            fieldError.forbidden(
              field.child('messageExpression').path,
              costMessage('estimated messageExpression cost', c.messageCost, EXPRESSION_COST_LIMIT),
            ),
          )
        observe(field.child('messageExpression').path, c.messageCost)
      }
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
    const inMap = uncorrelatable ?? (mapCorrelatable ? null : at.path)
    const times = (max: number | undefined) =>
      cardinality === null || max === undefined ? null : cardinality * Math.max(0, max)
    for (const [k, p] of Object.entries(s.properties ?? {}))
      visit(
        p,
        at.child('properties').key(k),
        false,
        inMap,
        s.additionalProperties ? times(s.valueValidation?.maxProperties) : cardinality,
      )
    if (s.additionalProperties?.structural)
      visit(
        s.additionalProperties.structural,
        at.child('additionalProperties'),
        false,
        inMap,
        times(s.valueValidation?.maxProperties),
      )
    if (s.items)
      visit(
        s.items,
        at.child('items'),
        false,
        uncorrelatable ?? (s.listType === 'map' ? null : at.path),
        times(s.valueValidation?.maxItems),
      )
  }
  visit(root, path, true, null, 1)
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
