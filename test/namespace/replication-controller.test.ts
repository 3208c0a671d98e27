// The replication manager through the Worker: scale up and down, replacement, adoption and release, bursts of spec
// changes, deletion with each propagation policy, status, /scale and /status, the RC strategy's defaults and rules.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, pod, req, waitFor } from '../helpers'

const rc = (
  name: string,
  replicas: number,
  labels: Record<string, string> = { app: name },
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name },
  spec: {
    replicas,
    selector: labels,
    template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
    ...extra,
  },
})

const rcPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/replicationcontrollers${name ? `/${name}` : ''}`

async function livePods(ns: string, selector: string) {
  const r = await req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`)
  return (r.json.items as any[]).filter((p) => !p.metadata.deletionTimestamp)
}

/** Waits until exactly n live pods match and the RC reports them all ready. */
async function settled(ns: string, name: string, n: number, selector = `app=${name}`) {
  return waitFor(`${n} ready replicas of ${name}`, async () => {
    const pods = await livePods(ns, selector)
    const got = await req('GET', rcPath(ns, name))
    const s = got.json.status
    if (
      pods.length === n &&
      s.replicas === n &&
      (s.readyReplicas ?? 0) === n &&
      s.observedGeneration === got.json.metadata.generation
    ) {
      return { pods, rc: got.json }
    }
    return undefined
  })
}

const scalePatch = (ns: string, name: string, replicas: number) =>
  req('PATCH', `${rcPath(ns, name)}/scale`, { spec: { replicas } }, { 'content-type': 'application/merge-patch+json' })

describe('ReplicationController strategy', () => {
  it('defaults replicas to 1 and the selector and labels to the template labels; sets generation 1', async () => {
    const ns = await makeNamespace('rcs')
    const body = rc('web', 1)
    delete (body.spec as any).replicas
    delete (body.spec as any).selector
    const r = await req('POST', rcPath(ns), body)
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.replicas).toBe(1)
    expect(r.json.spec.selector).toEqual({ app: 'web' })
    expect(r.json.metadata.labels).toEqual({ app: 'web' })
    expect(r.json.metadata.generation).toBe(1)
    expect(r.json.status).toEqual({ replicas: 0 })
    const tpl = r.json.spec.template.spec
    expect(tpl).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    })
    expect(tpl.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
    })
    // Pod-only admission defaults stay off the template.
    expect(tpl.serviceAccountName).toBeUndefined()
    expect(tpl.tolerations).toBeUndefined()
    expect(tpl.enableServiceLinks).toBeUndefined()
  })

  it('keeps pod-only defaults (requests from limits, default tolerations) off the template, whatever it sets', async () => {
    const ns = await makeNamespace('rcs')
    const body = rc('web', 0) as any
    body.spec.template.spec.containers[0].resources = { limits: { cpu: '1' } }
    body.spec.template.spec.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }]
    const r = await req('POST', rcPath(ns), body)
    expect(r.status, r.text).toBe(201)
    const tpl = r.json.spec.template.spec
    expect(tpl.containers[0].resources).toEqual({ limits: { cpu: '1' } })
    expect(tpl.tolerations).toEqual([{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }])
  })

  it('refuses a template whose labels do not match the selector, a non-Always restartPolicy, negative replicas', async () => {
    const ns = await makeNamespace('rcs')
    const bad = rc('web', -1, { app: 'web' })
    ;(bad.spec as any).selector = { app: 'other' }
    ;(bad.spec.template.spec as any).restartPolicy = 'OnFailure'
    const r = await req('POST', rcPath(ns), bad)
    expect(r.status).toBe(422)
    expect(r.json.reason).toBe('Invalid')
    expect(r.json.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0')
    expect(r.json.message).toContain(
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    )
    expect(r.json.message).toContain(
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    )
    const noTemplate = await req('POST', rcPath(ns), { metadata: { name: 'x' }, spec: { selector: { a: 'b' } } })
    expect(noTemplate.status).toBe(422)
    expect(noTemplate.json.message).toContain('spec.template: Required value')
  })

  it('bumps generation on spec changes only', async () => {
    const ns = await makeNamespace('rcs')
    await req('POST', rcPath(ns), rc('web', 0))
    const labelled = await req(
      'PATCH',
      rcPath(ns, 'web'),
      { metadata: { labels: { app: 'web', x: 'y' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(labelled.json.metadata.generation).toBe(1)
    const scaled = await req(
      'PATCH',
      rcPath(ns, 'web'),
      { spec: { replicas: 0, minReadySeconds: 1 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(scaled.json.metadata.generation).toBe(2)
    // Unconditional: the manager writes status too. A status write cannot change spec (nor generation).
    const { resourceVersion: _rv, ...meta } = scaled.json.metadata
    const status = await req('PUT', `${rcPath(ns, 'web')}/status`, {
      ...scaled.json,
      metadata: meta,
      spec: { replicas: 9 },
      status: { replicas: 0, observedGeneration: 2 },
    })
    expect(status.status, status.text).toBe(200)
    expect(status.json.metadata.generation).toBe(2)
    expect(status.json.spec.replicas).toBe(0)
  })

  it('serves the kubectl table and the status.replicas field selector', async () => {
    const ns = await makeNamespace('rcs')
    await req('POST', rcPath(ns), rc('web', 2))
    await settled(ns, 'web', 2)
    const t = await req('GET', rcPath(ns), undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
    expect(t.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    expect(t.json.rows[0].cells.slice(0, 4)).toEqual(['web', 2, 2, 2])
    expect(t.json.rows[0].cells.slice(5)).toEqual(['c', 'nginx:1.25', 'app=web'])
    const two = await req('GET', `${rcPath(ns)}?fieldSelector=status.replicas%3D2`)
    expect(two.json.items.map((i: any) => i.metadata.name)).toEqual(['web'])
    const three = await req('GET', `${rcPath(ns)}?fieldSelector=status.replicas%3D3`)
    expect(three.json.items).toEqual([])
  })
})

describe('replication manager', () => {
  it('creates replicas from the template, owned by the RC, and reports status', async () => {
    const ns = await makeNamespace('rcm')
    const created = await req('POST', rcPath(ns), rc('web', 3))
    expect(created.status, created.text).toBe(201)
    const { pods, rc: got } = await settled(ns, 'web', 3)
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^web-[a-z0-9]{5}$/)
      expect(p.metadata.generateName).toBe('web-')
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          name: 'web',
          uid: created.json.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ])
    }
    expect(got.status).toMatchObject({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    })
    const events = await req(
      'GET',
      `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name%3Dweb,reason%3DSuccessfulCreate`,
    )
    expect(events.json.items.length).toBe(3)
    expect(events.json.items[0].message).toMatch(/^Created pod: web-/)
  })

  it('scales up and down through /scale, deleting unready and newest pods first', async () => {
    const ns = await makeNamespace('rcm')
    await req('POST', rcPath(ns), rc('web', 2))
    const first = await settled(ns, 'web', 2)
    // Creation timestamps have second precision: make the first two visibly older.
    await new Promise((r) => setTimeout(r, 1100))
    const up = await scalePatch(ns, 'web', 5)
    expect(up.status, up.text).toBe(200)
    expect(up.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 5 },
      status: { selector: 'app=web' },
    })
    await settled(ns, 'web', 5)
    const down = await scalePatch(ns, 'web', 2)
    expect(down.status).toBe(200)
    const after = await settled(ns, 'web', 2)
    // The two oldest (first) pods survive.
    expect(after.pods.map((p: any) => p.metadata.name).sort()).toEqual(
      first.pods.map((p: any) => p.metadata.name).sort(),
    )
    const gen = await req('GET', rcPath(ns, 'web'))
    expect(gen.json.metadata.generation).toBe(3)
  })

  it('replaces a deleted pod', async () => {
    const ns = await makeNamespace('rcm')
    await req('POST', rcPath(ns), rc('web', 2))
    const { pods } = await settled(ns, 'web', 2)
    const victim = pods[0].metadata.name
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/pods/${victim}?gracePeriodSeconds=0`)).status).toBe(200)
    const again = await settled(ns, 'web', 2)
    expect(again.pods.map((p: any) => p.metadata.name)).not.toContain(victim)
  })

  it('adopts matching orphans instead of creating, and releases pods that stop matching', async () => {
    const ns = await makeNamespace('rcm')
    for (const n of ['orphan-a', 'orphan-b'])
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod(n, { app: 'web' }))).status).toBe(201)
    const created = await req('POST', rcPath(ns), rc('web', 3))
    const { pods } = await settled(ns, 'web', 3)
    const names = pods.map((p: any) => p.metadata.name)
    expect(names).toEqual(expect.arrayContaining(['orphan-a', 'orphan-b']))
    const adopted = pods.find((p: any) => p.metadata.name === 'orphan-a')
    expect(adopted.metadata.ownerReferences[0]).toMatchObject({
      kind: 'ReplicationController',
      uid: created.json.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    })
    // Relabelling a pod out of the selector releases it; the RC makes another.
    await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/orphan-b`,
      { metadata: { labels: { app: 'elsewhere' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    await settled(ns, 'web', 3)
    const released = await waitFor('release', async () => {
      const p = await req('GET', `/api/v1/namespaces/${ns}/pods/orphan-b`)
      return p.json.metadata.ownerReferences ? undefined : p.json
    })
    expect(released.metadata.labels).toEqual({ app: 'elsewhere' })
  })

  it('goes 2 -> 5 -> 3 without touching base beyond what was already created', async () => {
    const ns = await makeNamespace('rcm')
    await req('POST', rcPath(ns), rc('web', 2))
    const start = await settled(ns, 'web', 2)
    const w = await openWatch(
      `/api/v1/namespaces/${ns}/pods?watch=true&resourceVersion=${start.rc.metadata.resourceVersion}`,
    )
    const [five, three] = await Promise.all([scalePatch(ns, 'web', 5), scalePatch(ns, 'web', 3)])
    expect([five.status, three.status]).toEqual([200, 200])
    // Whichever landed last is the spec the manager converges to.
    const last = await req('GET', rcPath(ns, 'web'))
    const target = last.json.spec.replicas
    await settled(ns, 'web', target)
    const { events } = await w.rest(500)
    await w.cancel()
    const added = new Set(events.filter((e: any) => e.type === 'ADDED').map((e: any) => e.object.metadata.name))
    // Never more pods created than the largest spec asked for, minus the two that already existed.
    expect(added.size).toBeLessThanOrEqual(3)
    // A quick sequence of PUTs: 5 then 3 ends at 3.
    await scalePatch(ns, 'web', 5)
    await scalePatch(ns, 'web', 3)
    await settled(ns, 'web', 3)
  })

  it('converges to the last of a burst of replica changes', async () => {
    const ns = await makeNamespace('rcm')
    await req('POST', rcPath(ns), rc('web', 2))
    await settled(ns, 'web', 2)
    for (const n of [5, 1, 4, 3]) expect((await scalePatch(ns, 'web', n)).status).toBe(200)
    await settled(ns, 'web', 3)
  })

  it('deleting the RC deletes its pods (Background, the default)', async () => {
    const ns = await makeNamespace('rcd')
    await req('POST', rcPath(ns), rc('web', 2))
    await settled(ns, 'web', 2)
    const del = await req('DELETE', rcPath(ns, 'web'))
    expect(del.status).toBe(200)
    expect(del.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'web', kind: 'replicationcontrollers' },
    })
    await waitFor('pods gone', async () => ((await livePods(ns, 'app=web')).length === 0 ? true : undefined))
    expect((await req('GET', rcPath(ns, 'web'))).status).toBe(404)
  })

  it('Orphan keeps the pods and clears their ownerReferences', async () => {
    const ns = await makeNamespace('rcd')
    await req('POST', rcPath(ns), rc('web', 2))
    const { pods } = await settled(ns, 'web', 2)
    const del = await req('DELETE', rcPath(ns, 'web'), { propagationPolicy: 'Orphan' })
    expect(del.status).toBe(200)
    await waitFor('rc gone', async () => ((await req('GET', rcPath(ns, 'web'))).status === 404 ? true : undefined))
    const left = await waitFor('released pods', async () => {
      const live = await livePods(ns, 'app=web')
      return live.every((p) => !p.metadata.ownerReferences) ? live : undefined
    })
    expect(left.map((p) => p.metadata.name).sort()).toEqual(pods.map((p: any) => p.metadata.name).sort())
    // A new RC with the same selector adopts them rather than making more.
    await req('POST', rcPath(ns), rc('web', 2))
    const again = await settled(ns, 'web', 2)
    expect(again.pods.map((p: any) => p.metadata.name).sort()).toEqual(pods.map((p: any) => p.metadata.name).sort())
  })

  it('Foreground deletes the pods first, then the RC, and makes no new pods meanwhile', async () => {
    const ns = await makeNamespace('rcd')
    await req('POST', rcPath(ns), rc('web', 2))
    await settled(ns, 'web', 2)
    const del = await req('DELETE', rcPath(ns, 'web'), { propagationPolicy: 'Foreground' })
    expect(del.status).toBe(200)
    await waitFor('rc gone', async () => ((await req('GET', rcPath(ns, 'web'))).status === 404 ? true : undefined))
    const all = await req('GET', `/api/v1/namespaces/${ns}/pods`)
    expect(all.json.items).toEqual([])
  })

  it('counts a ready pod as available only after minReadySeconds (an alarm brings the manager back)', async () => {
    const ns = await makeNamespace('rcm')
    await req('POST', rcPath(ns), rc('web', 1, { app: 'web' }, { minReadySeconds: 2 }))
    const readyNotAvailable = await waitFor('ready', async () => {
      const g = await req('GET', rcPath(ns, 'web'))
      return g.json.status.readyReplicas === 1 ? g.json.status : undefined
    })
    expect(readyNotAvailable.availableReplicas).toBeUndefined()
    const available = await waitFor('available', async () => {
      const g = await req('GET', rcPath(ns, 'web'))
      return g.json.status.availableReplicas === 1 ? g.json.status : undefined
    })
    expect(available).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1 })
  })

  it('deletecollection by label deletes the RCs and then their pods', async () => {
    const ns = await makeNamespace('rcd')
    await req('POST', rcPath(ns), rc('a', 1))
    await req('POST', rcPath(ns), rc('b', 1))
    await settled(ns, 'a', 1)
    const del = await req('DELETE', `${rcPath(ns)}?labelSelector=app%3Da`)
    expect(del.status).toBe(200)
    expect(del.json.items.map((i: any) => i.metadata.name)).toEqual(['a'])
    await waitFor('pods of a gone', async () => ((await livePods(ns, 'app=a')).length === 0 ? true : undefined))
    await settled(ns, 'b', 1)
  })

  it('serves /scale with optimistic locking and validation, and /status', async () => {
    const ns = await makeNamespace('rcx')
    await req('POST', rcPath(ns), rc('web', 1))
    const s = await req('GET', `${rcPath(ns, 'web')}/scale`)
    expect(s.status).toBe(200)
    expect(s.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 1 },
    })
    const stale = await req('PUT', `${rcPath(ns, 'web')}/scale`, {
      ...s.json,
      metadata: { ...s.json.metadata, resourceVersion: '1' },
      spec: { replicas: 2 },
    })
    expect(stale.status).toBe(409)
    const { resourceVersion: _rv, ...unconditional } = s.json.metadata
    const put = await req('PUT', `${rcPath(ns, 'web')}/scale`, {
      ...s.json,
      metadata: unconditional,
      spec: { replicas: 0 },
    })
    expect(put.status, put.text).toBe(200)
    expect(put.json.spec.replicas).toBe(0)
    const neg = await scalePatch(ns, 'web', -1)
    expect(neg.status).toBe(422)
    expect(neg.json.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0')
    const missing = await req('GET', `${rcPath(ns, 'nope')}/scale`)
    expect(missing.status).toBe(404)
    const status = await req('GET', `${rcPath(ns, 'web')}/status`)
    expect(status.json.kind).toBe('ReplicationController')
    const disc = await req('GET', '/api/v1')
    const names = disc.json.resources.map((r: any) => r.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'replicationcontrollers',
        'replicationcontrollers/scale',
        'replicationcontrollers/status',
      ]),
    )
    expect(disc.json.resources.find((r: any) => r.name === 'replicationcontrollers')).toMatchObject({
      shortNames: ['rc'],
      categories: ['all'],
      storageVersionHash: 'Jond2If31h0=',
    })
  })
})
