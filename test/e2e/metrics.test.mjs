// /metrics against a real `wrangler dev` server: a known set of requests (kubectl's and direct ones) shows up in
// apiserver_request_total with kube's labels and exact counts (the local server is one isolate, which flushes before
// it answers a scrape), the latency histogram is consistent, stored objects are counted, the Durable Objects' own
// metrics arrive a flush interval later, and RBAC keeps anonymous callers out.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, api, kubectl, podManifest, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const created = []
after(async () => {
  await Promise.all(created.map((ns) => api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})))
})

/** The exposition as `name{labels}` → value. */
async function scrape(headers = {}) {
  const r = await api('GET', '/metrics', undefined, { accept: 'text/plain', ...headers })
  const values = new Map()
  for (const line of r.text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    values.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return { ...r, values }
}

function series(name, labels) {
  const { le, ...rest } = labels
  const pairs = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))
  if (le !== undefined) pairs.push(['le', le])
  return `${name}{${pairs.map(([k, v]) => `${k}="${v}"`).join(',')}}`
}

const request = (labels) =>
  series('apiserver_request_total', {
    code: '200',
    component: 'apiserver',
    dry_run: '',
    group: '',
    resource: 'configmaps',
    scope: 'namespace',
    subresource: '',
    verb: 'LIST',
    version: 'v1',
    ...labels,
  })

describe('/metrics', () => {
  it('counts a known set of requests exactly, under kube labels', async () => {
    const ns = uniqueNs('metrics')
    assert.equal((await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201)
    created.push(ns)
    const before = (await scrape()).values
    const cm = (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } })
    for (const name of ['a', 'b', 'c'])
      assert.equal((await api('POST', `/api/v1/namespaces/${ns}/configmaps`, cm(name))).status, 201)
    for (const name of ['a', 'b'])
      assert.equal((await api('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`)).status, 200)
    assert.equal((await api('GET', `/api/v1/namespaces/${ns}/configmaps/missing`)).status, 404)
    assert.equal((await api('DELETE', `/api/v1/namespaces/${ns}/configmaps/c`)).status, 200)
    const patched = await api('PATCH', `/api/v1/namespaces/${ns}/configmaps/a?fieldManager=e2e&force=true`, cm('a'), {
      'content-type': 'application/apply-patch+yaml',
    })
    assert.equal(patched.status, 200, patched.text)
    // kubectl 1.33 lists them (a LIST with a Table Accept) once.
    await kubectl(KUBECTL_VERSIONS.at(-1), ['get', 'configmaps', '-n', ns])
    const after = (await scrape()).values
    const delta = (labels) => (after.get(request(labels)) ?? 0) - (before.get(request(labels)) ?? 0)
    assert.equal(delta({ verb: 'POST', scope: 'resource', code: '201' }), 3)
    assert.equal(delta({ verb: 'GET', scope: 'resource' }), 2)
    assert.equal(delta({ verb: 'GET', scope: 'resource', code: '404' }), 1)
    assert.equal(delta({ verb: 'DELETE', scope: 'resource' }), 1)
    assert.equal(delta({ verb: 'APPLY', scope: 'resource' }), 1)
    assert.equal(delta({ verb: 'LIST', scope: 'namespace' }), 1)

    const labels = {
      component: 'apiserver',
      dry_run: '',
      group: '',
      resource: 'configmaps',
      scope: 'resource',
      subresource: '',
      verb: 'POST',
      version: 'v1',
    }
    const count = after.get(series('apiserver_request_duration_seconds_count', labels))
    assert.equal(count - (before.get(series('apiserver_request_duration_seconds_count', labels)) ?? 0), 3)
    assert.equal(after.get(series('apiserver_request_duration_seconds_bucket', { ...labels, le: '+Inf' })), count)
    assert.ok(after.get(series('apiserver_request_duration_seconds_sum', labels)) > 0)
    assert.ok(after.get(series('apiserver_storage_objects', { resource: 'configmaps' })) >= 2)
  })

  it("reports the Durable Objects' metrics within a flush interval", async () => {
    const ns = uniqueNs('metrics-do')
    assert.equal((await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201)
    created.push(ns)
    assert.equal((await api('POST', `/api/v1/namespaces/${ns}/pods`, podManifest('p'))).status, 201)
    const want = [
      series('kubeflare_durable_object_wakes_total', { class: 'NamespaceObject' }),
      series('kubeflare_d1_commit_batch_size_count', { class: 'NamespaceObject' }),
    ]
    let values
    for (let i = 0; i < 40; i++) {
      values = (await scrape()).values
      if (want.every((k) => values.get(k) > 0)) break
      await sleep(500)
    }
    for (const k of want) assert.ok(values.get(k) > 0, `${k} in /metrics`)
  })

  it('is refused to anonymous callers', async () => {
    const r = await api('GET', '/metrics', undefined, { authorization: null })
    assert.equal(r.status, 403)
    assert.ok(r.headers.get('audit-id'), 'every answer carries an Audit-Id')
  })
})
