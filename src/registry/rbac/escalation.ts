// Escalation prevention for writes of roles and bindings (kube's RBAC policybased storages and
// pkg/registry/rbac/escalation_check.go): a user may only grant what they hold, unless they are system:masters or
// are explicitly allowed to `escalate` roles or `bind` the role. Runs before the strategy's validation, as in kube,
// so an invalid role that would also escalate is refused with 403, not 422.
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../../schema/rbac'
import { compareUtf8, goQuote } from '../go-strings'
import { type Status, statuses } from '../status'
import { MASTERS_GROUP, type UserInfo } from '../user-info'
import type { Attributes } from './attributes'
import { newForbidden } from './forbidden'
import { aggregateMessage, quoteList } from './go-format'
import { compactRules, compactString } from './rule-compaction'
import { covers } from './rule-coverage'
import { semanticEqual } from './semantic-equal'
import { type RbacSource, roleRefRules } from './rule-resolver'

const GROUP = 'rbac.authorization.k8s.io'

/**
 * ConfirmNoEscalation: null when the owner's rules cover the requested ones; otherwise kube's message listing what is
 * missing, one compacted rule per line, sorted and without repeats. `resolutionErrors` are the lookup errors met
 * while resolving the owner's rules (a binding to a missing role).
 */
export function confirmNoEscalation(
  user: UserInfo,
  ownerRules: readonly PolicyRule[],
  requestedRules: readonly PolicyRule[],
  resolutionErrors: readonly string[],
): string | null {
  const missing = covers(ownerRules, requestedRules)
  if (missing.length === 0) return null
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(compareUtf8)
  let msg =
    `user ${goQuote(user.name)} (groups=${quoteList(user.groups)}) is attempting to grant RBAC permissions not ` +
    `currently held:\n${lines.join('\n')}`
  // kube formats a []error holding the one aggregate of RulesFor with %v: the aggregate's text in brackets.
  if (resolutionErrors.length > 0) msg += `; resolution errors: [${aggregateMessage(resolutionErrors)}]`
  return msg
}

/** What the checks need from the server: the user, the authorizer chain, and the user's own rules per namespace. */
export interface EscalationContext {
  user: UserInfo
  /** Whether the full authorizer chain (system:masters, RBAC) allows these attributes. */
  authorize(attrs: Attributes): boolean
  /** The user's rules in a namespace ('' for cluster scope), resolved from storage (rulesFor, 'registry' wording). */
  rulesFor(namespace: string): { rules: PolicyRule[]; errors: string[] }
}

const isMaster = (user: UserInfo) => user.groups.includes(MASTERS_GROUP)

/** A resource request by the context's user, as the `escalate` and `bind` checks build them (any version). */
const check = (
  ctx: EscalationContext,
  verb: string,
  group: string,
  resource: string,
  namespace: string,
  name: string,
) =>
  ctx.authorize({
    user: ctx.user,
    verb,
    namespace,
    apiGroup: group,
    apiVersion: '*',
    resource,
    subresource: '',
    name,
    resourceRequest: true,
    path: '',
  })

type RbacObject = Role | ClusterRole | RoleBinding | ClusterRoleBinding

/**
 * IsOnlyMutatingGCFields: the update changes nothing but what the garbage collector writes (owner references,
 * finalizers; selfLink and managedFields are ignored too), so it needs no escalation check. TypeMeta is ignored: kube
 * compares internal objects, which carry none.
 */
export function isOnlyMutatingGCFields(obj: RbacObject, old: RbacObject): boolean {
  const copy = structuredClone({ ...obj, kind: undefined, apiVersion: undefined })
  const meta = { ...(copy.metadata ?? {}) }
  const oldMeta = old.metadata ?? {}
  for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields'] as const) {
    if (oldMeta[k] === undefined) delete meta[k]
    else (meta as Record<string, unknown>)[k] = oldMeta[k]
  }
  copy.metadata = meta
  return semanticEqual(copy, { ...old, kind: undefined, apiVersion: undefined })
}

interface RoleWrite {
  resource: 'roles' | 'clusterroles'
  /** The request's namespace ('' for ClusterRoles): whose rules the user must hold. */
  namespace: string
  /** The name in the request path ('' on create): what an `escalate` grant limited by resourceNames must name. */
  requestName: string
  object: Role | ClusterRole
  /** The stored object, on update. */
  old?: Role | ClusterRole | null
}

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]

const aggregates = (role: Role | ClusterRole | null | undefined) =>
  ((role as ClusterRole | null | undefined)?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0

/**
 * A create or update of a Role or ClusterRole: null when allowed, else the 403. Allowed for system:masters and for
 * users allowed to `escalate` the resource; otherwise the user must hold every rule, and an aggregated ClusterRole
 * (before or after the update) needs full authority (`*` on everything).
 */
export function roleWriteRefusal(ctx: EscalationContext, w: RoleWrite): Status | null {
  if (isMaster(ctx.user) || check(ctx, 'escalate', GROUP, w.resource, w.namespace, w.requestName)) return null
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return null
  const name = w.object.metadata?.name ?? ''
  const own = ctx.rulesFor(w.namespace)
  const escalation = confirmNoEscalation(ctx.user, own.rules, w.object.rules ?? [], own.errors)
  if (escalation) return newForbidden(GROUP, w.resource, name, escalation)
  if (w.resource === 'clusterroles' && (aggregates(w.object) || aggregates(w.old))) {
    if (confirmNoEscalation(ctx.user, own.rules, FULL_AUTHORITY, own.errors)) {
      return newForbidden(GROUP, w.resource, name, 'must have cluster-admin privileges to use the aggregationRule')
    }
  }
  return null
}

interface BindingWrite {
  resource: 'rolebindings' | 'clusterrolebindings'
  /** The request's namespace ('' for ClusterRoleBindings): where the role is bound. */
  namespace: string
  object: RoleBinding | ClusterRoleBinding
  old?: RoleBinding | ClusterRoleBinding | null
}

/**
 * A create or update of a RoleBinding or ClusterRoleBinding: null when allowed, else the Status. Allowed for
 * system:masters and for users allowed to `bind` the referenced role; otherwise the role is read from storage
 * (404 when it does not exist) and the user must hold all its rules.
 */
export function bindingWriteRefusal(ctx: EscalationContext, w: BindingWrite, source: RbacSource): Status | null {
  if (isMaster(ctx.user)) return null
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return null
  const ref = w.object.roleRef
  const roleResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : null
  // BindingAuthorized asks about the roleRef's own group, whatever it says (validation has not run yet).
  if (roleResource && check(ctx, 'bind', ref.apiGroup, roleResource, w.namespace, ref.name)) return null
  const role = roleRefRules(ref, w.namespace, source, 'registry')
  if (!role.ok) {
    if (role.missing) return statuses.notFound({ resource: roleResource!, group: GROUP }, ref.name)
    // A plain error in kube's storage: the handler answers 500 with no reason and the error as the message.
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: role.error, code: 500 }
  }
  const own = ctx.rulesFor(w.namespace)
  const escalation = confirmNoEscalation(ctx.user, own.rules, role.rules, own.errors)
  return escalation ? newForbidden(GROUP, w.resource, w.object.metadata?.name ?? '', escalation) : null
}
