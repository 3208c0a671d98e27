// Whether one set of rules grants everything another does (component-helpers auth/rbac/validation
// policy_comparator.go): the requested rules broken into single-verb, single-resource tuples, each of which one owner
// rule must cover whole. Escalation checks and bootstrap reconciliation are built on it.
import type { PolicyRule } from '../../schema/rbac'

const ALL = '*'

/** BreakdownRule: one rule per group × resource × verb (× name), then one per non-resource URL × verb. */
function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = []
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames)
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] })
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] })
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ verbs: [verb], nonResourceURLs: [url] })
  }
  return out
}

const has = (set: readonly string[] | undefined, x: string) => set?.includes(x) ?? false
const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined) =>
  (wanted ?? []).every((x) => has(set, x))

/** `*`, each resource named, or `*\/sub` for a `res/sub` (a plain `*` never stands for `pods/*`-style patterns). */
function resourceCoversAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owned, ALL) || hasAll(owned, wanted)) return true
  for (const path of wanted ?? []) {
    if (has(owned, path)) continue
    const slash = path.indexOf('/')
    if (slash < 0 || !has(owned, `*/${path.slice(slash + 1)}`)) return false
  }
  return true
}

const nonResourceURLCovers = (owner: string, path: string) =>
  owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')))

/** ruleCovers: the owner rule (any shape) grants all of the broken-down subrule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs)
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups)
  const resources = resourceCoversAll(owner.resources, sub.resources)
  const urls = (sub.nonResourceURLs ?? []).every((p) =>
    (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)),
  )
  // A subrule without names needs an owner without names; one with a name, an owner without names or with it.
  const names = sub.resourceNames?.length
    ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames)
    : !owner.resourceNames?.length
  return verbs && groups && resources && urls && names
}

/** Covers: whether the owner rules grant all the servant rules, and the broken-down tuples they do not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const uncovered: PolicyRule[] = []
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub)
  }
  return uncovered
}
