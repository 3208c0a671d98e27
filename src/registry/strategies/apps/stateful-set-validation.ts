// kube's StatefulSet validation (pkg/apis/apps/validation, release-1.33): ValidateStatefulSetSpec (pod management
// policy, update strategy and partition, claim retention policy, serviceName a DNS label, counts, ordinals, selector,
// template labels and annotations only, restartPolicy Always, no activeDeadlineSeconds), the fields an update may
// change, and ValidateStatefulSetStatus with the collisionCount that may not go down.
import type { PodSpec } from '../../../schema/pod'
import type { StatefulSetSpec, StatefulSetStatus } from '../../../schema/stateful-set'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import { deepEqual } from '../../deep-equal'
import {
  intOrPercentValue,
  invalidIntOrString,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../../validation/int-or-percent'
import { validateAnnotations, validateLabels, validateNonnegativeField } from '../../validation/object-meta'
import { selectorMismatch } from '../pod-template'
import {
  goLabelSelector,
  goPtr,
  goStruct,
  validateDNS1123Label,
  validateLabelSelector,
} from '../pod/pod-validation-formats'

type Spec = Partial<StatefulSetSpec>
const spec = new FieldPath('spec')

function validateRetentionPolicyType(v: string | undefined, at: FieldPath): FieldError[] {
  if (v === 'Retain' || v === 'Delete') return []
  return [fieldError.notSupported(at.toString(), v ?? '', ['Retain', 'Delete'])]
}

/** The update strategy as kube checks it after defaulting (RollingUpdate, or OnDelete without rollingUpdate). */
function validateUpdateStrategy(s: Spec): FieldError[] {
  const strategy = s.updateStrategy
  const at = spec.child('updateStrategy')
  const type = strategy?.type ?? ''
  const ru = strategy?.rollingUpdate
  if (type === '') return [fieldError.required(at.toString())]
  if (type === 'OnDelete') {
    if (!ru) return []
    // kube passes the *RollingUpdateStatefulSetStrategy, which an Invalid error prints dereferenced.
    const shown = goStruct('apps.RollingUpdateStatefulSetStrategy', [
      ['Partition', String(ru.partition ?? 0)],
      ['MaxUnavailable', goPtr('*intstr.IntOrString', ru.maxUnavailable)],
    ])
    return [
      {
        type: 'FieldValueInvalid',
        field: at.child('rollingUpdate').toString(),
        message: `Invalid value: ${shown}: only allowed for updateStrategy 'RollingUpdate'`,
      },
    ]
  }
  if (type === 'RollingUpdate') {
    if (!ru) return []
    const ruAt = at.child('rollingUpdate')
    const errs = validateNonnegativeField(ru.partition ?? 0, ruAt.child('partition'))
    if (ru.maxUnavailable !== undefined) {
      const muAt = ruAt.child('maxUnavailable')
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, muAt))
      if (intOrPercentValue(ru.maxUnavailable) === 0)
        errs.push(invalidIntOrString(muAt, ru.maxUnavailable, 'cannot be 0'))
      errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, muAt))
    }
    return errs
  }
  const shown = goStruct('apps.StatefulSetUpdateStrategy', [
    ['Type', goQuote(type)],
    ['RollingUpdate', goPtr('*apps.RollingUpdateStatefulSetStrategy', ru)],
  ])
  return [
    {
      type: 'FieldValueInvalid',
      field: at.toString(),
      message: `Invalid value: ${shown}: must be 'RollingUpdate' or 'OnDelete'`,
    },
  ]
}

/** ValidateStatefulSetSpec, in kube's order and wording. */
export function validateStatefulSetSpec(s: Spec = {}): FieldError[] {
  const errs: FieldError[] = []
  const policy = s.podManagementPolicy ?? ''
  if (policy === '') errs.push(fieldError.required('spec.podManagementPolicy'))
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(fieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"))
  errs.push(...validateUpdateStrategy(s))
  const retention = s.persistentVolumeClaimRetentionPolicy
  if (retention) {
    const at = spec.child('persistentVolumeClaimRetentionPolicy')
    errs.push(...validateRetentionPolicyType(retention.whenDeleted, at.child('whenDeleted')))
    errs.push(...validateRetentionPolicyType(retention.whenScaled, at.child('whenScaled')))
  }
  // The service name becomes each pod's subdomain, which must be a DNS label.
  if (s.serviceName) errs.push(...validateDNS1123Label(s.serviceName, spec.child('serviceName')))
  errs.push(...validateNonnegativeField(s.replicas ?? 0, spec.child('replicas')))
  errs.push(...validateNonnegativeField(s.minReadySeconds ?? 0, spec.child('minReadySeconds')))
  if (s.ordinals) errs.push(...validateNonnegativeField(s.ordinals.start ?? 0, spec.child('ordinals.start')))
  const selector = s.selector
  if (!selector) errs.push(fieldError.required('spec.selector'))
  else {
    errs.push(...validateLabelSelector(selector, spec.child('selector')))
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
      errs.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        message: `Invalid value: ${goLabelSelector(selector)}: empty selector is invalid for statefulset`,
      })
    }
  }
  const parsed = labelSelectorFromMetaV1(selector)
  const template = s.template ?? {}
  const at = spec.child('template')
  if (!parsed.ok) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.selector',
      message: `Invalid value: ${goLabelSelector(selector)}`,
    })
  } else {
    // ValidatePodTemplateSpecForStatefulSet: the labels must match, and only labels and annotations are checked.
    if (!parsed.selector.isEmpty() && !parsed.selector.matches(template.metadata?.labels))
      errs.push(selectorMismatch(template, at))
    errs.push(...validateLabels(template.metadata?.labels, at.child('labels')))
    errs.push(...validateAnnotations(template.metadata?.annotations, at.child('annotations')))
  }
  const podSpec = (template.spec ?? {}) as Partial<PodSpec>
  if (podSpec.restartPolicy !== 'Always')
    errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy ?? '', ['Always']))
  if (podSpec.activeDeadlineSeconds !== undefined) {
    errs.push(
      fieldError.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in StatefulSet is not Supported',
      ),
    )
  }
  return errs
}

/** The spec fields ValidateStatefulSetUpdate lets change; any other change is forbidden. */
const MUTABLE = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'persistentVolumeClaimRetentionPolicy',
] as const

/** ValidateStatefulSetUpdate: the spec valid, and nothing but the mutable fields changed. */
export function validateStatefulSetUpdate(s: Spec = {}, old: Spec = {}): FieldError[] {
  const errs = validateStatefulSetSpec(s)
  const frozen = (x: Spec) => {
    const copy: Record<string, unknown> = { ...x }
    for (const k of MUTABLE) delete copy[k]
    return copy
  }
  if (!deepEqual(frozen(s), frozen(old))) {
    errs.push(
      fieldError.forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    )
  }
  return errs
}

/** ValidateStatefulSetStatus and the collisionCount that may not go down (ValidateStatefulSetStatusUpdate). */
export function validateStatefulSetStatus(s: Partial<StatefulSetStatus> = {}, old: Partial<StatefulSetStatus> = {}) {
  const at = new FieldPath('status')
  const errs: FieldError[] = []
  for (const k of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const)
    errs.push(...validateNonnegativeField(s[k] ?? 0, at.child(k)))
  if (s.observedGeneration !== undefined)
    errs.push(...validateNonnegativeField(s.observedGeneration, at.child('observedGeneration')))
  if (s.collisionCount !== undefined)
    errs.push(...validateNonnegativeField(s.collisionCount, at.child('collisionCount')))
  const replicas = s.replicas ?? 0
  const above = 'cannot be greater than status.replicas'
  for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const)
    if ((s[k] ?? 0) > replicas) errs.push(fieldError.invalid(`status.${k}`, s[k], above))
  if ((s.availableReplicas ?? 0) > (s.readyReplicas ?? 0))
    errs.push(
      fieldError.invalid(
        'status.availableReplicas',
        s.availableReplicas,
        'cannot be greater than status.readyReplicas',
      ),
    )
  if (old.collisionCount !== undefined && (s.collisionCount === undefined || s.collisionCount < old.collisionCount))
    errs.push(fieldError.invalid('status.collisionCount', s.collisionCount ?? 0, 'cannot be decremented'))
  return errs
}
