// The ServiceAccount issuer's OIDC discovery on the wire: both documents byte for byte with kube's headers, authorized
// as non-resource URLs (ServiceAccounts and admins yes, anonymous and plain users no), absent without a key or with
// an issuer kube would not serve.
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadSigningKey } from '../../src/auth/signing-key'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, req } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'

const CONFIG = '/.well-known/openid-configuration'
const JWKS = '/openid/v1/jwks'

let accountToken = ''

beforeAll(async () => {
  const ns = await makeNamespace('oidc')
  expect(
    (await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'fetcher' } })).status,
  ).toBe(201)
  const t = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts/fetcher/token`, { spec: {} })
  accountToken = t.json.status.token
})

async function withSettings(settings: Record<string, unknown>, path: string) {
  const res = await buildApp().fetch(
    new Request(BASE + path, { headers: { authorization: `Bearer ${TEST_TOKENS.admin}` } }),
    { ...env, ...settings } as Env,
    createExecutionContext(),
  )
  return { status: res.status, text: await res.text() }
}

describe('OIDC discovery', () => {
  it('/.well-known/openid-configuration: the issuer, the JWKS at this address, raw bytes, public caching', async () => {
    const r = await req('GET', CONFIG, undefined, bearer(accountToken))
    expect(r.status).toBe(200)
    expect(r.text).toBe(
      '{"issuer":"https://kubernetes.default.svc.cluster.local","jwks_uri":"https://kube.test/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256"]}',
    )
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600')
  })

  it('/openid/v1/jwks: the public key that verifies the tokens, as go-jose writes it', async () => {
    const key = await loadSigningKey(env.KUBEFLARE_SA_SIGNING_KEY!)
    const { kid, x, y } = key.publicJwk
    const r = await req('GET', JWKS, undefined, bearer(accountToken))
    expect(r.status).toBe(200)
    expect(r.text).toBe(
      `{"keys":[{"use":"sig","kty":"EC","kid":"${kid}","crv":"P-256","alg":"ES256","x":"${x}","y":"${y}"}]}`,
    )
    expect(r.headers.get('content-type')).toBe('application/jwk-set+json')
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600')
    // The kid a token names is the one published.
    const header = JSON.parse(atob(accountToken.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/')))
    expect(header).toEqual({ alg: 'ES256', kid })
  })

  it('is authorized as non-resource URLs: system:serviceaccounts and admins yes, users and anonymous no', async () => {
    expect((await req('GET', CONFIG)).status).toBe(200)
    const anonymous = await req('GET', JWKS, undefined, { authorization: '' })
    expect(anonymous.status).toBe(403)
    expect(anonymous.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/openid/v1/jwks\\"","reason":"Forbidden","details":{},"code":403}\n',
    )
    const alice = await req('GET', CONFIG, undefined, bearer(TEST_TOKENS.alice))
    expect(alice.status).toBe(403)
    expect(alice.json.message).toBe('forbidden: User "alice" cannot get path "/.well-known/openid-configuration"')
  })

  it('is not there without a signing key, nor for an issuer kube would not serve', async () => {
    for (const settings of [
      { KUBEFLARE_SA_SIGNING_KEY: '' },
      { KUBEFLARE_SERVICE_ACCOUNT_ISSUER: 'http://insecure.example' },
      { KUBEFLARE_SERVICE_ACCOUNT_ISSUER: 'https://issuer.example/?q=1' },
    ]) {
      for (const path of [CONFIG, JWKS]) {
        const r = await withSettings(settings, path)
        expect(r.status, `${JSON.stringify(settings)} ${path}`).toBe(404)
        expect(JSON.parse(r.text).message).toBe('the server could not find the requested resource')
      }
    }
    const custom = await withSettings({ KUBEFLARE_SERVICE_ACCOUNT_ISSUER: 'https://issuer.example' }, CONFIG)
    expect(custom.status).toBe(200)
    expect(JSON.parse(custom.text).issuer).toBe('https://issuer.example')
  })
})
