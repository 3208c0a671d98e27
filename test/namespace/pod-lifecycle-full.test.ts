// The whole pod lifecycle with the real scheduler and simulated kubelet (start/stop delays 0 in vitest.config.ts):
// the exact watch events of create → Running → graceful delete → gone, immediate and shortened deletion,
// finalizers, unschedulable pods and what wakes them (node labels, uncordon), POST pods/binding, pods created
// bound, deadlines, failing programs, readiness gates, Events, and the garbage collector's three policies.
//
// Tests in this file share one cluster (three virtual nodes); tests that relabel or cordon nodes restore them.
import { afterAll, describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, pod, req, sleep, type WatchStream, waitFor } from '../helpers'

const V1 = ['', 'api', 'v1'].join('/')
const MERGE = { 'content-type': 'application/merge-patch+json' }
type Obj = Record<string, any>

const podPath = (ns: string, name = '') => `${V1}/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const getPod = async (ns: string, name: string) => (await req('GET', podPath(ns, name))).json as Obj
const create = async (ns: string, body: Obj) => {
  const r = await req('POST', podPath(ns), body)
  expect(r.status, r.text).toBe(201)
  return r.json as Obj
}
const withCommand = (p: Obj, command: string[]) => {
  p.spec.containers[0].command = command
  return p
}
const cond = (p: Obj, type: string) => ((p.status?.conditions ?? []) as Obj[]).find((c) => c.type === type)

const phaseIs = (ns: string, name: string, phase: string, ms?: number) =>
  waitFor(
    `${ns}/${name} to be ${phase}`,
    async () => {
      const p = await getPod(ns, name)
      return p?.status?.phase === phase ? p : undefined
    },
    ms,
  )
const gone = (ns: string, name: string, ms?: number) =>
  waitFor(`${ns}/${name} to be gone`, async () => (await req('GET', podPath(ns, name))).status === 404, ms)

async function eventsFor(ns: string, name: string): Promise<Obj[]> {
  const r = await req(
    'GET',
    `${V1}/namespaces/${ns}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`,
  )
  expect(r.status, r.text).toBe(200)
  return r.json.items
}
const waitEvent = (ns: string, name: string, reason: string) =>
  waitFor(`a ${reason} event for ${ns}/${name}`, async () =>
    (await eventsFor(ns, name)).find((e) => e.reason === reason),
  )

const patchNode = async (name: string, patch: Obj) => {
  const r = await req('PATCH', `${V1}/nodes/${name}`, patch, MERGE)
  expect(r.status, r.text).toBe(200)
  return r.json as Obj
}

/** Events of a watch until it has been quiet for quietMs (or maxMs passed). */
async function drain(w: WatchStream, quietMs = 500, maxMs = 10_000): Promise<Obj[]> {
  const out: Obj[] = []
  const until = Date.now() + maxMs
  while (Date.now() < until) {
    const ev = await w.next(quietMs)
    if (!ev) break
    out.push(ev)
  }
  return out
}

const NOT_HELPFUL = (filters: string) =>
  `0/3 nodes are available: ${filters}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`

describe('create → Running → graceful delete → gone: every watch event', () => {
  it('ADDED Pending, MODIFIED bound, MODIFIED Running, MODIFIED terminating, DELETED with the final state', async () => {
    const ns = await makeNamespace('lcf')
    const w = await openWatch(`${podPath(ns)}?watch=true`)
    try {
      expect(w.status).toBe(200)
      await create(ns, pod('web', { app: 'web' }))

      const first = await w.take(3, 10_000)
      expect(first.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED'])
      const [added, bound, running] = first.map((e) => e.object)

      // ADDED: as created, nothing decided yet.
      expect(added.metadata.name).toBe('web')
      expect(added.spec.nodeName).toBeUndefined()
      expect(added.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' })

      // MODIFIED: bound by the scheduler (spec.nodeName + PodScheduled=True), not started yet.
      expect(bound.spec.nodeName).toMatch(/^node-[123]$/)
      expect(bound.status.phase).toBe('Pending')
      expect(bound.status.conditions).toEqual([
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: expect.any(String) },
      ])
      expect(bound.status.podIP).toBeUndefined()

      // MODIFIED: started by the kubelet.
      expect(running.spec.nodeName).toBe(bound.spec.nodeName)
      expect(running.status.phase).toBe('Running')
      const index = Number(bound.spec.nodeName.slice('node-'.length)) - 1
      expect(running.status.hostIP).toBe(`10.0.0.${index + 10}`)
      expect(running.status.hostIPs).toEqual([{ ip: running.status.hostIP }])
      expect(running.status.podIP).toMatch(new RegExp(`^10\\.244\\.${index}\\.\\d+$`))
      expect(running.status.podIPs).toEqual([{ ip: running.status.podIP }])
      expect(running.status.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']) {
        expect(cond(running, type), type).toMatchObject({ status: 'True', lastProbeTime: null })
      }
      expect(running.status.containerStatuses).toEqual([
        expect.objectContaining({
          name: 'c',
          image: 'nginx:1.25',
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: expect.any(String) } },
          lastState: {},
        }),
      ])
      const rvs = first.map((e) => Number(e.object.metadata.resourceVersion))
      expect(rvs[0]).toBeLessThan(rvs[1]!)
      expect(rvs[1]).toBeLessThan(rvs[2]!)
      // Nothing else happens to a running pod.
      expect(await w.next(300)).toBeNull()

      // DELETE without options: graceful, 30 s (terminationGracePeriodSeconds); 200 with the terminating object.
      const del = await req('DELETE', podPath(ns, 'web'))
      expect(del.status, del.text).toBe(200)
      expect(del.json.kind).toBe('Pod')
      expect(del.json.metadata.deletionGracePeriodSeconds).toBe(30)
      expect(Date.parse(del.json.metadata.deletionTimestamp) - Date.now()).toBeGreaterThan(25_000)

      const rest = await drain(w, 1000)
      expect(rest.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED'])
      const [terminating, deleted] = rest.map((e) => e.object)
      expect(terminating.metadata.deletionTimestamp).toBe(del.json.metadata.deletionTimestamp)
      expect(terminating.metadata.deletionGracePeriodSeconds).toBe(30)
      expect(terminating.metadata.resourceVersion).toBe(del.json.metadata.resourceVersion)
      expect(terminating.status.phase).toBe('Running')
      // DELETED carries the final state: the terminating pod, at the deletion's own resourceVersion.
      expect(deleted.metadata.uid).toBe(added.metadata.uid)
      expect(deleted.metadata.deletionTimestamp).toBeDefined()
      expect(deleted.spec.nodeName).toBe(bound.spec.nodeName)
      expect(deleted.status.podIP).toBe(running.status.podIP)
      expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number(terminating.metadata.resourceVersion))
      expect(Number(terminating.metadata.resourceVersion)).toBeGreaterThan(rvs[2]!)

      const after = await req('GET', podPath(ns, 'web'))
      expect(after.status).toBe(404)
      expect(after.json.message).toBe('pods "web" not found')
    } finally {
      await w.cancel()
    }
  })

  it('gracePeriodSeconds=0 removes a running pod at once: no terminating MODIFIED, straight to DELETED', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('quick'))
    const running = await phaseIs(ns, 'quick', 'Running')
    const w = await openWatch(`${podPath(ns)}?watch=true&resourceVersion=${running.metadata.resourceVersion}`)
    try {
      const del = await req('DELETE', podPath(ns, 'quick'), { gracePeriodSeconds: 0 })
      expect(del.status, del.text).toBe(200)
      expect(del.json.metadata.name).toBe('quick')
      // Read-your-writes: gone for the very next request.
      expect((await req('GET', podPath(ns, 'quick'))).status).toBe(404)
      const events = await drain(w, 500)
      expect(events.map((e) => e.type)).toEqual(['DELETED'])
      expect(events[0].object.status.phase).toBe('Running')
    } finally {
      await w.cancel()
    }
  })

  it('an unscheduled pod is deleted at once, whatever grace is asked', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('nowhere', {}, { nodeSelector: { 'kubeflare.test/none': 'x' } }))
    await waitFor(
      'the Unschedulable condition',
      async () => cond(await getPod(ns, 'nowhere'), 'PodScheduled')?.status === 'False',
    )
    const del = await req('DELETE', podPath(ns, 'nowhere'), { gracePeriodSeconds: 60 })
    expect(del.status).toBe(200)
    expect((await req('GET', podPath(ns, 'nowhere'))).status).toBe(404)
  })

  it('a finished (Succeeded) pod is deleted at once', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, withCommand(pod('done', {}, { restartPolicy: 'Never' }), ['true']))
    await phaseIs(ns, 'done', 'Succeeded')
    expect((await req('DELETE', podPath(ns, 'done'))).status).toBe(200)
    expect((await req('GET', podPath(ns, 'done'))).status).toBe(404)
  })
})

describe('grace periods on a node without a simulated kubelet', () => {
  // A node with no virtual-node annotation: nobody confirms the stop, so only the grace period removes its pods.
  // Cordoned and tainted so the scheduler never puts anyone else's pod there.
  const node = `real-${Date.now().toString(36)}`
  afterAll(async () => {
    await req('DELETE', `${V1}/nodes/${node}`)
  })

  it('a later DELETE may only shorten the grace period; the pod goes when the shorter one ends', async () => {
    const mk = await req('POST', `${V1}/nodes`, {
      metadata: { name: node },
      spec: { unschedulable: true, taints: [{ key: 'kubeflare.test/real', effect: 'NoSchedule' }] },
    })
    expect(mk.status, mk.text).toBe(201)
    const ns = await makeNamespace('lcf')
    await create(ns, pod('slow', {}, { nodeName: node }))
    await sleep(200)
    const p = await getPod(ns, 'slow')
    expect(p.spec.nodeName).toBe(node)
    expect(p.status.phase).toBe('Pending') // no kubelet runs it

    const first = await req('DELETE', podPath(ns, 'slow'), { gracePeriodSeconds: 60 })
    expect(first.status).toBe(200)
    expect(first.json.metadata.deletionGracePeriodSeconds).toBe(60)
    const rv = first.json.metadata.resourceVersion

    // Longer: nothing changes (same object, same resourceVersion).
    const longer = await req('DELETE', podPath(ns, 'slow'), { gracePeriodSeconds: 120 })
    expect(longer.status).toBe(200)
    expect(longer.json.metadata.resourceVersion).toBe(rv)
    expect(longer.json.metadata.deletionGracePeriodSeconds).toBe(60)
    expect(longer.json.metadata.deletionTimestamp).toBe(first.json.metadata.deletionTimestamp)
    await sleep(1000)
    expect((await getPod(ns, 'slow')).metadata.resourceVersion).toBe(rv)

    // Shorter: the grace period and the deletion time come down; the pod goes when it ends. The new period counts
    // from the first request (over a second ago), so it is long enough that a loaded machine still sees the pod.
    const shorter = await req('DELETE', podPath(ns, 'slow'), { gracePeriodSeconds: 6 })
    expect(shorter.status).toBe(200)
    expect(shorter.json.metadata.deletionGracePeriodSeconds).toBe(6)
    expect(Date.parse(shorter.json.metadata.deletionTimestamp)).toBeLessThan(
      Date.parse(first.json.metadata.deletionTimestamp),
    )
    expect(Number(shorter.json.metadata.resourceVersion)).toBeGreaterThan(Number(rv))
    expect((await req('GET', podPath(ns, 'slow'))).status).toBe(200)
    await gone(ns, 'slow', 15_000)
  })

  // kube (apiserver registry/rest/delete.go BeforeDelete): shortening computes the new deletionTimestamp from the
  // original request time: newTimestamp = deletionTimestamp - oldGrace + newGrace. planDelete (src/registry/store-delete.ts,
  // `const removeAt = ctx.now.getTime() + grace * 1000`) restarts the clock at the second request instead, so a pod
  // deleted with 60 s and then, 2 s later, with 2 s goes 2 s after the second request (kube: at once, as the first
  // request was 2 s ago).
  it('a shortened grace period counts from the first deletion request (kube BeforeDelete)', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('slow2', {}, { nodeName: node }))
    const first = await req('DELETE', podPath(ns, 'slow2'), { gracePeriodSeconds: 60 })
    expect(first.status).toBe(200)
    const requested = Date.parse(first.json.metadata.deletionTimestamp) - 60_000
    await sleep(2200)
    const shorter = await req('DELETE', podPath(ns, 'slow2'), { gracePeriodSeconds: 2 })
    expect(shorter.status).toBe(200)
    expect(shorter.json.metadata.deletionTimestamp).toBe(
      new Date(requested + 2000).toISOString().replace(/\.\d+Z$/, 'Z'),
    )
  })
})

describe('finalizers', () => {
  it('a finalizer keeps a running pod after deletion; clearing it by PATCH completes the deletion (DELETED)', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, { ...pod('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } })
    const running = await phaseIs(ns, 'held', 'Running')
    const w = await openWatch(`${podPath(ns)}?watch=true&resourceVersion=${running.metadata.resourceVersion}`)
    try {
      const del = await req('DELETE', podPath(ns, 'held'))
      expect(del.status).toBe(200)
      expect(del.json.metadata.deletionTimestamp).toBeDefined()
      expect(del.json.metadata.finalizers).toEqual(['example.com/hold'])

      // The kubelet stops it and confirms with grace 0, but the finalizer holds the object.
      const held = await waitFor('the kubelet to confirm the stop', async () => {
        const p = await getPod(ns, 'held')
        return p.metadata.deletionGracePeriodSeconds === 0 ? p : undefined
      })
      expect(held.metadata.finalizers).toEqual(['example.com/hold'])
      await sleep(500)
      expect((await req('GET', podPath(ns, 'held'))).status).toBe(200)
      const before = await drain(w, 300)
      expect(before.every((e) => e.type === 'MODIFIED')).toBe(true)
      expect(before.length).toBeGreaterThanOrEqual(1)

      const patched = await req('PATCH', podPath(ns, 'held'), { metadata: { finalizers: null } }, MERGE)
      expect(patched.status, patched.text).toBe(200)
      expect(patched.json.metadata.finalizers).toBeUndefined()
      const after = await drain(w, 500)
      expect(after.map((e) => e.type)).toEqual(['DELETED'])
      expect(after[0].object.metadata.finalizers).toBeUndefined()
      expect((await req('GET', podPath(ns, 'held'))).status).toBe(404)
    } finally {
      await w.cancel()
    }
  })

  it('an unscheduled pod with a finalizer: deletionTimestamp set at once, removed when the finalizer is cleared', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, {
      ...pod('pend', {}, { schedulerName: 'nobody' }),
      metadata: { name: 'pend', finalizers: ['example.com/a', 'example.com/b'] },
    })
    const del = await req('DELETE', podPath(ns, 'pend'))
    expect(del.status).toBe(200)
    expect(del.json.metadata.deletionGracePeriodSeconds).toBe(0)
    expect(del.json.metadata.deletionTimestamp).toBeDefined()
    // Removing one of two finalizers keeps it.
    const one = await req('PATCH', podPath(ns, 'pend'), { metadata: { finalizers: ['example.com/b'] } }, MERGE)
    expect(one.status).toBe(200)
    await sleep(300)
    expect((await req('GET', podPath(ns, 'pend'))).status).toBe(200)
    const last = await req('PATCH', podPath(ns, 'pend'), { metadata: { finalizers: [] } }, MERGE)
    expect(last.status, last.text).toBe(200)
    expect((await req('GET', podPath(ns, 'pend'))).status).toBe(404)
  })
})

describe('unschedulable pods', () => {
  it('stays Pending with PodScheduled=False/Unschedulable and a FailedScheduling event; labelling a node schedules it', async () => {
    const ns = await makeNamespace('lcf')
    const label = `ssd-${ns}`
    await create(ns, pod('picky', {}, { nodeSelector: { 'kubeflare.test/disk': label } }))
    const pending = await waitFor('the Unschedulable condition', async () => {
      const p = await getPod(ns, 'picky')
      return cond(p, 'PodScheduled') ? p : undefined
    })
    const message = NOT_HELPFUL("3 node(s) didn't match Pod's node affinity/selector")
    expect(pending.status.phase).toBe('Pending')
    expect(pending.spec.nodeName).toBeUndefined()
    expect(cond(pending, 'PodScheduled')).toEqual({
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
      lastTransitionTime: expect.any(String),
    })
    const failed = await waitEvent(ns, 'picky', 'FailedScheduling')
    expect(failed).toMatchObject({
      type: 'Warning',
      reason: 'FailedScheduling',
      message,
      source: { component: 'default-scheduler' },
      involvedObject: { kind: 'Pod', name: 'picky', namespace: ns, uid: pending.metadata.uid, apiVersion: 'v1' },
    })
    await sleep(300)
    expect((await getPod(ns, 'picky')).status.phase).toBe('Pending')

    try {
      const node = await patchNode('node-2', { metadata: { labels: { 'kubeflare.test/disk': label } } })
      expect(node.metadata.labels['kubeflare.test/disk']).toBe(label)
      const running = await phaseIs(ns, 'picky', 'Running')
      expect(running.spec.nodeName).toBe('node-2')
      expect(cond(running, 'PodScheduled')).toMatchObject({ status: 'True' })
      expect(cond(running, 'PodScheduled')!.reason).toBeUndefined()
      const scheduled = await waitEvent(ns, 'picky', 'Scheduled')
      expect(scheduled.message).toBe(`Successfully assigned ${ns}/picky to node-2`)
    } finally {
      await patchNode('node-2', { metadata: { labels: { 'kubeflare.test/disk': null } } })
    }
    // IgnoredDuringExecution: taking the label away again does not disturb the running pod.
    await sleep(300)
    expect((await getPod(ns, 'picky')).status.phase).toBe('Running')
  })

  it('a cordoned node takes no new pods; uncordoning wakes the waiting ones', async () => {
    const ns = await makeNamespace('lcf')
    try {
      for (const n of ['node-1', 'node-2', 'node-3'])
        expect((await patchNode(n, { spec: { unschedulable: true } })).spec.unschedulable).toBe(true)
      await create(ns, pod('waiting'))
      const pending = await waitFor('the Unschedulable condition', async () => {
        const p = await getPod(ns, 'waiting')
        return cond(p, 'PodScheduled') ? p : undefined
      })
      expect(cond(pending, 'PodScheduled')).toMatchObject({
        status: 'False',
        reason: 'Unschedulable',
        message: NOT_HELPFUL('3 node(s) were unschedulable'),
      })
      // A pod that tolerates the unschedulable taint still goes onto a cordoned node.
      await create(
        ns,
        pod(
          'tolerant',
          {},
          { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] },
        ),
      )
      expect((await phaseIs(ns, 'tolerant', 'Running')).spec.nodeName).toMatch(/^node-[123]$/)

      await patchNode('node-3', { spec: { unschedulable: false } })
      const running = await phaseIs(ns, 'waiting', 'Running')
      expect(running.spec.nodeName).toBe('node-3')
      // Everything new goes to the one schedulable node.
      await create(ns, pod('next'))
      expect((await phaseIs(ns, 'next', 'Running')).spec.nodeName).toBe('node-3')
    } finally {
      for (const n of ['node-1', 'node-2', 'node-3']) await patchNode(n, { spec: { unschedulable: null } })
    }
  })
})

describe('POST pods/{name}/binding', () => {
  const binding = (name: string, node: string) => ({
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name },
    target: { apiVersion: 'v1', kind: 'Node', name: node },
  })

  it('binds a pod another scheduler owns: 201 Status, then it runs there; 409 when already bound; 404 for a missing pod', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('manual', {}, { schedulerName: 'my-scheduler' }))
    await sleep(300)
    const unbound = await getPod(ns, 'manual')
    expect(unbound.spec.nodeName).toBeUndefined()
    expect(unbound.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' }) // the default scheduler left it alone

    const b = await req('POST', `${podPath(ns, 'manual')}/binding`, binding('manual', 'node-2'))
    expect(b.status, b.text).toBe(201)
    expect(b.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 })
    const bound = await getPod(ns, 'manual')
    expect(bound.spec.nodeName).toBe('node-2')
    expect(cond(bound, 'PodScheduled')).toMatchObject({ status: 'True' })
    const running = await phaseIs(ns, 'manual', 'Running')
    expect(running.status.podIP).toMatch(/^10\.244\.1\.\d+$/)

    const again = await req('POST', `${podPath(ns, 'manual')}/binding`, binding('manual', 'node-3'))
    expect(again.status).toBe(409)
    expect(again.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message:
        'Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "node-2"',
    })
    expect((await getPod(ns, 'manual')).spec.nodeName).toBe('node-2')

    const missing = await req('POST', `${podPath(ns, 'nope')}/binding`, binding('nope', 'node-1'))
    expect(missing.status).toBe(404)
    expect(missing.json).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      code: 404,
      message: 'pods "nope" not found',
    })
  })

  it('the legacy bindings collection binds too', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('legacy', {}, { schedulerName: 'my-scheduler' }))
    const b = await req('POST', `${V1}/namespaces/${ns}/bindings`, binding('legacy', 'node-1'))
    expect(b.status, b.text).toBe(201)
    expect((await phaseIs(ns, 'legacy', 'Running')).spec.nodeName).toBe('node-1')
  })

  it('a pod being deleted cannot be bound', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, {
      ...pod('dying', {}, { schedulerName: 'my-scheduler' }),
      metadata: { name: 'dying', finalizers: ['example.com/hold'] },
    })
    expect((await req('DELETE', podPath(ns, 'dying'))).status).toBe(200)
    const b = await req('POST', `${podPath(ns, 'dying')}/binding`, binding('dying', 'node-1'))
    expect(b.status).toBe(409)
    expect(b.json.message).toBe(
      'Operation cannot be fulfilled on pods/binding "dying": pod dying is being deleted, cannot be assigned to a host',
    )
    await req('PATCH', podPath(ns, 'dying'), { metadata: { finalizers: null } }, MERGE)
  })
})

describe('pods created bound, deadlines, failures', () => {
  it('spec.nodeName set at create skips the scheduler and runs on that node', async () => {
    const ns = await makeNamespace('lcf')
    const created = await create(ns, pod('pinned', {}, { nodeName: 'node-3' }))
    expect(created.spec.nodeName).toBe('node-3')
    const running = await phaseIs(ns, 'pinned', 'Running')
    expect(running.spec.nodeName).toBe('node-3')
    expect(running.status.hostIP).toBe('10.0.0.12')
    expect(running.status.podIP).toMatch(/^10\.244\.2\.\d+$/)
    await waitEvent(ns, 'pinned', 'Started')
    const reasons = (await eventsFor(ns, 'pinned')).map((e) => e.reason)
    expect(reasons).not.toContain('Scheduled')
    expect(reasons).not.toContain('FailedScheduling')
  })

  it('activeDeadlineSeconds: Failed with reason DeadlineExceeded', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, withCommand(pod('deadline', {}, { activeDeadlineSeconds: 1 }), ['sleep', '3600']))
    await phaseIs(ns, 'deadline', 'Running')
    const failed = await phaseIs(ns, 'deadline', 'Failed', 8000)
    expect(failed.status.reason).toBe('DeadlineExceeded')
    expect(failed.status.message).toBe('Pod was active on the node longer than the specified deadline')
    expect(cond(failed, 'Ready')).toMatchObject({ status: 'False' })
    expect(failed.status.containerStatuses[0].state.terminated).toBeDefined()
    const ev = await waitEvent(ns, 'deadline', 'DeadlineExceeded')
    expect(ev.message).toBe('Pod was active on the node longer than the specified deadline')
  })

  it('restartPolicy Never and sh -c "exit 3": Failed, the container terminated with exit code 3', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, withCommand(pod('fails', {}, { restartPolicy: 'Never' }), ['sh', '-c', 'exit 3']))
    const failed = await phaseIs(ns, 'fails', 'Failed')
    expect(failed.status.reason).toBeUndefined()
    expect(failed.status.containerStatuses[0]).toMatchObject({
      name: 'c',
      ready: false,
      state: { terminated: { exitCode: 3, reason: 'Error' } },
    })
    expect(cond(failed, 'Ready')).toMatchObject({ status: 'False' })
    expect(cond(failed, 'ContainersReady')).toMatchObject({ status: 'False' })
    // A finished pod is not restarted and stays put.
    await sleep(300)
    expect((await getPod(ns, 'fails')).status.phase).toBe('Failed')
  })

  // kube's kubelet (pkg/kubelet/status/generate.go, generateContainersReadyCondition and the Ready condition built from
  // it) gives a Failed pod Ready/ContainersReady False with reason "PodFailed" ("PodCompleted" only for Succeeded),
  // DeadlineExceeded included. src/registry/pod-lifecycle.ts:175 (terminatedStatus) uses "PodCompleted" for a Failed
  // pod without a reason and the pod's own reason ("DeadlineExceeded") otherwise.
  it('a Failed pod has Ready/ContainersReady False with reason PodFailed (kubelet generate.go)', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, withCommand(pod('fails2', {}, { restartPolicy: 'Never' }), ['false']))
    await create(ns, withCommand(pod('late', {}, { activeDeadlineSeconds: 1 }), ['sleep', '3600']))
    for (const name of ['fails2', 'late']) {
      const failed = await phaseIs(ns, name, 'Failed', 8000)
      expect(cond(failed, 'Ready'), name).toMatchObject({ status: 'False', reason: 'PodFailed' })
      expect(cond(failed, 'ContainersReady'), name).toMatchObject({ status: 'False', reason: 'PodFailed' })
    }
  })

  it('restartPolicy Never and exit 0: Succeeded, reason Completed', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, withCommand(pod('ok', {}, { restartPolicy: 'Never' }), ['sh', '-c', 'echo hi; exit 0']))
    const done = await phaseIs(ns, 'ok', 'Succeeded')
    expect(done.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' })
    expect(cond(done, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' })
  })
})

describe('readiness gates', () => {
  it('a running pod with an unmet readiness gate is not Ready (ReadinessGatesNotReady)', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('gated', {}, { readinessGates: [{ conditionType: 'example.com/feature-1' }] }))
    const running = await phaseIs(ns, 'gated', 'Running')
    expect(cond(running, 'ContainersReady')).toMatchObject({ status: 'True' })
    expect(cond(running, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "example.com/feature-1" does not exist.',
    })
  })

  async function putStatusCondition(ns: string, name: string, type: string, status: 'True' | 'False') {
    const cur = await getPod(ns, name)
    const conditions = ((cur.status.conditions ?? []) as Obj[]).filter((c) => c.type !== type)
    conditions.push({
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    })
    const r = await req('PUT', `${podPath(ns, name)}/status`, { ...cur, status: { ...cur.status, conditions } })
    expect(r.status, r.text).toBe(200)
    return r.json as Obj
  }

  it('setting the gate condition through PUT pods/{name}/status makes the pod Ready; setting it False takes it back', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('gated2', {}, { readinessGates: [{ conditionType: 'example.com/feature-1' }] }))
    await phaseIs(ns, 'gated2', 'Running')
    const put = await putStatusCondition(ns, 'gated2', 'example.com/feature-1', 'True')
    expect(cond(put, 'example.com/feature-1')).toMatchObject({ status: 'True' })
    const ready = await waitFor('Ready=True', async () => {
      const p = await getPod(ns, 'gated2')
      return cond(p, 'Ready')?.status === 'True' ? p : undefined
    })
    expect(cond(ready, 'Ready')!.reason).toBeUndefined()
    expect(cond(ready, 'example.com/feature-1')).toMatchObject({ status: 'True' }) // the kubelet keeps foreign conditions

    await putStatusCondition(ns, 'gated2', 'example.com/feature-1', 'False')
    const unready = await waitFor('Ready=False', async () => {
      const p = await getPod(ns, 'gated2')
      return cond(p, 'Ready')?.status === 'False' ? p : undefined
    })
    expect(cond(unready, 'Ready')).toMatchObject({ reason: 'ReadinessGatesNotReady' })
  })

  it('PATCH pods/{name}/status (strategic merge on conditions by type) sets the gate too', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('gated3', {}, { readinessGates: [{ conditionType: 'example.com/feature-1' }] }))
    await phaseIs(ns, 'gated3', 'Running')
    const r = await req(
      'PATCH',
      `${podPath(ns, 'gated3')}/status`,
      { status: { conditions: [{ type: 'example.com/feature-1', status: 'True' }] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    expect(cond(r.json, 'PodScheduled')).toMatchObject({ status: 'True' }) // merged, not replaced
    await waitFor('Ready=True', async () => cond(await getPod(ns, 'gated3'), 'Ready')?.status === 'True')
  })

  // kube (pkg/kubelet/status/generate.go, GeneratePodReadyCondition): a gate whose condition exists but is not True
  // says `the status of pod readiness gate "X" is not "True", but False`, and every unmet gate is listed, joined by
  // ", ". src/registry/pod-lifecycle.ts readyFromGates always says `corresponding condition of pod readiness gate "X"
  // does not exist.` and names only the first unmet gate.
  it('the Ready message names every unmet gate, and says when a gate condition is present but not True', async () => {
    const ns = await makeNamespace('lcf')
    await create(
      ns,
      pod('gated4', {}, { readinessGates: [{ conditionType: 'example.com/a' }, { conditionType: 'example.com/b' }] }),
    )
    await phaseIs(ns, 'gated4', 'Running')
    await putStatusCondition(ns, 'gated4', 'example.com/a', 'False')
    await sleep(300)
    expect(cond(await getPod(ns, 'gated4'), 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message:
        'the status of pod readiness gate "example.com/a" is not "True", but False, corresponding condition of pod readiness gate "example.com/b" does not exist.',
    })
  })
})

describe('events', () => {
  it('Scheduled, Pulled, Created, Started and Killing are recorded for the pod', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('ev'))
    const running = await phaseIs(ns, 'ev', 'Running')
    const node = running.spec.nodeName
    expect((await req('DELETE', podPath(ns, 'ev'))).status).toBe(200)
    await gone(ns, 'ev')
    await waitEvent(ns, 'ev', 'Killing')
    const events = await eventsFor(ns, 'ev')
    const by = (reason: string) => {
      const found = events.filter((e) => e.reason === reason)
      expect(found, `${reason} events in ${JSON.stringify(events.map((e) => e.reason))}`).toHaveLength(1)
      return found[0]!
    }
    const involved = { kind: 'Pod', namespace: ns, name: 'ev', uid: running.metadata.uid, apiVersion: 'v1' }
    expect(by('Scheduled')).toMatchObject({
      type: 'Normal',
      message: `Successfully assigned ${ns}/ev to ${node}`,
      source: { component: 'default-scheduler' },
      involvedObject: involved,
      count: 1,
    })
    const kubelet = { component: 'kubelet', host: node }
    const field = { ...involved, fieldPath: 'spec.containers{c}' }
    expect(by('Pulled')).toMatchObject({
      type: 'Normal',
      message: 'Container image "nginx:1.25" already present on machine',
      source: kubelet,
      involvedObject: field,
    })
    expect(by('Created')).toMatchObject({
      type: 'Normal',
      message: 'Created container: c',
      source: kubelet,
      involvedObject: field,
    })
    expect(by('Started')).toMatchObject({
      type: 'Normal',
      message: 'Started container c',
      source: kubelet,
      involvedObject: field,
    })
    expect(by('Killing')).toMatchObject({
      type: 'Normal',
      message: 'Stopping container c',
      source: kubelet,
      involvedObject: field,
    })
    for (const e of events) {
      expect(e.metadata.namespace).toBe(ns)
      expect(e.metadata.name.startsWith('ev.')).toBe(true)
      expect(e.firstTimestamp).toBe(e.lastTimestamp)
    }
    // The field selector really selects: another pod's events are not in the list.
    await create(ns, pod('other'))
    await waitEvent(ns, 'other', 'Started')
    expect((await eventsFor(ns, 'ev')).every((e) => e.involvedObject.name === 'ev')).toBe(true)
  })

  it('an image with pullPolicy Always says it was pulled', async () => {
    const ns = await makeNamespace('lcf')
    await create(ns, pod('latest', {}, { containers: [{ name: 'c', image: 'busybox' }] }))
    const pulled = await waitEvent(ns, 'latest', 'Pulled')
    expect(pulled.message).toBe('Successfully pulled image "busybox"')
  })
})

describe('garbage collection of dependents (a pod owned by a pod)', () => {
  async function family(ns: string, blockOwnerDeletion = false) {
    const owner = await create(ns, pod('owner'))
    const ref = {
      apiVersion: 'v1',
      kind: 'Pod',
      name: 'owner',
      uid: owner.metadata.uid,
      controller: true,
      ...(blockOwnerDeletion ? { blockOwnerDeletion: true } : {}),
    }
    await create(ns, { ...pod('dependent'), metadata: { name: 'dependent', ownerReferences: [ref] } })
    await phaseIs(ns, 'owner', 'Running')
    return { owner, dependent: await phaseIs(ns, 'dependent', 'Running'), ref }
  }

  it('Background: the owner goes, then the dependent is deleted', async () => {
    const ns = await makeNamespace('lcf')
    await family(ns)
    const del = await req('DELETE', podPath(ns, 'owner'), { propagationPolicy: 'Background' })
    expect(del.status).toBe(200)
    expect(del.json.metadata.finalizers).toBeUndefined()
    await gone(ns, 'owner')
    await gone(ns, 'dependent')
  })

  it('no propagationPolicy: Background is the default for pods', async () => {
    const ns = await makeNamespace('lcf')
    await family(ns)
    expect((await req('DELETE', podPath(ns, 'owner'))).status).toBe(200)
    await gone(ns, 'owner')
    await gone(ns, 'dependent')
  })

  it('Orphan: the dependent stays, its ownerReferences cleared', async () => {
    const ns = await makeNamespace('lcf')
    const { dependent } = await family(ns)
    const del = await req('DELETE', podPath(ns, 'owner'), { propagationPolicy: 'Orphan' })
    expect(del.status).toBe(200)
    expect(del.json.metadata.finalizers).toEqual(['orphan'])
    expect(del.json.metadata.deletionTimestamp).toBeDefined()
    await gone(ns, 'owner')
    const kept = await waitFor('the ownerReferences to be cleared', async () => {
      const p = await getPod(ns, 'dependent')
      return p.metadata.ownerReferences === undefined ? p : undefined
    })
    expect(kept.metadata.uid).toBe(dependent.metadata.uid)
    expect(kept.metadata.deletionTimestamp).toBeUndefined()
    expect(kept.status.phase).toBe('Running')
    await sleep(500)
    expect((await req('GET', podPath(ns, 'dependent'))).status).toBe(200)
  })

  it('Foreground: the owner waits (finalizer foregroundDeletion) until the dependent is gone, then goes', async () => {
    const ns = await makeNamespace('lcf')
    const { owner } = await family(ns, true)
    const w = await openWatch(
      `${podPath(ns)}?watch=true&resourceVersion=${(await getPod(ns, 'dependent')).metadata.resourceVersion}`,
    )
    try {
      const del = await req('DELETE', podPath(ns, 'owner'), { propagationPolicy: 'Foreground' })
      expect(del.status).toBe(200)
      expect(del.json.metadata.finalizers).toEqual(['foregroundDeletion'])
      expect(del.json.metadata.deletionTimestamp).toBeDefined()
      await gone(ns, 'owner')
      await gone(ns, 'dependent')
      const events = await drain(w, 500)
      const seq = events.map((e) => `${e.type} ${e.object.metadata.name}`)
      const depGone = seq.indexOf('DELETED dependent')
      const ownerGone = seq.indexOf('DELETED owner')
      expect(depGone, seq.join(', ')).toBeGreaterThanOrEqual(0)
      expect(ownerGone, seq.join(', ')).toBeGreaterThan(depGone)
      // Until the dependent went, every state of the owner carried the finalizer.
      for (const e of events.slice(0, depGone + 1)) {
        if (e.object.metadata.name === 'owner')
          expect(e.object.metadata.finalizers, `${e.type} owner`).toContain('foregroundDeletion')
      }
      expect(events[ownerGone].object.metadata.uid).toBe(owner.metadata.uid)
    } finally {
      await w.cancel()
    }
  })
})
