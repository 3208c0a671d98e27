// The authenticator chain: static tokens then ServiceAccount tokens over the Authorization header and the WebSocket
// protocol, unions that are not fail-fast, an unknown token refused (never anonymous), anonymous only for requests
// with no credential, and the authenticated-group adder's rules.
import { beforeAll, describe, expect, it } from 'vitest'
import { type AuthChain, type AuthRequest, authenticate } from '../../src/auth/authenticate'
import { encodeRawUrlBase64 } from '../../src/auth/raw-url-base64'
import {
  issueToken,
  type ServiceAccountVerifier,
  type TokenVerdict,
  verifyToken,
} from '../../src/auth/service-account-token'
import { generateSigningKey, loadSigningKey, type SigningKey } from '../../src/auth/signing-key'
import { StaticTokens } from '../../src/auth/token-file'

const ISSUER = 'https://kubernetes.default.svc.cluster.local'
const TOKEN_FILE = [
  'admin-token,admin,u-admin,system:masters',
  'dev-token,dev,u-dev,"dev,qa"',
  'plain-token,plain,u-plain',
  'authd-token,authd,u-a,"x,system:authenticated"',
  'unauthd-token,unauthd,u-u,system:unauthenticated',
  'anon-token,system:anonymous,u-anon,g',
].join('\n')

let tokens: StaticTokens
let key: SigningKey
let serviceAccounts: ServiceAccountVerifier
beforeAll(async () => {
  tokens = await StaticTokens.fromCsv(TOKEN_FILE, 'tokens.csv')
  key = await loadSigningKey(await generateSigningKey())
  serviceAccounts = {
    verify: (token) =>
      verifyToken(token, {
        keys: [key],
        issuer: ISSUER,
        audiences: [ISSUER],
        lookup: async (ns, name) => (ns === 'ci' && name === 'builder' ? { uid: 'sa-1' } : null),
        now: new Date(),
      }),
  }
})

const chain = (over: Partial<AuthChain> = {}): AuthChain => ({ tokens, serviceAccounts, anonymous: true, ...over })
const bearer = (token: string): AuthRequest => ({ authorization: `Bearer ${token}` })
const wsRequest = (token: string, authorization?: string): AuthRequest => ({
  authorization,
  upgrade: 'websocket',
  connection: 'Upgrade',
  websocketProtocol: `base64url.bearer.authorization.k8s.io.${encodeRawUrlBase64(new TextEncoder().encode(token))}, v5.channel.k8s.io`,
})
const saToken = async () =>
  (
    await issueToken(
      {
        issuer: ISSUER,
        namespace: 'ci',
        serviceAccount: { name: 'builder', uid: 'sa-1' },
        audiences: [ISSUER],
        expirationSeconds: 3600,
        now: new Date(),
      },
      key,
    )
  ).token

/** A verifier that always answers the same, counting calls. */
const fixed = (verdict: TokenVerdict) => {
  const calls: string[] = []
  const verifier: ServiceAccountVerifier = {
    verify: async (t) => {
      calls.push(t)
      return verdict
    },
  }
  return { calls, verifier }
}

describe('static tokens through the chain', () => {
  it('a known token: its user, with system:authenticated appended', async () => {
    expect(await authenticate(bearer('dev-token'), chain())).toEqual({
      ok: true,
      user: { name: 'dev', uid: 'u-dev', groups: ['dev', 'qa', 'system:authenticated'] },
      warnings: [],
      via: 'bearer',
    })
  })

  it.each([
    ['no groups: system:authenticated alone', 'plain-token', ['system:authenticated']],
    ['already system:authenticated: unchanged', 'authd-token', ['x', 'system:authenticated']],
    ['system:unauthenticated: nothing added', 'unauthd-token', ['system:unauthenticated']],
    ['named system:anonymous: nothing added', 'anon-token', ['g']],
  ])('group adder: %s', async (_, token, groups) => {
    const outcome = await authenticate(bearer(token), chain())
    expect(outcome.ok && outcome.user.groups).toEqual(groups)
  })

  it('the adder does not change the stored user', async () => {
    await authenticate(bearer('dev-token'), chain())
    expect(await tokens.authenticate('dev-token')).toEqual({ name: 'dev', uid: 'u-dev', groups: ['dev', 'qa'] })
  })
})

describe('ServiceAccount tokens through the chain', () => {
  it('a valid token: the ServiceAccount user, system:authenticated last', async () => {
    const outcome = await authenticate(bearer(await saToken()), chain())
    expect(outcome).toMatchObject({
      ok: true,
      via: 'bearer',
      user: {
        name: 'system:serviceaccount:ci:builder',
        uid: 'sa-1',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'],
      },
    })
  })

  it("a rejected token: 401 with the verifier's reason, never anonymous", async () => {
    const { verifier } = fixed({ status: 'rejected', reason: 'service account token has expired' })
    expect(await authenticate(bearer('some.jwt.token'), chain({ serviceAccounts: verifier }))).toEqual({
      ok: false,
      reason: 'service account token has expired',
      warnings: [],
    })
  })

  it('static tokens are asked first: a static token never reaches the ServiceAccount verifier', async () => {
    const { calls, verifier } = fixed({ status: 'rejected', reason: 'x' })
    expect(await authenticate(bearer('admin-token'), chain({ serviceAccounts: verifier }))).toMatchObject({ ok: true })
    expect(calls).toEqual([])
  })
})

describe('unknown tokens and anonymous', () => {
  it.each([true, false])('an unknown token is refused, not anonymous (anonymous %s)', async (anonymous) => {
    expect(await authenticate(bearer('nobody-knows-this'), chain({ anonymous }))).toEqual({
      ok: false,
      reason: 'invalid bearer token',
      warnings: [],
    })
  })

  it('with no authenticators at all, a token is still refused', async () => {
    expect(await authenticate(bearer('x'), chain({ tokens: null, serviceAccounts: null }))).toMatchObject({
      ok: false,
      reason: 'invalid bearer token',
    })
  })

  it('the reason never holds the token', async () => {
    const outcome = await authenticate(bearer('secret-123-not-known'), chain())
    expect(JSON.stringify(outcome)).not.toContain('secret-123')
  })

  it.each<[string, AuthRequest]>([
    ['no headers', {}],
    ['an empty Authorization', { authorization: '' }],
    ['Basic credentials', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    ['Bearer with no token', { authorization: 'Bearer' }],
    [
      'a token protocol on a request that is not a WebSocket',
      { websocketProtocol: wsRequest('admin-token').websocketProtocol },
    ],
  ])('no credential (%s): anonymous when enabled, refused when not', async (_, req) => {
    expect(await authenticate(req, chain())).toEqual({
      ok: true,
      user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
      warnings: [],
      via: 'anonymous',
    })
    expect(await authenticate(req, chain({ anonymous: false }))).toMatchObject({ ok: false, warnings: [] })
  })

  it("Bearer with two spaces: kube's warning, and the request goes on as if it had no credential", async () => {
    const warning = 'the provided Authorization header contains extra space before the bearer token, and is ignored'
    expect(await authenticate({ authorization: 'Bearer  admin-token' }, chain())).toMatchObject({
      ok: true,
      via: 'anonymous',
      warnings: [warning],
    })
    expect(await authenticate({ authorization: 'Bearer  admin-token' }, chain({ anonymous: false }))).toMatchObject({
      ok: false,
      warnings: [warning],
    })
  })
})

describe('the WebSocket protocol', () => {
  it('authenticates and hands back the protocols without the token', async () => {
    expect(await authenticate(wsRequest('admin-token'), chain())).toEqual({
      ok: true,
      user: { name: 'admin', uid: 'u-admin', groups: ['system:masters', 'system:authenticated'] },
      warnings: [],
      via: 'websocket',
      websocketProtocol: 'v5.channel.k8s.io',
    })
  })

  it('a failed Authorization does not stop the WebSocket token (the union is not fail-fast)', async () => {
    expect(await authenticate(wsRequest('dev-token', 'Bearer unknown'), chain())).toMatchObject({
      ok: true,
      via: 'websocket',
      user: { name: 'dev' },
    })
  })

  it('a good Authorization wins; the WebSocket protocol is not read', async () => {
    const req = {
      ...wsRequest('ignored'),
      authorization: 'Bearer admin-token',
      websocketProtocol: 'base64url.bearer.authorization.k8s.io.!!!',
    }
    expect(await authenticate(req, chain())).toMatchObject({ ok: true, via: 'bearer', user: { name: 'admin' } })
  })

  it("a malformed token protocol is an error: refused, not anonymous, with the authenticator's text", async () => {
    const req: AuthRequest = {
      upgrade: 'websocket',
      connection: 'Upgrade',
      websocketProtocol: 'base64url.bearer.authorization.k8s.io.dA==, x',
    }
    expect(await authenticate(req, chain())).toEqual({
      ok: false,
      reason: 'invalid base64.bearer.authorization token encoding',
      warnings: [],
    })
  })

  it('an unknown WebSocket token is refused', async () => {
    expect(await authenticate(wsRequest('unknown'), chain())).toMatchObject({
      ok: false,
      reason: 'invalid bearer token',
    })
  })

  it('both refused: one aggregate of the distinct errors', async () => {
    const { verifier } = fixed({ status: 'rejected', reason: 'service account token has expired' })
    const req: AuthRequest = {
      ...wsRequest('x'),
      authorization: 'Bearer y',
      websocketProtocol: 'base64url.bearer.authorization.k8s.io.dA==, x',
    }
    expect(await authenticate(req, chain({ serviceAccounts: verifier }))).toMatchObject({
      ok: false,
      reason: '[service account token has expired, invalid base64.bearer.authorization token encoding]',
    })
    expect(await authenticate({ ...wsRequest('x'), authorization: 'Bearer y' }, chain())).toMatchObject({
      ok: false,
      reason: 'invalid bearer token',
    })
  })
})
