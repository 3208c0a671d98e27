// The writer of a request as a host's strategies see it (StrategyContext.writer): the requester's identity, its
// authorizer and its rules, resolved over the RBAC objects this host stores (the cluster's, or a namespace's Roles and
// RoleBindings) and, in a namespace's host, the cluster's as the Worker passed them along.
import type { Requester } from './rpc-types'
import { rbacAuthorize } from '../registry/rbac/authorizer'
import { type RbacSource, rulesFor } from '../registry/rbac/rule-resolver'
import type { Writer } from '../registry/strategy'
import { MASTERS_GROUP } from '../registry/user-info'
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../schema/rbac'
import type { KubeObject } from '../schema/meta'

/** What the writer reads of its host: the objects of a resource, and one by name. */
interface RbacObjects {
  all(resource: string): KubeObject[]
  get(resource: string, name: string): KubeObject | null
}

function sourceOf(scope: string, requester: Requester, local: RbacObjects): RbacSource {
  if (scope === '') {
    return {
      clusterRoleBindings: () => local.all('clusterrolebindings') as unknown as ClusterRoleBinding[],
      clusterRole: (name) => local.get('clusterroles', name) as unknown as ClusterRole | null,
      roleBindings: () => [],
      role: () => null,
    }
  }
  const cluster = requester.cluster ?? { clusterRoles: [], clusterRoleBindings: [] }
  const clusterRoles = new Map(cluster.clusterRoles.map((r) => [r.metadata.name ?? '', r]))
  return {
    clusterRoleBindings: () => cluster.clusterRoleBindings as unknown as ClusterRoleBinding[],
    clusterRole: (name) => (clusterRoles.get(name) as unknown as ClusterRole | undefined) ?? null,
    roleBindings: (ns) => (ns === scope ? (local.all('rolebindings') as unknown as RoleBinding[]) : []),
    role: (ns, name) => (ns === scope ? (local.get('roles', name) as unknown as Role | null) : null),
  }
}

/** The writer of a write planned in `scope` ('' for the cluster's host). */
export function writerOf(scope: string, requester: Requester, local: RbacObjects): Writer {
  const rbac = sourceOf(scope, requester, local)
  const user = requester.user
  return {
    user,
    rbac,
    authorize: (attrs) => attrs.user.groups.includes(MASTERS_GROUP) || rbacAuthorize(attrs, rbac).allowed,
    // The registry's wording: a missing role is `clusterroles.rbac.authorization.k8s.io "x" not found`.
    rulesFor: (ns) => rulesFor(user, ns, rbac, 'registry'),
  }
}
