// /metrics through the Worker: kube's metric names and label sets after known requests (counts compared before and
// after, since the file's tests share one database), the histogram's shape, stored objects, the Durable Objects'
// metrics (wakes, commit sizes, open watches, event delivery) arriving through D1, rate-limit rejections, and RBAC.
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, openWatch, pod, req, sleep } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'

/** The exposition as `name{labels}` → value, plus the raw text. */
async function scrape(headers: Record<string, string> = {}) {
  const r = await req('GET', '/metrics', undefined, headers)
  const values = new Map<string, number>()
  for (const line of r.text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    values.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return { ...r, values }
}

/** A series' key as the exposition writes it: label pairs in name order (`le` last). */
function series(name: string, labels: Record<string, string>): string {
  const { le, ...rest } = labels
  const pairs = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))
  if (le !== undefined) pairs.push(['le', le])
  return `${name}{${pairs.map(([k, v]) => `${k}="${v}"`).join(',')}}`
}

const request = (labels: Partial<Record<string, string>>) =>
  series('apiserver_request_total', {
    code: '200',
    component: 'apiserver',
    dry_run: '',
    group: '',
    resource: 'pods',
    scope: 'namespace',
    subresource: '',
    verb: 'LIST',
    version: 'v1',
    ...labels,
  } as Record<string, string>)

/** Scrapes until `pick` holds (Durable Objects flush on their own, a moment after the event). */
async function eventually(pick: (m: Map<string, number>) => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const m = (await scrape()).values
    if (pick(m) || Date.now() > deadline) return m
    await sleep(50)
  }
}

describe('/metrics', () => {
  it('counts requests under kube labels: verb, scope, code, dry run, subresource', async () => {
    const ns = await makeNamespace('metrics')
    const before = (await scrape()).values
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('a'))).status).toBe(201)
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods?dryRun=All`, pod('b'))).status).toBe(201)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/a`)).status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/zz`)).status).toBe(404)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods`)).status).toBe(200)
    expect((await req('GET', '/api/v1/pods')).status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/a/status`)).status).toBe(200)
    const after = (await scrape()).values
    const delta = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0)
    expect(delta(request({ verb: 'POST', scope: 'resource', code: '201' }))).toBe(1)
    expect(delta(request({ verb: 'POST', scope: 'resource', code: '201', dry_run: 'All' }))).toBe(1)
    expect(delta(request({ verb: 'GET', scope: 'resource' }))).toBe(1)
    expect(delta(request({ verb: 'GET', scope: 'resource', code: '404' }))).toBe(1)
    expect(delta(request({ verb: 'LIST', scope: 'namespace' }))).toBe(1)
    expect(delta(request({ verb: 'LIST', scope: 'cluster' }))).toBe(1)
    expect(delta(request({ verb: 'GET', scope: 'resource', subresource: 'status' }))).toBe(1)
  })

  it('writes kube help and type lines, and a latency histogram with cumulative buckets', async () => {
    const ns = await makeNamespace('metrics')
    await req('GET', `/api/v1/namespaces/${ns}/configmaps`)
    const { text, values, headers, status } = await scrape()
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(text).toContain(
      '# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n# TYPE apiserver_request_total counter\n',
    )
    expect(text).toContain('# TYPE apiserver_request_duration_seconds histogram\n')
    const labels = {
      component: 'apiserver',
      dry_run: '',
      group: '',
      resource: 'configmaps',
      scope: 'namespace',
      subresource: '',
      verb: 'LIST',
      version: 'v1',
    }
    const buckets = [
      '0.005',
      '0.025',
      '0.05',
      '0.1',
      '0.2',
      '0.4',
      '0.6',
      '0.8',
      '1',
      '1.25',
      '1.5',
      '2',
      '3',
      '4',
      '5',
      '6',
      '8',
      '10',
      '15',
      '20',
      '30',
      '45',
      '60',
      '+Inf',
    ]
    const counts = buckets.map((le) =>
      values.get(series('apiserver_request_duration_seconds_bucket', { ...labels, le })),
    )
    expect(counts.every((n) => n !== undefined)).toBe(true)
    for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThanOrEqual(counts[i - 1]!)
    const count = values.get(series('apiserver_request_duration_seconds_count', labels))
    expect(count).toBeGreaterThanOrEqual(1)
    expect(counts.at(-1)).toBe(count)
    expect(values.get(series('apiserver_request_duration_seconds_sum', labels))).toBeGreaterThanOrEqual(0)
    // The scrape itself is in flight while it is answered.
    expect(
      values.get(series('apiserver_current_inflight_requests', { request_kind: 'readOnly' })),
    ).toBeGreaterThanOrEqual(1)
  })

  it('counts stored objects per resource from D1, group-qualified as kube names them', async () => {
    const ns = await makeNamespace('metrics')
    const before = (await scrape()).values.get(series('apiserver_storage_objects', { resource: 'pods' })) ?? 0
    await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('p1'))
    await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('p2'))
    const after = (await scrape()).values
    expect(after.get(series('apiserver_storage_objects', { resource: 'pods' }))).toBe(before + 2)
    expect(after.get(series('apiserver_storage_objects', { resource: 'namespaces' }))).toBeGreaterThanOrEqual(4)
    expect(
      after.get(series('apiserver_storage_objects', { resource: 'endpointslices.discovery.k8s.io' })),
    ).toBeGreaterThanOrEqual(1)
  })

  it("reports the Durable Objects' wakes, commit sizes, watchers and event delivery without waking them", async () => {
    const ns = await makeNamespace('metrics')
    const watchers = series('apiserver_registered_watchers', { group: '', kind: 'Pod', version: 'v1' })
    const longRunning = series('apiserver_longrunning_requests', {
      component: 'apiserver',
      group: '',
      resource: 'pods',
      scope: 'namespace',
      subresource: '',
      verb: 'WATCH',
      version: 'v1',
    })
    const delivered = series('kubeflare_watch_event_delivery_seconds_count', { class: 'NamespaceObject' })
    const before = (await scrape()).values
    const watch = await openWatch(`/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=0`)
    try {
      let m = await eventually((v) => (v.get(watchers) ?? 0) > (before.get(watchers) ?? 0))
      expect(m.get(watchers)).toBe((before.get(watchers) ?? 0) + 1)
      expect(m.get(longRunning)).toBe((before.get(longRunning) ?? 0) + 1)
      await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('w'))
      await watch.next()
      m = await eventually((v) => (v.get(delivered) ?? 0) > (before.get(delivered) ?? 0))
      expect(m.get(delivered)).toBeGreaterThan(before.get(delivered) ?? 0)
      expect(
        m.get(series('kubeflare_durable_object_wakes_total', { class: 'NamespaceObject' })),
      ).toBeGreaterThanOrEqual(1)
      expect(m.get(series('kubeflare_durable_object_wakes_total', { class: 'ClusterObject' }))).toBeGreaterThanOrEqual(
        1,
      )
      expect(
        m.get(series('kubeflare_d1_commit_batch_size_count', { class: 'NamespaceObject' })),
      ).toBeGreaterThanOrEqual(1)
      expect(
        m.get(series('kubeflare_d1_commit_batch_size_bucket', { class: 'NamespaceObject', le: '64' })),
      ).toBeGreaterThanOrEqual(1)
    } finally {
      await watch.cancel()
    }
    const m = await eventually((v) => (v.get(watchers) ?? 0) === (before.get(watchers) ?? 0))
    expect(m.get(watchers) ?? 0).toBe(before.get(watchers) ?? 0)
  })

  it('counts the cluster-wide watch hub: its watchers and its deliveries', async () => {
    const ns = await makeNamespace('metrics')
    const hubWatches = series('apiserver_longrunning_requests', {
      component: 'apiserver',
      group: '',
      resource: 'configmaps',
      scope: 'cluster',
      subresource: '',
      verb: 'WATCH',
      version: 'v1',
    })
    const delivered = series('kubeflare_watch_event_delivery_seconds_count', { class: 'WatchHub' })
    const before = (await scrape()).values
    const watch = await openWatch('/api/v1/configmaps?watch=1&resourceVersion=0')
    try {
      const m = await eventually((v) => (v.get(hubWatches) ?? 0) > (before.get(hubWatches) ?? 0))
      expect(m.get(hubWatches)).toBe((before.get(hubWatches) ?? 0) + 1)
      await req('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' }, data: { a: 'b' } })
      const after = await eventually((v) => (v.get(delivered) ?? 0) > (before.get(delivered) ?? 0))
      expect(after.get(delivered)).toBeGreaterThan(before.get(delivered) ?? 0)
      expect(after.get(series('kubeflare_durable_object_wakes_total', { class: 'WatchHub' }))).toBeGreaterThanOrEqual(1)
    } finally {
      await watch.cancel()
    }
  })

  it('counts requests the rate limit refused, as kube counts flow-control rejections', async () => {
    const limiter = { limit: async () => ({ success: false }) }
    const app = buildApp()
    const res = await app.fetch(
      new Request(`${BASE}/api/v1/namespaces`, { headers: bearer(TEST_TOKENS.bob) }),
      { ...env, RATE_LIMITER: limiter } as unknown as Env,
      createExecutionContext(),
    )
    expect(res.status).toBe(429)
    const m = (await scrape()).values
    expect(
      m.get(
        series('apiserver_flowcontrol_rejected_requests_total', {
          flow_schema: 'user',
          priority_level: 'kubeflare-per-identity',
          reason: 'rate-limited',
        }),
      ),
    ).toBeGreaterThanOrEqual(1)
    expect(m.get(request({ resource: 'namespaces', scope: 'cluster', code: '429' }))).toBeGreaterThanOrEqual(1)
  })

  it('is for those RBAC lets read /metrics: system:monitoring and the masters, not anonymous or plain users', async () => {
    expect((await req('GET', '/metrics', undefined, { authorization: '' })).status).toBe(403)
    expect((await req('GET', '/metrics', undefined, bearer(TEST_TOKENS.bob))).status).toBe(403)
    const monitoring = await req('GET', '/metrics', undefined, {
      'Impersonate-User': 'prometheus',
      'Impersonate-Group': 'system:monitoring',
    })
    expect(monitoring.status).toBe(200)
    expect(monitoring.text).toContain('# TYPE apiserver_storage_objects gauge')
  })
})
