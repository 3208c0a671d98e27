// StatefulSets end to end in the namespace object: OrderedReady creation (web-0, web-1, web-2, each only once its
// predecessor is Ready, exact watch events) and scale-down from the highest ordinal (web-2, then web-1); identity
// (names, hostname and subdomain, labels, revision); a partitioned rolling update from the highest ordinal down;
// OnDelete; Parallel; claims from volumeClaimTemplates; the status kube reports and ControllerRevisions.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req, sleep, waitFor } from '../helpers'

const GATE = 'example.com/ready'
const stsPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/statefulsets${name ? `/${name}` : ''}`
const podsPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const MERGE = { 'content-type': 'application/merge-patch+json' }

const statefulSet = (
  name: string,
  replicas: number,
  extra: Record<string, unknown> = {},
  podSpec: Record<string, unknown> = {},
) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...podSpec },
    },
    ...extra,
  },
})
const gated = { readinessGates: [{ conditionType: GATE }] }
const isReady = (p: any) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')

async function livePods(ns: string, app: string) {
  const r = await req('GET', `${podsPath(ns)}?labelSelector=app%3D${app}`)
  return (r.json.items as any[])
    .filter((p) => !p.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
}

/** Opens the readiness gate of a pod; waits until it is Ready. */
async function makeReady(ns: string, name: string) {
  const r = await req(
    'PATCH',
    `${podsPath(ns, name)}/status`,
    { status: { conditions: [{ type: GATE, status: 'True' }] } },
    {
      'content-type': 'application/strategic-merge-patch+json',
    },
  )
  expect(r.status, r.text).toBe(200)
  await waitFor(`${name} ready`, async () => (isReady((await req('GET', podsPath(ns, name))).json) ? true : undefined))
}

/** Waits until the set reports n ready replicas at one revision for its latest generation. */
const settled = (ns: string, name: string, n: number) =>
  waitFor(
    `${name} settled at ${n}`,
    async () => {
      const s = (await req('GET', stsPath(ns, name))).json
      const st = s.status ?? {}
      return st.observedGeneration === s.metadata.generation &&
        st.replicas === n &&
        (st.readyReplicas ?? 0) === n &&
        (st.updatedReplicas ?? 0) === n &&
        st.currentRevision === st.updateRevision &&
        (await livePods(ns, name)).length === n
        ? s
        : undefined
    },
    20_000,
  )

describe('StatefulSet controller', () => {
  it('OrderedReady: web-0, web-1, web-2 in order, each once its predecessor is Ready; scale down web-2 then web-1', async () => {
    const ns = await makeNamespace('sts')
    const created = await req('POST', stsPath(ns), statefulSet('web', 3, {}, gated))
    expect(created.status, created.text).toBe(201)
    const watch = await openWatch(
      `${podsPath(ns)}?watch=true&labelSelector=app%3Dweb&resourceVersion=${created.json.metadata.resourceVersion}`,
    )
    const next = async (type: string, name: string) =>
      waitFor(`${type} ${name}`, async () => {
        const e = await watch.next(2000)
        return e && e.type === type && e.object.metadata.name === name ? e : undefined
      })
    const first = await next('ADDED', 'web-0')
    await sleep(300)
    // web-0 is running but not Ready: nothing else is made.
    expect((await livePods(ns, 'web')).map((p) => p.metadata.name)).toEqual(['web-0'])
    await makeReady(ns, 'web-0')
    await next('ADDED', 'web-1')
    await sleep(200)
    expect((await livePods(ns, 'web')).map((p) => p.metadata.name)).toEqual(['web-0', 'web-1'])
    await makeReady(ns, 'web-1')
    await next('ADDED', 'web-2')
    await makeReady(ns, 'web-2')
    const set = await settled(ns, 'web', 3)
    const revision = set.status.updateRevision
    expect(revision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/)
    expect(set.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
      availableReplicas: 3,
    })
    // Identity: names, hostname and subdomain, labels, owner.
    const pod0 = first.object
    expect(pod0.metadata.ownerReferences[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', controller: true })
    expect(pod0.metadata.generateName).toBeUndefined()
    expect(pod0.spec.hostname).toBe('web-0')
    expect(pod0.spec.subdomain).toBe('web')
    expect(pod0.metadata.labels).toEqual({
      app: 'web',
      'apps.kubernetes.io/pod-index': '0',
      'controller-revision-hash': revision,
      'statefulset.kubernetes.io/pod-name': 'web-0',
    })
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]
    expect(events.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message)).toEqual([
      'create Pod web-0 in StatefulSet web successful',
      'create Pod web-1 in StatefulSet web successful',
      'create Pod web-2 in StatefulSet web successful',
    ])

    // Scale down to 1: web-2 goes first, web-1 only once web-2 is gone.
    expect((await req('PATCH', `${stsPath(ns, 'web')}/scale`, { spec: { replicas: 1 } }, MERGE)).status).toBe(200)
    const deletions: string[] = []
    await waitFor('web-2 and web-1 deleted', async () => {
      const e = await watch.next(2000)
      if (e?.type === 'DELETED') deletions.push(e.object.metadata.name)
      if (
        e?.type === 'MODIFIED' &&
        e.object.metadata.deletionTimestamp &&
        !deletions.includes(`~${e.object.metadata.name}`)
      )
        deletions.push(`~${e.object.metadata.name}`)
      return deletions.filter((d) => !d.startsWith('~')).length === 2 ? true : undefined
    })
    // ~x: x is being deleted; x: x is gone. web-1's deletion starts only after web-2 is gone.
    expect(deletions).toEqual(['~web-2', 'web-2', '~web-1', 'web-1'])
    await settled(ns, 'web', 1)
    await watch.cancel()
  })

  it('a partitioned rolling update replaces the ordinals at and above the partition, highest first; then the rest', async () => {
    const ns = await makeNamespace('sts')
    const spec = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }
    expect((await req('POST', stsPath(ns), statefulSet('db', 3, spec))).status).toBe(201)
    const before = await settled(ns, 'db', 3)
    const oldRevision = before.status.currentRevision
    const watch = await openWatch(
      `${podsPath(ns)}?watch=true&labelSelector=app%3Ddb&resourceVersion=${before.metadata.resourceVersion}`,
    )
    const image = { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }
    expect(
      (await req('PATCH', stsPath(ns, 'db'), image, { 'content-type': 'application/strategic-merge-patch+json' }))
        .status,
    ).toBe(200)
    const partial = await waitFor('two pods updated', async () => {
      const s = (await req('GET', stsPath(ns, 'db'))).json
      return s.status.updatedReplicas === 2 && s.status.readyReplicas === 3 ? s : undefined
    })
    expect(partial.status).toMatchObject({
      replicas: 3,
      currentReplicas: 1,
      updatedReplicas: 2,
      currentRevision: oldRevision,
    })
    const newRevision = partial.status.updateRevision
    expect(newRevision).not.toBe(oldRevision)
    const pods = await livePods(ns, 'db')
    expect(
      pods.map((p) => [p.metadata.name, p.metadata.labels['controller-revision-hash'], p.spec.containers[0].image]),
    ).toEqual([
      ['db-0', oldRevision, 'nginx:1.25'],
      ['db-1', newRevision, 'nginx:1.27'],
      ['db-2', newRevision, 'nginx:1.27'],
    ])
    // Highest ordinal first: db-2 was deleted before db-1.
    const order = (await watch.take(200, 500)).filter((e) => e.type === 'DELETED').map((e) => e.object.metadata.name)
    expect(order).toEqual(['db-2', 'db-1'])
    const revs = (await req('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).json.items as any[]
    expect(revs.map((r) => [r.metadata.name, r.revision]).sort()).toEqual(
      [
        [oldRevision, 1],
        [newRevision, 2],
      ].sort(),
    )

    // Partition 0: db-0 follows, and the update revision becomes the current one.
    expect(
      (await req('PATCH', stsPath(ns, 'db'), { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, MERGE))
        .status,
    ).toBe(200)
    const done = await settled(ns, 'db', 3)
    expect(done.status).toMatchObject({ currentRevision: newRevision, currentReplicas: 3, updatedReplicas: 3 })
    await watch.cancel()
  })

  it('OnDelete keeps pods until they are deleted; Parallel creates every pod without waiting', async () => {
    const ns = await makeNamespace('sts')
    expect(
      (await req('POST', stsPath(ns), statefulSet('od', 2, { updateStrategy: { type: 'OnDelete' } }))).status,
    ).toBe(201)
    await settled(ns, 'od', 2)
    const patch = { spec: { template: { metadata: { annotations: { v: '2' } } } } }
    expect((await req('PATCH', stsPath(ns, 'od'), patch, MERGE)).status).toBe(200)
    const kept = await waitFor('observed', async () => {
      const s = (await req('GET', stsPath(ns, 'od'))).json
      return s.status.observedGeneration === 2 ? s : undefined
    })
    expect(kept.status.currentRevision).not.toBe(kept.status.updateRevision)
    expect((await livePods(ns, 'od')).every((p) => p.metadata.annotations?.v === undefined)).toBe(true)
    expect((await req('DELETE', podsPath(ns, 'od-1'))).status).toBe(200)
    await waitFor('od-1 back at the new revision', async () => {
      const p = (await req('GET', podsPath(ns, 'od-1'))).json
      return p.metadata?.annotations?.v === '2' && !p.metadata.deletionTimestamp ? true : undefined
    })

    expect(
      (await req('POST', stsPath(ns), statefulSet('par', 3, { podManagementPolicy: 'Parallel' }, gated))).status,
    ).toBe(201)
    const all = await waitFor('three pods at once', async () => {
      const pods = await livePods(ns, 'par')
      return pods.length === 3 ? pods : undefined
    })
    expect(all.some(isReady)).toBe(false)
  })

  it('volumeClaimTemplates give each pod a claim volume named <template>-<set>-<ordinal>', async () => {
    const ns = await makeNamespace('sts')
    const claims = [
      {
        metadata: { name: 'data', labels: { tier: 'db' } },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ]
    const body = statefulSet('pg', 2, { volumeClaimTemplates: claims })
    ;(body.spec.template.spec as any).volumes = [
      { name: 'data', emptyDir: {} },
      { name: 'tmp', emptyDir: {} },
    ]
    expect((await req('POST', stsPath(ns), body)).status).toBe(201)
    await settled(ns, 'pg', 2)
    const pods = await livePods(ns, 'pg')
    // ServiceAccount admission appends its API access volume to each pod, as in kube.
    const kind = (v: any) => v.persistentVolumeClaim?.claimName ?? (v.projected ? 'projected' : 'emptyDir')
    expect(pods[1].spec.volumes.map((v: any) => [v.name, kind(v)])).toEqual([
      ['data', 'data-pg-1'],
      ['tmp', 'emptyDir'],
      [expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/), 'projected'],
    ])
    // Claims are made only when the PersistentVolumeClaim kind is served (no storage is simulated: they stay Pending).
    const served = ((await req('GET', '/api/v1')).json.resources as any[]).some(
      (r) => r.name === 'persistentvolumeclaims',
    )
    const pvc = await req('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data-pg-0`)
    if (served) {
      expect(pvc.status).toBe(200)
      expect(pvc.json.metadata.labels).toEqual({ tier: 'db', app: 'pg' })
    } else expect(pvc.status).toBe(404)
  })
})
