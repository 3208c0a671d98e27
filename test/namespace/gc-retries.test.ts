// The garbage collector's retries: a dependent kept because its owner's kind is not served (a CRD not installed yet) is
// tried again after kube's backoff, or at once when a CRD changes, and collected when the kind turns out to have no
// such owner; an alarm runs only what fell due. A cluster-scoped object naming a namespaced owner is not retried.
import { afterEach, describe, expect, it } from 'vitest'
import type { Controller } from '../../src/host/controller'
import type { Crd } from '../../src/registry/crd/json-schema'
import { customResourceRows } from '../../src/registry/custom/custom-rows'
import type { ResourceDef } from '../../src/registry/resource'
import { kinds } from '../../src/registry/resources'
import type { KubeObject } from '../../src/schema/meta'
import { GarbageCollector, waitsOnGarbageCollector } from '../../src/namespace/garbage-collector'
import { GcRetries } from '../../src/namespace/gc-retries'
import { memoryHost, openPolicy } from '../support/memory-host'

const GROUP = 'gcretry.example.com'
const crd: Crd = {
  metadata: { name: `gizmos.${GROUP}`, uid: 'crd-gizmos', generation: 1 },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
}
const rows: ResourceDef[] = customResourceRows(crd, 'r')
const load = () => kinds.replace((def) => rows.includes(def), rows)
const forget = () => kinds.replace((def) => rows.includes(def), [])
const loaded = () => kinds.all().some((def) => rows.includes(def))

/** Whether the CRD is installed: until then, asking for the kind learns nothing. */
let installed = false
const knowKindOf = (apiVersion: string) =>
  apiVersion.startsWith(GROUP) && installed && !loaded() ? Promise.resolve().then(load) : undefined

const T0 = 1_000_000

function setup(scope = 'ns') {
  let now = T0
  const waits: string[] = []
  const cluster = {
    clusterOwners: async () => [],
    clusterOwnersUnblocked: async () => undefined,
    awaitOwnerKinds: async (ns: string) => {
      waits.push(ns)
    },
  }
  const gc = new GarbageCollector({ cluster, now: () => now })
  const policy = { ...openPolicy(), needsAttention: (_r: string, o: KubeObject) => waitsOnGarbageCollector(o) }
  const { host, alarms } = memoryHost({ scope, policy, knowKindOf, controllers: [gc] as Controller[] })
  /** Moves the clock to `at` and rings the alarm if it is due, as the Durable Object's alarm would. */
  const ringAt = async (at: number) => {
    now = at
    const due = await alarms.next()
    if (due !== null && due <= at) {
      alarms.ring()
      await host.alarm(at)
    }
  }
  return { host, gc, alarms, waits, ringAt }
}

const settled = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
}
let lastAlarm: number | null = null
/** Whether an alarm is set (read through next(), which is asynchronous: the poll sees the previous answer). */
const alarmSet = (alarms: { next(): Promise<number | null> }) => {
  void alarms.next().then((at) => {
    lastAlarm = at
  })
  return lastAlarm !== null
}
const quiet = () => new Promise((r) => setTimeout(r, 50))

/** A ConfigMap owned by a Gizmo that does not exist. */
const orphanOfGizmo = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ownerReferences: [{ apiVersion: `${GROUP}/v1`, kind: 'Gizmo', name: 'g', uid: 'gizmo-uid' }] },
})

describe('GcRetries', () => {
  it("backs off as kube's rate limiter does, from one second doubling to 1000 seconds, and starts over once forgotten", () => {
    const r = new GcRetries()
    const item = { type: 'dependent' as const, resource: 'configmaps', name: 'a' }
    expect(r.add(item, 0)).toBe(1000)
    expect(r.add(item, 0)).toBe(2000)
    expect(r.add(item, 0)).toBe(4000)
    for (let i = 0; i < 20; i++) r.add(item, 0)
    expect(r.add(item, 0)).toBe(1_000_000)
    expect(r.take(999_999)).toEqual([])
    expect(r.take(1_000_000)).toEqual([item])
    expect(r.next()).toBeNull()
    // Failing again while running keeps counting; succeeding (settled without a new add) starts over.
    expect(r.add(item, 0)).toBe(1_000_000)
    expect(r.take(0, true)).toEqual([item])
    r.settle(item)
    expect(r.next()).toBeNull()
    expect(r.add(item, 0)).toBe(1000)
  })

  it('work taken and settled without failing again is not due again (an owner that went meanwhile)', () => {
    const r = new GcRetries()
    const owner = { type: 'owner' as const, resource: 'clusterroles', name: 'r' }
    r.add(owner, 0)
    expect(r.take(1000)).toEqual([owner])
    r.settle(owner)
    expect(r.take(10_000_000, true)).toEqual([])
    expect(r.next()).toBeNull()
  })
})

describe('garbage collector: dependents of an owner kind not served yet', () => {
  afterEach(() => {
    forget()
    installed = false
    lastAlarm = null
  })

  it('is kept, retried after its backoff, and collected once the kind is served and has no such owner', async () => {
    const { host, gc, alarms, ringAt } = setup()
    await gc.resync(host.controllerView)
    expect((await host.create('configmaps', orphanOfGizmo('dep'))).ok).toBe(true)
    await settled(() => alarmSet(alarms))
    await quiet()
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    expect(await alarms.next()).toBe(T0 + 1000)
    // Still not served at the first retry: kept, next retry two seconds later.
    await ringAt(T0 + 1000)
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    expect(await alarms.next()).toBe(T0 + 3000)
    installed = true
    await ringAt(T0 + 3000)
    await settled(() => host.objects.get('configmaps', 'dep') === null)
    expect(host.objects.get('configmaps', 'dep')).toBeNull()
  })

  it('is tried again at once when a CRD changes, the namespace having asked the cluster object to be told', async () => {
    const { host, gc, waits } = setup()
    await gc.resync(host.controllerView)
    expect((await host.create('configmaps', orphanOfGizmo('a'))).ok).toBe(true)
    expect((await host.create('configmaps', orphanOfGizmo('b'))).ok).toBe(true)
    await settled(() => waits.length > 0)
    await quiet()
    // One registration for both dependents.
    expect(waits).toEqual(['ns'])
    installed = true
    await gc.kindsChanged(host.controllerView)
    await settled(() => host.objects.get('configmaps', 'b') === null)
    expect(host.objects.get('configmaps', 'a')).toBeNull()
    expect(host.objects.get('configmaps', 'b')).toBeNull()
  })

  it('a wake-up in a new isolate finds such dependents again through the owners they name', async () => {
    const { host, alarms } = setup()
    expect((await host.create('configmaps', orphanOfGizmo('dep'))).ok).toBe(true)
    await settled(() => alarmSet(alarms))
    await quiet()
    // The isolate ends: its retries and its alarm's purpose are lost; the next isolate's collector wakes up.
    alarms.ring()
    const next = new GarbageCollector({ now: () => T0 })
    await next.resync(host.controllerView)
    expect(await alarms.next()).toBe(T0 + 1000)
    installed = true
    await next.kindsChanged(host.controllerView)
    await settled(() => host.objects.get('configmaps', 'dep') === null)
    expect(host.objects.get('configmaps', 'dep')).toBeNull()
  })

  it('an alarm runs only the retries that fell due', async () => {
    const { host, gc, alarms, ringAt } = setup()
    await gc.resync(host.controllerView)
    expect((await host.create('configmaps', orphanOfGizmo('early'))).ok).toBe(true)
    await settled(() => alarmSet(alarms))
    await quiet()
    await ringAt(T0 + 1000) // early: next at T0 + 3000
    expect((await host.create('configmaps', orphanOfGizmo('late'))).ok).toBe(true) // first retry at T0 + 2000
    await quiet()
    installed = true
    await ringAt(T0 + 2000)
    await settled(() => host.objects.get('configmaps', 'late') === null)
    expect(host.objects.get('configmaps', 'late')).toBeNull()
    expect(host.objects.get('configmaps', 'early')).not.toBeNull()
    await ringAt(T0 + 3000)
    await settled(() => host.objects.get('configmaps', 'early') === null)
    expect(host.objects.get('configmaps', 'early')).toBeNull()
  })
})

describe('garbage collector: a call to the cluster object that fails', () => {
  it('tries the dependent again after its backoff instead of losing it', async () => {
    let now = T0
    let failing = true
    const asked: string[] = []
    const cluster = {
      // The cluster object is restarting at first; then it says the ClusterRole owner is gone.
      clusterOwners: async (_ns: string, refs: { name: string }[]) => {
        asked.push(refs.map((r) => r.name).join(','))
        if (failing) throw new Error('durable object reset')
        return refs.map(() => null)
      },
      clusterOwnersUnblocked: async () => undefined,
      awaitOwnerKinds: async () => undefined,
    }
    const gc = new GarbageCollector({ cluster, now: () => now })
    const policy = { ...openPolicy(), needsAttention: (_r: string, o: KubeObject) => waitsOnGarbageCollector(o) }
    const { host, alarms } = memoryHost({ scope: 'ns', policy, controllers: [gc] as Controller[] })
    await gc.resync(host.controllerView)
    const dep: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'dep',
        ownerReferences: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'gone', uid: 'u1' }],
      },
    }
    expect((await host.create('configmaps', dep)).ok).toBe(true)
    await settled(() => asked.length > 0 && alarmSet(alarms))
    await quiet()
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    const due = await alarms.next()
    expect(due).not.toBeNull()
    failing = false
    now = due!
    alarms.ring()
    await host.alarm(now)
    await settled(() => host.objects.get('configmaps', 'dep') === null)
    expect(host.objects.get('configmaps', 'dep')).toBeNull()
  })
})
