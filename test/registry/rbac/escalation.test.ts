// Escalation prevention: kube's coverage of requested rules by the user's own, the compacted and sorted message,
// and the role and binding checks (system:masters, escalate, bind, aggregationRule, GC-only updates, missing roles).
import { describe, expect, it } from 'vitest'
import {
  bindingWriteRefusal,
  confirmNoEscalation,
  type EscalationContext,
  isOnlyMutatingGCFields,
  roleWriteRefusal,
} from '../../../src/registry/rbac/escalation'
import { rulesFor } from '../../../src/registry/rbac/rule-resolver'
import type { Attributes } from '../../../src/registry/rbac/attributes'
import type { ClusterRole, PolicyRule, Role } from '../../../src/schema/rbac'
import {
  alice,
  clusterRole,
  crb,
  Group,
  rb,
  role,
  rule,
  source,
  urlRule,
  User,
  user,
  type Objects,
} from './rbac-fixtures'

const HEAD =
  'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'

describe('confirmNoEscalation', () => {
  type Case = [what: string, owner: PolicyRule[], requested: PolicyRule[], missing: string[] | null]
  const CASES: Case[] = [
    ['nothing requested', [], [], null],
    [
      'several missing rules, compacted by resource and sorted',
      [],
      [rule(['get', 'list'], [''], ['pods']), rule(['create'], ['apps'], ['deployments'])],
      [
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}',
      ],
    ],
    [
      'only what is not held',
      [rule(['get'], [''], ['pods'])],
      [rule(['get', 'list', 'watch'], [''], ['pods', 'services'])],
      [
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}',
        '{APIGroups:[""], Resources:["services"], Verbs:["get" "list" "watch"]}',
      ],
    ],
    ['everything held', [rule(['*'], ['*'], ['*'])], [rule(['get'], ['apps'], ['deployments/scale'])], null],
    [
      '*/sub covers res/sub',
      [rule(['get'], ['apps'], ['*/scale'])],
      [rule(['get'], ['apps'], ['deployments/scale'])],
      null,
    ],
    [
      '* verb is not covered by listing verbs',
      [rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], [''], ['pods'])],
      [rule(['*'], [''], ['pods'])],
      ['{APIGroups:[""], Resources:["pods"], Verbs:["*"]}'],
    ],
    [
      'resource names: one compacted rule per name',
      [],
      [rule(['get', 'update'], [''], ['configmaps'], ['b', 'a'])],
      [
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get" "update"]}',
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["get" "update"]}',
      ],
    ],
    [
      'a named grant covers that name',
      [rule(['get'], [''], ['secrets'], ['s'])],
      [rule(['get'], [''], ['secrets'], ['s'])],
      null,
    ],
    [
      'a named grant does not cover all names',
      [rule(['get'], [''], ['secrets'], ['s'])],
      [rule(['get'], [''], ['secrets'])],
      ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'],
    ],
    [
      'non-resource URLs: one line per URL and verb, never compacted',
      [urlRule(['get'], ['/healthz'])],
      [urlRule(['get', 'post'], ['/metrics', '/healthz'])],
      [
        '{NonResourceURLs:["/healthz"], Verbs:["post"]}',
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
        '{NonResourceURLs:["/metrics"], Verbs:["post"]}',
      ],
    ],
    ['URL prefixes cover', [urlRule(['get'], ['/api/*'])], [urlRule(['get'], ['/api/v1', '/api/'])], null],
    [
      'a resource rule covers no URL',
      [rule(['*'], ['*'], ['*'])],
      [urlRule(['get'], ['/version'])],
      ['{NonResourceURLs:["/version"], Verbs:["get"]}'],
    ],
    [
      'repeated requests repeat verbs (kube does not deduplicate)',
      [],
      [rule(['get'], [''], ['pods']), rule(['get'], [''], ['pods'])],
      ['{APIGroups:[""], Resources:["pods"], Verbs:["get" "get"]}'],
    ],
    [
      'multi-group rules break down per group; multi-resource owners need each resource',
      [rule(['get'], ['', 'apps'], ['pods', 'deployments'])],
      [rule(['get', 'list'], ['apps', 'batch'], ['deployments'])],
      [
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["list"]}',
        '{APIGroups:["batch"], Resources:["deployments"], Verbs:["get" "list"]}',
      ],
    ],
  ]

  it.each(CASES)('%s', (_, owner, requested, missing) => {
    const msg = confirmNoEscalation(alice, owner, requested, [])
    expect(msg).toBe(missing === null ? null : HEAD + missing.join('\n'))
  })

  it("appends the resolution errors of the user's own rules", () => {
    const requested = [rule(['get'], [''], ['pods'])]
    const one =
      '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "x" not found]'
    expect(confirmNoEscalation(alice, [], requested, ['clusterroles.rbac.authorization.k8s.io "x" not found'])).toBe(
      HEAD + one,
    )
    expect(confirmNoEscalation(alice, [], requested, ['a', 'b', 'a'])).toBe(
      `${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [[a, b]]`,
    )
  })

  it('prints the user and groups as Go quotes them, no groups as []', () => {
    expect(confirmNoEscalation(user('a"b'), [], [rule(['get'], [''], ['pods'])], [])).toBe(
      'user "a\\"b" (groups=[]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    )
  })
})

/** A context over objects: the authorizer allows nothing but what `allow` says; own rules come from the bindings. */
function context(objects: Objects, allow: (a: Attributes) => boolean = () => false, who = alice) {
  const asked: Attributes[] = []
  const ctx: EscalationContext = {
    user: who,
    authorize: (a) => {
      asked.push(a)
      return allow(a)
    },
    rulesFor: (ns) => rulesFor(who, ns, source(objects), 'registry'),
  }
  return { ctx, asked }
}

const podReader = clusterRole('pod-reader', [rule(['get', 'list'], [''], ['pods'])])
const readsPods: Objects = { clusterRoles: [podReader], clusterRoleBindings: [crb('r', 'pod-reader', [User('alice')])] }
const wantsPods = (rules: PolicyRule[]): Role => role('team', 'r1', rules)

describe('writing roles', () => {
  it('refuses rules the user does not hold, naming the role', () => {
    const { ctx, asked } = context({})
    const s = roleWriteRefusal(ctx, {
      resource: 'roles',
      namespace: 'team',
      requestName: '',
      object: wantsPods([rule(['get', 'list'], [''], ['pods']), rule(['create'], ['apps'], ['deployments'])]),
    })
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'roles.rbac.authorization.k8s.io "r1" is forbidden: ' +
        HEAD +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}',
      reason: 'Forbidden',
      details: { name: 'r1', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      code: 403,
    })
    // The escalate check came first, about the request's own name (empty on create), any version.
    expect(asked).toEqual([
      {
        user: alice,
        verb: 'escalate',
        namespace: 'team',
        apiGroup: 'rbac.authorization.k8s.io',
        apiVersion: '*',
        resource: 'roles',
        subresource: '',
        name: '',
        resourceRequest: true,
        path: '',
      },
    ])
  })

  it('allows rules the user holds (through any binding in the namespace)', () => {
    const objects: Objects = {
      clusterRoles: [podReader],
      roleBindings: [rb('team', 'b', { kind: 'ClusterRole', name: 'pod-reader' }, [Group('dev')])],
    }
    const { ctx } = context(objects)
    expect(
      roleWriteRefusal(ctx, {
        resource: 'roles',
        namespace: 'team',
        requestName: '',
        object: wantsPods([rule(['get'], [''], ['pods'])]),
      }),
    ).toBeNull()
    // The same rules in another namespace are not held there.
    expect(
      roleWriteRefusal(ctx, {
        resource: 'roles',
        namespace: 'other',
        requestName: '',
        object: wantsPods([rule(['get'], [''], ['pods'])]),
      }),
    ).not.toBeNull()
  })

  it('lets system:masters and users allowed to escalate through', () => {
    const object = wantsPods([rule(['*'], ['*'], ['*'])])
    const master = context({}, () => false, user('root', 'system:masters')).ctx
    expect(roleWriteRefusal(master, { resource: 'roles', namespace: 'team', requestName: 'r1', object })).toBeNull()
    const escalator = context({}, (a) => a.verb === 'escalate' && a.resource === 'roles' && a.name === 'r1').ctx
    expect(roleWriteRefusal(escalator, { resource: 'roles', namespace: 'team', requestName: 'r1', object })).toBeNull()
    expect(
      roleWriteRefusal(escalator, { resource: 'roles', namespace: 'team', requestName: '', object }),
    ).not.toBeNull()
  })

  it('skips updates that only touch what the garbage collector writes', () => {
    const old = wantsPods([rule(['*'], ['*'], ['*'])])
    old.metadata = { ...old.metadata, resourceVersion: '7', uid: 'u' }
    const gc = structuredClone(old)
    gc.metadata!.finalizers = ['x/y']
    gc.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'o' }]
    const { ctx } = context({})
    expect(
      roleWriteRefusal(ctx, { resource: 'roles', namespace: 'team', requestName: 'r1', object: gc, old }),
    ).toBeNull()
    const labelled = structuredClone(gc)
    labelled.metadata!.labels = { a: 'b' }
    expect(
      roleWriteRefusal(ctx, { resource: 'roles', namespace: 'team', requestName: 'r1', object: labelled, old })?.code,
    ).toBe(403)
  })

  const aggregated = (selectors: boolean): ClusterRole => ({
    ...clusterRole('agg', null),
    ...(selectors ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } } : {}),
  })

  it('requires full authority for an aggregationRule, before or after the update', () => {
    const { ctx } = context(readsPods)
    const refused =
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule'
    expect(
      roleWriteRefusal(ctx, { resource: 'clusterroles', namespace: '', requestName: '', object: aggregated(true) })
        ?.message,
    ).toBe(refused)
    const removing = roleWriteRefusal(ctx, {
      resource: 'clusterroles',
      namespace: '',
      requestName: 'agg',
      object: aggregated(false),
      old: aggregated(true),
    })
    expect(removing?.message).toBe(refused)
    expect(
      roleWriteRefusal(ctx, { resource: 'clusterroles', namespace: '', requestName: '', object: aggregated(false) }),
    ).toBeNull()
    const admin = context({
      clusterRoles: [clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])])],
      clusterRoleBindings: [crb('admins', 'cluster-admin', [User('alice')])],
    }).ctx
    expect(
      roleWriteRefusal(admin, { resource: 'clusterroles', namespace: '', requestName: '', object: aggregated(true) }),
    ).toBeNull()
  })
})

describe('writing bindings', () => {
  const binding = (ref: { kind: string; name: string }) => rb('team', 'b', ref, [User('bob')])

  it('needs the role to exist, read from storage (404, plural)', () => {
    const { ctx } = context({})
    const s = bindingWriteRefusal(
      ctx,
      { resource: 'rolebindings', namespace: 'team', object: binding({ kind: 'ClusterRole', name: 'x' }) },
      source({}),
    )
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'clusterroles.rbac.authorization.k8s.io "x" not found',
      reason: 'NotFound',
      details: { name: 'x', group: 'rbac.authorization.k8s.io', kind: 'clusterroles' },
      code: 404,
    })
    const role404 = bindingWriteRefusal(
      ctx,
      { resource: 'rolebindings', namespace: 'team', object: binding({ kind: 'Role', name: 'y' }) },
      source({}),
    )
    expect(role404?.message).toBe('roles.rbac.authorization.k8s.io "y" not found')
  })

  it('answers an unknown roleRef kind as kube storage does: 500, the error as message', () => {
    const { ctx } = context({})
    expect(
      bindingWriteRefusal(
        ctx,
        { resource: 'rolebindings', namespace: 'team', object: binding({ kind: 'Foo', name: 'x' }) },
        source({}),
      ),
    ).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'unsupported role reference kind: "Foo"',
      code: 500,
    })
  })

  it('refuses binding a role with rules the user lacks, and allows one they hold', () => {
    const objects: Objects = {
      ...readsPods,
      clusterRoles: [podReader, clusterRole('edit', [rule(['*'], [''], ['*'])])],
    }
    const { ctx } = context(objects)
    const src = source(objects)
    const s = bindingWriteRefusal(
      ctx,
      { resource: 'clusterrolebindings', namespace: '', object: crb('b', 'edit', [User('bob')]) },
      src,
    )
    expect(s?.message).toBe(
      'clusterrolebindings.rbac.authorization.k8s.io "b" is forbidden: ' +
        HEAD +
        '{APIGroups:[""], Resources:["*"], Verbs:["*"]}',
    )
    expect(s?.details).toEqual({ name: 'b', group: 'rbac.authorization.k8s.io', kind: 'clusterrolebindings' })
    expect(
      bindingWriteRefusal(
        ctx,
        { resource: 'clusterrolebindings', namespace: '', object: crb('b', 'pod-reader', [User('bob')]) },
        src,
      ),
    ).toBeNull()
  })

  it('lets system:masters and users allowed to bind the role through, asking about the role', () => {
    const object = binding({ kind: 'ClusterRole', name: 'missing' })
    const master = context({}, () => false, user('root', 'system:masters')).ctx
    expect(bindingWriteRefusal(master, { resource: 'rolebindings', namespace: 'team', object }, source({}))).toBeNull()
    const { ctx, asked } = context({}, (a) => a.verb === 'bind')
    expect(bindingWriteRefusal(ctx, { resource: 'rolebindings', namespace: 'team', object }, source({}))).toBeNull()
    expect(asked).toEqual([
      {
        user: alice,
        verb: 'bind',
        namespace: 'team',
        apiGroup: 'rbac.authorization.k8s.io',
        apiVersion: '*',
        resource: 'clusterroles',
        subresource: '',
        name: 'missing',
        resourceRequest: true,
        path: '',
      },
    ])
  })

  it('skips updates that only touch what the garbage collector writes', () => {
    const old = binding({ kind: 'ClusterRole', name: 'missing' })
    const gc = structuredClone(old)
    gc.metadata!.finalizers = ['x/y']
    const { ctx } = context({})
    expect(
      bindingWriteRefusal(ctx, { resource: 'rolebindings', namespace: 'team', object: gc, old }, source({})),
    ).toBeNull()
    expect(
      bindingWriteRefusal(ctx, { resource: 'rolebindings', namespace: 'team', object: gc }, source({}))?.code,
    ).toBe(404)
  })
})

describe('isOnlyMutatingGCFields', () => {
  it('treats absent and empty lists and maps alike, and ignores kind and apiVersion', () => {
    const old = role('ns', 'r', [rule(['get'], [''], ['pods'])])
    const same = { ...structuredClone(old), kind: undefined, apiVersion: undefined }
    same.metadata = { ...same.metadata, labels: {}, managedFields: [] }
    expect(isOnlyMutatingGCFields(same as Role, old)).toBe(true)
    const more = structuredClone(old)
    more.rules = [rule(['get', 'list'], [''], ['pods'])]
    expect(isOnlyMutatingGCFields(more, old)).toBe(false)
  })
})
