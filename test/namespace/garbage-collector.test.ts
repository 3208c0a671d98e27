// The garbage collector with custom owners: owners are resolved by group, version and Kind (two groups may both have
// a Widget, a CRD may name its kind Deployment), a kind the isolate has not loaded is loaded to resolve it, one that
// cannot be resolved keeps its dependent, and a wake-up in a new isolate finds custom owners waiting on orphan or
// foreground deletion.
import { afterEach, describe, expect, it } from 'vitest'
import type { Controller, ControllerHost } from '../../src/host/controller'
import type { LogEntry } from '../../src/registry/store'
import type { Crd } from '../../src/registry/crd/json-schema'
import { customResourceRows } from '../../src/registry/custom/custom-rows'
import type { ResourceDef } from '../../src/registry/resource'
import { kinds } from '../../src/registry/resources'
import type { KubeObject } from '../../src/schema/meta'
import { GarbageCollector } from '../../src/namespace/garbage-collector'
import { NamespacePolicy } from '../../src/namespace/namespace-policy'
import { memoryHost, openPolicy } from '../support/memory-host'

const crdOf = (group: string, kind: string, plural: string): Crd => ({
  metadata: { name: `${plural}.${group}`, uid: `crd-${plural}.${group}`, generation: 1 },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural, kind },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
})

const A = 'gca.example.com'
const B = 'gcb.example.com'
const C = 'gcc.example.com'
const rows: ResourceDef[] = [
  ...customResourceRows(crdOf(A, 'Widget', 'widgets'), 'a'),
  ...customResourceRows(crdOf(B, 'Widget', 'widgets'), 'b'),
  ...customResourceRows(crdOf(C, 'Deployment', 'deployments'), 'c'),
]
const load = () => kinds.replace((def) => rows.includes(def), rows)
const forget = () => kinds.replace((def) => rows.includes(def), [])
const loaded = () => kinds.all().some((def) => rows.includes(def))

/** Learns the custom kinds as a Durable Object does: asynchronously, all CRDs at once, on the first question. */
const knowKind = (resource: string) =>
  resource.includes('.') && !kinds.byPlural(resource) ? Promise.resolve().then(load) : undefined
let kindLookups = 0
const knowKindOf = (apiVersion: string) => {
  if (!apiVersion.includes('.') || loaded()) return undefined
  kindLookups++
  return Promise.resolve().then(load)
}

/** A garbage collector that can be kept from reacting to commits (what a crash or an isolate's end does). */
class PausableCollector extends GarbageCollector {
  paused = false
  override async onCommitted(entries: readonly LogEntry[], host: ControllerHost) {
    if (!this.paused) await super.onCommitted(entries, host)
  }
}

function setup() {
  const gc = new PausableCollector()
  const ns = new NamespacePolicy(
    'ns',
    () => {
      throw new Error('no cluster here')
    },
    async () => {},
  )
  const policy = { ...openPolicy(), needsAttention: (r: string, o: KubeObject) => ns.needsAttention(r, o) }
  const { host } = memoryHost({ policy, knowKind, knowKindOf, controllers: [gc] as Controller[] })
  return { host, gc }
}

type Host = ReturnType<typeof setup>['host']

const settled = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
}

async function make(host: Host, resource: string, obj: KubeObject): Promise<KubeObject> {
  const r = await host.create(resource, obj)
  if (!r.ok) throw new Error(r.status.message)
  return r.value.object
}

const custom = (group: string, kind: string, name: string): KubeObject => ({
  apiVersion: `${group}/v1`,
  kind,
  metadata: { name },
  spec: {},
})
const configMap = (name: string, owners: KubeObject[] = []): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    ...(owners.length > 0
      ? {
          ownerReferences: owners.map((o) => ({
            apiVersion: o.apiVersion!,
            kind: o.kind!,
            name: o.metadata.name!,
            uid: o.metadata.uid!,
          })),
        }
      : {}),
  },
})

describe('garbage collector: owners resolved by group and kind', () => {
  afterEach(() => {
    forget()
    kindLookups = 0
  })

  it('a Widget of another group with the same name does not stand in for the owner', async () => {
    const { host } = setup()
    load()
    const other = await make(host, 'configmaps', configMap('other'))
    // Only group B has a widget named w; group A's Widget row comes first in the table.
    const w = await make(host, `widgets.${B}`, custom(B, 'Widget', 'w'))
    await make(host, 'configmaps', configMap('dep', [other, w]))
    expect((await host.delete('configmaps', 'other')).ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'other') === null)
    await new Promise((r) => setTimeout(r, 50))
    expect(host.objects.get('configmaps', 'dep')?.object.metadata.name).toBe('dep')
  })

  it("a custom kind named Deployment is not taken for apps' Deployment, on a commit or a wake-up", async () => {
    const { host, gc } = setup()
    load()
    const other = await make(host, 'configmaps', configMap('other'))
    const d = await make(host, `deployments.${C}`, custom(C, 'Deployment', 'd'))
    await make(host, 'configmaps', configMap('dep', [other, d]))
    await make(host, 'configmaps', configMap('only', [d]))
    expect((await host.delete('configmaps', 'other')).ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'other') === null)
    await new Promise((r) => setTimeout(r, 50))
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    // A wake-up checks every named owner: the custom Deployment exists, so its dependents stay.
    await gc.resync(host.controllerView)
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    expect(host.objects.get('configmaps', 'only')).not.toBeNull()
  })

  it('loads a custom owner kind the isolate does not know to find the owner, present or gone', async () => {
    const { host, gc } = setup()
    load()
    const other = await make(host, 'configmaps', configMap('other'))
    const kept = await make(host, `widgets.${B}`, custom(B, 'Widget', 'kept'))
    const gone = await make(host, `widgets.${B}`, custom(B, 'Widget', 'gone'))
    await make(host, 'configmaps', configMap('dep', [other, kept]))
    await make(host, 'configmaps', configMap('orphaned', [gone]))
    gc.paused = true
    expect((await host.delete(`widgets.${B}`, 'gone')).ok).toBe(true)
    gc.paused = false
    // A new isolate: the objects are stored, the custom kinds are not loaded.
    forget()
    expect((await host.delete('configmaps', 'other')).ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'other') === null)
    await new Promise((r) => setTimeout(r, 50))
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    expect(kindLookups).toBe(1)
    forget()
    // The owner that went while nobody looked: the wake-up resolves its kind and collects its dependent.
    await gc.resync(host.controllerView)
    await settled(() => host.objects.get('configmaps', 'orphaned') === null)
    expect(host.objects.get('configmaps', 'orphaned')).toBeNull()
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
  })

  it('keeps a dependent whose other owner names a kind no served group has (kube reports it, deletes nothing)', async () => {
    const { host, gc } = setup()
    const other = await make(host, 'configmaps', configMap('other'))
    const ghost = { ...custom('nowhere.example.com', 'Ghost', 'g'), metadata: { name: 'g', uid: 'ghost-uid' } }
    await make(host, 'configmaps', configMap('dep', [other, ghost]))
    await make(host, 'configmaps', configMap('ghosted', [ghost]))
    expect((await host.delete('configmaps', 'other')).ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'other') === null)
    await gc.resync(host.controllerView)
    await new Promise((r) => setTimeout(r, 50))
    expect(host.objects.get('configmaps', 'dep')).not.toBeNull()
    expect(host.objects.get('configmaps', 'ghosted')).not.toBeNull()
  })
})

describe('garbage collector: a wake-up in a new isolate', () => {
  afterEach(forget)

  it('finds a custom owner waiting on orphan deletion and releases its dependents', async () => {
    const { host, gc } = setup()
    load()
    const owner = await make(host, `widgets.${A}`, custom(A, 'Widget', 'owner'))
    await make(host, 'configmaps', configMap('dep', [owner]))
    gc.paused = true
    expect((await host.delete(`widgets.${A}`, 'owner', { propagationPolicy: 'Orphan' })).ok).toBe(true)
    expect(host.objects.get(`widgets.${A}`, 'owner')?.object.metadata.finalizers).toEqual(['orphan'])
    gc.paused = false
    forget()
    await gc.resync(host.controllerView)
    await settled(() => host.objects.get(`widgets.${A}`, 'owner') === null)
    expect(host.objects.get(`widgets.${A}`, 'owner')).toBeNull()
    const dep = host.objects.get('configmaps', 'dep')
    expect(dep?.object.metadata.ownerReferences).toBeUndefined()
  })

  it('finds a custom owner waiting on foreground deletion and deletes its dependents, then the owner', async () => {
    const { host, gc } = setup()
    load()
    const owner = await make(host, `widgets.${A}`, custom(A, 'Widget', 'owner'))
    await make(host, 'configmaps', configMap('dep', [owner]))
    gc.paused = true
    expect((await host.delete(`widgets.${A}`, 'owner', { propagationPolicy: 'Foreground' })).ok).toBe(true)
    expect(host.objects.get(`widgets.${A}`, 'owner')?.object.metadata.finalizers).toEqual(['foregroundDeletion'])
    gc.paused = false
    forget()
    await gc.resync(host.controllerView)
    await settled(() => host.objects.get(`widgets.${A}`, 'owner') === null)
    expect(host.objects.get('configmaps', 'dep')).toBeNull()
    expect(host.objects.get(`widgets.${A}`, 'owner')).toBeNull()
  })
})

/** A ConfigMap owned by `owners`, each reference blocking owner deletion or not. */
const ownedMap = (name: string, owners: KubeObject[], block: boolean, extra: Partial<KubeObject['metadata']> = {}) => ({
  ...configMap(name, owners),
  metadata: {
    ...configMap(name, owners).metadata,
    ...extra,
    ownerReferences: owners.map((o) => ({ ...ref(o), blockOwnerDeletion: block })),
  },
})
const ref = (o: KubeObject) => ({
  apiVersion: o.apiVersion!,
  kind: o.kind!,
  name: o.metadata.name!,
  uid: o.metadata.uid!,
})

describe('garbage collector: foreground deletion as kube does it', () => {
  it('a dependent with another, valid owner loses the deleted owner’s reference and stays (conformance: multiple owners)', async () => {
    const { host } = setup()
    const rc1 = await make(host, 'configmaps', configMap('rc1'))
    const rc2 = await make(host, 'configmaps', configMap('rc2'))
    await make(host, 'configmaps', ownedMap('only', [rc1], true))
    await make(host, 'configmaps', ownedMap('shared', [rc1, rc2], true))
    expect((await host.delete('configmaps', 'rc1', { propagationPolicy: 'Foreground' })).ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'rc1') === null)
    expect(host.objects.get('configmaps', 'rc1')).toBeNull()
    expect(host.objects.get('configmaps', 'only')).toBeNull()
    const shared = host.objects.get('configmaps', 'shared')?.object
    expect(shared?.metadata.deletionTimestamp).toBeUndefined()
    expect(shared?.metadata.ownerReferences?.map((r) => r.name)).toEqual(['rc2'])
  })

  it('the owner waits only for dependents whose reference blocks owner deletion', async () => {
    const { host } = setup()
    const free = await make(host, 'configmaps', configMap('free'))
    const held = await make(host, 'configmaps', configMap('held'))
    const hold = { finalizers: ['example.com/hold'] }
    await make(host, 'configmaps', ownedMap('free-dep', [free], false, hold))
    await make(host, 'configmaps', ownedMap('held-dep', [held], true, hold))
    await host.delete('configmaps', 'free', { propagationPolicy: 'Foreground' })
    await host.delete('configmaps', 'held', { propagationPolicy: 'Foreground' })
    await settled(() => host.objects.get('configmaps', 'free') === null)
    await new Promise((r) => setTimeout(r, 50))
    // Both dependents are being deleted (their finalizer holds them); only the blocking one holds its owner.
    expect(host.objects.get('configmaps', 'free')).toBeNull()
    expect(host.objects.get('configmaps', 'free-dep')?.object.metadata.deletionTimestamp).toBeDefined()
    expect(host.objects.get('configmaps', 'held')?.object.metadata.finalizers).toEqual(['foregroundDeletion'])
    await host.controllerView.update('configmaps', 'held-dep', (o) => {
      delete o.metadata.finalizers
      return o
    })
    await settled(() => host.objects.get('configmaps', 'held') === null)
    expect(host.objects.get('configmaps', 'held-dep')).toBeNull()
    expect(host.objects.get('configmaps', 'held')).toBeNull()
  })

  it('a dependency cycle does not block a foreground deletion (conformance: dependency circle)', async () => {
    const { host } = setup()
    const [c1, c2, c3] = [
      await make(host, 'configmaps', configMap('c1')),
      await make(host, 'configmaps', configMap('c2')),
      await make(host, 'configmaps', configMap('c3')),
    ]
    const own = (o: KubeObject, owner: KubeObject) =>
      host.controllerView.update('configmaps', o.metadata.name!, (cur) => ({
        ...cur,
        metadata: { ...cur.metadata, ownerReferences: [{ ...ref(owner), controller: true, blockOwnerDeletion: true }] },
      }))
    await own(c1!, c3!)
    await own(c2!, c1!)
    await own(c3!, c2!)
    expect((await host.delete('configmaps', 'c1', { propagationPolicy: 'Foreground' })).ok).toBe(true)
    const gone = () => ['c1', 'c2', 'c3'].every((n) => host.objects.get('configmaps', n) === null)
    await settled(gone)
    expect(['c1', 'c2', 'c3'].filter((n) => host.objects.get('configmaps', n) !== null)).toEqual([])
  })
})
