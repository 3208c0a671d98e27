// ClusterRole aggregation, as kube's clusterrole-aggregation-controller computes it
// (pkg/controller/clusterroleaggregation): the rules of an aggregated role are those of the ClusterRoles its
// selectors pick, selector by selector, matching roles by name, without repeats.
import type { ClusterRole, PolicyRule } from '../../schema/rbac'
import { compareUtf8 } from '../go-strings'
import { labelSelectorFromMetaV1 } from '../label-selector'
import { semanticEqual } from './semantic-equal'

type Aggregated = { ok: true; rules: PolicyRule[] } | { ok: false; message: string }

/**
 * The rules the controller would give `role` now, given every ClusterRole (`role` among them or not). Not
 * aggregated: null. A selector that does not convert (a bad operator) fails the sync, as it does in kube. The
 * controller writes (server-side apply, field manager `clusterrole-aggregation-controller`, force) only when the
 * result differs from the role's rules, and re-syncs every aggregated role on any ClusterRole change, so chains
 * (admin ← edit ← view) settle after a few passes.
 */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): Aggregated | null {
  if (!role.aggregationRule) return null
  const name = role.metadata?.name ?? ''
  const sorted = [...all].sort((a, b) => compareUtf8(a.metadata?.name ?? '', b.metadata?.name ?? ''))
  const rules: PolicyRule[] = []
  for (const selector of role.aggregationRule.clusterRoleSelectors ?? []) {
    const parsed = labelSelectorFromMetaV1(selector)
    if (!parsed.ok) return { ok: false, message: parsed.message }
    for (const other of sorted) {
      if ((other.metadata?.name ?? '') === name || !parsed.selector.matches(other.metadata?.labels)) continue
      for (const rule of other.rules ?? []) if (!rules.some((r) => semanticEqual(r, rule))) rules.push(rule)
    }
  }
  return { ok: true, rules }
}

/** Whether the aggregated rules differ from the role's (Semantic.DeepEqual: no rules and an empty list are equal). */
export function aggregationChanges(role: ClusterRole, rules: readonly PolicyRule[]): boolean {
  const current = role.rules ?? []
  return current.length !== rules.length || !current.every((r, i) => semanticEqual(r, rules[i]!))
}
