// The original v1beta1 API over plain HTTP (as curl users and kubecfg spoke it) against a real `wrangler dev` server:
// pods, replicationControllers and services on the same store as v1, the replication loop, creation tokens.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { api, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(what, fn, ms = 20_000) {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined && v !== false) return v
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`)
    await sleep(200)
  }
}

const ns = uniqueNs('v1beta1')
const at = (path, query = '') => `/api/v1beta1/${path}?namespace=${ns}${query}`

const pod = {
  kind: 'Pod',
  apiVersion: 'v1beta1',
  id: 'web',
  labels: { name: 'web' },
  desiredState: {
    manifest: {
      version: 'v1beta1',
      id: 'web',
      containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }],
      restartPolicy: { always: {} },
    },
  },
}

const rc = {
  kind: 'ReplicationController',
  apiVersion: 'v1beta1',
  id: 'front',
  labels: { name: 'front' },
  desiredState: {
    replicas: 2,
    replicaSelector: { name: 'front' },
    podTemplate: {
      desiredState: { manifest: { version: 'v1beta1', id: 'front', containers: [{ name: 'nginx', image: 'nginx' }] } },
      labels: { name: 'front' },
    },
  },
}

describe('v1beta1 over HTTP', () => {
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${ns}`)
  })

  it('creates a pod (currentState ignored) that v1 sees as the same object', async () => {
    assert.equal(
      (await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status,
      201,
    )
    // curl -d sends form-urlencoded: the 2014 server read JSON regardless.
    const r = await api('POST', at('pods'), JSON.stringify({ ...pod, currentState: { host: 'minion-9' } }), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    assert.equal(r.status, 201, r.text)
    assert.equal(r.body.kind, 'Pod')
    assert.equal(r.body.apiVersion, 'v1beta1')
    assert.equal(typeof r.body.resourceVersion, 'number')
    assert.equal(r.body.selfLink, `/api/v1beta1/pods/web?namespace=${ns}`)
    assert.equal(r.body.currentState.host, undefined)
    const v1 = await api('GET', `/api/v1/namespaces/${ns}/pods/web`)
    assert.equal(v1.body.metadata.uid, r.body.uid)
    assert.equal(v1.body.spec.containers[0].ports[0].hostPort, 8080)
    const running = await waitFor('Running', async () => {
      const g = await api('GET', at('pods/web'))
      return g.body.currentState.status === 'Running' ? g.body : undefined
    })
    assert.match(running.currentState.podIP, /^10\.244\./)
    assert.equal(running.currentState.host, running.desiredState.host)
    assert.equal(running.currentState.info.nginx.ready, true)
  })

  it('lists with ?labels=, updates labels, refuses a stale resourceVersion, deletes with {"success":true}', async () => {
    const list = await api('GET', at('pods', '&labels=name%3Dweb'))
    assert.equal(list.body.kind, 'PodList')
    assert.deepEqual(
      list.body.items.map((p) => p.id),
      ['web'],
    )
    assert.deepEqual((await api('GET', at('pods', '&labels=name%3Dnone'))).body.items, [])
    const current = (await api('GET', at('pods/web'))).body
    const put = await api('PUT', at('pods/web'), { ...current, labels: { name: 'web', stage: 'prod' } })
    // The kubelet may have written the pod since the GET: that is a 409, and a fresh read then succeeds.
    if (put.status === 409) {
      const fresh = (await api('GET', at('pods/web'))).body
      const retry = await api('PUT', at('pods/web'), { ...fresh, labels: { name: 'web', stage: 'prod' } })
      assert.equal(retry.status, 200, retry.text)
    } else assert.equal(put.status, 200, put.text)
    const stale = await api('PUT', at('pods/web'), { ...current, labels: { name: 'web' } })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.reason, 'Conflict')
    assert.deepEqual((await api('GET', `/api/v1/namespaces/${ns}/pods/web`)).body.metadata.labels, {
      name: 'web',
      stage: 'prod',
    })
    const del = await api('DELETE', at('pods/web'))
    assert.equal(del.status, 200)
    assert.deepEqual(del.body, { success: true })
  })

  it('a replicationController keeps its replicas and resizes by PUT', async () => {
    const r = await api('POST', at('replicationControllers'), rc)
    assert.equal(r.status, 201, r.text)
    await waitFor(
      '2 replicas',
      async () => (await api('GET', at('replicationControllers/front'))).body.currentState.replicas === 2,
    )
    const got = (await api('GET', at('replicationControllers/front'))).body
    const put = await api('PUT', at('replicationControllers/front'), {
      ...got,
      resourceVersion: 0,
      desiredState: { ...got.desiredState, replicas: 4 },
    })
    assert.equal(put.status, 200, put.text)
    await waitFor(
      '4 replicas',
      async () => (await api('GET', at('replicationControllers/front'))).body.currentState.replicas === 4,
    )
    const pods = await api('GET', at('pods', '&labels=name%3Dfront'))
    assert.equal(pods.body.items.filter((p) => !p.deletionTimestamp).length, 4)
    // The same RC through v1.
    const v1 = await api('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/front`)
    assert.equal(v1.body.spec.replicas, 4)
    assert.deepEqual((await api('DELETE', at('replicationControllers/front'))).body, { success: true })
    await waitFor(
      'pods gone',
      async () => (await api('GET', at('pods', '&labels=name%3Dfront'))).body.items.length === 0,
    )
  })

  it('a repeated creation token answers 409 pointing at the first object', async () => {
    const first = await api('POST', at('pods'), { ...pod, id: 'tok' }, { 'Idempotency-Key': 'v1beta1-token' })
    assert.equal(first.status, 201, first.text)
    const again = await api('POST', at('pods'), { ...pod, id: 'tok-2' }, { 'Idempotency-Key': 'v1beta1-token' })
    assert.equal(again.status, 409)
    assert.equal(again.body.reason, 'AlreadyExists')
    assert.equal(again.body.details.uid, first.body.uid)
    assert.equal((await api('GET', at('pods/tok-2'))).status, 404)
  })

  it('services: create with a portalIP, get, list, delete', async () => {
    const svc = {
      kind: 'Service',
      apiVersion: 'v1beta1',
      id: 'web',
      port: 8000,
      containerPort: 80,
      selector: { name: 'web' },
      labels: { name: 'web' },
    }
    const r = await api('POST', at('services'), svc)
    assert.equal(r.status, 201, r.text)
    assert.match(r.body.portalIP, /^\d+\.\d+\.\d+\.\d+$/)
    assert.equal(r.body.createExternalLoadBalancer, false)
    const list = await api('GET', at('services'))
    assert.equal(list.body.kind, 'ServiceList')
    assert.deepEqual(
      list.body.items.map((s) => s.id),
      ['web'],
    )
    const v1 = await api('GET', `/api/v1/namespaces/${ns}/services/web`)
    assert.equal(v1.body.spec.ports[0].port, 8000)
    assert.equal(v1.body.spec.ports[0].targetPort, 80)
    assert.deepEqual((await api('DELETE', at('services/web'))).body, { success: true })
  })

  it('errors are Status objects', async () => {
    const missing = await api('GET', at('pods/nope'))
    assert.equal(missing.status, 404)
    assert.equal(missing.body.kind, 'Status')
    assert.equal(missing.body.reason, 'NotFound')
    const invalid = await api('POST', at('pods'), {
      id: 'bad',
      desiredState: { manifest: { containers: [{ name: 'c' }] } },
    })
    assert.equal(invalid.status, 422)
    assert.match(invalid.body.message, /desiredState\.manifest\.containers\[0\]\.image: Required value/)
  })
})
