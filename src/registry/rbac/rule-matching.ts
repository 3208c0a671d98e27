// Whether one PolicyRule allows a request, as kube's RuleAllows (plugin/pkg/auth/authorizer/rbac) and the matchers of
// pkg/apis/rbac/v1/evaluation_helpers.go decide it. The compiled form (compiled-rules.ts) must agree with this.
import type { PolicyRule } from '../../schema/rbac'
import type { Attributes } from './attributes'

const ALL = '*'

const hasOrAll = (values: readonly string[] | null | undefined, wanted: string) =>
  values?.some((v) => v === ALL || v === wanted) ?? false

/**
 * `*`, the exact `resource/subresource`, or `*\/subresource` when the request has a subresource. `pods/*` is no
 * wildcard: it matches only a subresource literally named `*`.
 */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource))
      return true
  }
  return false
}

/** No names: any object. Otherwise the request's name must be listed, so a list or create (no name) never matches. */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? []
  return names.length === 0 || names.includes(name)
}

/** `*`, the exact path, or a prefix ending in `*` (`/api/*` matches `/api/` and `/api/v1`, not `/api`). */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true
    // strings.TrimRight(url, "*"): every trailing star goes.
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true
  }
  return false
}

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!hasOrAll(rule.verbs, attrs.verb)) return false
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule, attrs.path)
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource
  return (
    hasOrAll(rule.apiGroups, attrs.apiGroup) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    resourceNameMatches(rule, attrs.name)
  )
}
