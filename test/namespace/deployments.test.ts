// The deployment controller through the Worker: the first rollout (ReplicaSet name, labels, annotations, status and
// conditions as kube reports them), scaling, the progress deadline, revision history, adoption and deletion.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'
import {
  deployment,
  dPath,
  mergePatch,
  podsPath,
  replicaSets,
  rolledOut,
  rsPath,
  setImage,
} from './deployment-fixtures'

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

describe('deployment controller', () => {
  it('rolls out a new Deployment through a ReplicaSet named for its pod-template-hash', async () => {
    const ns = await makeNamespace('dep')
    const created = await req('POST', dPath(ns), deployment('web', 3))
    expect(created.status, created.text).toBe(201)
    const d = await rolledOut(ns, 'web')
    const [rs] = await replicaSets(ns)
    const hash = rs.metadata.labels['pod-template-hash']
    // SafeEncodeString of a decimal uint32: digits map into 4-9, b, c, d, f.
    expect(hash).toMatch(/^[4-9bcdf]{1,10}$/)
    expect(rs.metadata.name).toBe(`web-${hash}`)
    expect(rs.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash })
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
      'deployment.kubernetes.io/revision': '1',
    })
    expect(rs.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: created.json.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } })
    expect(rs.spec.template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash })
    const pods = (await req('GET', podsPath(ns))).json.items
    expect(pods.map((p: any) => p.metadata.labels)).toEqual(Array(3).fill({ app: 'web', 'pod-template-hash': hash }))
    expect(d.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' })
    expect(d.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: expect.stringMatching(TIME),
          lastTransitionTime: expect.stringMatching(TIME),
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: expect.stringMatching(TIME),
          lastTransitionTime: expect.stringMatching(TIME),
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "web-${hash}" has successfully progressed.`,
        },
      ],
    })
    const events = await req('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name%3Dweb`)
    expect(events.json.items.map((e: any) => [e.reason, e.message, e.source.component])).toEqual([
      ['ScalingReplicaSet', `Scaled up replica set web-${hash} to 3`, 'deployment-controller'],
    ])
  })

  it('scales through /scale: the ReplicaSet follows with its replicas annotations, an event says from what', async () => {
    const ns = await makeNamespace('dep')
    await req('POST', dPath(ns), deployment('web', 2))
    await rolledOut(ns, 'web')
    const scale = await req('GET', `${dPath(ns, 'web')}/scale`)
    expect(scale.json).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=web' } })
    const up = await mergePatch(`${dPath(ns, 'web')}/scale`, { spec: { replicas: 5 } })
    expect(up.status, up.text).toBe(200)
    await rolledOut(ns, 'web')
    const [rs] = await replicaSets(ns)
    expect(rs.spec.replicas).toBe(5)
    expect(rs.metadata.annotations['deployment.kubernetes.io/desired-replicas']).toBe('5')
    expect(rs.metadata.annotations['deployment.kubernetes.io/max-replicas']).toBe('7')
    const events = await req('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DScalingReplicaSet`)
    expect(events.json.items.map((e: any) => e.message)).toContain(
      `Scaled up replica set ${rs.metadata.name} to 5 from 2`,
    )
  })

  it('reports ProgressDeadlineExceeded when pods never become ready within progressDeadlineSeconds', async () => {
    const ns = await makeNamespace('dep')
    const body = deployment('web', 1, 'nginx:1.25', { progressDeadlineSeconds: 2 })
    ;(body.spec.template.spec as any).readinessGates = [{ conditionType: 'example.com/never' }]
    await req('POST', dPath(ns), body)
    const d = await waitFor(
      'timed out',
      async () => {
        const g = (await req('GET', dPath(ns, 'web'))).json
        const c = (g.status?.conditions ?? []).find((x: any) => x.type === 'Progressing')
        return c?.reason === 'ProgressDeadlineExceeded' ? g : undefined
      },
      10_000,
    )
    const [rs] = await replicaSets(ns)
    const byType = Object.fromEntries(d.status.conditions.map((c: any) => [c.type, c]))
    expect(byType.Progressing).toMatchObject({
      status: 'False',
      message: `ReplicaSet "${rs.metadata.name}" has timed out progressing.`,
    })
    expect(byType.Available).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    })
    expect(d.status).toMatchObject({ replicas: 1, updatedReplicas: 1, unavailableReplicas: 1 })
  })

  it('keeps revisionHistoryLimit old ReplicaSets', async () => {
    const ns = await makeNamespace('dep')
    await req('POST', dPath(ns), deployment('web', 1, 'nginx:1', { revisionHistoryLimit: 1 }))
    await rolledOut(ns, 'web')
    for (const image of ['nginx:2', 'nginx:3']) {
      expect((await setImage(ns, 'web', image)).status).toBe(200)
      await rolledOut(ns, 'web')
    }
    const rss = await waitFor('history trimmed', async () => {
      const all = await replicaSets(ns)
      return all.length === 2 ? all : undefined
    })
    expect(rss.map((rs: any) => rs.metadata.annotations['deployment.kubernetes.io/revision'])).toEqual(['2', '3'])
    expect(rss.map((rs: any) => rs.spec.template.spec.containers[0].image)).toEqual(['nginx:2', 'nginx:3'])
  })

  it('adopts an orphan ReplicaSet with its template as the new one', async () => {
    const ns = await makeNamespace('dep')
    const d = deployment('web', 2)
    const orphan = await req('POST', rsPath(ns), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-handmade', labels: { app: 'web' } },
      spec: { replicas: 2, selector: d.spec.selector, template: d.spec.template },
    })
    expect(orphan.status, orphan.text).toBe(201)
    const created = await req('POST', dPath(ns), d)
    await rolledOut(ns, 'web')
    const rss = await replicaSets(ns)
    expect(rss.map((rs: any) => rs.metadata.name)).toEqual(['web-handmade'])
    expect(rss[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', uid: created.json.metadata.uid })
    expect(rss[0].metadata.annotations['deployment.kubernetes.io/revision']).toBe('1')
  })

  it('orphaned by a delete, the ReplicaSet and its pods stay; a new Deployment with the same template adopts them', async () => {
    const ns = await makeNamespace('dep')
    await req('POST', dPath(ns), deployment('web', 2))
    await rolledOut(ns, 'web')
    const [rs] = await replicaSets(ns)
    const del = await req('DELETE', `${dPath(ns, 'web')}?propagationPolicy=Orphan`)
    expect(del.status, del.text).toBe(200)
    const orphan = await waitFor('orphaned', async () => {
      const got = (await req('GET', rsPath(ns, rs.metadata.name))).json
      const gone = (await req('GET', dPath(ns, 'web'))).status === 404
      return gone && !got.metadata.ownerReferences ? got : undefined
    })
    expect(orphan.spec.replicas).toBe(2)
    const again = await req('POST', dPath(ns), deployment('web', 2))
    await rolledOut(ns, 'web')
    const rss = await replicaSets(ns)
    expect(rss.map((x: any) => x.metadata.name)).toEqual([rs.metadata.name])
    expect(rss[0].metadata.ownerReferences[0].uid).toBe(again.json.metadata.uid)
    const pods = (await req('GET', podsPath(ns))).json.items
    expect(pods.map((p: any) => p.metadata.ownerReferences[0].uid)).toEqual([rs.metadata.uid, rs.metadata.uid])
  })

  it('deleting the Deployment takes its ReplicaSets and pods along', async () => {
    const ns = await makeNamespace('dep')
    await req('POST', dPath(ns), deployment('web', 2))
    await rolledOut(ns, 'web')
    const del = await req('DELETE', dPath(ns, 'web'))
    expect(del.status, del.text).toBe(200)
    await waitFor('all gone', async () => {
      const rss = (await req('GET', rsPath(ns))).json.items
      const pods = (await req('GET', podsPath(ns))).json.items
      return rss.length === 0 && pods.length === 0
    })
  })

  it('a Deployment selecting everything is refused at create (empty selector)', async () => {
    const ns = await makeNamespace('dep')
    const body = deployment('web', 1)
    body.spec.selector = {} as any
    const r = await req('POST', dPath(ns), body)
    expect(r.status).toBe(422)
    expect(r.json.message).toContain('empty selector is invalid for deployment')
  })
})
