// Affinity validation: node affinity and node selectors (also a PersistentVolume's nodeAffinity), pod affinity and
// anti-affinity terms with their label selectors and matchLabelKeys, after kube-apiserver 1.33
// pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isValidLabelValue, nameIsDNSLabel } from '../../validation/names'
import { list, nameIsSubdomain, str, validateLabelSelector, validateQualifiedName } from './pod-validation-formats'
import type {
  Affinity,
  LabelSelector,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinityTerm,
  WeightedPodAffinityTerm,
} from './pod-types'

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
