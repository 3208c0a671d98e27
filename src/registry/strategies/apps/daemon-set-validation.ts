// kube's DaemonSet validation (pkg/apis/apps/validation, release-1.33): ValidateDaemonSetSpec (selector, template
// labels, the full pod template, restartPolicy Always, no activeDeadlineSeconds, the update strategy and its rolling
// update bounds) and validateDaemonSetStatus with the collisionCount that may not go down.
import type { DaemonSetSpec, DaemonSetStatus } from '../../../schema/daemon-set'
import type { PodSpec } from '../../../schema/pod'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import {
  intOrPercentValue,
  invalidIntOrString,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../../validation/int-or-percent'
import { validateNonnegativeField } from '../../validation/object-meta'
import { selectorMismatch, validatePodTemplateSpec } from '../pod-template'
import { goLabelSelector, goPtr, goStruct, validateLabelSelector } from '../pod/pod-validation-formats'

const spec = new FieldPath('spec')

/** ValidateRollingUpdateDaemonSet: valid bounds, at most 100%, exactly one of them non-zero. */
function validateRollingUpdate(
  ru: NonNullable<NonNullable<DaemonSetSpec['updateStrategy']>['rollingUpdate']>,
  at: FieldPath,
) {
  const errs: FieldError[] = []
  errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, at.child('maxUnavailable')))
  errs.push(...validatePositiveIntOrPercent(ru.maxSurge, at.child('maxSurge')))
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, at.child('maxUnavailable')))
  errs.push(...isNotMoreThan100Percent(ru.maxSurge, at.child('maxSurge')))
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0
  if (hasUnavailable && hasSurge)
    errs.push(invalidIntOrString(at.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'))
  else if (!hasUnavailable && !hasSurge)
    errs.push(fieldError.required(at.child('maxUnavailable').toString(), 'cannot be 0 when maxSurge is 0'))
  return errs
}

/** ValidateDaemonSetUpdateStrategy (the strategy is defaulted to RollingUpdate before this runs). */
function validateUpdateStrategy(strategy: DaemonSetSpec['updateStrategy'], at: FieldPath): FieldError[] {
  const type = strategy?.type ?? ''
  if (type === 'OnDelete') return []
  if (type === 'RollingUpdate') {
    if (!strategy?.rollingUpdate) return [fieldError.required(at.child('rollingUpdate').toString())]
    return validateRollingUpdate(strategy.rollingUpdate, at.child('rollingUpdate'))
  }
  // kube passes the strategy struct itself, which %#v prints with its pointer.
  const shown = goStruct('apps.DaemonSetUpdateStrategy', [
    ['Type', goQuote(type)],
    ['RollingUpdate', goPtr('*apps.RollingUpdateDaemonSet', strategy?.rollingUpdate)],
  ])
  return [
    {
      type: 'FieldValueNotSupported',
      field: at.toString(),
      message: `Unsupported value: ${shown}: supported values: "RollingUpdate", "OnDelete"`,
    },
  ]
}

/** ValidateDaemonSetSpec, in kube's order and wording. */
export function validateDaemonSetSpec(s: Partial<DaemonSetSpec> | undefined): FieldError[] {
  const errs: FieldError[] = []
  const template = s?.template ?? {}
  errs.push(...validateLabelSelector(s?.selector, spec.child('selector')))
  // A nil selector is labels.Nothing(): it matches no template, which is how kube refuses a missing one.
  const parsed = labelSelectorFromMetaV1(s?.selector)
  if (parsed.ok && !parsed.selector.matches(template.metadata?.labels))
    errs.push(selectorMismatch(template, spec.child('template')))
  const selector = s?.selector
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.selector',
      message: `Invalid value: ${goLabelSelector(selector)}: empty selector is invalid for daemonset`,
    })
  }
  errs.push(...validatePodTemplateSpec(template, spec.child('template')))
  const podSpec = (template.spec ?? {}) as Partial<PodSpec>
  if (podSpec.restartPolicy !== 'Always') {
    errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy ?? '', ['Always']))
  }
  if (podSpec.activeDeadlineSeconds !== undefined) {
    errs.push(
      fieldError.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    )
  }
  errs.push(...validateNonnegativeField(s?.minReadySeconds ?? 0, spec.child('minReadySeconds')))
  errs.push(...validateUpdateStrategy(s?.updateStrategy, spec.child('updateStrategy')))
  if (s?.revisionHistoryLimit !== undefined)
    errs.push(...validateNonnegativeField(s.revisionHistoryLimit, spec.child('revisionHistoryLimit')))
  return errs
}

/** validateDaemonSetStatus, and collisionCount never decremented (ValidateDaemonSetStatusUpdate). */
export function validateDaemonSetStatus(
  s: Partial<DaemonSetStatus> | undefined,
  old: Partial<DaemonSetStatus> | undefined,
) {
  const at = new FieldPath('status')
  const errs: FieldError[] = []
  for (const k of [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
  ] as const)
    errs.push(...validateNonnegativeField(s?.[k] ?? 0, at.child(k)))
  if (s?.collisionCount !== undefined)
    errs.push(...validateNonnegativeField(s.collisionCount, at.child('collisionCount')))
  if (old?.collisionCount !== undefined && (s?.collisionCount === undefined || s.collisionCount < old.collisionCount))
    errs.push(fieldError.invalid('status.collisionCount', s?.collisionCount ?? 0, 'cannot be decremented'))
  return errs
}
