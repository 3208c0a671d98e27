// Scheduling validation: node and pod affinity, tolerations and topology spread constraints, after kube-apiserver
// 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isValidLabelValue } from '../../validation/names'
import { nameIsDNSLabel } from '../../validation/names'
import {
  IS_NOT_POSITIVE_ERROR_MSG,
  list,
  nameIsSubdomain,
  str,
  validateLabelSelector,
  validateQualifiedName,
} from './pod-validation-formats'
import type {
  Affinity,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinityTerm,
  Toleration,
  TopologySpreadConstraint,
  WeightedPodAffinityTerm,
  LabelSelector,
} from './pod-types'

// ---------------------------------------------------------------------------------------------------------------
// Affinity

/** validateAffinity. */
export function validateAffinity(affinity: Affinity | undefined, path: FieldPath): FieldError[] {
  if (!affinity) return []
  const errs: FieldError[] = []
  if (affinity.nodeAffinity) errs.push(...validateNodeAffinity(affinity.nodeAffinity, path.child('nodeAffinity')))
  for (const key of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = affinity[key]
    if (!a) continue
    const p = path.child(key)
    list(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      errs.push(...validatePodAffinityTerm(term, p.child('requiredDuringSchedulingIgnoredDuringExecution').index(i)))
    })
    errs.push(
      ...validateWeightedPodAffinityTerms(
        list(a.preferredDuringSchedulingIgnoredDuringExecution),
        p.child('preferredDuringSchedulingIgnoredDuringExecution'),
      ),
    )
  }
  return errs
}

function validateNodeAffinity(na: NodeAffinity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (na.requiredDuringSchedulingIgnoredDuringExecution) {
    errs.push(
      ...validateNodeSelector(
        na.requiredDuringSchedulingIgnoredDuringExecution,
        false,
        path.child('requiredDuringSchedulingIgnoredDuringExecution'),
      ),
    )
  }
  list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    const p = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i)
    const weight = term.weight ?? 0
    if (weight <= 0 || weight > 100)
      errs.push(fieldError.invalid(p.child('weight').toString(), weight, 'must be in the range 1-100'))
    // Preferred terms tolerate invalid label values: they can still match when a cluster has one node.
    errs.push(...validateNodeSelectorTerm(term.preference ?? {}, true, p.child('preference')))
  })
  return errs
}

/** ValidateNodeSelector. */
export function validateNodeSelector(
  selector: NodeSelector,
  allowInvalidLabelValue: boolean,
  path: FieldPath,
): FieldError[] {
  const termsPath = path.child('nodeSelectorTerms')
  const terms = list(selector.nodeSelectorTerms)
  if (terms.length === 0)
    return [fieldError.required(termsPath.toString(), 'must have at least one node selector term')]
  return terms.flatMap((term, i) => validateNodeSelectorTerm(term, allowInvalidLabelValue, termsPath.index(i)))
}

function validateNodeSelectorTerm(
  term: NodeSelectorTerm,
  allowInvalidLabelValue: boolean,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  list(term.matchExpressions).forEach((req, j) => {
    errs.push(...validateNodeSelectorRequirement(req, allowInvalidLabelValue, path.child('matchExpressions').index(j)))
  })
  list(term.matchFields).forEach((req, j) =>
    errs.push(...validateNodeFieldSelectorRequirement(req, path.child('matchFields').index(j))),
  )
  return errs
}

function validateNodeSelectorRequirement(
  rq: NodeSelectorRequirement,
  allowInvalidLabelValue: boolean,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const values = list(rq.values)
  const valuesPath = path.child('values')
  switch (str(rq.operator)) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        errs.push(fieldError.required(valuesPath.toString(), "must be specified when `operator` is 'In' or 'NotIn'"))
      break
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          fieldError.forbidden(
            valuesPath.toString(),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        )
      }
      break
    case 'Gt':
    case 'Lt':
      if (values.length !== 1)
        errs.push(
          fieldError.required(valuesPath.toString(), "must be specified single value when `operator` is 'Lt' or 'Gt'"),
        )
      break
    default:
      errs.push(
        fieldError.invalid(path.child('operator').toString(), str(rq.operator), 'not a valid selector operator'),
      )
  }
  errs.push(...validateQualifiedName(str(rq.key), path.child('key')))
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) =>
      errs.push(...isValidLabelValue(v).map((m) => fieldError.invalid(valuesPath.index(i).toString(), v, m))),
    )
  }
  return errs
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with In or NotIn and one value. */
function validateNodeFieldSelectorRequirement(rq: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const values = list(rq.values)
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) {
      errs.push(
        fieldError.required(
          path.child('values').toString(),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      )
    }
  } else {
    errs.push(fieldError.invalid(path.child('operator').toString(), str(rq.operator), 'not a valid selector operator'))
  }
  if (rq.key !== 'metadata.name')
    errs.push(fieldError.invalid(path.child('key').toString(), str(rq.key), 'not a valid field selector key'))
  else {
    values.forEach((v, i) =>
      errs.push(
        ...nameIsSubdomain(v, false).map((m) => fieldError.invalid(path.child('values').index(i).toString(), v, m)),
      ),
    )
  }
  return errs
}

function validateWeightedPodAffinityTerms(terms: readonly WeightedPodAffinityTerm[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  terms.forEach((term, j) => {
    const p = path.index(j)
    const weight = term.weight ?? 0
    if (weight <= 0 || weight > 100)
      errs.push(fieldError.invalid(p.child('weight').toString(), weight, 'must be in the range 1-100'))
    errs.push(...validatePodAffinityTerm(term.podAffinityTerm ?? ({} as PodAffinityTerm), p.child('podAffinityTerm')))
  })
  return errs
}

/** validatePodAffinityTerm; bad namespaces are reported at `namespace`, as kube does. */
function validatePodAffinityTerm(term: PodAffinityTerm, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  errs.push(...validateLabelSelector(term.labelSelector, path.child('labelSelector')))
  errs.push(...validateLabelSelector(term.namespaceSelector, path.child('namespaceSelector')))
  for (const ns of list(term.namespaces)) {
    errs.push(...nameIsDNSLabel(ns, false).map((m) => fieldError.invalid(path.child('namespace').toString(), ns, m)))
  }
  errs.push(
    ...validateMatchLabelKeysAndMismatchLabelKeys(
      path,
      list(term.matchLabelKeys),
      list(term.mismatchLabelKeys),
      term.labelSelector,
    ),
  )
  const key = str(term.topologyKey)
  if (key.length === 0) errs.push(fieldError.required(path.child('topologyKey').toString(), 'can not be empty'))
  errs.push(...validateQualifiedName(key, path.child('topologyKey')))
  return errs
}

function validateLabelKeys(
  path: FieldPath,
  keys: readonly string[],
  selector: LabelSelector | undefined,
): FieldError[] {
  if (keys.length === 0) return []
  if (!selector) return [fieldError.forbidden(path.toString(), 'must not be specified when labelSelector is not set')]
  return keys.flatMap((k, i) => validateQualifiedName(k, path.index(i)))
}

function validateMatchLabelKeysAndMismatchLabelKeys(
  path: FieldPath,
  matchLabelKeys: readonly string[],
  mismatchLabelKeys: readonly string[],
  selector: LabelSelector | undefined,
): FieldError[] {
  const errs = [
    ...validateLabelKeys(path.child('matchLabelKeys'), matchLabelKeys, selector),
    ...validateLabelKeys(path.child('mismatchLabelKeys'), mismatchLabelKeys, selector),
  ]
  if (selector) {
    const index = new Map(matchLabelKeys.map((k, i) => [k, i]))
    const selectorKeys = new Set(Object.keys(selector.matchLabels ?? {}))
    for (const expr of list(selector.matchExpressions)) {
      const i = index.get(expr.key)
      // Kube reports these at path[i], not matchLabelKeys[i].
      if (i !== undefined && selectorKeys.has(expr.key)) {
        errs.push(
          fieldError.invalid(path.index(i).toString(), expr.key, 'exists in both matchLabelKeys and labelSelector'),
        )
      }
      selectorKeys.add(expr.key)
    }
  }
  const mismatch = new Set(mismatchLabelKeys)
  matchLabelKeys.forEach((k, i) => {
    if (mismatch.has(k))
      errs.push(
        fieldError.invalid(
          path.child('matchLabelKeys').index(i).toString(),
          k,
          'exists in both matchLabelKeys and mismatchLabelKeys',
        ),
      )
  })
  return errs
}

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
