// ServiceAccount tokens end to end: `kubectl create token` (1.27 JSON, 1.33 protobuf) gives a JWT with kube's claims;
// kubectl and @kubernetes/client-node authenticate with it as system:serviceaccount:<ns>:<name>, and the RoleBinding to
// the ServiceAccount is what they may do; a token for another audience is 401; once the ServiceAccount is deleted
// (or deleted and made again under the same name) its tokens are 401, kubectl saying it must be logged in.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CoreV1Api } from '@kubernetes/client-node'
import { KUBECTL_VERSIONS, kubectl, podManifest, uniqueNs } from './helpers.mjs'
import {
  UNAUTHORIZED,
  clientConfig,
  forbidden,
  jwtClaims,
  kubeconfigFor,
  kubectlForbidden,
  kubectlWith,
  raw,
} from './identity-helpers.mjs'

const teamA = uniqueNs('sa-a')
const teamB = uniqueNs('sa-b')
const SA = 'builder'
const USER = `system:serviceaccount:${teamA}:${SA}`
// kubectl's last line for a 401: from a request it decodes the Status of, and from discovery, whose 401 client-go
// words itself (as it does against kube-apiserver).
const LOGGED_OUT = 'error: You must be logged in to the server (Unauthorized)\n'
const LOGGED_OUT_DISCOVERY =
  'error: You must be logged in to the server (the server has asked for the client to provide credentials)\n'
const ISSUER = 'https://kubernetes.default.svc.cluster.local'

let saUid = ''
/** A token per kubectl version that made it. */
const tokens = {}

/** The error a client-node call rejects with: {code, status} with the Status body parsed. */
async function apiError(promise) {
  const err = await promise.then(
    () => assert.fail('expected the call to fail'),
    (e) => e,
  )
  assert.equal(typeof err.code, 'number', String(err?.stack ?? err))
  return { code: err.code, status: typeof err.body === 'string' ? JSON.parse(err.body) : err.body }
}

before(async () => {
  for (const ns of [teamA, teamB]) await kubectl('1.33', ['create', 'namespace', ns])
  for (const ns of [teamA, teamB]) {
    await kubectl('1.33', ['apply', '-n', ns, '-f', '-'], { input: JSON.stringify(podManifest('p')) })
  }
  await kubectl('1.33', ['create', 'serviceaccount', SA, '-n', teamA])
  await kubectl('1.33', ['create', 'role', 'pod-reader', '-n', teamA, '--verb=get,list,watch', '--resource=pods'])
  const bind = ['create', 'rolebinding', 'builder-reads', '-n', teamA, '--role=pod-reader']
  await kubectl('1.33', [...bind, `--serviceaccount=${teamA}:${SA}`])
  const sa = await kubectl('1.33', ['get', 'serviceaccount', SA, '-n', teamA, '-o', 'json'])
  saUid = JSON.parse(sa.stdout).metadata.uid
})

after(async () => {
  for (const ns of [teamA, teamB])
    await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

describe('kubectl create token', () => {
  for (const v of KUBECTL_VERSIONS) {
    it(`${v}: a JWT with kube's claims for the ServiceAccount`, async () => {
      const r = await kubectl(v, ['create', 'token', SA, '-n', teamA])
      // kubectl prints the token alone, without a newline.
      const token = r.stdout
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'))
      assert.equal(header.alg, 'ES256')
      assert.match(header.kid, /^[A-Za-z0-9_-]{43}$/)
      const c = jwtClaims(token)
      assert.deepEqual(Object.keys(c), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub'])
      assert.deepEqual(c.aud, [ISSUER])
      assert.equal(c.iss, ISSUER)
      assert.equal(c.sub, USER)
      assert.equal(c.exp - c.iat, 3600)
      assert.equal(c.nbf, c.iat)
      assert.ok(Math.abs(c.iat - Date.now() / 1000) < 60, `iat ${c.iat}`)
      assert.deepEqual(c['kubernetes.io'], { namespace: teamA, serviceaccount: { name: SA, uid: saUid } })
      tokens[v] = token
    })
  }

  it('--duration sets the lifetime', async () => {
    const r = await kubectl('1.33', ['create', 'token', SA, '-n', teamA, '--duration=15m'])
    const c = jwtClaims(r.stdout.trim())
    assert.equal(c.exp - c.iat, 900)
  })
})

describe('the token at work', () => {
  for (const v of KUBECTL_VERSIONS) {
    it(`kubectl ${v} with it: the ServiceAccount's RoleBinding, no more`, async () => {
      const file = kubeconfigFor(`sa-${v}`, tokens[v])
      const a = await kubectlWith(v, file, ['get', 'pods', '-n', teamA, '-o', 'name'])
      assert.equal(a.stdout, 'pod/p\n')
      const b = await kubectlWith(v, file, ['get', 'pods', '-n', teamB], { allowFail: true })
      assert.equal(b.code, 1)
      assert.equal(b.stderr, kubectlForbidden(USER, 'list', 'pods', teamB))
      const del = await kubectlWith(v, file, ['auth', 'can-i', 'delete', 'pods', '-n', teamA], { allowFail: true })
      assert.equal(del.stdout, 'no\n')
      assert.equal(del.code, 1)
    })
  }

  it('auth whoami (1.33) names the ServiceAccount, its groups and the token id', async () => {
    const file = kubeconfigFor('sa-whoami', tokens['1.33'])
    const r = await kubectlWith('1.33', file, ['auth', 'whoami', '-o', 'json'])
    assert.deepEqual(JSON.parse(r.stdout).status.userInfo, {
      username: USER,
      uid: saUid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${teamA}`, 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jwtClaims(tokens['1.33']).jti}`] },
    })
  })

  it('@kubernetes/client-node with it', async () => {
    const core = clientConfig(tokens['1.27']).makeApiClient(CoreV1Api)
    const list = await core.listNamespacedPod({ namespace: teamA })
    assert.deepEqual(
      list.items.map((p) => p.metadata?.name),
      ['p'],
    )
    const { code, status } = await apiError(core.listNamespacedPod({ namespace: teamB }))
    assert.equal(code, 403)
    assert.equal(status.message, forbidden(USER, 'list', 'pods', teamB))
    assert.equal(status.reason, 'Forbidden')
    const c = await apiError(core.createNamespacedPod({ namespace: teamA, body: podManifest('nope') }))
    assert.equal(c.code, 403)
    assert.equal(c.status.message, forbidden(USER, 'create', 'pods', teamA))
  })

  it('a token for another audience (--audience vault) is 401', async () => {
    const r = await kubectl('1.33', ['create', 'token', SA, '-n', teamA, '--audience', 'vault'])
    const token = r.stdout.trim()
    assert.deepEqual(jwtClaims(token).aud, ['vault'])
    const res = await raw(`/api/v1/namespaces/${teamA}/pods`, { authorization: `Bearer ${token}` })
    assert.equal(res.status, 401)
    assert.equal(res.text, UNAUTHORIZED)
    const k = await kubectlWith('1.33', kubeconfigFor('vault', token), ['get', 'pods', '-n', teamA], {
      allowFail: true,
    })
    assert.equal(k.code, 1)
    assert.ok(k.stderr.endsWith(LOGGED_OUT_DISCOVERY), k.stderr)
  })
})

describe('after the ServiceAccount is deleted', () => {
  before(async () => {
    await kubectl('1.33', ['delete', 'serviceaccount', SA, '-n', teamA])
  })

  for (const v of KUBECTL_VERSIONS) {
    it(`kubectl ${v}: You must be logged in to the server (Unauthorized)`, async () => {
      const r = await kubectlWith(v, kubeconfigFor(`gone-${v}`, tokens[v]), ['get', 'pods', '-n', teamA], {
        allowFail: true,
      })
      assert.equal(r.code, 1)
      assert.ok(r.stderr.endsWith(LOGGED_OUT_DISCOVERY), r.stderr)
      const raw401 = await kubectlWith(v, kubeconfigFor(`gone-raw-${v}`, tokens[v]), ['get', '--raw', '/version'], {
        allowFail: true,
      })
      assert.equal(raw401.stderr, LOGGED_OUT)
    })
  }

  it('client-node and a plain request: 401 with kube Status', async () => {
    const core = clientConfig(tokens['1.33']).makeApiClient(CoreV1Api)
    // client-node keeps no body for a 401 (the OpenAPI document gives it no schema).
    const { code } = await apiError(core.listNamespacedPod({ namespace: teamA }))
    assert.equal(code, 401)
    const res = await raw('/api', { authorization: `Bearer ${tokens['1.27']}` })
    assert.equal(res.status, 401)
    assert.equal(res.text, UNAUTHORIZED)
  })

  it('a new ServiceAccount of the same name does not revive old tokens', async () => {
    await kubectl('1.33', ['create', 'serviceaccount', SA, '-n', teamA])
    const res = await raw(`/api/v1/namespaces/${teamA}/pods`, { authorization: `Bearer ${tokens['1.33']}` })
    assert.equal(res.status, 401)
    assert.equal(res.text, UNAUTHORIZED)
    const fresh = (await kubectl('1.33', ['create', 'token', SA, '-n', teamA])).stdout.trim()
    const ok = await raw(`/api/v1/namespaces/${teamA}/pods`, { authorization: `Bearer ${fresh}` })
    assert.equal(ok.status, 200, ok.text)
  })
})
