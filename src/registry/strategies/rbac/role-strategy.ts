// The Role and ClusterRole strategies: kube's validation (path-segment names, policy rules, aggregationRule), the
// `rules: null` Go writes for a role without rules, and the default table (NAME, CREATED AT) kube serves for them.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { ClusterRole, Role } from '../../../schema/rbac'
import type { ObjectMeta } from '../../../schema/meta'
import type { Strategy, StrategyContext, TableConvertor } from '../../strategy'
import { roleWriteRefusal } from '../../rbac/escalation'
import { validateAggregationRule, validateRBACName, validateRules } from './policy-rule-validation'

type WithMeta<T> = Omit<T, 'metadata'> & { metadata: ObjectMeta }
type RoleObject = WithMeta<Role>
type ClusterRoleObject = WithMeta<ClusterRole>

/**
 * rest.NewDefaultTableConvertor: kube registers no printer for roles, so `kubectl get roles` shows the name and the
 * creation time in RFC 3339 (a zero time when unset).
 */
function defaultTable<T extends { metadata: ObjectMeta }>(): TableConvertor<T> {
  return {
    columns: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: NAME_DOC,
        priority: 0,
      },
      {
        name: 'Created At',
        type: 'date',
        format: '',
        description: CREATION_DOC,
        priority: 0,
      },
    ],
    cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? '0001-01-01T00:00:00Z'],
  }
}

/** Rules has no omitempty upstream: a role without rules is stored and served with `"rules": null`. */
const nullRules = (obj: { rules?: unknown }) => {
  if (obj.rules === undefined) obj.rules = null
}

/** Escalation prevention: the writer must hold what the role grants (or may `escalate`). */
const roleWrite =
  (resource: 'roles' | 'clusterroles') =>
  <T extends RoleObject | ClusterRoleObject>(role: T, old: T | null, ctx: StrategyContext) =>
    roleWriteRefusal(ctx.writer!, {
      resource,
      namespace: ctx.namespace,
      requestName: old ? (old.metadata.name ?? '') : '',
      object: role as Role,
      old: old as Role | null,
    })

export const roleStrategy: Strategy<RoleObject> = {
  validateName: validateRBACName,
  applyDefaults: () => undefined,
  authorizeWrite: roleWrite('roles'),
  prepareForCreate: nullRules,
  validate: (role) => validateRules(role.rules, true),
  prepareForUpdate: nullRules,
  // kube's ValidateUpdate runs ValidateRole twice (directly and inside ValidateRoleUpdate): the causes repeat,
  // the message does not (the aggregate drops repeats).
  validateUpdate: (role) => [...validateRules(role.rules, true), ...validateRules(role.rules, true)],
  selectableFields: (role) => ({
    'metadata.name': role.metadata.name ?? '',
    'metadata.namespace': role.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: defaultTable<RoleObject>(),
}

const validateClusterRole = (role: ClusterRoleObject) => [
  ...validateRules(role.rules, false),
  ...validateAggregationRule(role.aggregationRule),
]

export const clusterRoleStrategy: Strategy<ClusterRoleObject> = {
  validateName: validateRBACName,
  applyDefaults: () => undefined,
  authorizeWrite: roleWrite('clusterroles'),
  prepareForCreate: nullRules,
  validate: validateClusterRole,
  prepareForUpdate: nullRules,
  validateUpdate: (role) => [...validateClusterRole(role), ...validateClusterRole(role)],
  selectableFields: (role) => ({ 'metadata.name': role.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name'],
  allowUnconditionalUpdate: true,
  table: defaultTable<ClusterRoleObject>(),
}
