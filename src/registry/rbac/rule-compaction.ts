// Rules as kube's escalation message prints them: CompactRules (pkg/registry/rbac/validation/policy_compact.go)
// folds broken-down tuples of one group, resource and at most one name back together by verb, and CompactString
// (pkg/apis/rbac/v1/evaluation_helpers.go) writes each as `{APIGroups:["apps"], Resources:["deployments"], ...}`.
import type { PolicyRule } from '../../schema/rbac'
import { quoteList } from './go-format'

/** The key of a rule made of one group, one resource, at most one name, and verbs; null for any other rule. */
function simpleKey(rule: PolicyRule): string | null {
  if ((rule.resourceNames?.length ?? 0) > 1 || rule.nonResourceURLs?.length) return null
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return null
  const names = rule.resourceNames?.length ? `\u0000${rule.resourceNames[0]}` : ''
  return `${rule.apiGroups[0]}\u0000${rule.resources[0]}${names}`
}

/** CompactRules: simple rules with the same key become one, verbs appended in order (repeats kept). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = []
  const simple = new Map<string, PolicyRule>()
  for (const rule of rules) {
    const key = simpleKey(rule)
    if (key === null) {
      compacted.push(rule)
      continue
    }
    const existing = simple.get(key)
    if (existing) existing.verbs = [...existing.verbs, ...(rule.verbs ?? [])]
    else simple.set(key, structuredClone(rule))
  }
  // kube appends these from a map (random order); every caller sorts the printed rules, so order does not matter.
  return [...compacted, ...simple.values()]
}

/** CompactString: the non-empty fields in the order APIGroups, Resources, NonResourceURLs, ResourceNames, Verbs. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = []
  if (rule.apiGroups?.length) parts.push(`APIGroups:${quoteList(rule.apiGroups)}`)
  if (rule.resources?.length) parts.push(`Resources:${quoteList(rule.resources)}`)
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${quoteList(rule.nonResourceURLs)}`)
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${quoteList(rule.resourceNames)}`)
  if (rule.verbs?.length) parts.push(`Verbs:${quoteList(rule.verbs)}`)
  return `{${parts.join(', ')}}`
}
