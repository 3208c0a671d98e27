// Rollouts with exact watch events: revision 1 to 2 with maxSurge 1 / maxUnavailable 0 scales the new ReplicaSet up
// and the old one down one pod at a time and never has fewer than the desired ready pods; Recreate starts no new pod
// before every old one is gone; undo (as kubectl does it) brings revision 1 back as revision 3; a paused Deployment
// rolls out nothing until resumed.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req, waitFor } from '../helpers'
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

const isReady = (p: any) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')

/** Lists `path` and opens a watch from the list's resourceVersion. */
async function listAndWatch(path: string) {
  const list = (await req('GET', path)).json
  const watch = await openWatch(`${path}?watch=true&resourceVersion=${list.metadata.resourceVersion}`)
  return { items: list.items as any[], watch }
}

describe('deployment rollouts', () => {
  it('maxSurge 1 / maxUnavailable 0: one up, one down, never below 3 ready pods nor above 4 pods', async () => {
    const ns = await makeNamespace('roll')
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
    await req('POST', dPath(ns), deployment('web', 3, 'nginx:1', { strategy }))
    await rolledOut(ns, 'web')
    const [old] = await replicaSets(ns)
    const pods = await listAndWatch(podsPath(ns))
    const sets = await listAndWatch(rsPath(ns))
    const deployments = await listAndWatch(dPath(ns))
    expect((await setImage(ns, 'web', 'nginx:2')).status).toBe(200)
    const d = await rolledOut(ns, 'web')
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2')
    const [, fresh] = await replicaSets(ns)

    // The Progressing condition through the rollout, as kube reports it.
    const progress: string[] = []
    for (const e of (await deployments.watch.rest(300)).events) {
      const c = (e.object.status?.conditions ?? []).find((x: any) => x.type === 'Progressing')
      const line = `${c?.reason}: ${c?.message}`
      if (progress.at(-1) !== line) progress.push(line)
    }
    await deployments.watch.cancel()
    expect(progress).toEqual([
      `NewReplicaSetAvailable: ReplicaSet "${old.metadata.name}" has successfully progressed.`,
      `NewReplicaSetCreated: Created new replica set "${fresh.metadata.name}"`,
      `ReplicaSetUpdated: ReplicaSet "${fresh.metadata.name}" is progressing.`,
      `NewReplicaSetAvailable: ReplicaSet "${fresh.metadata.name}" has successfully progressed.`,
    ])

    // The ReplicaSets' sizes, in the order they were written.
    const sizes: string[] = []
    const last = new Map<string, number>()
    for (const e of (await sets.watch.rest(300)).events) {
      const name = e.object.metadata.name
      const n = e.object.spec.replicas
      if (last.get(name) === n) continue
      last.set(name, n)
      sizes.push(`${name === old.metadata.name ? 'old' : name === fresh.metadata.name ? 'new' : name}:${n}`)
    }
    await sets.watch.cancel()
    expect(sizes).toEqual(['new:1', 'old:2', 'new:2', 'old:1', 'new:3', 'old:0'])

    // Replaying the pod events: ready, non-terminating pods never below 3; non-terminating pods never above 4.
    const live = new Map<string, any>(pods.items.map((p) => [p.metadata.name, p]))
    const counts = () => {
      const running = [...live.values()].filter((p) => !p.metadata.deletionTimestamp)
      return { ready: running.filter(isReady).length, total: running.length }
    }
    expect(counts()).toEqual({ ready: 3, total: 3 })
    let minReady = 3
    let maxTotal = 3
    for (const e of (await pods.watch.rest(300)).events) {
      if (e.type === 'DELETED') live.delete(e.object.metadata.name)
      else live.set(e.object.metadata.name, e.object)
      const c = counts()
      minReady = Math.min(minReady, c.ready)
      maxTotal = Math.max(maxTotal, c.total)
    }
    await pods.watch.cancel()
    expect(minReady).toBe(3)
    expect(maxTotal).toBe(4)
    const hashes = [...live.values()].map((p) => p.metadata.labels['pod-template-hash'])
    expect(hashes).toEqual(Array(3).fill(fresh.metadata.labels['pod-template-hash']))

    const events = await req('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DScalingReplicaSet`)
    const messages = events.json.items.map((e: any) => e.message)
    for (const m of [
      `Scaled up replica set ${fresh.metadata.name} to 1`,
      `Scaled down replica set ${old.metadata.name} to 2 from 3`,
      `Scaled up replica set ${fresh.metadata.name} to 2 from 1`,
      `Scaled down replica set ${old.metadata.name} to 0 from 1`,
    ])
      expect(messages).toContain(m)
  })

  it('scaled mid-rollout: the replicas added are shared in proportion between the old and new ReplicaSets', async () => {
    const ns = await makeNamespace('roll')
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
    await req('POST', dPath(ns), deployment('web', 4, 'nginx:1', { strategy }))
    await rolledOut(ns, 'web')
    // The new pods never become ready (a readiness gate nobody sets): the rollout stays at old 4 / new 1.
    const stuck = {
      spec: {
        template: {
          spec: {
            readinessGates: [{ conditionType: 'example.com/never' }],
            containers: [{ name: 'c', image: 'nginx:2' }],
          },
        },
      },
    }
    expect(
      (await req('PATCH', dPath(ns, 'web'), stuck, { 'content-type': 'application/strategic-merge-patch+json' }))
        .status,
    ).toBe(200)
    await waitFor('new at 1', async () => {
      const rss = await replicaSets(ns)
      return rss.length === 2 && rss[1].spec.replicas === 1 && rss[1].status.replicas === 1 ? rss : undefined
    })
    expect((await mergePatch(`${dPath(ns, 'web')}/scale`, { spec: { replicas: 8 } })).status).toBe(200)
    // 9 allowed (8 + surge 1), 5 present: 4 to add, by GetProportion (7.2 -> 7 for the old, 1.8 -> 2 for the new).
    const rss = await waitFor('scaled', async () => {
      const all = await replicaSets(ns)
      return all.map((x: any) => x.spec.replicas).join() === '7,2' ? all : undefined
    })
    for (const rs of rss) {
      expect(rs.metadata.annotations['deployment.kubernetes.io/desired-replicas']).toBe('8')
      expect(rs.metadata.annotations['deployment.kubernetes.io/max-replicas']).toBe('9')
    }
  })

  it('Recreate: every old pod is gone before the first new one is created', async () => {
    const ns = await makeNamespace('roll')
    await req('POST', dPath(ns), deployment('web', 2, 'nginx:1', { strategy: { type: 'Recreate' } }))
    await rolledOut(ns, 'web')
    const [old] = await replicaSets(ns)
    const oldHash = old.metadata.labels['pod-template-hash']
    const pods = await listAndWatch(podsPath(ns))
    expect((await setImage(ns, 'web', 'nginx:2')).status).toBe(200)
    await rolledOut(ns, 'web')
    const { events } = await pods.watch.rest(300)
    await pods.watch.cancel()
    const hashOf = (e: any) => e.object.metadata.labels['pod-template-hash']
    const lastOldGone = events.findLastIndex((e: any) => e.type === 'DELETED' && hashOf(e) === oldHash)
    const firstNew = events.findIndex((e: any) => e.type === 'ADDED' && hashOf(e) !== oldHash)
    expect(events.filter((e: any) => e.type === 'DELETED' && hashOf(e) === oldHash)).toHaveLength(2)
    expect(lastOldGone).toBeGreaterThanOrEqual(0)
    expect(firstNew).toBeGreaterThan(lastOldGone)
    const rss = await replicaSets(ns)
    expect(rss.map((rs: any) => rs.spec.replicas)).toEqual([0, 2])
  })

  it('undo as kubectl does it: the revision 1 template patched back makes its ReplicaSet revision 3', async () => {
    const ns = await makeNamespace('roll')
    await req('POST', dPath(ns), deployment('web', 2, 'nginx:1'))
    await rolledOut(ns, 'web')
    await setImage(ns, 'web', 'nginx:2')
    await rolledOut(ns, 'web')
    const [first, second] = await replicaSets(ns)
    // kubectl rollout undo: the template of revision 1 without its hash label, the annotations recomputed.
    const template = structuredClone(first.spec.template)
    delete template.metadata.labels['pod-template-hash']
    const patch = [
      { op: 'replace', path: '/spec/template', value: template },
      { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '2' } },
    ]
    const undone = await req('PATCH', dPath(ns, 'web'), patch, { 'content-type': 'application/json-patch+json' })
    expect(undone.status, undone.text).toBe(200)
    const d = await rolledOut(ns, 'web')
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3')
    const rss = await replicaSets(ns)
    expect(rss.map((rs: any) => rs.metadata.name)).toEqual([second.metadata.name, first.metadata.name])
    expect(rss[1].metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    })
    expect(rss.map((rs: any) => rs.spec.replicas)).toEqual([0, 2])
  })

  it('paused: a template change makes no ReplicaSet until resumed; the Progressing condition says so', async () => {
    const ns = await makeNamespace('roll')
    await req('POST', dPath(ns), deployment('web', 2, 'nginx:1'))
    await rolledOut(ns, 'web')
    expect((await mergePatch(dPath(ns, 'web'), { spec: { paused: true } })).status).toBe(200)
    await setImage(ns, 'web', 'nginx:2')
    const paused = await waitFor('paused noted', async () => {
      const g = (await req('GET', dPath(ns, 'web'))).json
      const c = (g.status.conditions ?? []).find((x: any) => x.type === 'Progressing')
      return g.status.observedGeneration === g.metadata.generation && c?.reason === 'DeploymentPaused' ? c : undefined
    })
    expect(paused).toMatchObject({ status: 'Unknown', message: 'Deployment is paused' })
    expect(await replicaSets(ns)).toHaveLength(1)
    expect((await mergePatch(dPath(ns, 'web'), { spec: { paused: false } })).status).toBe(200)
    await rolledOut(ns, 'web')
    const rss = await replicaSets(ns)
    expect(rss.map((rs: any) => [rs.spec.template.spec.containers[0].image, rs.spec.replicas])).toEqual([
      ['nginx:1', 0],
      ['nginx:2', 2],
    ])
  })
})
