// SelfSubjectReview (`kubectl auth whoami`): the requester after authentication and impersonation, as kube's new
// object with its creation time.
import { describe, expect, it } from 'vitest'
import { req } from '../../helpers'
import { bearer, TEST_TOKENS } from '../../support/test-tokens'

const PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews'
// What kubectl auth whoami sends.
const WHOAMI =
  '{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null},"status":{"userInfo":{}}}\n'

describe('SelfSubjectReview', () => {
  it("answers the requester in kube's bytes", async () => {
    const r = await req('POST', PATH, WHOAMI, bearer(TEST_TOKENS.alice))
    expect(r.status).toBe(201)
    const at = r.json.metadata.creationTimestamp
    expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(r.text).toBe(
      `{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":"${at}"},"status":{"userInfo":{"username":"alice","uid":"uid-alice","groups":["team-a-devs","everyone","system:authenticated"]}}}\n`,
    )
  })

  it('answers the impersonated user, extras included, and nothing of the requester', async () => {
    const r = await req('POST', PATH, WHOAMI, {
      'impersonate-user': 'dora',
      'impersonate-group': 'ops',
      'impersonate-extra-scopes': 'view',
    })
    expect(r.status, r.text).toBe(201)
    expect(r.json.status.userInfo).toEqual({
      username: 'dora',
      groups: ['ops', 'system:authenticated'],
      extra: { scopes: ['view'] },
    })
  })

  it('anonymous may not ask; any authenticated user may', async () => {
    expect((await req('POST', PATH, WHOAMI, { authorization: '' })).status).toBe(403)
    expect((await req('POST', PATH, '{}', bearer(TEST_TOKENS.bob))).json.status.userInfo).toEqual({
      username: 'bob',
      uid: 'uid-bob',
      groups: ['system:authenticated'],
    })
  })
})
