// ServiceAccount tokens: the JWT kube's TokenRequest issues (header and payload bytes), and the bound-token
// authenticator's verdicts and error texts for every way a token can fail.
import { CompactSign } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type BoundObject,
  issueToken,
  type LiveObject,
  type TokenRequestClaims,
  type VerifyOptions,
  verifyToken,
} from '../../src/auth/service-account-token'
import { generateSigningKey, loadSigningKey, type SigningKey } from '../../src/auth/signing-key'

const ISSUER = 'https://kubernetes.default.svc.cluster.local'
const API_AUDIENCES = [ISSUER]
const NOW = new Date('2025-05-01T10:00:00.750Z')
const NOW_S = Math.floor(NOW.getTime() / 1000)
const SA = { name: 'builder', uid: 'sa-uid-1' }

let key: SigningKey
let otherKey: SigningKey
beforeAll(async () => {
  key = await loadSigningKey(await generateSigningKey())
  otherKey = await loadSigningKey(await generateSigningKey())
})

const claims = (over: Partial<TokenRequestClaims> = {}): TokenRequestClaims => ({
  issuer: ISSUER,
  namespace: 'ci',
  serviceAccount: SA,
  audiences: API_AUDIENCES,
  expirationSeconds: 3600,
  now: NOW,
  ...over,
})

const live = (uid: string, deletionTimestamp?: string): LiveObject => ({ uid, deletionTimestamp })
const options = (over: Partial<VerifyOptions> = {}): VerifyOptions => ({
  keys: [key],
  issuer: ISSUER,
  audiences: API_AUDIENCES,
  lookup: async (ns, name) => (ns === 'ci' && name === SA.name ? live(SA.uid) : null),
  now: NOW,
  ...over,
})

const textOf = (part: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)))
const parts = (token: string) => {
  const [h, p, s] = token.split('.') as [string, string, string]
  return { header: textOf(h), payload: textOf(p), signature: s }
}
const b64url = (s: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(s)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** A token with any header and payload, signed by the given key: for tokens TokenRequest never makes. */
async function craft(payload: object, header: Record<string, string> = {}, signer = key): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid, ...header })
    .sign(signer.privateKey)
}
const basePayload = () => ({
  aud: API_AUDIENCES,
  exp: NOW_S + 3600,
  iat: NOW_S,
  iss: ISSUER,
  jti: 'j-1',
  'kubernetes.io': { namespace: 'ci', serviceaccount: SA },
  nbf: NOW_S,
  sub: 'system:serviceaccount:ci:builder',
})

describe('issuing', () => {
  it("writes kube's header and claims, keys sorted at every level, aud an array", async () => {
    const { token, expirationTimestamp } = await issueToken(claims(), key)
    const { header, payload } = parts(token)
    expect(header).toBe(`{"alg":"ES256","kid":"${key.kid}"}`)
    const jti = JSON.parse(payload).jti as string
    expect(jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(payload).toBe(
      `{"aud":["${ISSUER}"],"exp":${NOW_S + 3600},"iat":${NOW_S},"iss":"${ISSUER}","jti":"${jti}",` +
        `"kubernetes.io":{"namespace":"ci","serviceaccount":{"name":"builder","uid":"sa-uid-1"}},` +
        `"nbf":${NOW_S},"sub":"system:serviceaccount:ci:builder"}`,
    )
    // Whole seconds: the .750 of now is dropped, as time.Unix() and metav1.Time's RFC 3339 drop it.
    expect(expirationTimestamp).toBe('2025-05-01T11:00:00Z')
  })

  it('a new jti for every token', async () => {
    const a = JSON.parse(parts((await issueToken(claims(), key)).token).payload).jti
    const b = JSON.parse(parts((await issueToken(claims(), key)).token).payload).jti
    expect(a).not.toBe(b)
  })

  it.each<[string, BoundObject, string]>([
    [
      'a pod on a node',
      { kind: 'Pod', name: 'web', uid: 'pod-1', node: { name: 'n1', uid: 'node-1' } },
      '{"namespace":"ci","node":{"name":"n1","uid":"node-1"},"pod":{"name":"web","uid":"pod-1"},"serviceaccount":{"name":"builder","uid":"sa-uid-1"}}',
    ],
    [
      'a pod whose node is gone (name only)',
      { kind: 'Pod', name: 'web', uid: 'pod-1', node: { name: 'n1' } },
      '{"namespace":"ci","node":{"name":"n1"},"pod":{"name":"web","uid":"pod-1"},"serviceaccount":{"name":"builder","uid":"sa-uid-1"}}',
    ],
    [
      'an unscheduled pod',
      { kind: 'Pod', name: 'web', uid: 'pod-1' },
      '{"namespace":"ci","pod":{"name":"web","uid":"pod-1"},"serviceaccount":{"name":"builder","uid":"sa-uid-1"}}',
    ],
    [
      'a secret',
      { kind: 'Secret', name: 's', uid: 'sec-1' },
      '{"namespace":"ci","secret":{"name":"s","uid":"sec-1"},"serviceaccount":{"name":"builder","uid":"sa-uid-1"}}',
    ],
    [
      'a node',
      { kind: 'Node', name: 'n1', uid: 'node-1' },
      '{"namespace":"ci","node":{"name":"n1","uid":"node-1"},"serviceaccount":{"name":"builder","uid":"sa-uid-1"}}',
    ],
  ])('bound to %s', async (_, boundObject, kube) => {
    const { payload } = parts((await issueToken(claims({ boundObject }), key)).token)
    expect(payload).toContain(`"kubernetes.io":${kube},"nbf"`)
  })

  it('warnafter for extended tokens, inside kubernetes.io after serviceaccount', async () => {
    const { token, expirationTimestamp } = await issueToken(
      claims({ expirationSeconds: 24 * 365 * 3600, warnAfterSeconds: 3607 }),
      key,
    )
    expect(parts(token).payload).toContain(
      `"serviceaccount":{"name":"builder","uid":"sa-uid-1"},"warnafter":${NOW_S + 3607}}`,
    )
    expect(expirationTimestamp).toBe('2026-05-01T10:00:00Z')
  })

  it('several audiences in order; one audience is still an array; Go escaping', async () => {
    const one = parts((await issueToken(claims({ audiences: ['vault'] }), key)).token).payload
    expect(one.startsWith('{"aud":["vault"],')).toBe(true)
    const many = parts((await issueToken(claims({ audiences: ['b', 'a<&>'] }), key)).token).payload
    expect(many.startsWith('{"aud":["b","a\\u003c\\u0026\\u003e"],')).toBe(true)
  })
})

describe('verifying', () => {
  it('round trip: the user kube makes, with the JTI credential id, and the audiences', async () => {
    const { token } = await issueToken(claims(), key)
    const jti = JSON.parse(parts(token).payload).jti
    expect(await verifyToken(token, options())).toEqual({
      status: 'authenticated',
      user: {
        name: 'system:serviceaccount:ci:builder',
        uid: 'sa-uid-1',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'],
        extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] },
      },
      audiences: API_AUDIENCES,
    })
  })

  it('a pod-bound token: pod and node extras, pod looked up', async () => {
    const boundObject: BoundObject = { kind: 'Pod', name: 'web', uid: 'pod-1', node: { name: 'n1', uid: 'node-1' } }
    const { token } = await issueToken(claims({ boundObject }), key)
    const pods: string[] = []
    const verdict = await verifyToken(
      token,
      options({
        lookupPod: async (ns, name) => {
          pods.push(`${ns}/${name}`)
          return live('pod-1')
        },
      }),
    )
    expect(pods).toEqual(['ci/web'])
    expect(verdict.status === 'authenticated' && verdict.user.extra).toMatchObject({
      'authentication.kubernetes.io/pod-name': ['web'],
      'authentication.kubernetes.io/pod-uid': ['pod-1'],
      'authentication.kubernetes.io/node-name': ['n1'],
      'authentication.kubernetes.io/node-uid': ['node-1'],
    })
  })

  it('a node-bound token: node looked up, node extras', async () => {
    const { token } = await issueToken(claims({ boundObject: { kind: 'Node', name: 'n1', uid: 'node-1' } }), key)
    const verdict = await verifyToken(
      token,
      options({ lookupNode: async (name) => (name === 'n1' ? live('node-1') : null) }),
    )
    expect(verdict.status === 'authenticated' && verdict.user.extra).toEqual({
      'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)],
      'authentication.kubernetes.io/node-name': ['n1'],
      'authentication.kubernetes.io/node-uid': ['node-1'],
    })
  })

  it('TokenReview audiences: the requested ones that the token holds, in requested order', async () => {
    const { token } = await issueToken(claims({ audiences: ['a', 'b', 'c'] }), key)
    const verdict = await verifyToken(token, options({ requestedAudiences: ['c', 'x', 'a'] }))
    expect(verdict).toMatchObject({ status: 'authenticated', audiences: ['c', 'a'] })
  })

  it('a token with no aud is legacy: it counts as holding the API audiences', async () => {
    const { aud: _, ...noAud } = basePayload()
    expect(await verifyToken(await craft(noAud), options())).toMatchObject({
      status: 'authenticated',
      audiences: API_AUDIENCES,
    })
  })

  it('an aud string (not array) is read as one audience', async () => {
    expect(await verifyToken(await craft({ ...basePayload(), aud: ISSUER }), options())).toMatchObject({
      status: 'authenticated',
    })
  })

  it('a token with no kid is checked against every key', async () => {
    const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(basePayload())))
      .setProtectedHeader({ alg: 'ES256' })
      .sign(key.privateKey)
    expect(await verifyToken(token, options({ keys: [otherKey, key] }))).toMatchObject({ status: 'authenticated' })
    expect(await verifyToken(token, options({ keys: [otherKey] }))).toEqual({
      status: 'rejected',
      reason: 'go-jose/go-jose: error in cryptographic primitive',
    })
  })
})

describe('not ours: no opinion', () => {
  it.each([
    ['another issuer', async () => (await issueToken(claims({ issuer: 'https://elsewhere' }), key)).token],
    ['the legacy issuer', async () => (await issueToken(claims({ issuer: 'kubernetes/serviceaccount' }), key)).token],
    ['an opaque token', async () => 'abcdef0123456789'],
    ['two parts', async () => 'a.b'],
    ['four parts', async () => `${(await issueToken(claims(), key)).token}.x`],
    ['JSON serialization', async () => ' {"payload":"x"}'],
    ['a payload that is not JSON', async () => `${b64url('{"alg":"ES256"}')}.${b64url('nope')}.sig`],
    ['a padded payload', async () => `${b64url('{"alg":"ES256"}')}.${b64url(`{"iss":"${ISSUER}"}`)}==.sig`],
    ['iss not a string', async () => `${b64url('{"alg":"ES256"}')}.${b64url('{"iss":1}')}.sig`],
    ['a header that is not JSON', async () => `${b64url('{alg')}.${b64url(`{"iss":"${ISSUER}"}`)}.c2ln`],
    [
      'a kid that is not a string',
      async () => `${b64url('{"alg":"ES256","kid":1}')}.${b64url(`{"iss":"${ISSUER}"}`)}.c2ln`,
    ],
    [
      'a signature that does not decode',
      async () => `${b64url('{"alg":"ES256"}')}.${b64url(`{"iss":"${ISSUER}"}`)}.a+b`,
    ],
  ])('%s', async (_, make) => {
    expect(await verifyToken(await make(), options())).toEqual({ status: 'not-mine' })
  })

  it('accepts any of several issuers', async () => {
    const { token } = await issueToken(claims({ issuer: 'https://second' }), key)
    expect(await verifyToken(token, options({ issuer: [ISSUER, 'https://second'] }))).toMatchObject({
      status: 'authenticated',
    })
  })
})

const rejected = (reason: string) => ({ status: 'rejected', reason })

describe('rejected, with kube texts', () => {
  it('a kid we have no key for', async () => {
    expect(await verifyToken(await craft(basePayload(), { kid: 'unknown-kid' }), options())).toEqual(
      rejected('invalid signature, no keys found'),
    )
  })

  it('forged: signed by another key under our kid', async () => {
    const forged = await craft(basePayload(), { kid: key.kid }, otherKey)
    expect(await verifyToken(forged, options())).toEqual(rejected('go-jose/go-jose: error in cryptographic primitive'))
  })

  it('tampered: our signature over a changed payload', async () => {
    const { token } = await issueToken(claims(), key)
    const [h, p, s] = token.split('.') as [string, string, string]
    const changed = b64url(textOf(p).replace('"name":"builder"', '"name":"admin"'))
    expect(changed).not.toBe(p)
    expect(await verifyToken(`${h}.${changed}.${s}`, options())).toEqual(
      rejected('go-jose/go-jose: error in cryptographic primitive'),
    )
  })

  it('another algorithm in the header', async () => {
    const token = await craft(basePayload())
    const [, p, s] = token.split('.') as [string, string, string]
    for (const alg of ['HS256', 'none', 'ES384']) {
      const h = b64url(JSON.stringify({ alg, kid: key.kid }))
      expect(await verifyToken(`${h}.${p}.${s}`, options())).toEqual(
        rejected('go-jose/go-jose: unknown/unsupported algorithm'),
      )
    }
  })

  it('wrong audience', async () => {
    const { token } = await issueToken(claims({ audiences: ['vault', 'other'] }), key)
    expect(await verifyToken(token, options())).toEqual(
      rejected(`token audiences ["vault" "other"] is invalid for the target audiences ["${ISSUER}"]`),
    )
  })

  it('no overlap with the requested audiences', async () => {
    const { token } = await issueToken(claims(), key)
    expect(await verifyToken(token, options({ requestedAudiences: ['vault'] }))).toEqual(
      rejected(`token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]`),
    )
  })

  it.each([
    ['expired past the minute of leeway', NOW_S + 3600 + 60, 1, 'service account token has expired'],
    ['expired by exactly the leeway: still valid', NOW_S + 3600 + 60, 0, null],
    ['not yet valid past the leeway', NOW_S - 60, -1, 'service account token is not valid yet'],
    ['not yet valid by exactly the leeway: valid', NOW_S - 60, 0, null],
  ])('%s', async (_, seconds, extraMs, reason) => {
    const { token } = await issueToken(claims(), key)
    const now = new Date(seconds * 1000 + extraMs)
    const verdict = await verifyToken(token, options({ now }))
    if (reason === null) expect(verdict.status).toBe('authenticated')
    else expect(verdict).toEqual(rejected(reason))
  })

  it('issued in the future (iat ahead, no nbf)', async () => {
    const { nbf: _, ...payload } = basePayload()
    const token = await craft({ ...payload, iat: NOW_S + 120 })
    expect(await verifyToken(token, options())).toEqual(rejected('service account token is issued in the future'))
  })

  it('the ServiceAccount is gone', async () => {
    const { token } = await issueToken(claims(), key)
    expect(await verifyToken(token, options({ lookup: async () => null }))).toEqual(
      rejected('serviceaccounts "builder" not found'),
    )
  })

  it('the ServiceAccount was recreated (uid mismatch)', async () => {
    const { token } = await issueToken(claims(), key)
    expect(await verifyToken(token, options({ lookup: async () => live('sa-uid-2') }))).toEqual(
      rejected('service account UID (sa-uid-2) does not match claim (sa-uid-1)'),
    )
  })

  it('the ServiceAccount is being deleted: refused past the leeway', async () => {
    const { token } = await issueToken(claims(), key)
    const deletedAt = (msAgo: number) => new Date(NOW.getTime() - msAgo).toISOString()
    expect(await verifyToken(token, options({ lookup: async () => live(SA.uid, deletedAt(61_000)) }))).toEqual(
      rejected('service account ci/builder has been deleted'),
    )
    expect(await verifyToken(token, options({ lookup: async () => live(SA.uid, deletedAt(59_000)) }))).toMatchObject({
      status: 'authenticated',
    })
  })

  const podToken = () => issueToken(claims({ boundObject: { kind: 'Pod', name: 'web', uid: 'pod-1' } }), key)
  it.each<[string, VerifyOptions['lookupPod'], string]>([
    ['no pod lookup configured', undefined, 'service account token has been invalidated'],
    ['the pod is gone', async () => null, 'service account token has been invalidated'],
    [
      'the pod was recreated',
      async () => live('pod-2'),
      'pod UID (pod-2) does not match service account pod ref claim (pod-1)',
    ],
    [
      'the pod was deleted',
      async () => live('pod-1', '2025-05-01T09:00:00Z'),
      'service account token has been invalidated',
    ],
  ])('pod-bound: %s', async (_, lookupPod, reason) => {
    expect(await verifyToken((await podToken()).token, options({ lookupPod }))).toEqual(rejected(reason))
  })

  const secretToken = () => issueToken(claims({ boundObject: { kind: 'Secret', name: 's', uid: 'sec-1' } }), key)
  it.each<[string, VerifyOptions['lookupSecret'], string]>([
    ['no secret lookup configured', undefined, 'service account token has been invalidated'],
    ['the secret is gone', async () => null, 'service account token has been invalidated'],
    [
      'the secret was recreated',
      async () => live('sec-2'),
      'secret UID (sec-2) does not match service account secret ref claim (sec-1)',
    ],
  ])('secret-bound: %s', async (_, lookupSecret, reason) => {
    expect(await verifyToken((await secretToken()).token, options({ lookupSecret }))).toEqual(rejected(reason))
  })

  it('node-bound: the node was recreated', async () => {
    const { token } = await issueToken(claims({ boundObject: { kind: 'Node', name: 'n1', uid: 'node-1' } }), key)
    expect(await verifyToken(token, options({ lookupNode: async () => live('node-2') }))).toEqual(
      rejected('node UID (node-2) does not match service account node ref claim (node-1)'),
    )
  })

  it('the checks run in kube order: audience before time before the ServiceAccount', async () => {
    const { token } = await issueToken(claims({ audiences: ['vault'] }), key)
    const late = new Date(NOW.getTime() + 7200_000)
    expect(await verifyToken(token, options({ now: late, lookup: async () => null }))).toMatchObject({
      reason: expect.stringMatching(/^token audiences/),
    })
    const { token: ok } = await issueToken(claims(), key)
    expect(await verifyToken(ok, options({ now: late, lookup: async () => null }))).toEqual(
      rejected('service account token has expired'),
    )
  })

  it('claims of the wrong type are an error, not a crash', async () => {
    expect(await verifyToken(await craft({ ...basePayload(), exp: 'soon' }), options())).toMatchObject({
      status: 'rejected',
    })
    expect(await verifyToken(await craft({ ...basePayload(), aud: [1] }), options())).toMatchObject({
      status: 'rejected',
    })
    expect(await verifyToken(await craft({ ...basePayload(), 'kubernetes.io': 'x' }), options())).toMatchObject({
      status: 'rejected',
    })
  })
})
