// LimitRanger and ResourceQuota admission inside the namespace's write queue, through the Worker: defaults and their
// annotation, kube's Forbidden messages byte for byte, quota charged exactly (a third pod refused, room again after a
// delete, concurrent creates never overshooting), the quota's status written with the create that charges it.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, quotaSynced, req, waitFor } from '../helpers'

const limitRange = (name: string, limits: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name },
  spec: { limits },
})
const quota = (name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name },
  spec: { hard, ...extra },
})
const withResources = (name: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...pod(name),
  spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources }], ...extra },
})

async function post(ns: string, plural: string, body: unknown) {
  return req('POST', `/api/v1/namespaces/${ns}/${plural}`, body)
}

/** A quota, once the controller has written its status (admission enforces status.hard, as kube's does). */
async function postQuota(ns: string, body: { metadata: { name: string } }) {
  const r = await post(ns, 'resourcequotas', body)
  if (r.status === 201) await quotaSynced(ns, body.metadata.name)
  return r
}

describe('LimitRanger', () => {
  it('defaults requests and limits of containers and init containers, and says so in an annotation', async () => {
    const ns = await makeNamespace('limits')
    const lr = limitRange('cpu-mem', [
      { type: 'Container', default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' } },
    ])
    expect((await post(ns, 'limitranges', lr)).status).toBe(201)
    const body = {
      ...pod('p'),
      spec: {
        initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { cpu: '200m' } } }],
        containers: [{ name: 'x', image: 'nginx:1.25' }],
      },
    }
    const r = await post(ns, 'pods', body)
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.containers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: '100m', memory: '64Mi' },
    })
    // The scheme copied the init container's cpu limit into its request before the plugin ran.
    expect(r.json.spec.initContainers[0].resources).toEqual({
      limits: { cpu: '200m', memory: '128Mi' },
      requests: { cpu: '200m', memory: '64Mi' },
    })
    expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container x; cpu, memory limit for container x; memory request for init container init; memory limit for init container init',
    )
  })

  it('refuses a pod outside min, max and ratio with kube 1.33 words', async () => {
    const ns = await makeNamespace('limits')
    const lr = limitRange('bounds', [
      { type: 'Container', max: { cpu: '1' }, min: { memory: '10Mi' }, maxLimitRequestRatio: { cpu: '2' } },
    ])
    expect((await post(ns, 'limitranges', lr)).status).toBe(201)
    const over = await post(
      ns,
      'pods',
      withResources('big', { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '2' } }),
    )
    expect(over.status, over.text).toBe(403)
    expect(over.json.reason).toBe('Forbidden')
    expect(over.json.message).toBe('pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2')
    const two = await post(
      ns,
      'pods',
      withResources('two', { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m' } }),
    )
    // The scheme copied the memory limit into the request, so only the ratio is out of bounds.
    expect(two.json.message).toBe(
      'pods "two" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 10.000000',
    )
    // A pod stating nothing takes the item's defaults, which kube derives from its bounds (SetDefaults_LimitRangeItem:
    // default from max, defaultRequest from default then min), and so fits them.
    const none = await post(ns, 'pods', pod('none'))
    expect(none.status, none.text).toBe(201)
    expect(none.json.spec.containers[0].resources).toEqual({
      limits: { cpu: '1' },
      requests: { cpu: '1', memory: '10Mi' },
    })
  })

  it('bounds the sum of a pod under a Pod item, and a claim storage under a PersistentVolumeClaim item', async () => {
    const ns = await makeNamespace('limits')
    const lr = limitRange('pod-pvc', [
      { type: 'Pod', max: { memory: '1Gi' } },
      { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
    ])
    expect((await post(ns, 'limitranges', lr)).status).toBe(201)
    const body = {
      ...pod('sum'),
      spec: {
        containers: [
          { name: 'a', image: 'nginx', resources: { limits: { memory: '768Mi' } } },
          { name: 'b', image: 'nginx', resources: { limits: { memory: '512Mi' } } },
        ],
      },
    }
    const r = await post(ns, 'pods', body)
    expect(r.json.message).toBe('pods "sum" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1280Mi')
    const claim = (name: string, storage: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    })
    const small = await post(ns, 'persistentvolumeclaims', claim('small', '500Mi'))
    expect(small.json.message).toBe(
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    )
    const big = await post(ns, 'persistentvolumeclaims', claim('big', '20Gi'))
    expect(big.json.message).toBe(
      'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    )
    expect((await post(ns, 'persistentvolumeclaims', claim('fits', '5Gi'))).status).toBe(201)
  })
})

describe('ResourceQuota admission', () => {
  it('refuses the pod past the quota, charges usage with the create, and frees it on delete', async () => {
    const ns = await makeNamespace('quota')
    expect((await postQuota(ns, quota('q', { pods: '2' }))).status).toBe(201)
    expect((await post(ns, 'pods', pod('a'))).status).toBe(201)
    const afterOne = await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)
    expect(afterOne.json.status).toEqual({ hard: { pods: '2' }, used: { pods: '1' } })
    expect((await post(ns, 'pods', pod('b'))).status).toBe(201)
    const third = await post(ns, 'pods', pod('c'))
    expect(third.status, third.text).toBe(403)
    expect(third.json.message).toBe(
      'pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    )
    // A deleted pod stops counting once it is gone (the kubelet confirms graceful deletion).
    await req('DELETE', `/api/v1/namespaces/${ns}/pods/a?gracePeriodSeconds=0`)
    await waitFor('pod a gone', async () => (await req('GET', `/api/v1/namespaces/${ns}/pods/a`)).status === 404)
    const again = await post(ns, 'pods', pod('c'))
    expect(again.status, again.text).toBe(201)
  })

  it('never lets concurrent creates take more than the quota', async () => {
    const ns = await makeNamespace('quota')
    // The root CA publisher's kube-root-ca.crt counts too: exact usage includes it.
    await waitFor(
      'root CA',
      async () => (await req('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status === 200,
    )
    expect((await postQuota(ns, quota('q', { configmaps: '4' }))).status).toBe(201)
    const cm = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } })
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(ns, 'configmaps', cm(i))))
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3)
    const refused = answers.filter((a) => a.status === 403)
    expect(refused).toHaveLength(5)
    for (const r of refused)
      expect(r.json.message).toMatch(
        /exceeded quota: q, requested: configmaps=1, used: configmaps=4, limited: configmaps=4$/,
      )
    const q = await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)
    expect(q.json.status.used).toEqual({ configmaps: '4' })
  })

  it('makes every container state what a compute quota constrains', async () => {
    const ns = await makeNamespace('quota')
    expect((await postQuota(ns, quota('compute', { 'limits.cpu': '2', 'requests.memory': '1Gi' }))).status).toBe(201)
    const r = await post(ns, 'pods', pod('bare'))
    expect(r.json.message).toBe(
      'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.memory for: c',
    )
    const ok = await post(ns, 'pods', withResources('fits', { limits: { cpu: '1500m', memory: '512Mi' } }))
    expect(ok.status, ok.text).toBe(201)
    const over = await post(ns, 'pods', withResources('over', { limits: { cpu: '1', memory: '256Mi' } }))
    expect(over.json.message).toBe(
      'pods "over" is forbidden: exceeded quota: compute, requested: limits.cpu=1, used: limits.cpu=1500m, limited: limits.cpu=2',
    )
  })

  it('counts services, load balancers and node ports, and count/<resource>.<group>', async () => {
    const ns = await makeNamespace('quota')
    const hard = { services: '5', 'services.loadbalancers': '0', 'count/deployments.apps': '0' }
    expect((await postQuota(ns, quota('q', hard))).status).toBe(201)
    const svc = (name: string, type: string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { type, ports: [{ port: 80 }], selector: { app: 'x' } },
    })
    expect((await post(ns, 'services', svc('plain', 'ClusterIP'))).status).toBe(201)
    const lb = await post(ns, 'services', svc('lb', 'LoadBalancer'))
    expect(lb.json.message).toBe(
      'services "lb" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
    )
    const d = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(d.json.message).toBe(
      'deployments.apps "d" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0',
    )
  })

  it('does not charge terminal pods or pods its scopes leave out', async () => {
    const ns = await makeNamespace('quota')
    const scoped = quota('besteffort', { pods: '1' }, { scopes: ['BestEffort'] })
    expect((await postQuota(ns, scoped)).status).toBe(201)
    expect((await post(ns, 'pods', pod('be1'))).status).toBe(201)
    // Not BestEffort: the scoped quota does not select it.
    expect((await post(ns, 'pods', withResources('burstable', { requests: { cpu: '100m' } }))).status).toBe(201)
    const be2 = await post(ns, 'pods', pod('be2'))
    expect(be2.json.message).toBe(
      'pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1',
    )
    const done = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/be1/status`,
      { status: { phase: 'Succeeded' } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(done.status, done.text).toBe(200)
    expect((await post(ns, 'pods', pod('be2'))).status).toBe(201)
  })

  it("holds a ReplicaSet to the quota: its controller's creates are admitted like a client's", async () => {
    const ns = await makeNamespace('quota')
    expect((await postQuota(ns, quota('q', { pods: '2' }))).status).toBe(201)
    const rs = await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'rs' } },
        template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(rs.status, rs.text).toBe(201)
    await waitFor('two pods', async () => (await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items.length === 2)
    await new Promise((r) => setTimeout(r, 500))
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items).toHaveLength(2)
    const q = await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)
    expect(q.json.status.used).toEqual({ pods: '2' })
    // The FailedCreate event carries kube's refusal, naming the pod as validating admission does (its generated name);
    // the controller retries with kube's backoff (src/namespace/create-retries.ts), it does not spin.
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items.filter(
      (e: any) => e.reason === 'FailedCreate',
    )
    expect(events.length).toBeGreaterThan(0)
    expect(events[0].message).toMatch(
      /^Error creating: pods "rs-[a-z0-9]*" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/,
    )
    expect(events.reduce((n: number, e: any) => n + (e.count ?? 1), 0)).toBeLessThan(10)
  })
})
