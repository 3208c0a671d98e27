// A host asked to write a kind its isolate has not loaded yet (a custom resource after the Durable Object woke in a
// new isolate) learns the kind first, whichever verb asks: a controller's writes as well as a client's.
import { afterEach, describe, expect, it } from 'vitest'
import type { Controller } from '../../src/host/controller'
import type { Crd } from '../../src/registry/crd/json-schema'
import { customResourceRows } from '../../src/registry/custom/custom-rows'
import { kinds } from '../../src/registry/resources'
import type { KubeObject } from '../../src/schema/meta'
import { GarbageCollector } from '../../src/namespace/garbage-collector'
import { memoryHost } from '../support/memory-host'

const GROUP = 'lazy.example.com'
const WIDGETS = `widgets.${GROUP}`
const crd: Crd = {
  metadata: { name: WIDGETS, uid: 'crd-uid', generation: 1 },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
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
const rows = customResourceRows(crd, 'hash')
const load = () => kinds.replace((def) => rows.includes(def), rows)
const forget = () => kinds.replace((def) => rows.includes(def), [])

/** Learns the widgets' kind as a Durable Object learns a custom kind: asynchronously, on the first question. */
const knowKind = (resource: string) =>
  resource === WIDGETS && !kinds.byPlural(WIDGETS) ? Promise.resolve().then(load) : undefined

const widget = (name: string, metadata: KubeObject['metadata'] = {}): KubeObject => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Widget',
  metadata: { name, ...metadata },
  spec: { size: 1 },
})

const settled = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
}

describe('a kind the isolate has not loaded yet', () => {
  afterEach(forget)

  it("is learned before a controller's update and reconcile, as before a client's verbs", async () => {
    const { host } = memoryHost({ knowKind })
    load()
    expect((await host.create(WIDGETS, widget('w'))).ok).toBe(true)
    forget()
    const updated = await host.controllerView.update(WIDGETS, 'w', (o) => ({ ...o, spec: { size: 2 } }))
    expect(updated.ok ? updated.value?.object.spec : updated.status.message).toEqual({ size: 2 })
    forget()
    const created = await host.controllerView.reconcile(WIDGETS, 'x', (cur) => (cur ? null : { create: widget('x') }))
    expect(created.ok ? created.value?.created : created.status.message).toBe(true)
  })

  it("orphan deletion releases a custom resource dependent instead of the owner's collection deleting it", async () => {
    const { host } = memoryHost({ knowKind, controllers: [new GarbageCollector()] as Controller[] })
    const owner = await host.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } })
    if (!owner.ok) throw new Error(owner.status.message)
    const uid = owner.value.object.metadata.uid!
    load()
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }
    expect((await host.create(WIDGETS, widget('w', { ownerReferences: [ref] }))).ok).toBe(true)
    // The Durable Object wakes in a new isolate: its objects are stored, the custom kind is not loaded.
    forget()
    const deleted = await host.delete('configmaps', 'owner', { propagationPolicy: 'Orphan' })
    expect(deleted.ok).toBe(true)
    await settled(() => host.objects.get('configmaps', 'owner') === null)
    expect(host.objects.get('configmaps', 'owner')).toBeNull()
    const kept = host.objects.get(WIDGETS, 'w')
    expect(kept?.object.metadata.name).toBe('w')
    expect(kept?.object.metadata.ownerReferences).toBeUndefined()
  })
})
