// The four rbac.authorization.k8s.io/v1 kinds as rows of the kind table, with the discovery data a 1.33 cluster
// serves for them (no short names, no categories, every verb; storage version hashes from its discovery).
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../schema/rbac'
import type { ResourceDef } from '../resource'
import { clusterRoleBindingStrategy, roleBindingStrategy } from '../strategies/rbac/binding-strategy'
import { clusterRoleStrategy, roleStrategy } from '../strategies/rbac/role-strategy'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

function row(
  kind: string,
  plural: string,
  namespaced: boolean,
  schema: ResourceDef['schema'],
  strategy: unknown,
  storageVersionHash: string,
): ResourceDef {
  return {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    verbs: [...VERBS],
    schema,
    strategy: strategy as ResourceDef['strategy'],
    home: namespaced ? 'namespace' : 'cluster',
    returnDeletedObject: false,
    storageVersionHash,
  }
}

/** ClusterRoleBindings, ClusterRoles, RoleBindings, Roles: kube's discovery order (alphabetical by resource). */
export function rbacResourceRows(): ResourceDef[] {
  return [
    row(
      'ClusterRoleBinding',
      'clusterrolebindings',
      false,
      ClusterRoleBinding,
      clusterRoleBindingStrategy,
      '48tpQ8gZHFc=',
    ),
    row('ClusterRole', 'clusterroles', false, ClusterRole, clusterRoleStrategy, 'bYE5ZWDrJ44='),
    row('RoleBinding', 'rolebindings', true, RoleBinding, roleBindingStrategy, 'eGsCzGH6b1g='),
    row('Role', 'roles', true, Role, roleStrategy, '7FuwZcIIItM='),
  ]
}
