// Validation shared by Roles and ClusterRoles (kube's pkg/apis/rbac/validation): names as path segments, policy
// rules, and a ClusterRole's aggregationRule.
import type { AggregationRule, PolicyRule } from '../../../schema/rbac'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import type { ValidateNameFunc } from '../../validation/names'
import { validateLabelSelector } from '../pod/pod-validation-formats'

/**
 * ValidateRBACName: path.IsValidPathSegmentName, for names and generateNames alike, so `system:foo` is fine and
 * only `.`, `..`, `/` and `%` are refused.
 */
export const validateRBACName: ValidateNameFunc = (name) => {
  if (name === '.' || name === '..') return [`may not be '${name}'`]
  const errs: string[] = []
  if (name.includes('/')) errs.push("may not contain '/'")
  if (name.includes('%')) errs.push("may not contain '%'")
  return errs
}

// kube passes the []string itself as the bad value, printed with %#v.
const invalidList = (field: string, values: readonly string[], detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  message: `Invalid value: []string{${values.map(goQuote).join(', ')}}: ${detail}`,
})

/** ValidatePolicyRule: verbs always; non-resource URLs only in ClusterRoles and alone; else groups and resources. */
function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = (child: string) => path.child(child).toString()
  if (!rule.verbs?.length) errs.push(fieldError.required(at('verbs'), 'verbs must contain at least one value'))
  const urls = rule.nonResourceURLs ?? []
  if (urls.length > 0) {
    if (namespaced)
      errs.push(invalidList(at('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'))
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      const detail = 'rules cannot apply to both regular resources and non-resource URLs'
      errs.push(invalidList(at('nonResourceURLs'), urls, detail))
    }
    return errs
  }
  if (!rule.apiGroups?.length)
    errs.push(fieldError.required(at('apiGroups'), 'resource rules must supply at least one api group'))
  if (!rule.resources?.length)
    errs.push(fieldError.required(at('resources'), 'resource rules must supply at least one resource'))
  return errs
}

export function validateRules(rules: readonly PolicyRule[] | null | undefined, namespaced: boolean): FieldError[] {
  const base = new FieldPath('rules')
  return (rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, base.index(i)))
}

/** A present aggregationRule needs a selector, and each selector must be a valid metav1.LabelSelector. */
export function validateAggregationRule(rule: AggregationRule | undefined): FieldError[] {
  if (!rule) return []
  const errs: FieldError[] = []
  const base = new FieldPath('aggregationRule').child('clusterRoleSelectors')
  const selectors = rule.clusterRoleSelectors ?? []
  if (selectors.length === 0) {
    errs.push(
      fieldError.required(base.toString(), 'at least one clusterRoleSelector required if aggregationRule is non-nil'),
    )
  }
  selectors.forEach((selector, i) => {
    const at = base.index(i)
    errs.push(...validateLabelSelector(selector, at))
    // LabelSelectorAsSelector failing: kube prints the (nil) selector it got back.
    if (!labelSelectorFromMetaV1(selector).ok) {
      errs.push({
        type: 'FieldValueInvalid',
        field: at.toString(),
        message: 'Invalid value: "null": invalid label selector.',
      })
    }
  })
  return errs
}
