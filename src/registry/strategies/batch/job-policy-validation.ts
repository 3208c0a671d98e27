// A Job's pod failure policy, success policy and pod replacement policy as kube 1.33 validates them
// (pkg/apis/batch/validation: validatePodFailurePolicy, validateSuccessPolicy, validatePodReplacementPolicy), and the
// Go renderings (%#v) of the policies that their errors and the immutability errors print.
import type { JobSpec } from '../../../schema/batch'
import { validateIndexesFormat } from '../../batch/index-intervals'
import { byteLength } from '../../validation/names'
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { validateNonnegativeField } from '../../validation/object-meta'
import { goPtr, goStruct, invalidGo, validateQualifiedName } from '../pod/pod-validation-formats'

type PodFailurePolicy = NonNullable<JobSpec['podFailurePolicy']>
type Rule = PodFailurePolicy['rules'][number]
type OnExitCodes = NonNullable<Rule['onExitCodes']>
type SuccessPolicy = NonNullable<JobSpec['successPolicy']>

const MAX_POD_FAILURE_POLICY_RULES = 20
const MAX_ON_EXIT_CODES_VALUES = 255
const MAX_ON_POD_CONDITIONS_PATTERNS = 20
const MAX_SUCCESS_POLICY_RULES = 20
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024

const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore']
const OPERATORS = ['In', 'NotIn']
const CONDITION_STATUSES = ['False', 'True', 'Unknown']

/** fmt's %q of a []string: `["a" "b"]`. */
const goQuotedList = (values: string[]) => `[${values.map(goQuote).join(' ')}]`

/** field.Invalid with field.OmitValueType{}: the value is left out of the message. */
const invalidOmitted = (field: string, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${detail}`,
})

/** %#v of a []int32 (nil when absent). */
const goInt32s = (values: number[] | undefined) => (values ? `[]int32{${values.join(', ')}}` : '[]int32(nil)')

/** validatePodFailurePolicy: at most 20 rules, each with one matcher, a known action, valid exit codes or patterns. */
export function validatePodFailurePolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const policy = spec.podFailurePolicy!
  const errs: FieldError[] = []
  const rulesPath = path.child('rules')
  const rules = policy.rules ?? []
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES)
    errs.push(fieldError.tooMany(rulesPath.toString(), rules.length, MAX_POD_FAILURE_POLICY_RULES))
  const template = spec.template?.spec
  const containers = new Set([...(template?.containers ?? []), ...(template?.initContainers ?? [])].map((c) => c.name))
  rules.forEach((rule, i) => errs.push(...validateRule(spec, rule, rulesPath.index(i), containers)))
  return errs
}

function validateRule(spec: JobSpec, rule: Rule, path: FieldPath, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = []
  const actionPath = path.child('action').toString()
  const action = rule.action ?? ''
  if (action === '') errs.push(fieldError.required(actionPath, `valid values: ${goQuotedList(ACTIONS)}`))
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined)
      errs.push(fieldError.invalid(actionPath, action, 'requires the backoffLimitPerIndex to be set'))
  } else if (!ACTIONS.includes(action)) errs.push(fieldError.notSupported(actionPath, action, ACTIONS))
  if (rule.onExitCodes) errs.push(...validateOnExitCodes(rule.onExitCodes, path.child('onExitCodes'), containers))
  const patterns = rule.onPodConditions ?? []
  if (patterns.length > 0) errs.push(...validateOnPodConditions(patterns, path.child('onPodConditions')))
  if (rule.onExitCodes && patterns.length > 0)
    errs.push(invalidOmitted(path.toString(), 'specifying both OnExitCodes and OnPodConditions is not supported'))
  if (!rule.onExitCodes && patterns.length === 0)
    errs.push(invalidOmitted(path.toString(), 'specifying one of OnExitCodes and OnPodConditions is required'))
  return errs
}

function validateOnPodConditions(patterns: NonNullable<Rule['onPodConditions']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS)
    errs.push(fieldError.tooMany(path.toString(), patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS))
  patterns.forEach((pattern, j) => {
    const at = path.index(j)
    errs.push(...validateQualifiedName(pattern.type ?? '', at.child('type')))
    const statusPath = at.child('status').toString()
    const status = pattern.status ?? ''
    if (status === '') errs.push(fieldError.required(statusPath, `valid values: ${goQuotedList(CONDITION_STATUSES)}`))
    else if (!CONDITION_STATUSES.includes(status))
      errs.push(fieldError.notSupported(statusPath, status, CONDITION_STATUSES))
  })
  return errs
}

function validateOnExitCodes(req: OnExitCodes, path: FieldPath, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = []
  const operatorPath = path.child('operator').toString()
  const operator = req.operator ?? ''
  if (operator === '') errs.push(fieldError.required(operatorPath, `valid values: ${goQuotedList(OPERATORS)}`))
  else if (!OPERATORS.includes(operator)) errs.push(fieldError.notSupported(operatorPath, operator, OPERATORS))
  if (req.containerName !== undefined && !containers.has(req.containerName)) {
    errs.push(
      fieldError.invalid(
        path.child('containerName').toString(),
        req.containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    )
  }
  const valuesPath = path.child('values')
  const values = req.values
  if (!values || values.length === 0)
    errs.push(invalidGo(valuesPath.toString(), values ? '[]int32{}' : '[]int32(nil)', 'at least one value is required'))
  else if (values.length > MAX_ON_EXIT_CODES_VALUES)
    errs.push(fieldError.tooMany(valuesPath.toString(), values.length, MAX_ON_EXIT_CODES_VALUES))
  let ordered = true
  const seen = new Set<number>()
  ;(values ?? []).forEach((v, j) => {
    const at = valuesPath.index(j).toString()
    if (operator === 'In' && v === 0) errs.push(fieldError.invalid(at, v, 'must not be 0 for the In operator'))
    if (seen.has(v)) errs.push(fieldError.duplicate(at, v))
    else seen.add(v)
    if (j > 0 && values![j - 1]! > v) ordered = false
  })
  if (!ordered) errs.push(invalidGo(valuesPath.toString(), goInt32s(values), 'must be ordered'))
  return errs
}

/** validateSuccessPolicy (an Indexed Job's): 1 to 20 rules, each naming indexes below completions or a count. */
export function validateSuccessPolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const policy = spec.successPolicy!
  const errs: FieldError[] = []
  const rulesPath = path.child('rules')
  const rules = policy.rules ?? []
  if (rules.length === 0)
    errs.push(
      fieldError.required(
        rulesPath.toString(),
        'at least one rules must be specified when the successPolicy is specified',
      ),
    )
  if (rules.length > MAX_SUCCESS_POLICY_RULES)
    errs.push(fieldError.tooMany(rulesPath.toString(), rules.length, MAX_SUCCESS_POLICY_RULES))
  // kube dereferences completions here; validation has already reported it missing, so 0 stands in.
  const completions = spec.completions ?? 0
  rules.forEach((rule, i) => {
    const at = rulesPath.index(i)
    if (rule.succeededCount === undefined && rule.succeededIndexes === undefined)
      errs.push(
        fieldError.required(at.toString(), 'at least one of succeededCount or succeededIndexes must be specified'),
      )
    let total = 0
    if (rule.succeededIndexes !== undefined) {
      const indexesPath = at.child('succeededIndexes').toString()
      if (byteLength(rule.succeededIndexes) > MAX_SUCCEEDED_INDEXES_LENGTH)
        errs.push(fieldError.tooLong(indexesPath, MAX_SUCCEEDED_INDEXES_LENGTH))
      const parsed = validateIndexesFormat(rule.succeededIndexes, completions)
      if (parsed.ok) total = parsed.total
      else
        errs.push(
          fieldError.invalid(indexesPath, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed.message}`),
        )
    }
    if (rule.succeededCount !== undefined) {
      const countPath = at.child('succeededCount')
      errs.push(...validateNonnegativeField(rule.succeededCount, countPath))
      if (rule.succeededCount > completions)
        errs.push(
          fieldError.invalid(
            countPath.toString(),
            rule.succeededCount,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        )
      if (rule.succeededIndexes !== undefined && rule.succeededCount > total)
        errs.push(
          fieldError.invalid(
            countPath.toString(),
            rule.succeededCount,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        )
    }
  })
  return errs
}

/** validatePodReplacementPolicy: Failed only with a pod failure policy; else Failed or TerminatingOrFailed. */
export function validatePodReplacementPolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const policy = spec.podReplacementPolicy
  if (policy === undefined) return []
  if (spec.podFailurePolicy)
    return policy === 'Failed' ? [] : [fieldError.notSupported(path.toString(), policy, ['Failed'])]
  const supported = ['Failed', 'TerminatingOrFailed']
  return supported.includes(policy) ? [] : [fieldError.notSupported(path.toString(), policy, supported)]
}

/** %#v of a batch.PodFailurePolicy (pointers stand in with a fixed address, as elsewhere). */
export function goPodFailurePolicy(policy: PodFailurePolicy): string {
  const rules = (policy.rules ?? []).map((r) =>
    goStruct('batch.PodFailurePolicyRule', [
      ['Action', goQuote(r.action ?? '')],
      ['OnExitCodes', goPtr('*batch.PodFailurePolicyOnExitCodesRequirement', r.onExitCodes)],
      [
        'OnPodConditions',
        r.onPodConditions
          ? `[]batch.PodFailurePolicyOnPodConditionsPattern{${r.onPodConditions
              .map((p) =>
                goStruct('batch.PodFailurePolicyOnPodConditionsPattern', [
                  ['Type', goQuote(p.type ?? '')],
                  ['Status', goQuote(p.status ?? '')],
                ]),
              )
              .join(', ')}}`
          : '[]batch.PodFailurePolicyOnPodConditionsPattern(nil)',
      ],
    ]),
  )
  return goStruct('batch.PodFailurePolicy', [
    ['Rules', policy.rules ? `[]batch.PodFailurePolicyRule{${rules.join(', ')}}` : '[]batch.PodFailurePolicyRule(nil)'],
  ])
}

/** %#v of a batch.SuccessPolicy. */
export function goSuccessPolicy(policy: SuccessPolicy): string {
  const rules = (policy.rules ?? []).map((r) =>
    goStruct('batch.SuccessPolicyRule', [
      ['SucceededIndexes', goPtr('*string', r.succeededIndexes)],
      ['SucceededCount', goPtr('*int32', r.succeededCount)],
    ]),
  )
  return goStruct('batch.SuccessPolicy', [
    ['Rules', policy.rules ? `[]batch.SuccessPolicyRule{${rules.join(', ')}}` : '[]batch.SuccessPolicyRule(nil)'],
  ])
}
