// The replica set controller (the replication manager's core with set-based selectors) through the Worker: pods made
// from the template and owned by the ReplicaSet, status, adoption and release by a matchExpressions selector, /scale
// with the selector's String() form, and deletion taking the pods along.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

const SELECTOR = {
  matchLabels: { app: 'web' },
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }],
}
const rs = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: {
    replicas,
    selector: SELECTOR,
    template: {
      metadata: { labels: { app: 'web', tier: 'front' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
    },
  },
})
const rsPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/replicasets${name ? `/${name}` : ''}`
const SELECTOR_TEXT = 'app=web,tier in (edge,front)'

async function livePods(ns: string) {
  const r = await req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(SELECTOR_TEXT)}`)
  return (r.json.items as any[]).filter((p) => !p.metadata.deletionTimestamp)
}

/** Waits until exactly n live pods match and the ReplicaSet reports them all ready and available. */
async function settled(ns: string, name: string, n: number) {
  return waitFor(`${n} ready replicas of ${name}`, async () => {
    const pods = await livePods(ns)
    const got = await req('GET', rsPath(ns, name))
    const s = got.json.status
    const ok =
      pods.length === n &&
      s.replicas === n &&
      (s.readyReplicas ?? 0) === n &&
      (s.availableReplicas ?? 0) === n &&
      s.observedGeneration === got.json.metadata.generation
    return ok ? { pods, rs: got.json } : undefined
  })
}

describe('replica set controller', () => {
  it('creates pods from the template, owned by the ReplicaSet, and reports status and events', async () => {
    const ns = await makeNamespace('rsc')
    const created = await req('POST', rsPath(ns), rs('web', 3))
    expect(created.status, created.text).toBe(201)
    const { pods, rs: got } = await settled(ns, 'web', 3)
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^web-[a-z0-9]{5}$/)
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: created.json.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ])
    }
    expect(got.status).toEqual({
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
    expect(events.json.items[0].source).toEqual({ component: 'replicaset-controller' })
    expect(events.json.items[0].involvedObject).toMatchObject({ kind: 'ReplicaSet', apiVersion: 'apps/v1' })
  })

  it('adopts orphans its set-based selector matches, leaves others, and releases pods that stop matching', async () => {
    const ns = await makeNamespace('rsc')
    const podsPath = `/api/v1/namespaces/${ns}/pods`
    expect((await req('POST', podsPath, pod('orphan-edge', { app: 'web', tier: 'edge' }))).status).toBe(201)
    expect((await req('POST', podsPath, pod('orphan-back', { app: 'web', tier: 'back' }))).status).toBe(201)
    const created = await req('POST', rsPath(ns), rs('web', 2))
    const { pods } = await settled(ns, 'web', 2)
    expect(pods.map((p: any) => p.metadata.name)).toContain('orphan-edge')
    const back = await req('GET', `${podsPath}/orphan-back`)
    expect(back.json.metadata.ownerReferences).toBeUndefined()
    const edge = pods.find((p: any) => p.metadata.name === 'orphan-edge')
    expect(edge.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', uid: created.json.metadata.uid })
    // Out of the selector: released, and replaced. fullyLabeledReplicas counts only pods with the template's labels.
    await req(
      'PATCH',
      `${podsPath}/orphan-edge`,
      { metadata: { labels: { app: 'web', tier: 'gone' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    const after = await settled(ns, 'web', 2)
    expect(after.pods.map((p: any) => p.metadata.name)).not.toContain('orphan-edge')
    const released = await req('GET', `${podsPath}/orphan-edge`)
    expect(released.json.metadata.ownerReferences).toBeUndefined()
  })

  it('serves /scale with the selector in its String() form and scales through it', async () => {
    const ns = await makeNamespace('rsc')
    await req('POST', rsPath(ns), rs('web', 1))
    await settled(ns, 'web', 1)
    const scale = await req('GET', `${rsPath(ns, 'web')}/scale`)
    expect(scale.status, scale.text).toBe(200)
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 1 },
      status: { replicas: 1, selector: SELECTOR_TEXT },
    })
    const up = await req(
      'PATCH',
      `${rsPath(ns, 'web')}/scale`,
      { spec: { replicas: 4 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(up.status, up.text).toBe(200)
    await settled(ns, 'web', 4)
    const down = await req('PUT', `${rsPath(ns, 'web')}/scale`, {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web' },
      spec: { replicas: 2 },
    })
    expect(down.status, down.text).toBe(200)
    const { rs: got } = await settled(ns, 'web', 2)
    expect(got.metadata.generation).toBe(3)
  })

  it('deleting the ReplicaSet deletes its pods', async () => {
    const ns = await makeNamespace('rsc')
    await req('POST', rsPath(ns), rs('web', 2))
    await settled(ns, 'web', 2)
    const del = await req('DELETE', rsPath(ns, 'web'))
    expect(del.status, del.text).toBe(200)
    expect(del.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'web', group: 'apps' } })
    await waitFor('pods gone', async () => (await livePods(ns)).length === 0)
  })

  it('serves the table and the status.replicas field selector', async () => {
    const ns = await makeNamespace('rsc')
    await req('POST', rsPath(ns), rs('web', 2))
    await settled(ns, 'web', 2)
    const t = await req('GET', rsPath(ns), undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
    expect(t.json.rows[0].cells).toEqual(['web', 2, 2, 2, expect.any(String), 'c', 'nginx:1.25', SELECTOR_TEXT])
    const two = await req('GET', `${rsPath(ns)}?fieldSelector=status.replicas%3D2`)
    expect(two.json.items.map((i: any) => i.metadata.name)).toEqual(['web'])
  })
})
