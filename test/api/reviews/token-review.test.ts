// TokenReview on the wire: a token run through the request authenticator chain with the review's audiences (static
// tokens hold the API audiences; ServiceAccount tokens their own), kube's status for good, expired, wrong-audience,
// unknown and bound-object-gone tokens, and kube's 400 and 500.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { issueToken } from '../../../src/auth/service-account-token'
import { loadSigningKey } from '../../../src/auth/signing-key'
import { makeNamespace, req } from '../../helpers'
import { TEST_TOKENS } from '../../support/test-tokens'

const PATH = '/apis/authentication.k8s.io/v1/tokenreviews'
const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local'
const review = (token: string, audiences?: string[]) =>
  req('POST', PATH, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences } })

let ns = ''
let saUid = ''

async function tokenFor(name: string, spec: Record<string, unknown> = {}) {
  const r = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, { spec })
  expect(r.status, r.text).toBe(201)
  return r.json.status.token as string
}

beforeAll(async () => {
  ns = await makeNamespace('tokrev')
  const sa = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })
  expect(sa.status, sa.text).toBe(201)
  saUid = sa.json.metadata.uid
})

describe('TokenReview', () => {
  it("a static token: the file's user, the API audiences, kube's bytes", async () => {
    const r = await req('POST', PATH, { spec: { token: TEST_TOKENS.carol } }, { 'user-agent': 'kube-webhook/1.0' })
    expect(r.status).toBe(201)
    const time = /"time":"([^"]+)"/.exec(r.text)?.[1]
    expect(r.text).toBe(
      `{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null,"managedFields":[{"manager":"kube-webhook","operation":"Update","apiVersion":"authentication.k8s.io/v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:token":{}}}}]},"spec":{"token":"${TEST_TOKENS.carol}"},"status":{"authenticated":true,"user":{"username":"carol","uid":"uid-carol","groups":["everyone","system:authenticated"]},"audiences":["${API_AUDIENCE}"]}}\n`,
    )
  })

  it('a ServiceAccount token: its user, groups and extras, the intersection of audiences', async () => {
    const token = await tokenFor('robot')
    const r = await review(token)
    expect(r.status, r.text).toBe(201)
    expect(r.json.status.authenticated).toBe(true)
    expect(r.json.status.audiences).toEqual([API_AUDIENCE])
    const user = r.json.status.user
    expect(user.username).toBe(`system:serviceaccount:${ns}:robot`)
    expect(user.uid).toBe(saUid)
    expect(user.groups).toEqual(['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'])
    expect(Object.keys(user.extra)).toEqual(['authentication.kubernetes.io/credential-id'])
    expect(user.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(/^JTI=[0-9a-f-]{36}$/)
  })

  it('audiences: a token for another audience reviews only for it; the API audiences reject it', async () => {
    const token = await tokenFor('robot', { audiences: ['vault', 'other'] })
    const vault = await review(token, ['vault', 'nobody'])
    expect(vault.json.status.authenticated).toBe(true)
    expect(vault.json.status.audiences).toEqual(['vault'])
    const api = await review(token)
    expect(api.status).toBe(201)
    expect(api.json.status).toEqual({
      user: {},
      error: `token audiences ["vault" "other"] is invalid for the target audiences ["${API_AUDIENCE}"]`,
    })
    // Static tokens only hold the API audiences: asked for another, they have no opinion.
    expect((await review(TEST_TOKENS.carol, ['vault'])).json.status).toEqual({
      user: {},
      error: 'invalid bearer token',
    })
  })

  it('an expired token, and an unknown one', async () => {
    const key = await loadSigningKey(env.KUBEFLARE_SA_SIGNING_KEY!)
    const { token } = await issueToken(
      {
        issuer: API_AUDIENCE,
        namespace: ns,
        serviceAccount: { name: 'robot', uid: saUid },
        audiences: [API_AUDIENCE],
        expirationSeconds: 600,
        now: new Date(Date.now() - 2 * 3600_000),
      },
      key,
    )
    expect((await review(token)).json.status).toEqual({ user: {}, error: 'service account token has expired' })
    const r = await review('not-a-token')
    expect(
      r.text.endsWith(',"spec":{"token":"not-a-token"},"status":{"user":{},"error":"invalid bearer token"}}\n'),
    ).toBe(true)
  })

  it('a token stops reviewing once its ServiceAccount is gone', async () => {
    const made = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'short-lived' } })
    expect(made.status).toBe(201)
    const token = await tokenFor('short-lived')
    expect((await review(token)).json.status.authenticated).toBe(true)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/short-lived`)).status).toBe(200)
    expect((await review(token)).json.status).toEqual({ user: {}, error: 'serviceaccounts "short-lived" not found' })
  })

  it("an empty token is kube's 400; a token of blanks is anonymous, whose missing audiences are kube's 500", async () => {
    const empty = await review('')
    expect(empty.status).toBe(400)
    expect(empty.json.message).toBe('token is required for TokenReview in authentication')
    const blank = await review('  ')
    expect(blank.status).toBe(500)
    expect(blank.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: error validating audiences","reason":"InternalError","details":{"causes":[{"message":"error validating audiences"}]},"code":500}\n',
    )
  })

  it('only those granted tokenreviews may ask', async () => {
    const r = await req('POST', PATH, { spec: { token: 'x' } }, { authorization: `Bearer ${TEST_TOKENS.bob}` })
    expect(r.status).toBe(403)
    expect(r.json.message).toBe(
      'tokenreviews.authentication.k8s.io is forbidden: User "bob" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
    )
  })
})
