// The compile-time checks kube's CEL compiler makes of a rule (cel-go's checker, as apiextensions runs it at CRD
// create/update): syntax, undeclared identifiers and functions, fields the schema does not have, operators applied
// to types they have no overload for, the result type (bool for rules, string for messageExpression), whether the
// rule uses oldSelf, and an estimate of its cost against kube's limits. Errors are worded and positioned as
// cel-go's (`ERROR: <input>:1:6: undefined field 'foo'` with the source line and a caret).
import type { parse } from '@bufbuild/cel'
import type { Structural } from '../../crd/structural'
import { KUBERNETES_FUNC_NAMES } from './cel-libs'
import type { CelTypeInfo } from './cel-model'
import { BOOL_RESULT, INT_RESULT, STANDARD, STRING_RESULT } from './cel-functions'
import { MAX_REQUEST_BYTES } from './cel-sizes'
import { ARITHMETIC, COMPARISONS, compatible, DYN, scalar, type Typed, typedOf, typeName } from './cel-check-types'

type Parsed = ReturnType<typeof parse>
type Expr = Parsed['expr']

const LOGICAL = new Set(['_&&_', '_||_', '_?_:_'])

/** kube's StaticEstimatedCostLimit (per expression) and the size it assumes for unbounded values. */
export const EXPRESSION_COST_LIMIT = 10_000_000

interface CheckResult {
  errors: { offset: number; message: string }[]
  usesOldSelf: boolean
  cost: number
  result: CelTypeInfo
}

/** Checks a parsed rule; `self` is the schema node it is declared on. */
export function checkExpr(parsed: Parsed, self: Structural, isRoot: boolean, optionalOldSelf: boolean): CheckResult {
  const errors: CheckResult['errors'] = []
  const positions = parsed.sourceInfo?.positions ?? {}
  const at = (e: Expr) => (positions as Record<string, number>)[String(e.id)] ?? 0
  let usesOldSelf = false
  let cost = 0
  const selfType = typedOf(self, isRoot)
  const scope: Map<string, Typed>[] = [
    new Map([
      ['self', selfType],
      [
        'oldSelf',
        optionalOldSelf
          ? { type: { kind: 'optional', value: selfType.type }, size: selfType.size, schema: self }
          : selfType,
      ],
    ]),
  ]
  const lookup = (name: string) => {
    for (let i = scope.length - 1; i >= 0; i--) {
      const t = scope[i]!.get(name)
      if (t) return t
    }
    return undefined
  }

  function visit(e: Expr, multiplier: number): Typed {
    const k = e.exprKind
    // cel-go's estimate: 1 per identifier, selection and call, 10 per list and 30 per map created, nothing for
    // constants and the logical operators themselves.
    if (k.case === 'listExpr') cost += multiplier * 10
    else if (k.case === 'structExpr') cost += multiplier * 30
    else if (k.case !== 'constExpr' && !(k.case === 'callExpr' && LOGICAL.has(k.value.function))) cost += multiplier
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind
        switch (c.case) {
          case 'int64Value':
            return scalar('int')
          case 'uint64Value':
            return scalar('uint')
          case 'doubleValue':
            return scalar('double')
          case 'stringValue':
            return scalar('string', c.value.length)
          case 'boolValue':
            return scalar('bool')
          case 'bytesValue':
            return scalar('bytes', c.value.length)
          case 'nullValue':
            return scalar('null')
          default:
            return DYN
        }
      }
      case 'identExpr': {
        const name = k.value.name
        if (name === 'oldSelf') usesOldSelf = true
        const t = lookup(name)
        if (t) return t
        if (['int', 'uint', 'double', 'string', 'bool', 'bytes', 'list', 'map', 'null_type', 'type'].includes(name))
          return { type: { kind: 'type' }, size: 1 }
        errors.push({ offset: at(e), message: `undeclared reference to '${name}' (in container '')` })
        return DYN
      }
      case 'selectExpr': {
        const operand = visit(k.value.operand!, multiplier)
        const field = k.value.field
        const t = operand.type
        let out: Typed = DYN
        if (t.kind === 'object') {
          const f = t.fields.get(field)
          if (!f) {
            if (!t.schema.preserveUnknownFields) errors.push({ offset: at(e), message: `undefined field '${field}'` })
          } else out = typedOf(f)
        } else if (t.kind === 'map') out = { type: t.value, size: MAX_REQUEST_BYTES }
        else if (t.kind !== 'dyn' && t.kind !== 'optional')
          errors.push({ offset: at(e), message: `type '${typeName(t)}' does not support field selection` })
        return k.value.testOnly ? scalar('bool') : out
      }
      case 'callExpr': {
        const t = k.value.target
        // A call qualified by a namespace (ip.isCanonical, format.named, format.dns1123Label) is a global function.
        const qualified =
          t?.exprKind.case === 'identExpr' && !lookup(t.exprKind.value.name)
            ? `${t.exprKind.value.name}.${k.value.function}`
            : null
        if (qualified && KUBERNETES_FUNC_NAMES.has(qualified)) {
          cost += multiplier
          const args = k.value.args.map((a) => visit(a, multiplier))
          return callType(e, qualified, undefined, args, multiplier)
        }
        const fn = k.value.function
        const target = t ? visit(t, multiplier) : undefined
        const args = k.value.args.map((a) => visit(a, multiplier))
        if (!STANDARD.has(fn) && !KUBERNETES_FUNC_NAMES.has(fn)) {
          // cel-go places a call at its '(' (the parser here records a member call's '.', a global call's name).
          const offset = k.value.target ? at(e) + 1 + fn.length : at(e) + fn.length
          errors.push({ offset, message: `undeclared reference to '${fn}' (in container '')` })
          return DYN
        }
        return callType(e, fn, target, args, multiplier)
      }
      case 'listExpr': {
        const elems = k.value.elements.map((x) => visit(x, multiplier))
        return { type: { kind: 'list', elem: elems[0]?.type ?? { kind: 'dyn' } }, size: elems.length }
      }
      case 'structExpr': {
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value, multiplier)
          if (entry.value) visit(entry.value, multiplier)
        }
        return { type: { kind: 'map', value: { kind: 'dyn' } }, size: k.value.entries.length }
      }
      case 'comprehensionExpr': {
        const c = k.value
        const range = visit(c.iterRange!, multiplier)
        const accu = visit(c.accuInit!, multiplier)
        const elem: Typed =
          range.type.kind === 'list'
            ? { ...typedOf(range.schema?.items), type: range.type.elem }
            : range.type.kind === 'map'
              ? scalar('string', MAX_REQUEST_BYTES)
              : DYN
        scope.push(
          new Map([
            [c.iterVar, elem],
            [c.accuVar, accu],
          ]),
        )
        const inner = multiplier * Math.max(1, range.size)
        visit(c.loopCondition!, inner)
        const step = visit(c.loopStep!, inner)
        scope[scope.length - 1]!.set(c.accuVar, step.type.kind === 'dyn' ? accu : step)
        const result = visit(c.result!, multiplier)
        scope.pop()
        return result
      }
      default:
        return DYN
    }
  }

  function callType(e: Expr, fn: string, target: Typed | undefined, args: Typed[], multiplier: number): Typed {
    const operands = target ? [target, ...args] : args
    // Work proportional to a string's length (kube charges a tenth of a unit per character).
    if (
      [
        'contains',
        'startsWith',
        'endsWith',
        'matches',
        'lowerAscii',
        'upperAscii',
        'replace',
        'split',
        'find',
        'findAll',
        'indexOf',
        'lastIndexOf',
        'trim',
        'url',
        'quantity',
        'isQuantity',
        'ip',
        'isIP',
        'cidr',
        'isCIDR',
      ].includes(fn)
    )
      // (in place of the call's unit cost)
      cost +=
        multiplier * (Math.ceil(Math.max(...operands.map((o) => (o.type.kind === 'string' ? o.size : 1))) * 0.1) - 1)
    // A format's check: the string's traversal times the longest name-format regex (kube's EstimateCallCost).
    if (fn === 'validate' && target && args[0])
      cost += multiplier * (Math.ceil(Math.ceil(args[0].size * 0.1) * 128 * 0.25) - 1)
    const [a, b] = operands
    if (a && b && (COMPARISONS.has(fn) || ARITHMETIC.has(fn)) && !compatible(fn, a.type, b.type)) {
      errors.push({
        offset: at(e),
        message: `found no matching overload for '${fn}' applied to '(${typeName(a.type)}, ${typeName(b.type)})'`,
      })
      return DYN
    }
    if (BOOL_RESULT.has(fn)) return scalar('bool')
    if (STRING_RESULT.has(fn)) return scalar('string', MAX_REQUEST_BYTES)
    if (INT_RESULT.has(fn)) return scalar('int')
    if (fn === 'double' || fn === 'asApproximateFloat') return scalar('double')
    if (fn === 'split' || fn === 'findAll')
      return { type: { kind: 'list', elem: { kind: 'string' } }, size: MAX_REQUEST_BYTES }
    if (fn === '_[_]' && a) {
      if (a.type.kind === 'list') return { ...typedOf(a.schema?.items), type: a.type.elem }
      if (a.type.kind === 'map') return { type: a.type.value, size: MAX_REQUEST_BYTES }
      return DYN
    }
    if (ARITHMETIC.has(fn) && a && b && a.type.kind === b.type.kind && a.type.kind !== 'dyn')
      return { type: a.type, size: a.size + b.size, schema: a.schema }
    if (fn === '_?_:_' && operands[1]) return operands[1]
    if ((fn === 'min' || fn === 'max' || fn === 'sum') && target?.type.kind === 'list')
      return { type: target.type.elem, size: 1 }
    if (fn === 'value' || fn === 'orValue')
      return target?.type.kind === 'optional'
        ? { type: target.type.value, size: target.size, schema: target.schema }
        : DYN
    return DYN
  }

  const result = visit(parsed.expr, 1)
  return { errors, usesOldSelf, cost, result: result.type }
}

/** cel-go's rendering of an error: `ERROR: <input>:L:C: message`, the source line and a caret under the column. */
export function formatCelError(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset)
  const line = before.split('\n').length
  const lineStart = before.lastIndexOf('\n') + 1
  const column = offset - lineStart
  const text = source.split('\n')[line - 1] ?? ''
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`
}
