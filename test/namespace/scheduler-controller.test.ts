// The namespace side of the scheduler against a commit it hears late: a pod its commit brought unbound may have been
// bound meanwhile (the cluster's retry, woken by a release this very commit asked for, got to it first); the
// scheduler must not ask for it again and then release the reservation of the pod it just bound.
import { describe, expect, it } from 'vitest'
import type { ClusterApi, Placement, ScheduleRequest } from '../../src/cluster/cluster-api'
import type { ControllerHost } from '../../src/host/controller'
import type { HostPolicy } from '../../src/host/host-policy'
import { PodAddressBook } from '../../src/namespace/pod-address-book'
import { podKey } from '../../src/namespace/schedule-request'
import { SchedulerController } from '../../src/namespace/scheduler-controller'
import { bindPod } from '../../src/registry/binding-subresource'
import { podNeedsAttention } from '../../src/registry/pod-lifecycle'
import type { LogEntry } from '../../src/registry/store'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>

const policy: HostPolicy = {
  admitCreate: async () => null,
  admitCreateNow: () => null,
  needsAttention: (resource, obj) => resource === 'pods' && podNeedsAttention(obj as Obj),
}

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

describe('a commit heard after its pods changed', () => {
  it('leaves a pod bound meanwhile alone, and its reservation in the ledger', async () => {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    for (const name of ['gone', 'fresh']) expect((await host.create('pods', pod(name))).ok).toBe(true)
    const stored = (name: string) => host.objects.get('pods', name)!
    const entry = (type: 'ADDED' | 'DELETED', name: string): LogEntry => ({
      type,
      resource: 'pods',
      namespace: 'ns',
      name,
      object: stored(name).object,
      prev: null,
      prevRv: null,
      rv: stored(name).rv,
    })
    // One commit: a pod deleted and a pod created, unbound, as the commit left it.
    const entries = [entry('DELETED', 'gone'), entry('ADDED', 'fresh')]

    // The cluster's ledger: a release wakes the namespace's waiting pods (retryScheduling), which is served before the
    // release answers, as the cluster's wake-up can be.
    const ledger = new Map<string, string>()
    let scheduler!: SchedulerController
    const place = (req: ScheduleRequest): Placement => {
      ledger.set(req.podKey, ledger.get(req.podKey) ?? 'node-1')
      return { ok: true, node: ledger.get(req.podKey)! }
    }
    const api: Partial<ClusterApi> = {
      schedulePod: async (req) => place(req),
      schedulePods: async (reqs) => reqs.map(place),
      assumePod: async () => undefined,
      releasePod: async (key) => {
        const had = ledger.delete(key)
        await scheduler.retry(view)
        return had
      },
    }
    scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    await scheduler.onCommitted(entries, view)

    const fresh = stored('fresh').object
    expect((fresh as Obj).spec.nodeName).toBe('node-1')
    expect(ledger.get(podKey(fresh))).toBe('node-1')
  })
})

describe('a client binding the pod while the scheduler places it', () => {
  /**
   * One pod, a cluster whose scheduler picks node-1 and whose ledger records where a pod is assumed (as the cluster
   * object's does: over a reservation for another node). `clientBinds` runs inside schedulePod, after node-1 was
   * reserved, with a function that binds the pod to node-2 as a client's POST pods/binding would and answers that
   * commit's entry; `deliver` hands an entry to the scheduler as the host would after a commit.
   */
  async function race(
    clientBinds: (
      bind: () => Promise<LogEntry>,
      deliver: (e: LogEntry) => Promise<void>,
      beforeSchedulerWrite: (f: () => Promise<void>) => void,
    ) => Promise<void>,
  ) {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    // The scheduler's view of the host: its next write first runs what the test asked to happen just before it.
    let pending: (() => Promise<void>) | undefined
    const schedulerView: ControllerHost = Object.assign(Object.create(view), {
      update: async (...args: Parameters<ControllerHost['update']>) => {
        const before = pending
        pending = undefined
        await before?.()
        return view.update(...args)
      },
    })
    expect((await host.create('pods', pod('p'))).ok).toBe(true)
    const created = host.objects.get('pods', 'p')!
    const ledger = new Map<string, string>()
    let scheduler!: SchedulerController
    const deliver = (e: LogEntry) => scheduler.onCommitted([e], schedulerView)
    const bind = async (): Promise<LogEntry> => {
      const prev = host.objects.get('pods', 'p')!
      const r = await view.update(
        'pods',
        'p',
        (cur) => {
          const b = bindPod(cur, 'node-2', undefined, new Date())
          return b.ok ? b.value : null
        },
        { subresource: 'binding' },
      )
      expect(r.ok && r.value).toBeTruthy()
      const now = host.objects.get('pods', 'p')!
      return {
        type: 'MODIFIED',
        resource: 'pods',
        namespace: 'ns',
        name: 'p',
        object: now.object,
        prev: prev.object,
        prevRv: prev.rv,
        rv: now.rv,
      }
    }
    const api: Partial<ClusterApi> = {
      schedulePod: async (req) => {
        ledger.set(req.podKey, ledger.get(req.podKey) ?? 'node-1')
        await clientBinds(bind, deliver, (f) => {
          pending = f
        })
        return { ok: true, node: 'node-1' }
      },
      assumePod: async (req, node) => {
        ledger.set(req.podKey, node)
      },
      releasePod: async (key) => ledger.delete(key),
    }
    scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    await scheduler.onCommitted(
      [
        {
          type: 'ADDED',
          resource: 'pods',
          namespace: 'ns',
          name: 'p',
          object: created.object,
          prev: null,
          prevRv: null,
          rv: created.rv,
        },
      ],
      schedulerView,
    )
    const stored = host.objects.get('pods', 'p')!.object
    expect((stored as Obj).spec.nodeName).toBe('node-2')
    return () => ledger.get(podKey(stored))
  }

  it('counts the pod on the node the client bound it to when the client commit is heard first', async () => {
    const where = await race(async (bind, deliver) => deliver(await bind()))
    expect(where()).toBe('node-2')
  })

  it('counts the pod on its node when the client commit is heard after the scheduler marked its own binding', async () => {
    // The client's commit is heard only once the scheduler's write is on its way: it takes the scheduler's mark.
    const where = await race(async (bind, deliver, beforeSchedulerWrite) => {
      const entry = await bind()
      beforeSchedulerWrite(() => deliver(entry))
    })
    expect(where()).toBe('node-2')
  })
})

describe('a pod created bound and deleted while its assumePod is under way', () => {
  it('leaves no reservation behind', async () => {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    const bound = { ...pod('p'), spec: { ...pod('p').spec, nodeName: 'node-2' } }
    expect((await host.create('pods', bound)).ok).toBe(true)
    const created = host.objects.get('pods', 'p')!
    const ledger = new Map<string, string>()
    let open!: () => void
    const gate = new Promise<void>((r) => {
      open = r
    })
    const api: Partial<ClusterApi> = {
      // The assume is slow to arrive: the release of the pod's deletion gets to the cluster first.
      assumePod: async (req, node) => {
        await gate
        ledger.set(req.podKey, node)
      },
      releasePod: async (key) => ledger.delete(key),
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    const entry = (type: 'ADDED' | 'DELETED'): LogEntry => ({
      type,
      resource: 'pods',
      namespace: 'ns',
      name: 'p',
      object: created.object,
      prev: null,
      prevRv: null,
      rv: created.rv,
    })
    const added = scheduler.onCommitted([entry('ADDED')], view)
    expect((await view.delete('pods', 'p', { gracePeriodSeconds: 0 })).ok).toBe(true)
    await scheduler.onCommitted([entry('DELETED')], view)
    open()
    await added
    expect(ledger.size).toBe(0)
  })
})

describe('a pod turning Succeeded or Failed', () => {
  /** A pod created bound to node-2, its commit's entry, and a host whose status writes answer their entries. */
  async function boundPod() {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    const bound = { ...pod('p'), spec: { ...pod('p').spec, nodeName: 'node-2' } }
    expect((await host.create('pods', bound)).ok).toBe(true)
    const entryOf = (type: 'ADDED' | 'MODIFIED', prev: Obj | null): LogEntry => {
      const now = host.objects.get('pods', 'p')!
      return {
        type,
        resource: 'pods',
        namespace: 'ns',
        name: 'p',
        object: now.object,
        prev: prev as LogEntry['prev'],
        prevRv: null,
        rv: now.rv,
      }
    }
    const added = entryOf('ADDED', null)
    /** Writes the pod's phase through /status and answers that commit's entry. */
    const phase = async (value: string): Promise<LogEntry> => {
      const prev = host.objects.get('pods', 'p')!.object
      const r = await view.update(
        'pods',
        'p',
        (cur) => {
          ;(cur as Obj).status = { ...((cur as Obj).status ?? {}), phase: value }
          return cur
        },
        { subresource: 'status' },
      )
      expect(r.ok).toBe(true)
      return entryOf('MODIFIED', prev as Obj)
    }
    return { host, view, added, phase }
  }

  it('gives its reservation back once, when it turns terminal', async () => {
    const { view, added, phase } = await boundPod()
    const ledger = new Map<string, string>()
    const released: string[] = []
    const api: Partial<ClusterApi> = {
      assumePod: async (req, node) => {
        ledger.set(req.podKey, node)
      },
      releasePod: async (key, ended) => {
        // Released as ended: the pod stays on its node (the node lifecycle controller's) until deleted.
        expect(ended).toBe(true)
        released.push(key)
        return ledger.delete(key)
      },
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    await scheduler.onCommitted([added], view)
    expect([...ledger.values()]).toEqual(['node-2'])
    await scheduler.onCommitted([await phase('Running')], view)
    expect(ledger.size).toBe(1)
    await scheduler.onCommitted([await phase('Failed')], view)
    expect(ledger.size).toBe(0)
    expect(released).toHaveLength(1)
    // Later writes to the ended pod (a controller's, a client's) ask nothing more.
    await scheduler.onCommitted([await phase('Failed')], view)
    expect(released).toHaveLength(1)
  })

  it('leaves no reservation when it ends while the assume of its binding is under way', async () => {
    const { view, added, phase } = await boundPod()
    const ledger = new Map<string, string>()
    let open!: () => void
    const gate = new Promise<void>((r) => {
      open = r
    })
    const api: Partial<ClusterApi> = {
      // The assume is slow to arrive: the release the pod's completion asked for gets to the cluster first.
      assumePod: async (req, node) => {
        await gate
        ledger.set(req.podKey, node)
      },
      releasePod: async (key) => ledger.delete(key),
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    const assuming = scheduler.onCommitted([added], view)
    await scheduler.onCommitted([await phase('Succeeded')], view)
    open()
    await assuming
    expect(ledger.size).toBe(0)
  })
})

describe("a new instance's first resync", () => {
  it('gives back the reservations of pods gone or ended meanwhile (their releases were lost), and only those', async () => {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    const bound = (name: string) => ({ ...pod(name), spec: { ...pod(name).spec, nodeName: 'node-1' } })
    for (const p of [bound('running'), bound('done'), pod('unbound')])
      expect((await host.create('pods', p)).ok).toBe(true)
    const ended = await view.update(
      'pods',
      'done',
      (cur) => {
        ;(cur as Obj).status = { ...((cur as Obj).status ?? {}), phase: 'Succeeded' }
        return cur
      },
      { subresource: 'status' },
    )
    expect(ended.ok).toBe(true)
    const key = (name: string) => podKey(host.objects.get('pods', name)!.object)
    // The ledger as a restart left it: every pod's reservation, and one of a pod deleted since.
    const ledger = new Set([key('running'), key('done'), key('unbound'), 'ns/gone/uid-gone'])
    const api: Partial<ClusterApi> = {
      reservedPods: async () => [...ledger].map((key) => ({ key, described: true, terminating: false })),
      releasePod: async (k) => ledger.delete(k),
      // The unbound pod is asked for again: the cluster answers the place it holds (no new reservation).
      schedulePod: async () => ({ ok: false, message: '0/1 nodes are available: 1 Too many pods.' }),
      schedulePods: async (reqs) =>
        reqs.map(() => ({ ok: false, message: '0/1 nodes are available: 1 Too many pods.' })),
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    await scheduler.resync(view)
    expect([...ledger].sort()).toEqual([key('running'), key('unbound')].sort())
    // Once per instance: a later resync asks nothing.
    ledger.add('ns/gone/uid-gone')
    await scheduler.resync(view)
    expect(ledger.has('ns/gone/uid-gone')).toBe(true)
  })

  it('describes the bound pods the ledger holds without labels (bound before it kept them)', async () => {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    const anti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone' }] } }
    const labelled = (name: string, spec: Obj) => {
      const p = pod(name)
      return {
        ...p,
        metadata: { ...p.metadata, labels: { app: 'web' } },
        spec: { ...p.spec, nodeName: 'node-1', ...spec },
      }
    }
    const old = labelled('old', { affinity: anti })
    const fresh = labelled('fresh', {})
    for (const p of [old, fresh]) expect((await host.create('pods', p)).ok).toBe(true)
    const key = (name: string) => podKey(host.objects.get('pods', name)!.object)
    const described: unknown[] = []
    const api: Partial<ClusterApi> = {
      reservedPods: async () => [
        { key: key('old'), described: false, terminating: false },
        { key: key('fresh'), described: true, terminating: false },
      ],
      describePod: async (k, labels, podAffinity) => {
        described.push([k, labels, podAffinity])
      },
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    await scheduler.resync(view)
    expect(described).toEqual([[key('old'), { app: 'web' }, anti]])
  })

  it("tells the cluster of a bound pod's deletion once, and of one the ledger missed on resync", async () => {
    const { host } = memoryHost({ policy })
    const view = host.controllerView
    const bound = (name: string) => ({ ...pod(name), spec: { ...pod(name).spec, nodeName: 'node-1' } })
    for (const name of ['going', 'missed', 'marked']) expect((await host.create('pods', bound(name))).ok).toBe(true)
    const key = (name: string) => podKey(host.objects.get('pods', name)!.object)
    const told: string[] = []
    const api: Partial<ClusterApi> = {
      assumePod: async () => undefined,
      podTerminating: async (k) => void told.push(k),
      reservedPods: async () =>
        ['going', 'missed', 'marked'].map((n) => ({ key: key(n), described: true, terminating: n !== 'missed' })),
    }
    const scheduler = new SchedulerController(() => api as ClusterApi, new PodAddressBook())
    const deleting = async (name: string) => {
      const before = host.objects.get('pods', name)!
      // A bound pod's delete waits out its grace period: it is MODIFIED with a deletionTimestamp.
      expect((await host.delete('pods', name, { gracePeriodSeconds: 30 })).ok).toBe(true)
      const after = host.objects.get('pods', name)!
      expect((after.object as Obj).metadata.deletionTimestamp).toBeTruthy()
      const e: LogEntry = {
        type: 'MODIFIED',
        resource: 'pods',
        namespace: 'ns',
        name,
        object: after.object,
        prev: before.object,
        prevRv: before.rv,
        rv: after.rv,
      }
      return e
    }
    const going = await deleting('going')
    await scheduler.onCommitted([going], view)
    expect(told).toEqual([key('going')])
    // The same pod changed again while terminating: no second word.
    await scheduler.onCommitted([{ ...going, prev: going.object }], view)
    expect(told).toEqual([key('going')])
    await deleting('missed')
    await deleting('marked')
    await scheduler.resync(view)
    expect(told).toEqual([key('going'), key('missed')])
  })
})
