// Scheduling validation: tolerations and topology spread constraints (affinity: ./pod-validation-affinity.ts), after
// kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isValidLabelValue } from '../../validation/names'
import {
  IS_NOT_POSITIVE_ERROR_MSG,
  list,
  str,
  validateLabelSelector,
  validateQualifiedName,
} from './pod-validation-formats'
import type { Toleration, TopologySpreadConstraint } from './pod-types'

// ---------------------------------------------------------------------------------------------------------------
// Tolerations

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

/** ValidateTolerations. Value errors are reported at `operator`, as kube does. */
export function validateTolerations(tolerations: readonly Toleration[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  tolerations.forEach((t, i) => {
    const p = path.index(i)
    const key = str(t.key)
    const operator = str(t.operator)
    const value = str(t.value)
    const effect = str(t.effect)
    const opPath = p.child('operator').toString()
    if (key.length > 0) errs.push(...validateQualifiedName(key, p.child('key')))
    if (key.length === 0 && operator !== 'Exists') {
      errs.push(
        fieldError.invalid(
          opPath,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      )
    }
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute') {
      errs.push(
        fieldError.invalid(
          p.child('effect').toString(),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      )
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value)
        if (msgs.length > 0) errs.push(fieldError.invalid(opPath, value, msgs.join(';')))
        break
      }
      case 'Exists':
        if (value.length > 0)
          errs.push(fieldError.invalid(opPath, value, "value must be empty when `operator` is 'Exists'"))
        break
      default:
        errs.push(fieldError.notSupported(opPath, operator, ['Equal', 'Exists']))
    }
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect)) {
      errs.push(fieldError.notSupported(p.child('effect').toString(), effect, TAINT_EFFECTS))
    }
  })
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// Topology spread

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway']
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore']

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(
  constraints: readonly TopologySpreadConstraint[],
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  constraints.forEach((c, i) => {
    const p = path.index(i)
    const maxSkew = c.maxSkew ?? 0
    const when = str(c.whenUnsatisfiable)
    if (maxSkew <= 0) errs.push(fieldError.invalid(p.child('maxSkew').toString(), maxSkew, IS_NOT_POSITIVE_ERROR_MSG))
    if (!c.topologyKey) errs.push(fieldError.required(p.child('topologyKey').toString(), 'can not be empty'))
    if (!SCHEDULE_ACTIONS.includes(when)) {
      errs.push(fieldError.notSupported(p.child('whenUnsatisfiable').toString(), when, SCHEDULE_ACTIONS))
    }
    const repeated = constraints
      .slice(i + 1)
      .some((r) => r.topologyKey === c.topologyKey && r.whenUnsatisfiable === c.whenUnsatisfiable)
    if (repeated) {
      errs.push(
        fieldError.duplicate(
          p.child('{topologyKey, whenUnsatisfiable}').toString(),
          `{${c.topologyKey}, ${c.whenUnsatisfiable}}`,
        ),
      )
    }
    if (c.minDomains !== undefined) {
      const at = p.child('minDomains').toString()
      if (c.minDomains <= 0) errs.push(fieldError.invalid(at, c.minDomains, IS_NOT_POSITIVE_ERROR_MSG))
      if (when !== 'DoNotSchedule') {
        errs.push(
          fieldError.invalid(
            at,
            c.minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`,
          ),
        )
      }
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const policy = c[key]
      if (policy !== undefined && !NODE_INCLUSION_POLICIES.includes(policy)) {
        errs.push(fieldError.notSupported(p.child(key).toString(), policy, NODE_INCLUSION_POLICIES))
      }
    }
    const keys = list(c.matchLabelKeys)
    if (keys.length > 0) {
      const kp = p.child('matchLabelKeys')
      const selectorKeys = new Set([
        ...Object.keys(c.labelSelector?.matchLabels ?? {}),
        ...list(c.labelSelector?.matchExpressions).map((e) => e.key),
      ])
      if (!c.labelSelector)
        errs.push(fieldError.forbidden(kp.toString(), 'must not be specified when labelSelector is not set'))
      keys.forEach((k, j) => {
        errs.push(...validateQualifiedName(k, kp.index(j)))
        if (selectorKeys.has(k))
          errs.push(fieldError.invalid(kp.index(j).toString(), k, 'exists in both matchLabelKeys and labelSelector'))
      })
    }
    errs.push(...validateLabelSelector(c.labelSelector, p.child('labelSelector')))
  })
  return errs
}
