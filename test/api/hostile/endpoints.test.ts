// Hostile requests outside the resource kinds: the non-resource endpoints (version, discovery, OpenAPI, health,
// metrics, OIDC), the original v1beta1 API, odd paths, Accept headers no serializer matches, and credentials and
// impersonation headers that make no sense. Answers are refusals with a Status or what kube answers; never a 5xx.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { KNOWN_BUGS } from './known-bug-ids'
import { type Expect, Findings } from './refusal'

const ns = await makeNamespace('hostile-edge')
const TAKEN: Expect = { accept: true, codes: [400, 404, 405, 422] }
const NOT_FOUND: Expect = { codes: [404] }
const JSON_CT = { 'content-type': 'application/json' }

/** The endpoints served beside the kinds, each with a query kube ignores or refuses. */
const NON_RESOURCE = [
  '/version',
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps',
  '/apis/apps/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/healthz',
  '/livez',
  '/readyz',
  '/healthz/ping',
  '/metrics',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
]

describe.concurrent('hostile requests outside the kinds', () => {
  it('non-resource endpoints: garbage queries and methods they do not serve', async () => {
    const findings = new Findings(KNOWN_BUGS)
    for (const path of NON_RESOURCE) {
      await findings.send(
        `${path} garbage query`,
        'GET',
        `${path}?pretty=maybe&verbose=x&exclude=nothing&hash=zz&timeout=soon`,
        undefined,
        {},
        TAKEN,
      )
      for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        await findings.send(`${path} ${m}`, m, path, m === 'DELETE' ? undefined : '{"x":', JSON_CT, TAKEN)
      }
    }
    for (const path of [
      '/healthz/nonexistent',
      '/readyz/nonexistent',
      '/openapi/v3/apis/nonexistent.example.com/v1',
      '/apis/nonexistent.example.com',
      '/apis/nonexistent.example.com/v1',
      '/apis/apps/v9',
      '/api/v2',
      '/nonexistent',
    ]) {
      await findings.send(`${path} missing`, 'GET', path, undefined, {}, NOT_FOUND)
    }
    findings.expectNone()
  })

  it('odd paths: empty segments, NULs, dots, encoded slashes, unicode, 40 KiB', async () => {
    const findings = new Findings(KNOWN_BUGS)
    const odd = [
      '/api/v1/namespaces//pods',
      `/api/v1/namespaces/${ns}/pods//`,
      '/api/v1/namespaces/%00/pods',
      `/api/v1/namespaces/${ns}/pods/%00`,
      `/api/v1/namespaces/${ns}/pods/a%2Fb`,
      `/api/v1/namespaces/${ns}/pods/%2e%2e%2fsecrets`,
      `/api/v1/namespaces/${ns}/pods/%E2%98%83`,
      `/api/v1/namespaces/${ns}/pods/%ZZ`,
      `/api/v1/namespaces/${ns}/pods/${'a'.repeat(40 * 1024)}`,
      `/api/v1/namespaces/${ns}/pods/x/status/y/z`,
      '/api/v1/watch/namespaces',
      `/api/v1/watch/namespaces/${ns}/pods?labelSelector=%21%21`,
      '/apis/apps/v1/namespaces',
      '/api/v1/namespaces/a/b/c/d/e/f/g',
      '/apis//v1/pods',
    ]
    for (const path of odd)
      await findings.send(
        `odd path ${path.slice(0, 60)}`,
        'GET',
        path,
        undefined,
        {},
        { accept: true, codes: [400, 404, 405] },
      )
    findings.expectNone()
  })

  // kube negotiates the answer's media type: a type it cannot write is 406 Not Acceptable (a Status).
  it('Accept headers no serializer matches: 406', async () => {
    const findings = new Findings(KNOWN_BUGS)
    for (const accept of ['application/garbage', 'text/html;q=1', ';;;', 'application/json;as=Table;g=nope;v=v9']) {
      for (const path of [
        `/api/v1/namespaces/${ns}/configmaps`,
        `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`,
      ]) {
        await findings.send(`edge accept ${accept}`, 'GET', path, undefined, { accept }, { codes: [406] })
      }
    }
    findings.expectNone()
  })

  // A header no authenticator reads (no token, another scheme) leaves the request anonymous: 403, as in kube; a token
  // nobody issued is a 401.
  it('credentials that make no sense: 401/403; impersonation without a user: 400 (kube: 500)', async () => {
    const findings = new Findings(KNOWN_BUGS)
    const path = `/api/v1/namespaces/${ns}/configmaps`
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Bearer a b',
      'Basic !!!',
      'Negotiate x',
      `Bearer ${'x'.repeat(64 * 1024)}`,
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    ]) {
      await findings.send(
        `authorization ${authorization.slice(0, 20)}`,
        'GET',
        path,
        undefined,
        { authorization },
        { codes: [401, 403] },
      )
    }
    await findings.send(
      'impersonate group only',
      'GET',
      path,
      undefined,
      { 'impersonate-group': 'system:masters' },
      { codes: [400] },
    )
    await findings.send('impersonate uid only', 'GET', path, undefined, { 'impersonate-uid': 'x' }, { codes: [400] })
    await findings.send(
      'impersonate extra only',
      'GET',
      path,
      undefined,
      { 'impersonate-extra-scopes': 'x' },
      { codes: [400] },
    )
    await findings.send(
      'impersonate extra bad escape',
      'GET',
      path,
      undefined,
      { 'impersonate-user': 'alice', 'impersonate-extra-%zz': 'x' },
      { accept: true, codes: [400, 403] },
    )
    findings.expectNone()
  })

  // NamespaceLifecycle: system namespaces are not deleted (403); nothing is created where no namespace is (404).
  it('namespaces that refuse: system ones, missing ones, badly named ones', async () => {
    const findings = new Findings(KNOWN_BUGS)
    for (const name of ['default', 'kube-system', 'kube-public']) {
      await findings.send(
        `delete namespace ${name}`,
        'DELETE',
        `/api/v1/namespaces/${name}`,
        undefined,
        {},
        { codes: [403] },
      )
    }
    for (const name of ['nope-nope', 'Bad_NS', 'a'.repeat(300)]) {
      const path = `/api/v1/namespaces/${name}/configmaps`
      await findings.send(
        `create in ${name.slice(0, 20)}`,
        'POST',
        path,
        { metadata: { name: 'a' } },
        JSON_CT,
        NOT_FOUND,
      )
    }
    findings.expectNone()
  })

  // The 2014 API, converted at the edge to the v1 objects.
  it('the original v1beta1 API: unreadable bodies, odd ids and queries', async () => {
    const findings = new Findings(KNOWN_BUGS)
    for (const kind of ['pods', 'replicationControllers', 'services']) {
      const base = `/api/v1beta1/${kind}`
      await findings.send(
        `v1beta1 ${kind} list garbage`,
        'GET',
        `${base}?namespace=${ns}&labels=%21%21`,
        undefined,
        {},
        TAKEN,
      )
      for (const body of [
        '{"id":',
        '[]',
        '"x"',
        '{"id":7}',
        '{"kind":"Bogus","id":"x"}',
        `{"id":"${'a'.repeat(300)}"}`,
        '{"id":"Bad_Name!"}',
      ]) {
        await findings.send(
          `v1beta1 ${kind} create ${body.slice(0, 12)}`,
          'POST',
          `${base}?namespace=${ns}`,
          body,
          JSON_CT,
          { codes: [400, 409, 415, 422] },
        )
      }
      await findings.send(`v1beta1 ${kind} replace unreadable`, 'PUT', `${base}/x?namespace=${ns}`, '{"id":', JSON_CT, {
        codes: [400, 404],
      })
      await findings.send(
        `v1beta1 ${kind} get odd id`,
        'GET',
        `${base}/%00?namespace=${ns}`,
        undefined,
        {},
        { codes: [400, 404] },
      )
      await findings.send(
        `v1beta1 ${kind} delete missing`,
        'DELETE',
        `${base}/nobody?namespace=${ns}`,
        undefined,
        {},
        { codes: [404] },
      )
      await findings.send(
        `v1beta1 ${kind} patch`,
        'PATCH',
        `${base}/nobody?namespace=${ns}`,
        '{}',
        { 'content-type': 'application/merge-patch+json' },
        { codes: [404, 405] },
      )
    }
    findings.expectNone()
  })
})
