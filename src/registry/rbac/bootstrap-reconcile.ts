// What the server writes at startup to put the bootstrap policy in place, as kube-apiserver's rbac/bootstrap-roles
// post-start hook does (pkg/registry/rbac/reconciliation, RemoveExtraPermissions and RemoveExtraSubjects off):
// missing objects are created; existing ones gain missing labels, annotations, rules, aggregation selectors and
// subjects, and keep everything else. An object annotated `rbac.authorization.kubernetes.io/autoupdate: "false"` is
// left alone. Two kube behaviours remove something: a binding whose roleRef differs is recreated (roleRef is
// immutable), and a ClusterRole aggregated where the policy does not aggregate loses its aggregationRule.
import type { AggregationRule, ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../schema/rbac'
import { AUTOUPDATE_ANNOTATION, type BootstrapPolicy, bootstrapPolicy } from './bootstrap-policy'
import { covers } from './rule-coverage'
import { semanticEqual } from './semantic-equal'

type RoleObject = Role | ClusterRole
type BindingObject = RoleBinding | ClusterRoleBinding
export type RbacObject = RoleObject | BindingObject

/**
 * create: the object does not exist. update: write `object` (the existing one, resourceVersion included, with what
 * was missing added). recreate: delete the existing binding (precondition: its uid) and create `object`.
 */
export interface ReconcileAction {
  op: 'create' | 'update' | 'recreate'
  object: RbacObject
  /** For recreate: the uid of the binding to delete. */
  uid?: string
}

const keyOf = (o: RbacObject) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`

const isProtected = (o: RbacObject) => o.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false'

/** merge(expected, existing): the existing values win; null only when both are absent. */
function merge(expected?: Record<string, string>, existing?: Record<string, string>) {
  return expected || existing ? { ...expected, ...existing } : undefined
}

/** Labels and annotations merged into `result`; whether anything was added. */
function mergeMeta(result: RbacObject, expected: RbacObject, existing: RbacObject): boolean {
  const meta = result.metadata ?? {}
  result.metadata = meta
  let changed = false
  for (const k of ['annotations', 'labels'] as const) {
    const merged = merge(expected.metadata?.[k], existing.metadata?.[k])
    // reflect.DeepEqual: a map that was absent and is now set differs; equal contents do not.
    const before = existing.metadata?.[k]
    if ((before === undefined) !== (merged === undefined) || !semanticEqual(merged, before)) changed = true
    if (merged) meta[k] = merged
  }
  return changed
}

/** aggregationRuleCovers: the servant's selectors no owner selector equals. */
function missingSelectors(owner: AggregationRule | undefined, servant: AggregationRule | undefined) {
  if (!servant) return []
  if (!owner) return servant.clusterRoleSelectors ?? []
  const own = owner.clusterRoleSelectors ?? []
  return (servant.clusterRoleSelectors ?? []).filter((s) => !own.some((o) => semanticEqual(o, s)))
}

/** computeReconciledRole, union mode. */
function reconcileRole(existing: RoleObject, expected: RoleObject): ReconcileAction | null {
  const result = structuredClone(existing)
  let changed = mergeMeta(result, expected, existing)
  const missing = covers(existing.rules ?? [], expected.rules ?? [])
  if (missing.length) {
    // kube appends the broken-down tuples that were not covered, not the expected rules themselves.
    result.rules = [...(existing.rules ?? []), ...missing]
    changed = true
  }
  if (expected.kind === 'ClusterRole') {
    const want = (expected as ClusterRole).aggregationRule
    const have = (existing as ClusterRole).aggregationRule
    const target = result as ClusterRole
    if (!want && have) {
      delete target.aggregationRule
      changed = true
    } else {
      const selectors = missingSelectors(have, want)
      if (selectors.length) {
        target.aggregationRule = { clusterRoleSelectors: [...(have?.clusterRoleSelectors ?? []), ...selectors] }
        changed = true
      }
    }
  }
  return changed ? { op: 'update', object: result } : null
}

const sameSubject = (a: Subject, b: Subject) =>
  a.kind === b.kind &&
  (a.apiGroup ?? '') === (b.apiGroup ?? '') &&
  a.name === b.name &&
  (a.namespace ?? '') === (b.namespace ?? '')

/** computeReconciledRoleBinding, union mode. */
function reconcileBinding(existing: BindingObject, expected: BindingObject): ReconcileAction | null {
  const a = existing.roleRef
  const b = expected.roleRef
  if (a?.apiGroup !== b.apiGroup || a?.kind !== b.kind || a?.name !== b.name) {
    return { op: 'recreate', object: structuredClone(expected), uid: existing.metadata?.uid }
  }
  const result = structuredClone(existing)
  let changed = mergeMeta(result, expected, existing)
  const have = existing.subjects ?? []
  const missing: Subject[] = []
  for (const s of expected.subjects ?? []) {
    if (!have.some((h) => sameSubject(h, s)) && !missing.some((m) => sameSubject(m, s))) missing.push(s)
  }
  if (missing.length) {
    result.subjects = [...have, ...missing]
    changed = true
  }
  return changed ? { op: 'update', object: result } : null
}

/**
 * The writes that bring `existing` (every RBAC object the server holds, or at least those the policy names) up to
 * the policy, in kube's order: cluster roles, cluster role bindings, then the namespaced roles and bindings.
 */
export function reconcileBootstrap(
  existing: readonly RbacObject[],
  wanted: BootstrapPolicy = bootstrapPolicy(),
): ReconcileAction[] {
  const current = new Map(existing.map((o) => [keyOf(o), o]))
  const actions: ReconcileAction[] = []
  const wantedInOrder: RbacObject[] = [
    ...wanted.clusterRoles,
    ...wanted.clusterRoleBindings,
    ...wanted.roles,
    ...wanted.roleBindings,
  ]
  for (const want of wantedInOrder) {
    const have = current.get(keyOf(want))
    if (!have) {
      actions.push({ op: 'create', object: structuredClone(want) })
      continue
    }
    if (isProtected(have)) continue
    const isBinding = want.kind === 'ClusterRoleBinding' || want.kind === 'RoleBinding'
    const action = isBinding
      ? reconcileBinding(have as BindingObject, want as BindingObject)
      : reconcileRole(have as RoleObject, want as RoleObject)
    if (action) actions.push(action)
  }
  return actions
}
