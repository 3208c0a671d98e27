// TokenRequest (serviceaccounts/token) on the wire: defaults, limits, bound objects (Pod with its node, Node,
// Secret, others), kube's errors and bytes, tokens that stop authenticating when what they name is gone, and the
// route's absence without a signing key.
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, req } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'

const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local'
const YEAR = 24 * 365 * 3600

let ns = ''
let robotUid = ''

const tokenPath = (name: string, namespace = ns) => `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`
const requestToken = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  req('POST', tokenPath(name), body, headers)

/** The JWT's claims (the payload, base64url JSON). */
function claims(token: string): any {
  const part = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')
  return JSON.parse(atob(part + '='.repeat((4 - (part.length % 4)) % 4)))
}

async function makeAccount(name: string): Promise<string> {
  const r = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name } })
  expect(r.status, r.text).toBe(201)
  return r.json.metadata.uid
}

/** A pod running as `account` that no scheduler takes, so it is deleted at once. */
async function makePod(name: string, account: string, nodeName?: string) {
  const spec: Record<string, unknown> = {
    serviceAccountName: account,
    schedulerName: 'kubeflare-test-none',
    containers: [{ name: 'c', image: 'nginx:1.25' }],
  }
  if (nodeName) spec.nodeName = nodeName
  const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name }, spec })
  expect(r.status, r.text).toBe(201)
  return r.json
}

beforeAll(async () => {
  ns = await makeNamespace('tokreq')
  robotUid = await makeAccount('robot')
})

describe('TokenRequest defaults', () => {
  it("what kubectl create token sends: kube's defaults, metadata and managedFields, a token to match", async () => {
    const body =
      '{"kind":"TokenRequest","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"audiences":null,"expirationSeconds":null,"boundObjectRef":null},"status":{"token":"","expirationTimestamp":null}}\n'
    const r = await requestToken('robot', body, { 'user-agent': 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0' })
    expect(r.status, r.text).toBe(201)
    const created = r.json.metadata.creationTimestamp as string
    const expires = new Date(Date.parse(created) + 3600_000).toISOString().replace('.000Z', 'Z')
    const time = /"time":"([^"]+)"/.exec(r.text)?.[1]
    const token = r.json.status.token as string
    expect(r.text).toBe(
      `{"kind":"TokenRequest","apiVersion":"authentication.k8s.io/v1","metadata":{"name":"robot","namespace":"${ns}","creationTimestamp":"${created}","managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"authentication.k8s.io/v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:expirationSeconds":{}}},"subresource":"token"}]},"spec":{"audiences":["${API_AUDIENCE}"],"expirationSeconds":3600,"boundObjectRef":null},"status":{"token":"${token}","expirationTimestamp":"${expires}"}}\n`,
    )
    const c = claims(token)
    expect(c.aud).toEqual([API_AUDIENCE])
    expect(c.exp - c.iat).toBe(3600)
    expect(c.iat).toBe(Date.parse(created) / 1000)
    expect(c.sub).toBe(`system:serviceaccount:${ns}:robot`)
    expect(c['kubernetes.io']).toEqual({ namespace: ns, serviceaccount: { name: 'robot', uid: robotUid } })
  })

  it('audiences and lifetime as asked; labels echoed; the token authenticates as the account', async () => {
    const r = await requestToken('robot', {
      metadata: { name: 'robot', labels: { purpose: 'test' } },
      spec: { audiences: ['vault'], expirationSeconds: 7200 },
    })
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.labels).toEqual({ purpose: 'test' })
    expect(r.json.metadata.managedFields[0].fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:purpose': {} } },
      'f:spec': { 'f:audiences': {}, 'f:expirationSeconds': {} },
    })
    expect(r.json.spec).toEqual({ audiences: ['vault'], expirationSeconds: 7200, boundObjectRef: null })
    const c = claims(r.json.status.token)
    expect(c.aud).toEqual(['vault'])
    expect(c.exp - c.iat).toBe(7200)
    // Meant for vault, not for this API: the API refuses it.
    expect((await req('GET', '/version', undefined, bearer(r.json.status.token))).status).toBe(401)
    const api = await requestToken('robot', { spec: {} })
    const who = await req(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      '{}',
      bearer(api.json.status.token),
    )
    expect(who.status, who.text).toBe(201)
    expect(who.json.status.userInfo.username).toBe(`system:serviceaccount:${ns}:robot`)
  })
})

describe('TokenRequest limits and refusals', () => {
  it("expirationSeconds below 10 minutes or above 2^32 seconds: kube's 422", async () => {
    const short = await requestToken('robot', { spec: { expirationSeconds: 60 } })
    expect(short.status).toBe(422)
    expect(short.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"TokenRequest.authentication.k8s.io \\"\\" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes","reason":"Invalid","details":{"group":"authentication.k8s.io","kind":"TokenRequest","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 60: may not specify a duration less than 10 minutes","field":"spec.expirationSeconds"}]},"code":422}\n',
    )
    const long = await requestToken('robot', { spec: { expirationSeconds: 2 ** 32 + 1 } })
    expect(long.status).toBe(422)
    expect(long.json.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    )
    // No --service-account-max-token-expiration: the longest valid lifetime is granted as asked.
    const max = await requestToken('robot', { spec: { expirationSeconds: 2 ** 32 } })
    expect(max.status).toBe(201)
    const c = claims(max.json.status.token)
    expect(c.exp - c.iat).toBe(2 ** 32)
    expect(max.headers.get('warning')).toBeNull()
  })

  it('a missing account is 404; a body naming another account is 422, another namespace 400', async () => {
    const missing = await requestToken('nobody', { spec: {} })
    expect(missing.status).toBe(404)
    expect(missing.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"serviceaccounts \\"nobody\\" not found","reason":"NotFound","details":{"name":"nobody","kind":"serviceaccounts"},"code":404}\n',
    )
    const name = await requestToken('robot', { metadata: { name: 'other' }, spec: {} })
    expect(name.status).toBe(422)
    expect(name.json.message).toBe(
      'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    )
    expect(name.json.details).toEqual({
      name: 'robot',
      group: 'authentication.k8s.io',
      kind: 'TokenRequest',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "other": must match the service account name if specified',
          field: 'metadata.name',
        },
      ],
    })
    const namespace = await requestToken('robot', { metadata: { namespace: 'default' }, spec: {} })
    expect(namespace.status).toBe(400)
    expect(namespace.json.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    )
  })

  it('needs create on serviceaccounts/token; other methods are 405', async () => {
    const r = await requestToken('robot', { spec: {} }, bearer(TEST_TOKENS.alice))
    expect(r.status).toBe(403)
    expect(r.json.message).toBe(
      `serviceaccounts "robot" is forbidden: User "alice" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${ns}"`,
    )
    const get = await req('GET', tokenPath('robot'))
    expect(get.status).toBe(405)
    expect(get.json.message).toBe('the server does not allow this method on the requested resource')
  })

  it('without a signing key there is no such route', async () => {
    const res = await buildApp().fetch(
      new Request(BASE + tokenPath('robot'), {
        method: 'POST',
        body: '{"spec":{}}',
        headers: { authorization: `Bearer ${TEST_TOKENS.admin}`, 'content-type': 'application/json' },
      }),
      { ...env, KUBEFLARE_SA_SIGNING_KEY: '' } as Env,
      createExecutionContext(),
    )
    expect(res.status).toBe(404)
    expect(await res.text()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}\n',
    )
  })
})

describe('bound tokens', () => {
  it('bound to a pod: its uid checked, its node named, the kubelet’s 3607 seconds extended to a year', async () => {
    const nodes = await req('GET', '/api/v1/nodes')
    const node = nodes.json.items[0]
    const pod = await makePod('bound', 'robot', node.metadata.name)
    const ref = { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: pod.metadata.uid }
    // What the kubelet sends for a projected service account token.
    const body = {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { audiences: null, expirationSeconds: 3607, boundObjectRef: ref },
      status: { token: '', expirationTimestamp: null },
    }
    const r = await requestToken('robot', body, { 'user-agent': 'kubelet/v1.33.1 (linux/amd64) kubernetes/8adc0f0' })
    expect(r.status, r.text).toBe(201)
    const created = r.json.metadata.creationTimestamp as string
    const time = /"time":"([^"]+)"/.exec(r.text)?.[1]
    const token = r.json.status.token as string
    // The status reports the 3607 seconds asked for; the token itself lives a year and warns after 3607.
    const expires = new Date(Date.parse(created) + 3607_000).toISOString().replace('.000Z', 'Z')
    expect(r.text).toBe(
      `{"kind":"TokenRequest","apiVersion":"authentication.k8s.io/v1","metadata":{"name":"robot","namespace":"${ns}","creationTimestamp":"${created}","managedFields":[{"manager":"kubelet","operation":"Update","apiVersion":"authentication.k8s.io/v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:boundObjectRef":{"f:apiVersion":{},"f:kind":{},"f:name":{},"f:uid":{}},"f:expirationSeconds":{}}},"subresource":"token"}]},"spec":{"audiences":["${API_AUDIENCE}"],"expirationSeconds":3607,"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"bound","uid":"${pod.metadata.uid}"}},"status":{"token":"${token}","expirationTimestamp":"${expires}"}}\n`,
    )
    const c = claims(token)
    expect(c.exp - c.iat).toBe(YEAR)
    expect(c['kubernetes.io']).toEqual({
      namespace: ns,
      node: { name: node.metadata.name, uid: node.metadata.uid },
      pod: { name: 'bound', uid: pod.metadata.uid },
      serviceaccount: { name: 'robot', uid: robotUid },
      warnafter: c.iat + 3607,
    })
    // Not extended: another lifetime, or an audience other than the API's.
    const plain = await requestToken('robot', { spec: { expirationSeconds: 3600, boundObjectRef: ref } })
    expect(claims(plain.json.status.token).exp - claims(plain.json.status.token).iat).toBe(3600)
    const vault = await requestToken('robot', {
      spec: { audiences: ['vault'], expirationSeconds: 3607, boundObjectRef: ref },
    })
    expect(claims(vault.json.status.token)['kubernetes.io'].warnafter).toBeUndefined()
  })

  it('a pod-bound token stops authenticating when the pod is deleted', async () => {
    await makePod('ephemeral', 'robot')
    const r = await requestToken('robot', {
      spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ephemeral' } },
    })
    expect(r.status, r.text).toBe(201)
    const token = r.json.status.token as string
    expect(claims(token)['kubernetes.io'].node).toBeUndefined()
    expect((await req('GET', '/version', undefined, bearer(token))).status).toBe(200)
    const del = await req('DELETE', `/api/v1/namespaces/${ns}/pods/ephemeral?gracePeriodSeconds=0`)
    expect(del.status, del.text).toBe(200)
    expect((await req('GET', '/version', undefined, bearer(token))).status).toBe(401)
  })

  it("refusals: missing pod, stale uid, another account's pod, a Secret, an unsupported kind", async () => {
    await makePod('someone-elses', 'default')
    await makePod('mine', 'robot')
    const bind = (ref: Record<string, string>) => requestToken('robot', { spec: { boundObjectRef: ref } })
    const missing = await bind({ kind: 'Pod', apiVersion: 'v1', name: 'ghost' })
    expect([missing.status, missing.json.message]).toEqual([404, 'pods "ghost" not found'])
    const stale = await bind({ kind: 'Pod', apiVersion: 'v1', name: 'mine', uid: 'old-uid' })
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on Pod "mine": the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated',
      details: { name: 'mine', kind: 'Pod' },
    })
    // The account is checked before the uid.
    const other = await bind({ kind: 'Pod', apiVersion: 'v1', name: 'someone-elses', uid: 'old-uid' })
    expect([other.status, other.json.message]).toEqual([
      400,
      'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
    ])
    const secret = await bind({ kind: 'Secret', apiVersion: 'v1', name: 's' })
    expect([secret.status, secret.json.message, secret.json.details]).toEqual([
      404,
      'secrets "s" not found',
      { name: 's', kind: 'secrets' },
    ])
    const cm = await bind({ kind: 'ConfigMap', apiVersion: 'v1', name: 'c' })
    expect([cm.status, cm.json.message]).toEqual([400, 'cannot bind token to object of type /v1, Kind=ConfigMap'])
    const deploy = await bind({ kind: 'Pod', apiVersion: 'apps/v1', name: 'bound' })
    expect(deploy.json.message).toBe('cannot bind token to object of type apps/v1, Kind=Pod')
  })

  it('bound to a node: the node claim alone', async () => {
    const node = (await req('GET', '/api/v1/nodes')).json.items[0]
    const r = await requestToken('robot', {
      spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: node.metadata.name, uid: node.metadata.uid } },
    })
    expect(r.status, r.text).toBe(201)
    expect(claims(r.json.status.token)['kubernetes.io']).toEqual({
      namespace: ns,
      node: { name: node.metadata.name, uid: node.metadata.uid },
      serviceaccount: { name: 'robot', uid: robotUid },
    })
    const gone = await requestToken('robot', { spec: { boundObjectRef: { kind: 'Node', name: 'no-such-node' } } })
    expect([gone.status, gone.json.message]).toEqual([404, 'nodes "no-such-node" not found'])
  })
})

describe('a token outlives nothing it names', () => {
  it('stops authenticating once its ServiceAccount is deleted', async () => {
    await makeAccount('temporary')
    const r = await requestToken('temporary', { spec: {} })
    const token = r.json.status.token as string
    expect((await req('GET', '/version', undefined, bearer(token))).status).toBe(200)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/temporary`)).status).toBe(200)
    const after = await req('GET', `/api/v1/namespaces/${ns}/pods`, undefined, bearer(token))
    expect(after.status).toBe(401)
    expect(after.json.reason).toBe('Unauthorized')
  })
})
