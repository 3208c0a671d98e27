// The bootstrap policy's data (who is bound to what, labels and annotations) and the startup reconciliation:
// create what is missing, add what is missing to what exists, never touch autoupdate=false objects.
import { describe, expect, it } from 'vitest'
import { bootstrapPolicy } from '../../../src/registry/rbac/bootstrap-policy'
import { reconcileBootstrap, type ReconcileAction } from '../../../src/registry/rbac/bootstrap-reconcile'
import { authorize } from '../../../src/registry/rbac/authorizer'
import { compileRules } from '../../../src/registry/rbac/compiled-rules'
import { aggregatedRules } from '../../../src/registry/rbac/aggregation'
import type { ClusterRole, ClusterRoleBinding } from '../../../src/schema/rbac'
import { nonResource, req, rule, source, user, Group, User } from './rbac-fixtures'

const BOOT = { 'kubernetes.io/bootstrapping': 'rbac-defaults' }
const AUTO = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }

describe('the bootstrap policy', () => {
  const policy = bootstrapPolicy()
  const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...policy.roles, ...policy.roleBindings]
  const named = <T extends { metadata?: { name?: string } }>(list: T[], name: string) =>
    list.find((o) => o.metadata?.name === name)!

  it('has the cluster roles kube creates, and no controller roles', () => {
    const names = policy.clusterRoles.map((r) => r.metadata?.name)
    expect(names).toHaveLength(31)
    for (const n of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
      'system:service-account-issuer-discovery',
      'system:auth-delegator',
      'system:node-proxier',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:node',
      'system:monitoring',
    ])
      expect(names).toContain(n)
    expect(names.filter((n) => n?.startsWith('system:controller:'))).toEqual([])
    expect(policy.clusterRoleBindings).toHaveLength(12)
    expect(policy.roles.map((r) => `${r.metadata?.namespace}/${r.metadata?.name}`)).toContain(
      'kube-system/extension-apiserver-authentication-reader',
    )
    expect(policy.roleBindings).toHaveLength(7)
  })

  it('labels and annotates every object as kube does', () => {
    for (const o of all) {
      expect(o.metadata?.labels).toMatchObject(BOOT)
      expect(o.metadata?.annotations).toEqual(AUTO)
      expect(o.apiVersion).toBe('rbac.authorization.k8s.io/v1')
    }
  })

  it('binds cluster-admin (everything, every path) to system:masters', () => {
    expect(named(policy.clusterRoles, 'cluster-admin').rules).toEqual([
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ])
    expect(named(policy.clusterRoleBindings, 'cluster-admin')).toEqual({
      kind: 'ClusterRoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'cluster-admin', labels: BOOT, annotations: AUTO },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    })
  })

  it('aggregates admin ← edit ← view through the aggregate-to-* labels, with rules null until then', () => {
    const agg = (name: string) => named(policy.clusterRoles, name) as ClusterRole
    expect(agg('admin').aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }],
    })
    expect(agg('edit').metadata?.labels).toEqual({ ...BOOT, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' })
    expect(agg('view').metadata?.labels).toEqual({ ...BOOT, 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' })
    expect(agg('view').aggregationRule?.clusterRoleSelectors?.[0]?.matchLabels).toEqual({
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    })
    for (const n of ['admin', 'edit', 'view']) expect(agg(n).rules).toBeNull()
    expect(agg('system:aggregate-to-view').metadata?.labels).toEqual({
      ...BOOT,
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    })
  })

  it('grants what a 1.33 cluster grants the usual users', () => {
    const roles = policy.clusterRoles
    for (let i = 0; i < 3; i++)
      for (const r of roles) {
        const a = aggregatedRules(r, roles)
        if (a?.ok) r.rules = a.rules
      }
    const src = source({ ...policy, roleBindings: policy.roleBindings })
    const can = (u: ReturnType<typeof user>, attrs: ReturnType<typeof req>) =>
      authorize({ ...attrs, user: u }, compileRules(u, attrs.namespace, src)).allowed
    const authed = user('alice', 'system:authenticated')
    const anon = user('system:anonymous', 'system:unauthenticated')
    const saUser = user(
      'system:serviceaccount:default:default',
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    )
    const ssar = req('create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io', namespace: '' })
    expect(can(authed, ssar)).toBe(true) // system:basic-user
    expect(can(anon, ssar)).toBe(false) // only system:authenticated is bound
    expect(can(anon, nonResource('get', '/version'))).toBe(true) // system:public-info-viewer
    expect(can(anon, nonResource('get', '/healthz'))).toBe(true)
    expect(can(anon, nonResource('get', '/api'))).toBe(false) // system:discovery is for system:authenticated
    expect(can(authed, nonResource('get', '/apis/apps/v1'))).toBe(true)
    expect(can(authed, req('list', 'pods'))).toBe(false)
    expect(can(saUser, nonResource('get', '/openid/v1/jwks'))).toBe(true)
    expect(can(authed, nonResource('get', '/openid/v1/jwks'))).toBe(false)
    expect(
      can(user('system:kube-scheduler', 'system:authenticated'), req('create', 'pods/binding', { name: 'p' })),
    ).toBe(true)
    expect(
      can(user('system:kube-proxy'), req('list', 'endpointslices', { apiGroup: 'discovery.k8s.io', namespace: '' })),
    ).toBe(true)
  })
})

describe('reconcileBootstrap', () => {
  const ops = (actions: ReconcileAction[]) =>
    actions.map((a) => `${a.op} ${a.object.kind} ${a.object.metadata?.namespace ?? ''}/${a.object.metadata?.name}`)

  it('creates everything on an empty cluster, in kube order', () => {
    const actions = reconcileBootstrap([])
    expect(actions).toHaveLength(31 + 12 + 7 + 7)
    expect(actions.every((a) => a.op === 'create')).toBe(true)
    expect(ops(actions).slice(0, 2)).toEqual(['create ClusterRole /admin', 'create ClusterRole /cluster-admin'])
    expect(ops(actions)[31]).toBe('create ClusterRoleBinding /cluster-admin')
    expect(ops(actions).at(-1)).toBe('create RoleBinding kube-system/system:controller:token-cleaner')
  })

  it('does nothing when the policy is in place (aggregated rules and extra rules kept)', () => {
    const existing = [...Object.values(bootstrapPolicy()).flat()]
    const view = existing.find((o) => o.metadata?.name === 'view') as ClusterRole
    view.rules = [rule(['get'], [''], ['pods'])]
    const basic = existing.find(
      (o) => o.kind === 'ClusterRole' && o.metadata?.name === 'system:basic-user',
    ) as ClusterRole
    basic.rules = [...(basic.rules ?? []), rule(['list'], [''], ['nodes'])]
    // Where a label or annotation the policy sets has another value, the object's own value wins.
    basic.metadata!.labels = { 'kubernetes.io/bootstrapping': 'mine' }
    expect(reconcileBootstrap(existing)).toEqual([])
  })

  it('adds missing rules (as broken-down tuples), labels, annotations and subjects, keeping the rest', () => {
    const existing = [...Object.values(bootstrapPolicy()).flat()]
    const discovery = existing.find(
      (o) => o.kind === 'ClusterRole' && o.metadata?.name === 'system:discovery',
    ) as ClusterRole
    discovery.rules = [
      {
        verbs: ['get'],
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
        ],
      },
    ]
    discovery.metadata = { name: 'system:discovery', uid: 'u1', resourceVersion: '9', labels: { mine: 'x' } }
    const masters = existing.find(
      (o) => o.kind === 'ClusterRoleBinding' && o.metadata?.name === 'cluster-admin',
    ) as ClusterRoleBinding
    masters.subjects = [User('root')]
    const actions = reconcileBootstrap(existing)
    expect(ops(actions)).toEqual(['update ClusterRole /system:discovery', 'update ClusterRoleBinding /cluster-admin'])
    expect(actions[0]!.object).toEqual({
      ...discovery,
      metadata: { ...discovery.metadata, labels: { ...BOOT, mine: 'x' }, annotations: AUTO },
      rules: [
        ...discovery.rules,
        { verbs: ['get'], nonResourceURLs: ['/version'] },
        { verbs: ['get'], nonResourceURLs: ['/version/'] },
      ],
    })
    expect((actions[1]!.object as ClusterRoleBinding).subjects).toEqual([User('root'), Group('system:masters')])
  })

  it('leaves objects annotated autoupdate=false alone', () => {
    const existing = [...Object.values(bootstrapPolicy()).flat()]
    const cr = existing.find((o) => o.kind === 'ClusterRole' && o.metadata?.name === 'cluster-admin') as ClusterRole
    cr.rules = []
    cr.metadata!.annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'false' }
    const crb = existing.find(
      (o) => o.kind === 'ClusterRoleBinding' && o.metadata?.name === 'cluster-admin',
    ) as ClusterRoleBinding
    crb.subjects = []
    crb.roleRef = { ...crb.roleRef, name: 'other' }
    crb.metadata!.annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'false' }
    expect(reconcileBootstrap(existing)).toEqual([])
  })

  it('recreates a binding whose roleRef differs, and restores a lost aggregationRule', () => {
    const existing = [...Object.values(bootstrapPolicy()).flat()]
    const crb = existing.find(
      (o) => o.kind === 'ClusterRoleBinding' && o.metadata?.name === 'system:discovery',
    ) as ClusterRoleBinding
    crb.roleRef = { ...crb.roleRef, name: 'view' }
    crb.metadata!.uid = 'old-uid'
    const admin = existing.find((o) => o.metadata?.name === 'admin') as ClusterRole
    delete admin.aggregationRule
    const actions = reconcileBootstrap(existing)
    expect(ops(actions)).toEqual(['update ClusterRole /admin', 'recreate ClusterRoleBinding /system:discovery'])
    expect((actions[0]!.object as ClusterRole).aggregationRule).toEqual(
      (bootstrapPolicy().clusterRoles.find((r) => r.metadata?.name === 'admin') as ClusterRole).aggregationRule,
    )
    expect(actions[1]!.uid).toBe('old-uid')
    expect((actions[1]!.object as ClusterRoleBinding).roleRef.name).toBe('system:discovery')
  })

  it('removes an aggregationRule the policy does not have, as kube does', () => {
    const existing = [...Object.values(bootstrapPolicy()).flat()]
    const basic = existing.find(
      (o) => o.kind === 'ClusterRole' && o.metadata?.name === 'system:basic-user',
    ) as ClusterRole
    basic.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] }
    const [action] = reconcileBootstrap(existing)
    expect(action?.op).toBe('update')
    expect((action!.object as ClusterRole).aggregationRule).toBeUndefined()
  })
})
