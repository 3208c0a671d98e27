// Bad credentials over the real HTTPS server, as raw requests: malformed Authorization headers, ServiceAccount JWTs
// that are expired, not yet valid, forged, unsigned, tampered with or from another issuer (made by re-signing a real
// token's claims, with the server's own key from its state directory or with another), oversized headers, odd
// impersonation requests and dot segments. Each is answered with kube's 401 or 403 (a 400 where kube answers 500),
// never a 500. A TokenReview shows why each JWT was refused.
import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { CompactSign, importJWK } from 'jose'
import { KUBECONFIG, KUBEFLARE_URL, TEST_TOKENS, api, kubectl, podManifest, uniqueNs } from './helpers.mjs'
import { UNAUTHORIZED, forbidden, jwtClaims, raw } from './identity-helpers.mjs'

const ns = uniqueNs('bad')
const other = uniqueNs('bad-b')
const ADMIN = `Bearer ${TEST_TOKENS.admin}`
const ANONYMOUS_403 = forbidden('system:anonymous', 'list', 'pods')

/** A response must be a Status whose code is the HTTP status, and not a 500. */
function assertStatus(r, code, message) {
  assert.equal(r.status, code, r.text.slice(0, 300))
  assert.equal(r.body?.kind, 'Status', r.text.slice(0, 300))
  assert.equal(r.body.code, code)
  if (message !== undefined) assert.equal(r.body.message, message)
}

before(async () => {
  for (const n of [ns, other]) await kubectl('1.33', ['create', 'namespace', n])
})

after(async () => {
  await kubectl('1.33', ['delete', 'clusterrolebinding', `${ns}-robot-view`], { allowFail: true })
  for (const n of [ns, other]) await kubectl('1.33', ['delete', 'namespace', n, '--wait=false'], { allowFail: true })
})

describe('malformed Authorization headers', () => {
  it('no token, another scheme, or a second space: anonymous (403); an unknown token: 401', async () => {
    for (const authorization of ['Bearer', 'Basic eHh4', 'Negotiate abc', `Bearer  ${TEST_TOKENS.admin}`, '']) {
      assertStatus(await raw('/api/v1/pods', { authorization }), 403, ANONYMOUS_403)
    }
    for (const authorization of ['Bearer a b', 'Bearer garbage', 'Bearer a.b.c', 'Bearer \u00e9\u00ff', 'bearer x']) {
      const r = await raw('/api/v1/pods', { authorization })
      assert.equal(r.status, 401, authorization)
      assert.equal(r.text, UNAUTHORIZED)
    }
  })

  it("a second space is ignored with kube's warning; the scheme's case and words after the token do not matter", async () => {
    const r = await raw('/api/v1/pods', { authorization: `Bearer  ${TEST_TOKENS.admin}` })
    assert.equal(
      r.headers.get('warning'),
      '299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"',
    )
    for (const authorization of [`bearer ${TEST_TOKENS.admin}`, `BEARER ${TEST_TOKENS.admin}`, `${ADMIN} extra`]) {
      assert.equal((await raw('/api/v1/namespaces/default/pods', { authorization })).status, 200, authorization)
    }
  })
})

describe('ServiceAccount JWTs', () => {
  /** The server's signing key (npm start keeps it beside the kubeconfig) and a real token's parts. */
  let key
  let header
  let claims
  const sign = async (payload, { signer = key, head = header } = {}) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(head).sign(signer)
  const now = () => Math.floor(Date.now() / 1000)

  before(async () => {
    await kubectl('1.33', ['create', 'serviceaccount', 'robot', '-n', ns])
    const bind = ['create', 'clusterrolebinding', `${ns}-robot-view`, '--clusterrole=view']
    await kubectl('1.33', [...bind, `--serviceaccount=${ns}:robot`])
    const token = (await kubectl('1.33', ['create', 'token', 'robot', '-n', ns])).stdout
    header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'))
    claims = jwtClaims(token)
    const jwk = JSON.parse(readFileSync(join(dirname(KUBECONFIG), 'sa-signing-key.jwk'), 'utf8'))
    key = await importJWK(jwk, 'ES256')
  })

  /** GET pods with the token, and what a TokenReview says of it. */
  async function use(token) {
    const r = await raw(`/api/v1/namespaces/${ns}/pods`, { authorization: `Bearer ${token}` })
    const review = await api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token },
    })
    assert.equal(review.status, 201, review.text)
    return { ...r, review: review.body.status }
  }

  it('the same claims signed again with the server key work (so the cases below fail for their one change)', async () => {
    const r = await use(await sign(claims))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.review.authenticated, true)
    assert.equal(r.review.user.username, `system:serviceaccount:${ns}:robot`)
  })

  const refused = [
    ['expired', () => ({ ...claims, iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 }), 'has expired'],
    ['not yet valid', () => ({ ...claims, nbf: now() + 3600, exp: now() + 7200 }), 'is not valid yet'],
    ['issued in the future', () => ({ ...claims, iat: now() + 3600 }), 'is issued in the future'],
    ['for another audience', () => ({ ...claims, aud: ['vault'] }), 'token audiences ["vault"] is invalid'],
    [
      'for another ServiceAccount uid',
      () => ({
        ...claims,
        'kubernetes.io': { ...claims['kubernetes.io'], serviceaccount: { name: 'robot', uid: 'x' } },
      }),
      'does not match claim (x)',
    ],
  ]
  for (const [name, payload, reason] of refused) {
    it(`${name}: 401`, async () => {
      const r = await use(await sign(payload()))
      assert.equal(r.status, 401)
      assert.equal(r.text, UNAUTHORIZED)
      assert.equal(r.review.authenticated, undefined)
      assert.ok(r.review.error?.includes(reason), `${r.review.error} lacks ${reason}`)
    })
  }

  it('forged (another key, with the server key id or another), unsigned, tampered, foreign issuer: 401', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const forged = await sign(claims, { signer: privateKey })
    const unknownKid = await sign(claims, { signer: privateKey, head: { ...header, kid: 'someone-else' } })
    const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const unsigned = `${b64({ alg: 'none' })}.${b64(claims)}.`
    const real = await sign(claims)
    const [h, , s] = real.split('.')
    const tampered = `${h}.${b64({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })}.${s}`
    const foreign = await sign({ ...claims, iss: 'https://elsewhere.example' })
    for (const token of [forged, unknownKid, unsigned, tampered, foreign]) {
      const r = await use(token)
      assert.equal(r.status, 401, token)
      assert.equal(r.text, UNAUTHORIZED)
      assert.equal(r.review.authenticated, undefined)
    }
  })
})

describe('oversized headers', () => {
  it('a 200 KB token is 401; a 200 KB header of another name leaves the request as it was', async () => {
    const r = await raw('/api/v1/pods', { authorization: `Bearer ${'a'.repeat(200_000)}` })
    assert.equal(r.status, 401)
    assert.equal(r.text, UNAUTHORIZED)
    assert.equal((await raw('/api/v1/pods', { authorization: ADMIN, 'x-big': 'b'.repeat(200_000) })).status, 200)
  })

  it('1 MB of headers: the runtime answers 431 before the Worker runs; the server serves on', async () => {
    const r = await raw('/api/v1/pods', { authorization: `Bearer ${'a'.repeat(1_000_000)}` })
    assert.equal(r.status, 431)
    assert.equal((await raw('/version')).status, 200)
  })
})

describe('impersonation', () => {
  before(async () => {
    await api('POST', `/api/v1/namespaces/${other}/pods`, podManifest('p'))
  })

  it('an unknown user or ServiceAccount can be impersonated and then has no rights', async () => {
    const as = (user) => raw('/api/v1/pods', { authorization: ADMIN, 'impersonate-user': user })
    assertStatus(await as('nosuchuser'), 403, forbidden('nosuchuser', 'list', 'pods'))
    const ghost = `system:serviceaccount:${ns}:ghost`
    assertStatus(await as(ghost), 403, forbidden(ghost, 'list', 'pods'))
    // Not a valid ServiceAccount name: an ordinary user name.
    assertStatus(await as('system:serviceaccount:bad'), 403, forbidden('system:serviceaccount:bad', 'list', 'pods'))
    // An empty header asks for nothing.
    assert.equal((await as('')).status, 200)
  })

  it("without the impersonate verb: kube's 403 for users, groups and ServiceAccounts", async () => {
    const bob = { authorization: `Bearer ${TEST_TOKENS.bob}` }
    const cases = [
      [{ 'impersonate-user': 'x' }, 'users "x" is forbidden: User "bob" cannot impersonate resource "users"'],
      [
        { 'impersonate-user': `system:serviceaccount:${ns}:ghost` },
        `serviceaccounts "ghost" is forbidden: User "bob" cannot impersonate resource "serviceaccounts"`,
      ],
    ]
    for (const [headers, start] of cases) {
      const r = await raw('/api/v1/pods', { ...bob, ...headers })
      assertStatus(r, 403)
      assert.ok(r.body.message.startsWith(start), r.body.message)
    }
    const sa = await raw('/api/v1/pods', { ...bob, 'impersonate-user': `system:serviceaccount:${ns}:ghost` })
    assert.match(sa.body.message, new RegExp(`in API group "" in the namespace "${ns}"$`))
  })

  it('groups, uid or extra without a user: 400 (kube answers 500 there), never a 500', async () => {
    const cases = [
      [{ 'impersonate-group': 'g' }, '[{Group  g    }]'],
      [{ 'impersonate-uid': 'u' }, '[{UID  u  authentication.k8s.io/v1  }]'],
      [{ 'impersonate-extra-scopes': 's' }, '[{UserExtra  s  authentication.k8s.io/v1  scopes}]'],
    ]
    for (const [headers, requests] of cases) {
      const r = await raw('/api/v1/pods', { authorization: ADMIN, ...headers })
      assertStatus(r, 400, `Internal Server Error: "/api/v1/pods": requested ${requests} without impersonating a user`)
    }
  })
})

describe('dot segments in the path', () => {
  /** GET with the path sent exactly as written (fetch would resolve the dots first). */
  const rawPath = (path, authorization) =>
    new Promise((resolve, reject) => {
      const url = new URL(KUBEFLARE_URL)
      const opts = {
        host: url.hostname,
        port: url.port,
        path,
        headers: { authorization },
        ca: readFileSync(process.env.NODE_EXTRA_CA_CERTS),
      }
      request(opts, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode, text, body: JSON.parse(text) }))
      })
        .on('error', reject)
        .end()
    })

  it('never reach a namespace the user may not read', async () => {
    const alice = `Bearer ${TEST_TOKENS.alice}`
    for (const path of [
      `/api/v1/namespaces/${ns}/../${other}/pods`,
      `/api/v1/namespaces/${ns}/%2e%2e/${other}/pods`,
      `/api/v1/namespaces/${ns}/pods/../../${other}/pods/p`,
    ]) {
      const r = await rawPath(path, alice)
      assert.equal(r.status, 403, `${path}: ${r.text}`)
      assert.equal(r.body.code, 403)
      assert.ok(r.body.message.includes(`in the namespace "${other}"`), r.body.message)
    }
  })
})
