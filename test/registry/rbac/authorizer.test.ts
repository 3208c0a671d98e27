// The RBAC decision and its reasons: bindings visited in kube's order, subjects matched, roles resolved, lookup
// errors worded as the listers word them; the system:masters shortcut; compiled rules agreeing with kube's visitor.
import { describe, expect, it } from 'vitest'
import { authorize, rbacAuthorize } from '../../../src/registry/rbac/authorizer'
import { compileRules, CompiledRulesCache } from '../../../src/registry/rbac/compiled-rules'
import { bootstrapPolicy } from '../../../src/registry/rbac/bootstrap-policy'
import { aggregatedRules } from '../../../src/registry/rbac/aggregation'
import type { Attributes } from '../../../src/registry/rbac/attributes'
import type { RbacSource } from '../../../src/registry/rbac/rule-resolver'
import {
  alice,
  clusterRole,
  crb,
  Group,
  nonResource,
  rb,
  req,
  role,
  rule,
  SA,
  source,
  user,
  User,
  urlRule,
  type Objects,
} from './rbac-fixtures'

const podReader = clusterRole('pod-reader', [rule(['get', 'list'], [''], ['pods'])])
const edit = clusterRole('edit', [rule(['*'], ['', 'apps'], ['*'])])
const sa = (ns: string, name: string) => user(`system:serviceaccount:${ns}:${name}`, 'system:serviceaccounts')

/** Both forms of the decision, which must always agree. */
function decide(o: Objects, attrs: Attributes) {
  const src = source(o)
  const direct = rbacAuthorize(attrs, src)
  const compiled = authorize(attrs, compileRules(attrs.user, attrs.namespace, src))
  expect(compiled).toEqual(direct)
  return direct
}

describe('RBAC decisions and reasons', () => {
  type Case = [what: string, objects: Objects, attrs: Attributes, allowed: boolean, reason: string]
  const CASES: Case[] = [
    ['no bindings', {}, req('get', 'pods'), false, ''],
    [
      'ClusterRoleBinding to a user',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('readers', 'pod-reader', [User('alice')])] },
      req('list', 'pods'),
      true,
      'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"',
    ],
    [
      'a cluster-scope request',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('readers', 'pod-reader', [User('alice')])] },
      req('list', 'pods', { namespace: '' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"',
    ],
    [
      'the first subject that is the user is named',
      {
        clusterRoles: [podReader],
        clusterRoleBindings: [crb('r', 'pod-reader', [User('bob'), Group('dev'), User('alice')])],
      },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "r" of ClusterRole "pod-reader" to Group "dev"',
    ],
    [
      'RoleBinding to a ClusterRole, in its namespace',
      {
        clusterRoles: [edit],
        roleBindings: [rb('team', 'devs', { kind: 'ClusterRole', name: 'edit' }, [Group('dev')])],
      },
      req('create', 'deployments', { apiGroup: 'apps', namespace: 'team' }),
      true,
      'RBAC: allowed by RoleBinding "devs/team" of ClusterRole "edit" to Group "dev"',
    ],
    [
      'RoleBinding to a ClusterRole, another namespace',
      {
        clusterRoles: [edit],
        roleBindings: [rb('team', 'devs', { kind: 'ClusterRole', name: 'edit' }, [Group('dev')])],
      },
      req('create', 'deployments', { apiGroup: 'apps', namespace: 'other' }),
      false,
      '',
    ],
    [
      'RoleBindings do not reach the cluster scope',
      {
        clusterRoles: [edit],
        roleBindings: [rb('team', 'devs', { kind: 'ClusterRole', name: 'edit' }, [Group('dev')])],
      },
      req('list', 'pods', { namespace: '' }),
      false,
      '',
    ],
    [
      'RoleBinding to a Role',
      {
        roles: [role('team', 'cm', [rule(['get'], [''], ['configmaps'])])],
        roleBindings: [rb('team', 'cm', { kind: 'Role', name: 'cm' }, [User('alice')])],
      },
      req('get', 'configmaps', { namespace: 'team', name: 'x' }),
      true,
      'RBAC: allowed by RoleBinding "cm/team" of Role "cm" to User "alice"',
    ],
    [
      'ClusterRoleBindings are visited before RoleBindings',
      {
        clusterRoles: [podReader],
        roleBindings: [rb('default', 'local', { kind: 'ClusterRole', name: 'pod-reader' }, [User('alice')])],
        clusterRoleBindings: [crb('global', 'pod-reader', [User('alice')])],
      },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "global" of ClusterRole "pod-reader" to User "alice"',
    ],
    [
      'ClusterRoleBindings in list order',
      {
        clusterRoles: [podReader, edit],
        clusterRoleBindings: [crb('zeta', 'edit', [User('alice')]), crb('alpha', 'pod-reader', [User('alice')])],
      },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "zeta" of ClusterRole "edit" to User "alice"',
    ],
    [
      'the first rule in visit order names the binding, whichever index finds it',
      {
        clusterRoles: [podReader, clusterRole('all', [rule(['*'], ['*'], ['*'])])],
        clusterRoleBindings: [crb('first', 'pod-reader', [User('alice')]), crb('second', 'all', [User('alice')])],
        roleBindings: [rb('default', 'third', { kind: 'ClusterRole', name: 'all' }, [User('alice')])],
      },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "first" of ClusterRole "pod-reader" to User "alice"',
    ],
    [
      'SA subject with its namespace, in a ClusterRoleBinding',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('b', 'pod-reader', [SA('robot', 'ops')])] },
      { ...req('get', 'pods', { name: 'p' }), user: sa('ops', 'robot') },
      true,
      'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "pod-reader" to ServiceAccount "robot/ops"',
    ],
    [
      'SA subject without a namespace never matches in a ClusterRoleBinding',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('b', 'pod-reader', [SA('robot')])] },
      { ...req('get', 'pods', { name: 'p', namespace: 'ops' }), user: sa('ops', 'robot') },
      false,
      '',
    ],
    [
      "SA subject without a namespace is the RoleBinding's",
      {
        clusterRoles: [podReader],
        roleBindings: [rb('ops', 'b', { kind: 'ClusterRole', name: 'pod-reader' }, [SA('robot')])],
      },
      { ...req('get', 'pods', { name: 'p', namespace: 'ops' }), user: sa('ops', 'robot') },
      true,
      'RBAC: allowed by RoleBinding "b/ops" of ClusterRole "pod-reader" to ServiceAccount "robot/ops"',
    ],
    [
      'SA subject of another namespace, in a RoleBinding',
      {
        clusterRoles: [podReader],
        roleBindings: [rb('ops', 'b', { kind: 'ClusterRole', name: 'pod-reader' }, [SA('robot', 'ci')])],
      },
      { ...req('get', 'pods', { name: 'p', namespace: 'ops' }), user: sa('ops', 'robot') },
      false,
      '',
    ],
    [
      'SA subject matches the whole user name',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('b', 'pod-reader', [SA('robot', 'ops')])] },
      { ...req('get', 'pods', { name: 'p' }), user: sa('ops', 'robot2') },
      false,
      '',
    ],
    [
      'a Group subject is not a user name',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('b', 'pod-reader', [Group('alice')])] },
      req('get', 'pods', { name: 'p' }),
      false,
      '',
    ],
    [
      'missing ClusterRole, in the lister wording',
      { clusterRoleBindings: [crb('b', 'missing', [User('alice')])] },
      req('watch', 'deployments', { apiGroup: 'apps' }),
      false,
      'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    ],
    [
      'missing Role',
      { roleBindings: [rb('default', 'b', { kind: 'Role', name: 'gone' }, [User('alice')])] },
      req('get', 'pods', { name: 'p' }),
      false,
      'RBAC: role.rbac.authorization.k8s.io "gone" not found',
    ],
    [
      'several errors, repeats dropped, visit order kept',
      {
        clusterRoleBindings: [crb('b1', 'x', [User('alice')]), crb('b2', 'x', [Group('dev')])],
        roleBindings: [
          rb('default', 'b3', { kind: 'Role', name: 'y' }, [User('alice')]),
          rb('default', 'b4', { kind: 'Thing', name: 'z' }, [User('alice')]),
        ],
      },
      req('get', 'pods', { name: 'p' }),
      false,
      'RBAC: [clusterrole.rbac.authorization.k8s.io "x" not found, role.rbac.authorization.k8s.io "y" not found, unsupported role reference kind: "Thing"]',
    ],
    [
      'one error repeated is printed once, unbracketed',
      { clusterRoleBindings: [crb('b1', 'x', [User('alice')]), crb('b2', 'x', [Group('dev')])] },
      req('get', 'pods', { name: 'p' }),
      false,
      'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
    ],
    [
      'bindings to someone else report no errors',
      { clusterRoleBindings: [crb('b', 'missing', [User('bob')])] },
      req('get', 'pods', { name: 'p' }),
      false,
      '',
    ],
    [
      'a missing role does not stop a later allow',
      {
        clusterRoles: [podReader],
        clusterRoleBindings: [crb('broken', 'missing', [User('alice')]), crb('ok', 'pod-reader', [User('alice')])],
      },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "ok" of ClusterRole "pod-reader" to User "alice"',
    ],
    [
      'non-resource URL through a ClusterRoleBinding',
      {
        clusterRoles: [clusterRole('metrics', [urlRule(['get'], ['/metrics'])])],
        clusterRoleBindings: [crb('m', 'metrics', [Group('system:authenticated')])],
      },
      nonResource('get', '/metrics'),
      true,
      'RBAC: allowed by ClusterRoleBinding "m" of ClusterRole "metrics" to Group "system:authenticated"',
    ],
    [
      'names in a binding are quoted as Go quotes them',
      { clusterRoles: [podReader], clusterRoleBindings: [crb('a"b\u0001', 'pod-reader', [User('alice')])] },
      req('get', 'pods', { name: 'p' }),
      true,
      'RBAC: allowed by ClusterRoleBinding "a\\"b\\x01" of ClusterRole "pod-reader" to User "alice"',
    ],
  ]

  it.each(CASES)('%s', (_, objects, attrs, allowed, reason) => {
    expect(decide(objects, attrs)).toEqual({ allowed, reason })
  })
})

describe('system:masters', () => {
  it('is allowed anything, with no reason, before RBAC is asked', () => {
    const master = user('root', 'system:masters', 'system:authenticated')
    const attrs = { ...req('delete', 'nodes', { namespace: '' }), user: master }
    // Even a broken binding (which RBAC would report) does not show: the privileged-group authorizer decides first.
    const src = source({ clusterRoleBindings: [crb('b', 'missing', [User('root')])] })
    expect(authorize(attrs, compileRules(master, '', src))).toEqual({ allowed: true, reason: '' })
    expect(authorize(nonResource('post', '/anything', master), compileRules(master, '', src)).allowed).toBe(true)
  })

  it('is not an RBAC subject of its own: RBAC alone decides by bindings', () => {
    const master = user('root', 'system:masters')
    expect(rbacAuthorize({ ...req('get', 'pods'), user: master }, source({})).allowed).toBe(false)
  })
})

describe('compiled rules against kube visitor', () => {
  // The bootstrap policy with admin/edit/view aggregated, plus bindings that exercise every path of the index.
  const policy = bootstrapPolicy()
  for (let pass = 0; pass < 3; pass++) {
    for (const r of policy.clusterRoles) {
      const agg = aggregatedRules(r, policy.clusterRoles)
      if (agg?.ok) r.rules = agg.rules
    }
  }
  const objects: Objects = {
    clusterRoles: [
      ...policy.clusterRoles,
      clusterRole('named', [rule(['get', 'update'], [''], ['configmaps', 'pods/log'], ['a', 'b'])]),
      clusterRole('urls', [urlRule(['get', 'post'], ['/logs/*', '/version', '/api*'])]),
      clusterRole('subs', [rule(['get'], ['*'], ['*/scale', 'pods/*'])]),
    ],
    roles: [...policy.roles, role('team', 'team-role', [rule(['list', 'watch'], ['batch'], ['jobs'])])],
    clusterRoleBindings: [
      ...policy.clusterRoleBindings,
      crb('named', 'named', [User('alice')]),
      crb('urls', 'urls', [Group('dev')]),
      crb('subs', 'subs', [SA('robot', 'team')]),
      crb('broken', 'nope', [Group('dev')]),
    ],
    roleBindings: [
      ...policy.roleBindings,
      rb('team', 'view', { kind: 'ClusterRole', name: 'view' }, [User('alice')]),
      rb('team', 'edit', { kind: 'ClusterRole', name: 'edit' }, [SA('robot')]),
      rb('team', 'jobs', { kind: 'Role', name: 'team-role' }, [Group('dev')]),
      rb('team', 'gone', { kind: 'Role', name: 'gone' }, [User('alice')]),
    ],
  }
  const users = [
    alice,
    sa('team', 'robot'),
    user('system:anonymous', 'system:unauthenticated'),
    user('system:kube-scheduler', 'system:authenticated'),
  ]
  const verbs = ['get', 'list', 'watch', 'create', 'update', 'delete', 'post', '*']
  const targets: Partial<Attributes>[] = [
    { resource: 'pods' },
    { resource: 'pods', subresource: 'log', name: 'a' },
    { resource: 'pods', subresource: 'log', name: 'c' },
    { resource: 'pods', subresource: 'exec', name: 'p' },
    { resource: 'configmaps', name: 'b' },
    { resource: 'deployments', apiGroup: 'apps', subresource: 'scale', name: 'd' },
    { resource: 'jobs', apiGroup: 'batch' },
    { resource: 'leases', apiGroup: 'coordination.k8s.io', name: 'kube-scheduler' },
    { resource: 'selfsubjectaccessreviews', apiGroup: 'authorization.k8s.io' },
    { resource: 'nodes', namespace: '' },
    { resource: 'pods', subresource: '*', name: 'x' },
  ]
  const paths = ['/version', '/logs/a', '/logs', '/api', '/apis/apps', '/healthz', '/metrics', '/livez/ping']

  it('agree on every decision and reason over a request matrix', () => {
    const src: RbacSource = source(objects)
    let allowed = 0
    let checked = 0
    for (const u of users) {
      for (const namespace of ['team', 'kube-system', '']) {
        const compiled = compileRules(u, namespace, src)
        for (const verb of verbs) {
          for (const t of targets) {
            const attrs = { ...req(verb, 'x', { namespace }), user: u, subresource: '', ...t }
            if (t.namespace !== undefined && namespace !== '') continue
            const direct = rbacAuthorize(attrs, src)
            expect(authorize(attrs, compiled), JSON.stringify(attrs)).toEqual(direct)
            if (direct.allowed) allowed++
            checked++
          }
          for (const path of paths) {
            const attrs = nonResource(verb, path, u)
            expect(authorize(attrs, compileRules(u, '', src)), path).toEqual(rbacAuthorize(attrs, src))
          }
        }
      }
    }
    // The matrix is only worth something if it has both outcomes in numbers.
    expect(allowed).toBeGreaterThan(100)
    expect(checked - allowed).toBeGreaterThan(100)
  })
})

describe('the compiled-rules cache', () => {
  const objects: Objects = { clusterRoles: [podReader], clusterRoleBindings: [crb('r', 'pod-reader', [User('alice')])] }

  it('compiles once per version, namespace, user and groups', () => {
    let reads = 0
    const inner = source(objects)
    const counting: RbacSource = {
      ...inner,
      clusterRoleBindings: () => {
        reads++
        return inner.clusterRoleBindings()
      },
    }
    const cache = new CompiledRulesCache(8)
    const first = cache.get(alice, 'default', 'v1', counting)
    expect(cache.get(alice, 'default', 'v1', counting)).toBe(first)
    expect(reads).toBe(1)
    expect(cache.get(alice, 'default', 'v2', counting)).not.toBe(first)
    expect(cache.get(alice, 'other', 'v2', counting)).not.toBe(first)
    expect(cache.get(user('alice', 'dev'), 'default', 'v1', counting)).not.toBe(first)
    expect(reads).toBe(4)
  })

  it('evicts the least recently used past its capacity', () => {
    const cache = new CompiledRulesCache(2)
    const src = source(objects)
    const a = cache.get(user('a'), '', 'v', src)
    const b = cache.get(user('b'), '', 'v', src)
    expect(cache.get(user('a'), '', 'v', src)).toBe(a) // a is now the most recent
    cache.get(user('c'), '', 'v', src) // evicts b
    expect(cache.get(user('a'), '', 'v', src)).toBe(a)
    expect(cache.get(user('b'), '', 'v', src)).not.toBe(b)
  })
})
