// The access decision on the wire: authentication (static tokens, anonymous, refusals), RBAC on every path kube
// authorizes (resources, subresources, non-resource URLs, v1beta1, the deprecated watch paths, WebSocket watches),
// the path as the router resolves it, impersonation, the Host check, the rate limit, and the settings that change them.
import { exports } from 'cloudflare:workers'
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, pod, req } from '../helpers'
import { TEST_TOKENS, bearer } from '../support/test-tokens'

const UNAUTHORIZED =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n'

const anonymous = { authorization: '' }
const alice = bearer(TEST_TOKENS.alice)
const bob = bearer(TEST_TOKENS.bob)

/** The app run with other settings (the Worker's own env plus these). */
async function withSettings(settings: Record<string, unknown>, path: string, init: RequestInit = {}) {
  const res = await buildApp().fetch(
    new Request(BASE + path, init),
    { ...env, ...settings } as Env,
    createExecutionContext(),
  )
  return { status: res.status, headers: res.headers, text: await res.text() }
}

let teamA = ''
let teamB = ''

beforeAll(async () => {
  teamA = await makeNamespace('team-a')
  teamB = await makeNamespace('team-b')
  // alice's group may read and write pods in team-a (a Role and a RoleBinding, as a namespace admin would grant).
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'pod-editor' },
    rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch', 'create', 'delete'] }],
  }
  expect((await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${teamA}/roles`, role)).status).toBe(201)
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'team-a-devs-edit-pods' },
    subjects: [{ kind: 'Group', name: 'team-a-devs', apiGroup: 'rbac.authorization.k8s.io' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-editor' },
  }
  const b = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${teamA}/rolebindings`, binding)
  expect(b.status, b.text).toBe(201)
  expect((await req('POST', `/api/v1/namespaces/${teamB}/pods`, pod('other'))).status).toBe(201)
})

describe('authentication', () => {
  it('an unknown token is 401 with kube bytes, never anonymous, even where anonymous may go', async () => {
    for (const path of ['/api/v1/pods', '/version', '/healthz']) {
      const r = await req('GET', path, undefined, bearer('not-a-token'))
      expect(r.status).toBe(401)
      expect(r.text).toBe(UNAUTHORIZED)
      expect(r.headers.get('content-type')).toBe('application/json')
      expect(r.headers.get('www-authenticate')).toBeNull()
    }
  })

  it('malformed Authorization headers: a Bearer token nobody holds is 401; other schemes are anonymous', async () => {
    expect(
      (await req('GET', '/api/v1/pods', undefined, { authorization: `Bearer ${TEST_TOKENS.admin}x` })).status,
    ).toBe(401)
    expect((await req('GET', '/api/v1/pods', undefined, { authorization: 'Bearer a b c' })).status).toBe(401)
    // Basic credentials and an empty Bearer carry no token: the request is anonymous (403 here, not 401).
    expect((await req('GET', '/api/v1/pods', undefined, { authorization: 'Basic YWRtaW46YWRtaW4=' })).status).toBe(403)
    expect((await req('GET', '/api/v1/pods', undefined, { authorization: 'Bearer' })).status).toBe(403)
    expect((await req('GET', '/version', undefined, { authorization: 'Basic YWRtaW46YWRtaW4=' })).status).toBe(200)
  })

  it('an oversized Authorization header is refused without a 500', async () => {
    const r = await req('GET', '/api/v1/pods', undefined, bearer('x'.repeat(64 * 1024)))
    expect(r.status).toBe(401)
    expect(r.text).toBe(UNAUTHORIZED)
  })

  it("anonymous reaches what system:public-info-viewer grants and nothing else, with kube's 403", async () => {
    for (const path of ['/version', '/healthz', '/livez', '/readyz']) {
      expect((await req('GET', path, undefined, anonymous)).status, path).toBe(200)
    }
    const pods = await req('GET', '/api/v1/pods', undefined, anonymous)
    expect(pods.status).toBe(403)
    expect(pods.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:anonymous\\" cannot list resource \\"pods\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n',
    )
    expect(pods.headers.get('x-content-type-options')).toBe('nosniff')
    // Discovery is for authenticated users only (system:discovery).
    const api = await req('GET', '/api', undefined, anonymous)
    expect(api.status).toBe(403)
    expect(api.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"')
    expect(api.json.details).toEqual({})
  })

  it('KUBEFLARE_ANONYMOUS_AUTH=false refuses every request without credentials with 401', async () => {
    const r = await withSettings({ KUBEFLARE_ANONYMOUS_AUTH: 'false' }, '/version')
    expect(r.status).toBe(401)
    expect(r.text).toBe(UNAUTHORIZED)
    const ok = await withSettings({ KUBEFLARE_ANONYMOUS_AUTH: 'false' }, '/version', { headers: alice })
    expect(ok.status).toBe(200)
  })

  it('a setting the server cannot use is a 503 naming the setting, never a 500', async () => {
    const r = await withSettings({ KUBEFLARE_AUTHORIZATION_MODE: 'Node' }, '/version')
    expect(r.status).toBe(503)
    expect(JSON.parse(r.text).message).toContain('KUBEFLARE_AUTHORIZATION_MODE')
    const tokens = await withSettings({ KUBEFLARE_TOKENS: 'only,two' }, '/version')
    expect(tokens.status).toBe(503)
    expect(JSON.parse(tokens.text).message).toContain('at least 3 columns')
  })
})

describe('RBAC on every path', () => {
  it("a Role and RoleBinding grant exactly what they say, in their namespace only, with kube's messages", async () => {
    expect((await req('GET', `/api/v1/namespaces/${teamA}/pods`, undefined, alice)).status).toBe(200)
    const c = await req('POST', `/api/v1/namespaces/${teamA}/pods`, pod('mine'), alice)
    expect(c.status, c.text).toBe(201)
    const other = await req('GET', `/api/v1/namespaces/${teamB}/pods`, undefined, alice)
    expect(other.status).toBe(403)
    expect(other.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "${teamB}"`,
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    })
    const put = await req('PUT', `/api/v1/namespaces/${teamA}/pods/mine`, c.json, alice)
    expect(put.status).toBe(403)
    expect(put.json.message).toBe(
      `pods "mine" is forbidden: User "alice" cannot update resource "pods" in API group "" in the namespace "${teamA}"`,
    )
    expect(put.json.details).toEqual({ name: 'mine', kind: 'pods' })
    // bob is in no group the binding names.
    expect((await req('GET', `/api/v1/namespaces/${teamA}/pods`, undefined, bob)).status).toBe(403)
  })

  it('subresources are their own resources: pods/log granted, pods/status and pods/exec not', async () => {
    expect((await req('GET', `/api/v1/namespaces/${teamA}/pods/mine/log`, undefined, alice)).status).not.toBe(403)
    const status = await req('GET', `/api/v1/namespaces/${teamA}/pods/mine/status`, undefined, alice)
    expect(status.status).toBe(403)
    expect(status.json.message).toBe(
      `pods "mine" is forbidden: User "alice" cannot get resource "pods/status" in API group "" in the namespace "${teamA}"`,
    )
    const exec = await req('POST', `/api/v1/namespaces/${teamA}/pods/mine/exec?command=ls`, undefined, alice)
    expect(exec.status).toBe(403)
    expect(exec.json.message).toContain('cannot create resource "pods/exec"')
  })

  it('the path is judged as the router resolves it: .. and %2e%2e never reach another namespace', async () => {
    for (const sneaky of [
      `/api/v1/namespaces/${teamA}/pods/../../${teamB}/pods`,
      `/api/v1/namespaces/${teamA}/pods/%2e%2e/%2e%2e/${teamB}/pods`,
      `/api/v1/namespaces/${teamA}/pods/%2E%2E/%2E%2E/${teamB}/pods/other`,
      `/api/v1/namespaces/${teamA}/./../${teamB}/pods`,
    ]) {
      const r = await req('GET', sneaky, undefined, alice)
      expect(r.status, sneaky).toBe(403)
      expect(r.json.message, sneaky).toContain(`in the namespace "${teamB}"`)
    }
    // An encoded slash is no separator anywhere: refused before it could be read two ways.
    const slash = await req('GET', `/api/v1/namespaces/${teamA}/pods/x%2F..%2F..%2F${teamB}`, undefined, alice)
    expect([403, 404]).toContain(slash.status)
    expect(slash.text).not.toContain('"other"')
  })

  it('the deprecated watch paths and ?watch= are the watch verb', async () => {
    const w = await req('GET', `/api/v1/watch/namespaces/${teamB}/pods`, undefined, alice)
    expect(w.status).toBe(403)
    expect(w.json.message).toContain(`cannot watch resource "pods" in API group "" in the namespace "${teamB}"`)
    const q = await req('GET', `/api/v1/namespaces/${teamB}/pods?watch=true`, undefined, alice)
    expect(q.json.message).toContain('cannot watch resource "pods"')
    const named = await req(
      'GET',
      `/api/v1/namespaces/${teamB}/pods?watch=1&fieldSelector=metadata.name%3Dother`,
      undefined,
      alice,
    )
    expect(named.json.message).toBe(
      `pods "other" is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "${teamB}"`,
    )
  })

  it('a WebSocket watch is authorized at the upgrade, with the token in the Authorization header or a subprotocol', async () => {
    const refused = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${teamB}/pods?watch=true`, {
        headers: { Upgrade: 'websocket', ...alice },
      }),
    )
    expect(refused.status).toBe(403)
    const token = btoa(TEST_TOKENS.alice).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
    const ok = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${teamA}/pods?watch=true&timeoutSeconds=1`, {
        headers: {
          Upgrade: 'websocket',
          Connection: 'Upgrade',
          'Sec-WebSocket-Protocol': `base64url.bearer.authorization.k8s.io.${token}, v4.channel.k8s.io`,
        },
      }),
    )
    expect(ok.status).toBe(101)
    ok.webSocket!.accept()
    ok.webSocket!.close()
  })

  it('v1beta1 is authorized on the namespace it serves (the query parameter, else default)', async () => {
    expect((await req('GET', `/api/v1beta1/pods?namespace=${teamA}`, undefined, alice)).status).toBe(200)
    const b = await req('GET', `/api/v1beta1/pods?namespace=${teamB}`, undefined, alice)
    expect(b.status).toBe(403)
    expect(b.json.message).toContain(`cannot list resource "pods" in API group "" in the namespace "${teamB}"`)
    const rc = await req('GET', '/api/v1beta1/replicationControllers', undefined, alice)
    expect(rc.json.message).toContain(
      'cannot list resource "replicationcontrollers" in API group "" in the namespace "default"',
    )
  })

  it('non-resource URLs follow the bootstrap policy: discovery and OpenAPI for any authenticated user', async () => {
    for (const path of ['/api', '/apis', '/api/v1', '/openapi/v2', '/version']) {
      expect((await req('GET', path, undefined, bob)).status, path).toBe(200)
    }
    const metrics = await req('GET', '/metrics', undefined, bob)
    expect(metrics.status).toBe(403)
    expect(metrics.json.message).toBe('forbidden: User "bob" cannot get path "/metrics"')
  })

  it('a grant is honoured at once, and a revocation through this isolate too', async () => {
    const ns = await makeNamespace('grant')
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods`, undefined, bob)).status).toBe(403)
    const rb = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bob-view' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    }
    expect((await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, rb)).status).toBe(201)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods`, undefined, bob)).status).toBe(200)
    expect(
      (await req('DELETE', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings/bob-view`)).status,
    ).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods`, undefined, bob)).status).toBe(403)
  })

  it('KUBEFLARE_AUTHORIZATION_MODE=AlwaysAllow lets every authenticated request through, and only then', async () => {
    const r = await withSettings({ KUBEFLARE_AUTHORIZATION_MODE: 'AlwaysAllow' }, `/api/v1/namespaces/${teamB}/pods`, {
      headers: bob,
    })
    expect(r.status).toBe(200)
    const bad = await withSettings({ KUBEFLARE_AUTHORIZATION_MODE: 'AlwaysAllow' }, '/api/v1/pods', {
      headers: bearer('nobody'),
    })
    expect(bad.status).toBe(401)
  })
})

describe('impersonation', () => {
  it('system:masters may act as anyone; the request then has exactly that user', async () => {
    const asAlice = await req('GET', `/api/v1/namespaces/${teamB}/pods`, undefined, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'team-a-devs',
    })
    expect(asAlice.status).toBe(403)
    expect(asAlice.json.message).toContain('User "alice" cannot list')
    const inA = await req('GET', `/api/v1/namespaces/${teamA}/pods`, undefined, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'team-a-devs',
    })
    expect(inA.status).toBe(200)
  })

  it("a user who may not impersonate gets kube's 403 for the first refused check", async () => {
    const r = await req('GET', '/api/v1/pods', undefined, { ...bob, 'Impersonate-User': 'system:admin' })
    expect(r.status).toBe(403)
    expect(r.json.message).toBe(
      'users "system:admin" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    )
    expect(r.json.details).toEqual({ name: 'system:admin', kind: 'users' })
    const sa = await req('GET', '/api/v1/pods', undefined, {
      ...bob,
      'Impersonate-User': 'system:serviceaccount:kube-system:default',
    })
    expect(sa.json.message).toBe(
      'serviceaccounts "default" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    )
    const group = await req('GET', '/api/v1/pods', undefined, {
      'Impersonate-User': 'x',
      'Impersonate-Group': 'system:masters',
      ...bob,
    })
    expect(group.status).toBe(403)
  })

  it('groups without a user are a 400, never a 500', async () => {
    const r = await req('GET', '/api/v1/pods', undefined, { 'Impersonate-Group': 'system:masters' })
    expect(r.status).toBe(400)
    expect(r.json.reason).toBe('BadRequest')
    expect(r.json.message).toContain('without impersonating a user')
  })
})

describe('hardening', () => {
  it('with KUBEFLARE_ALLOWED_HOSTS set, only those Host names are answered (DNS rebinding)', async () => {
    const settings = { KUBEFLARE_ALLOWED_HOSTS: '127.0.0.1,localhost,[::1]' }
    for (const host of ['127.0.0.1:8787', 'localhost', 'LOCALHOST:443', '[::1]:8787']) {
      const r = await withSettings(settings, '/version', { headers: { host } })
      expect(r.status, host).toBe(200)
    }
    const evil = await withSettings(settings, '/version', { headers: { host: 'evil.example:8787' } })
    expect(evil.status).toBe(403)
    expect(JSON.parse(evil.text).reason).toBe('Forbidden')
    const rebind = await withSettings(settings, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      headers: { host: 'localhost.evil.example', ...bearer(TEST_TOKENS.admin) },
    })
    expect(rebind.status).toBe(403)
  })

  it('an identity over its budget gets 429 with Retry-After; system:masters is exempt', async () => {
    const spent = new Set(['user:bob', 'anonymous:local', 'unauthenticated:local'])
    const limiter = { limit: async ({ key }: { key: string }) => ({ success: !spent.has(key) }) }
    const settings = { RATE_LIMITER: limiter }
    const r = await withSettings(settings, '/version', { headers: bob })
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBe('1')
    expect(JSON.parse(r.text)).toMatchObject({
      reason: 'TooManyRequests',
      code: 429,
      details: { retryAfterSeconds: 1 },
    })
    expect((await withSettings(settings, '/version', { headers: alice })).status).toBe(200)
    expect((await withSettings(settings, '/version', { headers: bearer(TEST_TOKENS.admin) })).status).toBe(200)
    expect((await withSettings(settings, '/version')).status).toBe(429)
    // Guessing tokens from one address is limited too.
    expect((await withSettings(settings, '/version', { headers: bearer('guess') })).status).toBe(429)
    // Off means off.
    expect(
      (await withSettings({ ...settings, KUBEFLARE_RATE_LIMIT: 'off' }, '/version', { headers: bob })).status,
    ).toBe(200)
  })
})
