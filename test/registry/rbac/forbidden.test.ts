// The 403 bodies kube writes for refused requests, byte for byte (digest §5.2's examples), and NewForbidden's forms.
import { describe, expect, it } from 'vitest'
import { forbiddenStatus, newForbidden } from '../../../src/registry/rbac/forbidden'
import { encodeBody } from '../../../src/registry/wire-json'
import { nonResource, req, user } from './rbac-fixtures'

const anonymous = user('system:anonymous', 'system:unauthenticated')

describe('the 403 of a refused request', () => {
  const CASES: [what: string, body: string, got: () => string][] = [
    [
      '1. GET /api/v1/namespaces/default/pods',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"alice\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n`,
      () => encodeBody(forbiddenStatus(req('list', 'pods'), '')),
    ],
    [
      '2. GET /api/v1/namespaces/default/pods/nginx',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nginx\\" is forbidden: User \\"alice\\" cannot get resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"nginx","kind":"pods"},"code":403}\n`,
      () => encodeBody(forbiddenStatus(req('get', 'pods', { name: 'nginx' }), '')),
    ],
    [
      '3. GET /api/v1/namespaces/default/pods/nginx/log',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nginx\\" is forbidden: User \\"alice\\" cannot get resource \\"pods/log\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"nginx","kind":"pods"},"code":403}\n`,
      () => encodeBody(forbiddenStatus(req('get', 'pods/log', { name: 'nginx' }), '')),
    ],
    [
      '4. GET /api/v1/nodes as anonymous',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes is forbidden: User \\"system:anonymous\\" cannot list resource \\"nodes\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"kind":"nodes"},"code":403}\n`,
      () => encodeBody(forbiddenStatus(req('list', 'nodes', { namespace: '', user: anonymous }), '')),
    ],
    [
      '5. POST /apis/apps/v1/namespaces/default/deployments',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps is forbidden: User \\"alice\\" cannot create resource \\"deployments\\" in API group \\"apps\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"group":"apps","kind":"deployments"},"code":403}\n`,
      () => encodeBody(forbiddenStatus(req('create', 'deployments', { apiGroup: 'apps' }), '')),
    ],
    [
      '6. GET /metrics',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"alice\\" cannot get path \\"/metrics\\"","reason":"Forbidden","details":{},"code":403}\n`,
      () => encodeBody(forbiddenStatus(nonResource('get', '/metrics'), '')),
    ],
    [
      '7. GET / as anonymous',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/\\"","reason":"Forbidden","details":{},"code":403}\n`,
      () => encodeBody(forbiddenStatus(nonResource('get', '/', anonymous), '')),
    ],
    [
      '8. a watch refused with RBAC lookup errors',
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps is forbidden: User \\"alice\\" cannot watch resource \\"deployments\\" in API group \\"apps\\" in the namespace \\"default\\": RBAC: clusterrole.rbac.authorization.k8s.io \\"missing\\" not found","reason":"Forbidden","details":{"group":"apps","kind":"deployments"},"code":403}\n`,
      () =>
        encodeBody(
          forbiddenStatus(
            req('watch', 'deployments', { apiGroup: 'apps' }),
            'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
          ),
        ),
    ],
  ]

  it.each(CASES)('%s', (_, body, got) => {
    expect(got()).toBe(body)
  })

  it('words impersonation refusals as kube does (digest §3)', () => {
    const users = forbiddenStatus(req('impersonate', 'users', { namespace: '', apiVersion: '', name: 'bob' }), '')
    expect(users.message).toBe(
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    )
    expect(users.details).toEqual({ name: 'bob', kind: 'users' })
    const extras = forbiddenStatus(
      req('impersonate', 'userextras/k', { namespace: '', apiGroup: 'authentication.k8s.io', name: 'v' }),
      '',
    )
    expect(extras.message).toBe(
      'userextras.authentication.k8s.io "v" is forbidden: User "alice" cannot impersonate resource "userextras/k" in API group "authentication.k8s.io" at the cluster scope',
    )
    expect(extras.details).toEqual({ name: 'v', group: 'authentication.k8s.io', kind: 'userextras' })
  })

  it('escapes &, < and > in the request part (quoted as Go quotes), never in the reason', () => {
    const status = forbiddenStatus(nonResource('get', '/a<b>&c', user('eve<script>"')), 'RBAC: <&>')
    expect(status.message).toBe('forbidden: User "eve&lt;script&gt;\\"" cannot get path "/a&lt;b&gt;&amp;c": RBAC: <&>')
    // On the wire Go's encoder escapes what is left as \u003c etc.
    expect(encodeBody(status)).toContain('RBAC: \\u003c\\u0026\\u003e"')
  })
})

describe('NewForbidden', () => {
  it('names the resource, qualified by group, and the object when there is one', () => {
    expect(newForbidden('', '', '', 'why').message).toBe('forbidden: why')
    expect(newForbidden('rbac.authorization.k8s.io', 'roles', '', 'why').message).toBe(
      'roles.rbac.authorization.k8s.io is forbidden: why',
    )
    const named = newForbidden('rbac.authorization.k8s.io', 'roles', 'r\u0001', 'why')
    expect(named.message).toBe('roles.rbac.authorization.k8s.io "r\\x01" is forbidden: why')
    expect(named).toMatchObject({ code: 403, reason: 'Forbidden', status: 'Failure' })
    expect(named.details).toEqual({ name: 'r\u0001', group: 'rbac.authorization.k8s.io', kind: 'roles' })
  })
})
