// The namespace side of the scheduler against a commit it hears late: a pod its commit brought unbound may have been
// bound meanwhile (the cluster's retry, woken by a release this very commit asked for, got to it first); the
// scheduler must not ask for it again and then release the reservation of the pod it just bound.
import { describe, expect, it } from 'vitest'
import type { ClusterApi, Placement, ScheduleRequest } from '../../src/cluster/cluster-api'
import type { HostPolicy } from '../../src/host/host-policy'
import { PodAddressBook } from '../../src/namespace/pod-address-book'
import { podKey, SchedulerController } from '../../src/namespace/scheduler-controller'
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
