// Pods that fit nowhere wait, as in kube's unschedulable queue: alarms and resyncs do not ask the cluster for them
// again; the cluster's retry (room freed, nodes changed) asks for all of them in one call, and a change to a waiting
// pod's spec gives it another attempt. The cluster here is a stand-in that counts what it is asked.
import { describe, expect, it } from 'vitest'
import type { ClusterApi, Placement, ScheduleRequest } from '../../src/cluster/cluster-api'
import type { HostPolicy } from '../../src/host/host-policy'
import { PodAddressBook } from '../../src/namespace/pod-address-book'
import { SchedulerController } from '../../src/namespace/scheduler-controller'
import { podNeedsAttention } from '../../src/registry/pod-lifecycle'
import { systemPriorityClassObjects } from '../../src/registry/scheduling/system-priority-classes'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>

/** A cluster with `room` places left; every schedulePod and schedulePods call is counted. */
function fakeCluster(room: { left: number }) {
  const calls = { single: 0, batches: [] as number[] }
  const place = (req: ScheduleRequest): Placement => {
    const tolerates = (req.spec.tolerations ?? []).some((t) => t.key === 'room')
    if (room.left > 0 || tolerates) {
      if (!tolerates) room.left--
      return { ok: true, node: 'node-1' }
    }
    return { ok: false, message: '0/1 nodes are available: 1 Too many pods.' }
  }
  const api: Partial<ClusterApi> = {
    schedulePod: async (req) => {
      calls.single++
      return place(req)
    },
    schedulePods: async (reqs) => {
      calls.batches.push(reqs.length)
      return reqs.map(place)
    },
    releasePod: async () => true,
    assumePod: async () => undefined,
    reservedPods: async () => [],
  }
  return { api: api as ClusterApi, calls }
}

const policy: HostPolicy = {
  admitCreate: async () => null,
  admitCreateNow: () => null,
  needsAttention: (resource, obj) => resource === 'pods' && podNeedsAttention(obj as Obj),
  // The Priority plugin reads the cluster's classes: kube's system ones.
  clusterObjects: (resource) =>
    resource === 'priorityclasses'
      ? systemPriorityClassObjects().map((pc) => ({ ...pc, preemptionPolicy: 'PreemptLowerPriority' }))
      : [],
}

function setup(room: { left: number }) {
  const cluster = fakeCluster(room)
  const scheduler = new SchedulerController(() => cluster.api, new PodAddressBook())
  const { host, log } = memoryHost({ policy, controllers: [scheduler] })
  const idle = async () => {
    let last = -1
    for (let stable = 0; stable < 4; ) {
      await new Promise((r) => setTimeout(r, 5))
      const rv = await log.currentRv()
      if (rv === last) stable++
      else {
        stable = 0
        last = rv
      }
    }
  }
  const pod = (name: string, spec: Obj = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  })
  const nodeOf = (name: string) => (host.objects.get('pods', name)?.object as Obj | undefined)?.spec?.nodeName
  const condition = (name: string) =>
    ((host.objects.get('pods', name)?.object as Obj | undefined)?.status?.conditions ?? []).find(
      (c: Obj) => c.type === 'PodScheduled',
    )
  return { ...cluster, scheduler, host, log, idle, pod, nodeOf, condition }
}

describe('pods that fit nowhere', () => {
  it('wait without further attempts until the cluster retries, which asks for all of them at once', async () => {
    const room = { left: 1 }
    const t = setup(room)
    for (const name of ['a', 'b', 'c']) expect((await t.host.create('pods', t.pod(name))).ok).toBe(true)
    await t.idle()
    expect(t.nodeOf('a')).toBe('node-1')
    for (const name of ['b', 'c']) {
      expect(t.nodeOf(name)).toBeUndefined()
      expect(t.condition(name)).toMatchObject({ status: 'False', reason: 'Unschedulable' })
    }
    expect(t.calls.single).toBe(3)

    // Alarms and resyncs leave the waiting pods alone.
    await t.host.alarm()
    await t.scheduler.resync(t.host.controllerView)
    await t.idle()
    expect(t.calls.single).toBe(3)
    expect(t.calls.batches).toEqual([])

    // Room for one more: the cluster's retry asks for both in one call; the first in line gets it.
    room.left = 1
    await t.scheduler.retry(t.host.controllerView)
    await t.idle()
    expect(t.calls.batches).toEqual([2])
    expect([t.nodeOf('b'), t.nodeOf('c')].filter(Boolean)).toEqual(['node-1'])

    // The one still waiting waits again.
    await t.host.alarm()
    await t.idle()
    expect(t.calls.single).toBe(3)
    expect(t.calls.batches).toEqual([2])

    // A retry that finds no room writes nothing: the pod already says why it waits.
    const rv = await t.log.currentRv()
    await t.scheduler.retry(t.host.controllerView)
    await t.idle()
    expect(t.calls.single).toBe(4)
    expect(await t.log.currentRv()).toBe(rv)
  })

  it('are tried in PrioritySort order when room frees: higher spec.priority first, then the older pod', async () => {
    const room = { left: 0 }
    const t = setup(room)
    expect((await t.host.create('pods', t.pod('a'))).ok).toBe(true)
    expect((await t.host.create('pods', t.pod('b'))).ok).toBe(true)
    const critical = await t.host.create('pods', t.pod('z', { priorityClassName: 'system-cluster-critical' }))
    expect(critical.ok).toBe(true)
    await t.idle()
    expect(['a', 'b', 'z'].map(t.nodeOf)).toEqual([undefined, undefined, undefined])
    room.left = 2
    await t.scheduler.retry(t.host.controllerView)
    await t.idle()
    // z came last but outranks them; a and b are equals, and a is the older.
    expect(['a', 'b', 'z'].map(t.nodeOf)).toEqual(['node-1', undefined, 'node-1'])
  })

  it('gets another attempt when its spec changes, and a new instance tries every unbound pod once', async () => {
    const t = setup({ left: 0 })
    expect((await t.host.create('pods', t.pod('p'))).ok).toBe(true)
    await t.idle()
    expect(t.calls.single).toBe(1)
    // A toleration added to the waiting pod (an update kube allows) lets it fit.
    const r = await t.host.mutate('pods', 'p', (p) => {
      ;(p as Obj).spec.tolerations = [{ key: 'room', operator: 'Exists' }]
      return p
    })
    expect(r.ok).toBe(true)
    await t.idle()
    expect(t.calls.single).toBe(2)
    expect(t.nodeOf('p')).toBe('node-1')

    // A scheduler that knows of no waiting pods (the object woke up again) tries the unbound ones.
    expect((await t.host.create('pods', t.pod('q'))).ok).toBe(true)
    await t.idle()
    const fresh = new SchedulerController(() => t.api, new PodAddressBook())
    await fresh.resync(t.host.controllerView)
    await t.idle()
    expect(t.calls.single).toBe(4)
  })

  it("asks for a commit's new pods in one call, and binds them all", async () => {
    const room = { left: 10 }
    const cluster = fakeCluster(room)
    // A host without a scheduler holds three unbound pods, as one commit would have brought them.
    const { host } = memoryHost({ policy })
    const entries = []
    for (const name of ['a', 'b', 'c']) {
      const r = await host.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      })
      if (!r.ok) throw new Error(r.status.message)
      const stored = host.objects.get('pods', name)!
      entries.push({
        type: 'ADDED' as const,
        resource: 'pods',
        namespace: 'ns',
        name,
        object: stored.object,
        prev: null,
        prevRv: null,
        rv: stored.rv,
      })
    }
    const scheduler = new SchedulerController(() => cluster.api, new PodAddressBook())
    await scheduler.onCommitted(entries, host.controllerView)
    expect(cluster.calls).toEqual({ single: 0, batches: [3] })
    for (const name of ['a', 'b', 'c'])
      expect((host.objects.get('pods', name)!.object as Obj).spec.nodeName).toBe('node-1')
  })
})
