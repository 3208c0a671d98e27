// Builders for the RBAC tests: users, request attributes, rules, roles, bindings and an in-memory RbacSource.
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../../src/schema/rbac'
import type { Attributes } from '../../../src/registry/rbac/attributes'
import type { RbacSource } from '../../../src/registry/rbac/rule-resolver'
import type { UserInfo } from '../../../src/registry/user-info'

const GROUP = 'rbac.authorization.k8s.io'

export const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups })
export const alice = user('alice', 'dev', 'system:authenticated')

/** A resource request; `verb resource[/sub] [name]` in a namespace (or '' for cluster scope). */
export function req(verb: string, resource: string, opts: Partial<Attributes> = {}): Attributes {
  const [res, sub = ''] = resource.split('/')
  return {
    user: alice,
    verb,
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: res!,
    subresource: sub,
    name: '',
    resourceRequest: true,
    path: '',
    ...opts,
  }
}

/** A non-resource request. */
export const nonResource = (verb: string, path: string, u: UserInfo = alice): Attributes => ({
  user: u,
  verb,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
  resourceRequest: false,
  path,
})

export const rule = (
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[],
): PolicyRule => (resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources })
export const urlRule = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs })

export const clusterRole = (
  name: string,
  rules: PolicyRule[] | null,
  labels?: Record<string, string>,
): ClusterRole => ({
  kind: 'ClusterRole',
  apiVersion: `${GROUP}/v1`,
  metadata: { name, ...(labels ? { labels } : {}) },
  rules,
})
export const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({
  kind: 'Role',
  apiVersion: `${GROUP}/v1`,
  metadata: { name, namespace },
  rules,
})

export const User = (name: string): Subject => ({ kind: 'User', apiGroup: GROUP, name })
export const Group = (name: string): Subject => ({ kind: 'Group', apiGroup: GROUP, name })
export const SA = (name: string, namespace?: string): Subject =>
  namespace === undefined ? { kind: 'ServiceAccount', name } : { kind: 'ServiceAccount', name, namespace }

export const crb = (name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding => ({
  kind: 'ClusterRoleBinding',
  apiVersion: `${GROUP}/v1`,
  metadata: { name },
  subjects,
  roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: roleName },
})
export const rb = (
  namespace: string,
  name: string,
  ref: { kind: string; name: string },
  subjects: Subject[],
): RoleBinding => ({
  kind: 'RoleBinding',
  apiVersion: `${GROUP}/v1`,
  metadata: { name, namespace },
  subjects,
  roleRef: { apiGroup: GROUP, ...ref },
})

export interface Objects {
  clusterRoles?: ClusterRole[]
  roles?: Role[]
  clusterRoleBindings?: ClusterRoleBinding[]
  roleBindings?: RoleBinding[]
}

/** An RbacSource over plain lists (kube's StaticRoles). */
export function source(o: Objects): RbacSource {
  return {
    clusterRoleBindings: () => o.clusterRoleBindings ?? [],
    roleBindings: (ns) => (o.roleBindings ?? []).filter((b) => b.metadata?.namespace === ns),
    clusterRole: (name) => (o.clusterRoles ?? []).find((r) => r.metadata?.name === name) ?? null,
    role: (ns, name) => (o.roles ?? []).find((r) => r.metadata?.namespace === ns && r.metadata?.name === name) ?? null,
  }
}
