// kube's Deployment validation (pkg/apis/apps/validation, release-1.33): ValidateDeploymentSpec with its strategy and
// rolling-update checks (IntOrString values printed as Go's %#v prints the internal intstr.IntOrString), and
// ValidateDeploymentStatus with the collisionCount that may not go down.
import type { DeploymentSpec, DeploymentStatus } from '../../../schema/deployment'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { regexError } from '../../validation/names'
import { validateNonnegativeField } from '../../validation/object-meta'
import { validateReplicaTemplate } from '../pod-template'
import { validateSpecSelector } from './apps-selector'

type IntOrString = number | string

const PERCENT = /^[0-9]+%$/

/** validation.IsValidPercent. */
const isValidPercent = (s: string) =>
  PERCENT.test(s)
    ? []
    : [regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%')]

/** %#v of an intstr.IntOrString value (its String method has a pointer receiver, so fmt prints the struct). */
export function goIntOrString(v: IntOrString | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`
  return `intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`
}

const invalidIntOrString = (at: FieldPath, v: IntOrString | undefined, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: at.toString(),
  message: `Invalid value: ${goIntOrString(v)}: ${detail}`,
})

/** ValidatePositiveIntOrPercent: a valid percentage, or a non-negative integer. */
function validatePositiveIntOrPercent(v: IntOrString | undefined, at: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalidIntOrString(at, v, m))
  return validateNonnegativeField(v ?? 0, at)
}

/** getIntOrPercentValue: a valid percentage's number, else IntValue() (a string's Atoi, 0 when it does not parse). */
function intOrPercentValue(v: IntOrString | undefined): number {
  if (typeof v === 'number') return v
  if (v === undefined) return 0
  if (PERCENT.test(v)) return Number(v.slice(0, -1))
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0
}

/** ValidateRollingUpdateDeployment. */
function validateRollingUpdate(ru: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, at: FieldPath) {
  const errs: FieldError[] = []
  const unavailableAt = at.child('maxUnavailable')
  errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, unavailableAt))
  errs.push(...validatePositiveIntOrPercent(ru.maxSurge, at.child('maxSurge')))
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalidIntOrString(unavailableAt, ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'))
  }
  const u = ru.maxUnavailable
  if (typeof u === 'string' && PERCENT.test(u) && Number(u.slice(0, -1)) > 100) {
    errs.push(invalidIntOrString(unavailableAt, u, 'must not be greater than 100%'))
  }
  return errs
}

/** ValidateDeploymentStrategy. */
function validateStrategy(strategy: DeploymentSpec['strategy'], at: FieldPath): FieldError[] {
  const type = strategy?.type ?? ''
  const ru = strategy?.rollingUpdate
  if (type === 'Recreate') {
    return ru
      ? [
          fieldError.forbidden(
            at.child('rollingUpdate').toString(),
            "may not be specified when strategy `type` is 'Recreate'",
          ),
        ]
      : []
  }
  if (type === 'RollingUpdate') {
    if (!ru)
      return [fieldError.required(at.child('rollingUpdate').toString(), 'this should be defaulted and never be nil')]
    return validateRollingUpdate(ru, at.child('rollingUpdate'))
  }
  // NotSupported with the whole strategy as the value: the internal type, printed with %#v.
  const shown =
    `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:` +
    `${ru ? '(*apps.RollingUpdateDeployment)(0xc000000000)' : '(*apps.RollingUpdateDeployment)(nil)'}}`
  return [
    {
      type: 'FieldValueNotSupported',
      field: at.toString(),
      message: `Unsupported value: ${shown}: supported values: "Recreate", "RollingUpdate"`,
    },
  ]
}

/** ValidateDeploymentSpec, in kube's order. */
export function validateDeploymentSpec(spec: Partial<DeploymentSpec> | undefined): FieldError[] {
  const s = spec ?? {}
  const at = new FieldPath('spec')
  const errs: FieldError[] = []
  errs.push(...validateNonnegativeField(s.replicas ?? 0, at.child('replicas')))
  const selector = validateSpecSelector(s.selector, at.child('selector'), 'empty selector is invalid for deployment')
  errs.push(...selector.errors)
  if (selector.matches !== 'invalid') {
    errs.push(...validateReplicaTemplate(s.template ?? {}, selector.matches, at.child('template'), 'ReplicaSet'))
  }
  errs.push(...validateStrategy(s.strategy, at.child('strategy')))
  errs.push(...validateNonnegativeField(s.minReadySeconds ?? 0, at.child('minReadySeconds')))
  if (s.revisionHistoryLimit !== undefined)
    errs.push(...validateNonnegativeField(s.revisionHistoryLimit, at.child('revisionHistoryLimit')))
  if (s.progressDeadlineSeconds !== undefined) {
    const deadline = s.progressDeadlineSeconds
    errs.push(...validateNonnegativeField(deadline, at.child('progressDeadlineSeconds')))
    if (deadline <= (s.minReadySeconds ?? 0)) {
      errs.push(
        fieldError.invalid(
          at.child('progressDeadlineSeconds').toString(),
          deadline,
          'must be greater than minReadySeconds',
        ),
      )
    }
  }
  return errs
}

/** ValidateDeploymentStatus, then ValidateDeploymentStatusUpdate's collisionCount rule. */
export function validateDeploymentStatus(status: DeploymentStatus | undefined, old: DeploymentStatus | undefined) {
  const s = status ?? {}
  const at = new FieldPath('status')
  const errs: FieldError[] = []
  errs.push(...validateNonnegativeField(s.observedGeneration ?? 0, at.child('observedGeneration')))
  for (const k of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const)
    errs.push(...validateNonnegativeField(s[k] ?? 0, at.child(k)))
  if (s.terminatingReplicas !== undefined)
    errs.push(...validateNonnegativeField(s.terminatingReplicas, at.child('terminatingReplicas')))
  if (s.collisionCount !== undefined)
    errs.push(...validateNonnegativeField(s.collisionCount, at.child('collisionCount')))
  const replicas = s.replicas ?? 0
  const above = 'cannot be greater than status.replicas'
  if ((s.updatedReplicas ?? 0) > replicas)
    errs.push(fieldError.invalid('status.updatedReplicas', s.updatedReplicas, above))
  if ((s.readyReplicas ?? 0) > replicas) errs.push(fieldError.invalid('status.readyReplicas', s.readyReplicas, above))
  if ((s.availableReplicas ?? 0) > replicas)
    errs.push(fieldError.invalid('status.availableReplicas', s.availableReplicas, above))
  if ((s.availableReplicas ?? 0) > (s.readyReplicas ?? 0))
    errs.push(
      fieldError.invalid('status.availableReplicas', s.availableReplicas, 'cannot be greater than readyReplicas'),
    )
  // IsDecremented: an old count that is now lower, or gone.
  if (old?.collisionCount !== undefined && (s.collisionCount === undefined || s.collisionCount < old.collisionCount))
    errs.push(fieldError.invalid('status.collisionCount', s.collisionCount ?? 0, 'cannot be decremented'))
  return errs
}
