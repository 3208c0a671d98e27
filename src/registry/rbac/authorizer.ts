// The authorization decision: kube-apiserver's chain as configured here (the system:masters privileged-group
// authorizer, then RBAC) and its reasons. RBAC only ever allows or has no opinion; with nothing after it in the
// chain, no opinion is a refusal, answered with forbidden.ts's 403.
import { MASTERS_GROUP } from '../user-info'
import type { Attributes } from './attributes'
import type { CompiledRules } from './compiled-rules'
import { aggregateMessage } from './go-format'
import { describeSource, type RbacSource, type RuleSource, visitRulesFor } from './rule-resolver'
import { ruleAllows } from './rule-matching'

interface Decision {
  /** Allow, or NoOpinion (never Deny: RBAC has no deny rules). */
  allowed: boolean
  /** `RBAC: allowed by ...` when allowed by a rule; when not, the role lookups that failed (`RBAC: ...`) or ''. */
  reason: string
}

/** Allowed, with kube's reason worded only when someone reads it (a review's status.reason; never the hot path). */
const allowedBy = (source: RuleSource): Decision => ({
  allowed: true,
  get reason() {
    return `RBAC: allowed by ${describeSource(source)}`
  },
})

// The rules that could be read may still allow the request, so lookup errors only explain a refusal.
const noOpinion = (errors: readonly string[]): Decision => ({
  allowed: false,
  reason: errors.length ? `RBAC: ${aggregateMessage(errors)}` : '',
})

/**
 * The chain over compiled rules (the hot path): system:masters is allowed with no reason before RBAC is asked, as
 * kube's privileged-group authorizer does; otherwise the first rule in visit order that allows decides.
 */
export function authorize(attrs: Attributes, rules: CompiledRules): Decision {
  if (attrs.user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: '' }
  const match = rules.match(attrs)
  return match ? allowedBy(match.source) : noOpinion(rules.errors)
}

/** kube's RBACAuthorizer.Authorize read straight from the source: visits bindings until a rule allows. */
export function rbacAuthorize(attrs: Attributes, source: RbacSource): Decision {
  let decision: Decision | null = null
  const errors: string[] = []
  visitRulesFor(attrs.user, attrs.namespace, source, (src, rule, error) => {
    if (rule && src && ruleAllows(attrs, rule)) {
      decision = allowedBy(src)
      return false
    }
    if (error) errors.push(error)
    return true
  })
  return decision ?? noOpinion(errors)
}
