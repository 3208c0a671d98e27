// DaemonSets end to end in the namespace object: one pod per node (exact watch events), pinned by node affinity and
// bound by the scheduler, with the daemon tolerations and revision labels; a node added gets a pod and a node removed
// loses it (the cluster object tells the namespace); node selectors and taints; RollingUpdate with maxUnavailable or
// maxSurge never leaving more nodes without an available pod than allowed; OnDelete; ControllerRevisions; status.
import { describe, expect, it } from 'vitest'
import { virtualNode } from '../../src/registry/virtual-nodes'
import { makeNamespace, openWatch, req, waitFor } from '../helpers'

const dsPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/daemonsets${name ? `/${name}` : ''}`
const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`
const MERGE = { 'content-type': 'application/merge-patch+json' }

const daemonSet = (name: string, extra: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...podSpec },
    },
    ...extra,
  },
})

const target = (p: any) =>
  p.spec.nodeName ??
  p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
    ?.matchFields?.[0]?.values?.[0]
const ready = (p: any) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')

async function livePods(ns: string, app: string) {
  const r = await req('GET', `${podsPath(ns)}?labelSelector=app%3D${app}`)
  return (r.json.items as any[]).filter((p) => !p.metadata.deletionTimestamp)
}

const status = (ns: string, name: string) => req('GET', dsPath(ns, name)).then((r) => r.json)

/** Waits until the set reports `n` desired nodes, all scheduled, ready and up to date, for its latest generation. */
const settled = (ns: string, name: string, n: number) =>
  waitFor(
    `${name} settled on ${n} nodes`,
    async () => {
      const ds = await status(ns, name)
      const s = ds.status ?? {}
      return s.observedGeneration === ds.metadata.generation &&
        s.desiredNumberScheduled === n &&
        s.currentNumberScheduled === n &&
        s.numberReady === n &&
        (s.updatedNumberScheduled ?? 0) === n &&
        (s.numberAvailable ?? 0) === n &&
        (await livePods(ns, name)).length === n
        ? ds
        : undefined
    },
    20_000,
  )

async function addNode(name: string, index: number, labels: Record<string, string> = {}) {
  const body = virtualNode({ name, labels }, index, new Date())
  const r = await req('POST', '/api/v1/nodes', body)
  expect(r.status, r.text).toBe(201)
}

describe('DaemonSet controller', () => {
  it('one pod per node across the three nodes; a node added gets one, a node removed loses it', async () => {
    const ns = await makeNamespace('ds')
    const created = await req('POST', dsPath(ns), daemonSet('agent'))
    expect(created.status, created.text).toBe(201)
    const watch = await openWatch(
      `${podsPath(ns)}?watch=true&labelSelector=app%3Dagent&resourceVersion=${created.json.metadata.resourceVersion}`,
    )
    const ds = await settled(ns, 'agent', 3)
    expect(ds.status).toEqual({
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 3,
      observedGeneration: 1,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
    })
    const seen = await watch.take(40, 1000)
    const added = seen.filter((e) => e.type === 'ADDED').map((e) => e.object)
    // Exactly one pod created per node, each pinned to its node for the scheduler, none deleted.
    expect(added.map(target).sort()).toEqual(['node-1', 'node-2', 'node-3'])
    expect(seen.filter((e) => e.type === 'DELETED')).toEqual([])
    for (const p of added) {
      expect(p.spec.nodeName).toBeUndefined()
      expect(p.metadata.generateName).toBe('agent-')
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'agent',
          uid: ds.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ])
      expect(p.spec.affinity).toEqual({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [target(p)] }] }],
          },
        },
      })
      expect(p.spec.tolerations).toEqual([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ])
    }
    const pods = await livePods(ns, 'agent')
    // The scheduler bound each to the node it was pinned to.
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3'])
    const hash = pods[0].metadata.labels['controller-revision-hash']
    for (const p of pods)
      expect(p.metadata.labels).toEqual({
        app: 'agent',
        'controller-revision-hash': hash,
        'pod-template-generation': '1',
      })

    // The set's history: one revision, named after the hash, holding the template as a patch.
    const revs = (await req('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).json.items
    expect(revs.map((r: any) => [r.metadata.name, r.revision, r.metadata.labels])).toEqual([
      [`agent-${hash}`, 1, { app: 'agent', 'controller-revision-hash': hash }],
    ])
    expect(revs[0].data.spec.template.$patch).toBe('replace')
    expect(revs[0].data.spec.template.spec.containers[0].image).toBe('nginx:1.25')
    expect(revs[0].metadata.annotations['deprecated.daemonset.template.generation']).toBe('1')
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]
    const creates = events.filter((e) => e.reason === 'SuccessfulCreate')
    expect(creates.map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort())
    expect(creates[0].source).toEqual({ component: 'daemonset-controller' })

    await addNode('node-ds-4', 40)
    const [fourth] = await watch.take(1, 5000)
    expect(fourth.type).toBe('ADDED')
    expect(target(fourth.object)).toBe('node-ds-4')
    await settled(ns, 'agent', 4)

    expect((await req('DELETE', '/api/v1/nodes/node-ds-4')).status).toBe(200)
    const gone = await waitFor('the pod of the removed node to go', async () => {
      const more = await watch.take(10, 500)
      return more.find((e) => e.type === 'DELETED') ?? undefined
    })
    expect(gone.object.metadata.name).toBe(fourth.object.metadata.name)
    await settled(ns, 'agent', 3)
    await watch.cancel()
  })

  it('node selectors and taints decide the nodes; a relabelled node gains or loses its pod', async () => {
    const ns = await makeNamespace('ds')
    const patchNode = (name: string, body: unknown) => req('PATCH', `/api/v1/nodes/${name}`, body, MERGE)
    const role = `ds-role-${ns}`
    expect((await patchNode('node-2', { metadata: { labels: { [role]: 'edge' } } })).status).toBe(200)
    expect((await req('POST', dsPath(ns), daemonSet('edge', {}, { nodeSelector: { [role]: 'edge' } }))).status).toBe(
      201,
    )
    await settled(ns, 'edge', 1)
    expect((await livePods(ns, 'edge')).map((p) => p.spec.nodeName)).toEqual(['node-2'])
    expect(
      (
        await req('GET', dsPath(ns), undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
      ).json.rows[0].cells.slice(0, 7),
    ).toEqual(['edge', 1, 1, 1, 1, 1, `${role}=edge`])

    // node-3 gets the label: it gets a pod; node-2 loses it: its pod goes.
    expect((await patchNode('node-3', { metadata: { labels: { [role]: 'edge' } } })).status).toBe(200)
    await settled(ns, 'edge', 2)
    expect((await patchNode('node-2', { metadata: { labels: { [role]: null } } })).status).toBe(200)
    await waitFor('edge only on node-3', async () => {
      const pods = await livePods(ns, 'edge')
      return pods.length === 1 && pods[0].spec.nodeName === 'node-3' ? true : undefined
    })
    await settled(ns, 'edge', 1)

    // A NoSchedule taint keeps a pod away unless the template tolerates it; the cordon taint is tolerated by all.
    const taint = { key: `ds-${ns}`, value: 'x', effect: 'NoSchedule' }
    expect((await patchNode('node-1', { spec: { taints: [taint] } })).status).toBe(200)
    expect((await req('POST', dsPath(ns), daemonSet('plain'))).status).toBe(201)
    await settled(ns, 'plain', 2)
    expect((await livePods(ns, 'plain')).map((p) => p.spec.nodeName).sort()).toEqual(['node-2', 'node-3'])
    const tolerant = daemonSet('tolerant', {}, { tolerations: [{ key: taint.key, operator: 'Exists' }] })
    expect((await req('POST', dsPath(ns), tolerant)).status).toBe(201)
    await settled(ns, 'tolerant', 3)
    expect((await patchNode('node-1', { spec: { taints: null } })).status).toBe(200)
    await settled(ns, 'plain', 3)
    expect((await patchNode('node-3', { metadata: { labels: { [role]: null } } })).status).toBe(200)
  })

  it('RollingUpdate with maxUnavailable 1 replaces one node at a time; history keeps both revisions', async () => {
    const ns = await makeNamespace('ds')
    const created = await req('POST', dsPath(ns), daemonSet('roll'))
    expect(created.status).toBe(201)
    await settled(ns, 'roll', 3)
    const before = await livePods(ns, 'roll')
    const watch = await openWatch(
      `${podsPath(ns)}?watch=true&labelSelector=app%3Droll&resourceVersion=${(await status(ns, 'roll')).metadata.resourceVersion}`,
    )
    const patched = await req(
      'PATCH',
      dsPath(ns, 'roll'),
      { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } },
      {
        'content-type': 'application/strategic-merge-patch+json',
      },
    )
    expect(patched.status, patched.text).toBe(200)
    expect(patched.json.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2')
    const done = await settled(ns, 'roll', 3)
    expect(done.metadata.generation).toBe(2)
    const after = await livePods(ns, 'roll')
    expect(
      after.every(
        (p) => p.spec.containers[0].image === 'nginx:1.27' && p.metadata.labels['pod-template-generation'] === '2',
      ),
    ).toBe(true)
    expect(after.map((p) => p.metadata.name).filter((n) => before.some((b) => b.metadata.name === n))).toEqual([])
    // Replay the watch: at no moment were two nodes without a ready pod.
    const events = (await watch.take(200, 1000)).filter((e) => e.type !== 'BOOKMARK')
    const live = new Map<string, any>(before.map((p) => [p.metadata.name, p]))
    let worst = 0
    for (const e of events) {
      if (e.type === 'DELETED' || e.object.metadata.deletionTimestamp) live.delete(e.object.metadata.name)
      else live.set(e.object.metadata.name, e.object)
      const covered = new Set([...live.values()].filter(ready).map(target))
      worst = Math.max(worst, 3 - covered.size)
    }
    expect(worst).toBe(1)
    await watch.cancel()
    const revs = (await req('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).json.items
    expect(revs.map((r: any) => r.revision).sort()).toEqual([1, 2])
  })

  it('RollingUpdate with maxSurge 1 starts the new pod before the old one goes: no node is ever without a ready pod', async () => {
    const ns = await makeNamespace('ds')
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }
    expect((await req('POST', dsPath(ns), daemonSet('surge', { updateStrategy: strategy }))).status).toBe(201)
    await settled(ns, 'surge', 3)
    const rv = (await status(ns, 'surge')).metadata.resourceVersion
    const before = await livePods(ns, 'surge')
    const watch = await openWatch(`${podsPath(ns)}?watch=true&labelSelector=app%3Dsurge&resourceVersion=${rv}`)
    const patch = { spec: { template: { metadata: { annotations: { rev: '2' } } } } }
    expect((await req('PATCH', dsPath(ns, 'surge'), patch, MERGE)).status).toBe(200)
    await settled(ns, 'surge', 3)
    const live = new Map<string, any>(before.map((p) => [p.metadata.name, p]))
    let worst = 0
    let most = 0
    for (const e of (await watch.take(300, 1000)).filter((x) => x.type !== 'BOOKMARK')) {
      if (e.type === 'DELETED' || e.object.metadata.deletionTimestamp) live.delete(e.object.metadata.name)
      else live.set(e.object.metadata.name, e.object)
      worst = Math.max(worst, 3 - new Set([...live.values()].filter(ready).map(target)).size)
      most = Math.max(most, live.size)
    }
    expect(worst).toBe(0)
    expect(most).toBe(4)
    await watch.cancel()
  })

  it('OnDelete leaves running pods alone; a pod deleted by hand comes back at the new revision', async () => {
    const ns = await makeNamespace('ds')
    expect((await req('POST', dsPath(ns), daemonSet('manual', { updateStrategy: { type: 'OnDelete' } }))).status).toBe(
      201,
    )
    await settled(ns, 'manual', 3)
    const patch = { spec: { template: { metadata: { labels: { app: 'manual', v: '2' } } } } }
    expect((await req('PATCH', dsPath(ns, 'manual'), patch, MERGE)).status).toBe(200)
    const stale = await waitFor('status observed', async () => {
      const d = await status(ns, 'manual')
      return d.status.observedGeneration === 2 ? d : undefined
    })
    expect(stale.status.updatedNumberScheduled).toBeUndefined()
    const [victim] = await livePods(ns, 'manual')
    expect((await req('DELETE', `${podsPath(ns)}/${victim.metadata.name}`)).status).toBe(200)
    const back = await waitFor('a replacement on the same node', async () => {
      const pods = await livePods(ns, 'manual')
      return pods.find((p) => p.metadata.labels.v === '2' && target(p) === target(victim))
    })
    expect(back.metadata.labels['pod-template-generation']).toBe('2')
    await waitFor('one updated', async () =>
      (await status(ns, 'manual')).status.updatedNumberScheduled === 1 ? true : undefined,
    )
  })

  it('deleting the set takes its pods and history with it', async () => {
    const ns = await makeNamespace('ds')
    expect((await req('POST', dsPath(ns), daemonSet('gone'))).status).toBe(201)
    await settled(ns, 'gone', 3)
    expect((await req('DELETE', dsPath(ns, 'gone'))).status).toBe(200)
    await waitFor('pods and revisions gone', async () => {
      const pods = (await req('GET', `${podsPath(ns)}?labelSelector=app%3Dgone`)).json.items
      const revs = (await req('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).json.items
      return pods.length === 0 && revs.length === 0 ? true : undefined
    })
  })
})

describe('server-side apply of DaemonSets and StatefulSets', () => {
  const APPLY = { 'content-type': 'application/apply-patch+yaml' }
  it('apply creates and updates them; the controllers own only status, so a re-apply meets no conflict', async () => {
    const ns = await makeNamespace('ds')
    const body = daemonSet('applied')
    const first = await req('PATCH', `${dsPath(ns, 'applied')}?fieldManager=tester`, body, APPLY)
    expect(first.status, first.text).toBe(201)
    await settled(ns, 'applied', 3)
    body.spec.template.spec.containers[0]!.image = 'nginx:1.27'
    const again = await req('PATCH', `${dsPath(ns, 'applied')}?fieldManager=tester`, body, APPLY)
    expect(again.status, again.text).toBe(200)
    expect(again.json.metadata.generation).toBe(2)
    const done = await settled(ns, 'applied', 3)
    const managers = (done.metadata.managedFields as any[]).map((m) => [m.manager, m.operation, m.subresource ?? ''])
    expect(managers).toContainEqual(['tester', 'Apply', ''])
    expect(managers).toContainEqual(['kube-controller-manager', 'Update', 'status'])
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'applied' },
      spec: {
        replicas: 1,
        serviceName: 'applied',
        selector: { matchLabels: { app: 'applied-sts' } },
        template: {
          metadata: { labels: { app: 'applied-sts' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    }
    const stsPath = `/apis/apps/v1/namespaces/${ns}/statefulsets/applied?fieldManager=tester`
    expect((await req('PATCH', stsPath, sts, APPLY)).status).toBe(201)
    sts.spec.replicas = 2
    const scaled = await req('PATCH', stsPath, sts, APPLY)
    expect(scaled.status, scaled.text).toBe(200)
    expect(scaled.json.spec.replicas).toBe(2)
  })
})
