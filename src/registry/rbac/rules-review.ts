// The status of a SelfSubjectRulesReview (authorization.k8s.io/v1): the user's RBAC rules split as kube's
// RBACAuthorizer.RulesFor and the review's REST storage list them, in Go field order.
import type { PolicyRule } from '../../schema/rbac'
import { aggregateMessage } from './go-format'

interface ResourceRule {
  verbs: string[]
  apiGroups?: string[]
  resources?: string[]
  resourceNames?: string[]
}

interface NonResourceRule {
  verbs: string[]
  nonResourceURLs?: string[]
}

interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[]
  nonResourceRules: NonResourceRule[]
  incomplete: boolean
  evaluationError?: string
}

/** omitempty: a nil or empty list is left out. */
const some = <K extends string>(key: K, list: string[] | undefined) =>
  (list?.length ? { [key]: list } : {}) as Partial<Record<K, string[]>>

/**
 * In visit order, duplicates kept: every rule with resources as a resource rule, every rule with URLs as a
 * non-resource rule (a rule with both, which validation refuses, would appear in both). Both lists are always
 * written, `[]` when empty. `incomplete` is only ever set by the Node authorizer's resolver; the system:masters
 * authorizer contributes no rules. `errors` are the lookup errors of rulesFor (lister wording).
 */
export function selfSubjectRules(
  rules: readonly PolicyRule[],
  errors: readonly string[] = [],
  incomplete = false,
): SubjectRulesReviewStatus {
  const resourceRules: ResourceRule[] = []
  const nonResourceRules: NonResourceRule[] = []
  for (const rule of rules) {
    if (rule.resources?.length) {
      resourceRules.push({
        verbs: rule.verbs,
        ...some('apiGroups', rule.apiGroups),
        ...some('resources', rule.resources),
        ...some('resourceNames', rule.resourceNames),
      })
    }
    if (rule.nonResourceURLs?.length)
      nonResourceRules.push({ verbs: rule.verbs, ...some('nonResourceURLs', rule.nonResourceURLs) })
  }
  const status: SubjectRulesReviewStatus = { resourceRules, nonResourceRules, incomplete }
  if (errors.length) status.evaluationError = aggregateMessage(errors)
  return status
}
