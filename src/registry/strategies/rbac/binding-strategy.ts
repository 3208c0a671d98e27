// The RoleBinding and ClusterRoleBinding strategies: defaulting, validation and roleRef immutability as kube's
// rbac registry has them, and kube's printer columns (NAME, ROLE, AGE; wide: USERS, GROUPS, SERVICEACCOUNTS).
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { ClusterRoleBinding, RoleBinding, Subject } from '../../../schema/rbac'
import type { ObjectMeta } from '../../../schema/meta'
import { age } from '../../human-duration'
import type { Strategy, StrategyContext, TableConvertor } from '../../strategy'
import { bindingWriteRefusal } from '../../rbac/escalation'
import { defaultBinding, validateBinding, validateRoleRefUnchanged } from './binding-validation'
import { validateRBACName } from './policy-rule-validation'

type WithMeta<T> = Omit<T, 'metadata'> & { metadata: ObjectMeta }
type RoleBindingObject = WithMeta<RoleBinding>
type ClusterRoleBindingObject = WithMeta<ClusterRoleBinding>

/** rbac.SubjectsStrings: users, groups and `namespace/name` of service accounts (other kinds are not shown). */
function subjectsStrings(subjects: readonly Subject[] | undefined): [string, string, string] {
  const users: string[] = []
  const groups: string[] = []
  const sas: string[] = []
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`)
    else if (s.kind === 'User') users.push(s.name)
    else if (s.kind === 'Group') groups.push(s.name)
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')]
}

function bindingTable<T extends { metadata: ObjectMeta; subjects?: Subject[]; roleRef: RoleBinding['roleRef'] }>(
  what: 'roleBinding' | 'clusterRoleBinding',
): TableConvertor<T> {
  const col = (name: string, description: string, priority: number, format = '') =>
    ({ name, type: 'string', format, description, priority }) as const
  return {
    columns: [
      col('Name', NAME_DOC, 0, 'name'),
      col(
        'Role',
        what === 'roleBinding'
          ? 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.'
          : 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
        0,
      ),
      col('Age', CREATION_DOC, 0),
      col('Users', `Users in the ${what}`, 1),
      col('Groups', `Groups in the ${what}`, 1),
      col('ServiceAccounts', `ServiceAccounts in the ${what}`, 1),
    ],
    cells: (b, now) => [
      b.metadata.name ?? '',
      `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
      age(b.metadata.creationTimestamp, now),
      ...subjectsStrings(b.subjects),
    ],
  }
}

/** Escalation prevention: the writer must hold what the bound role grants (or may `bind` it). */
const bindingWrite =
  (resource: 'rolebindings' | 'clusterrolebindings') =>
  <T extends RoleBindingObject | ClusterRoleBindingObject>(b: T, old: T | null, ctx: StrategyContext) =>
    bindingWriteRefusal(
      ctx.writer!,
      { resource, namespace: ctx.namespace, object: b as RoleBinding, old: old as RoleBinding | null },
      ctx.writer!.rbac,
    )

export const roleBindingStrategy: Strategy<RoleBindingObject> = {
  validateName: validateRBACName,
  applyDefaults: defaultBinding,
  authorizeWrite: bindingWrite('rolebindings'),
  prepareForCreate: () => undefined,
  validate: (b) => validateBinding(b, true),
  prepareForUpdate: () => undefined,
  // As for roles, kube validates the new binding twice on update; then the roleRef may not have changed.
  validateUpdate: (b, old) => [
    ...validateBinding(b, true),
    ...validateBinding(b, true),
    ...validateRoleRefUnchanged(b, old),
  ],
  selectableFields: (b) => ({
    'metadata.name': b.metadata.name ?? '',
    'metadata.namespace': b.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: bindingTable<RoleBindingObject>('roleBinding'),
}

export const clusterRoleBindingStrategy: Strategy<ClusterRoleBindingObject> = {
  validateName: validateRBACName,
  applyDefaults: defaultBinding,
  authorizeWrite: bindingWrite('clusterrolebindings'),
  prepareForCreate: () => undefined,
  validate: (b) => validateBinding(b, false),
  prepareForUpdate: () => undefined,
  validateUpdate: (b, old) => [
    ...validateBinding(b, false),
    ...validateBinding(b, false),
    ...validateRoleRefUnchanged(b, old),
  ],
  selectableFields: (b) => ({ 'metadata.name': b.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name'],
  allowUnconditionalUpdate: true,
  table: bindingTable<ClusterRoleBindingObject>('clusterRoleBinding'),
}
