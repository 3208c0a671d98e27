// The disruption controller's finders with custom controllers: a budget over pods owned by a custom resource with the
// scale subresource counts that resource's Scale (read where its CRD keeps the replicas), loading the custom kind when
// the isolate has not seen it; a CRD kind named Deployment is resolved by its group, never taken for apps'; a custom
// kind without /scale and a kind no group serves fail the sync with kube's messages.
import { afterEach, describe, expect, it } from 'vitest'
import type { Controller } from '../../src/host/controller'
import { DisruptionController } from '../../src/namespace/disruption-controller'
import { scaleLookup } from '../../src/namespace/disruption-finders'
import type { Crd } from '../../src/registry/crd/json-schema'
import { customResourceRows } from '../../src/registry/custom/custom-rows'
import type { ResourceDef } from '../../src/registry/resource'
import { kinds } from '../../src/registry/resources'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>

const crdOf = (group: string, kind: string, plural: string, scale?: { specReplicasPath: string }): Crd => ({
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
        ...(scale ? { subresources: { scale: { ...scale, statusReplicasPath: '.status.replicas' }, status: {} } } : {}),
      },
    ],
  },
})

const G = 'pdbscale.example.com'
const D = 'pdbdeploy.example.com'
const rows: ResourceDef[] = [
  // The replicas live at .spec.size: only the Scale finds them there.
  ...customResourceRows(crdOf(G, 'Widget', 'widgets', { specReplicasPath: '.spec.size' }), 'w'),
  ...customResourceRows(crdOf(G, 'Gizmo', 'gizmos'), 'g'),
  ...customResourceRows(crdOf(D, 'Deployment', 'deployments', { specReplicasPath: '.spec.replicas' }), 'd'),
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

function setup() {
  const controller = new DisruptionController()
  const { host } = memoryHost({ knowKind, knowKindOf, controllers: [controller] as Controller[] })
  const make = async (resource: string, obj: KubeObject) => {
    const r = await host.create(resource, obj)
    if (!r.ok) throw new Error(r.status.message)
    return r.value.object
  }
  /** A pod controlled by `owner`, Ready or not. */
  const pod = async (name: string, owner: KubeObject, ready: boolean) => {
    await make('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { app: 'web' },
        ownerReferences: [
          {
            apiVersion: owner.apiVersion!,
            kind: owner.kind!,
            name: owner.metadata.name!,
            uid: owner.metadata.uid!,
            controller: true,
          },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    } as KubeObject)
    if (!ready) return
    const r = await host.controllerView.update(
      'pods',
      name,
      (p) => {
        ;(p as Obj).status = { ...(p as Obj).status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
        return p
      },
      { subresource: 'status' },
    )
    if (!r.ok) throw new Error(r.status.message)
  }
  const budget = (name: string, spec: Obj) =>
    make('poddisruptionbudgets', {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name },
      spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    } as KubeObject)
  /** The budget's status once `done` holds of it (the controller runs after each commit, not awaited). */
  const statusWhen = async (name: string, done: (s: Obj) => boolean) => {
    let s: Obj = {}
    for (let i = 0; i < 100; i++) {
      s = (host.objects.get('poddisruptionbudgets', name)?.object as Obj | undefined)?.status ?? {}
      if (done(s)) return s
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`status of ${name} never settled: ${JSON.stringify(s)}`)
  }
  const conditionsOf = (s: Obj) =>
    (s.conditions ?? []).map((c: Obj) => `${c.type}=${c.status}/${c.reason}/${c.message}`)
  return { host, make, pod, budget, statusWhen, conditionsOf }
}

const widget = (group: string, kind: string, name: string, spec: Obj): KubeObject =>
  ({ apiVersion: `${group}/v1`, kind, metadata: { name }, spec }) as KubeObject

describe('disruption controller: custom scalable controllers', () => {
  afterEach(() => {
    forget()
    kindLookups = 0
  })

  it('maxUnavailable over pods of a custom resource counts its Scale, loading the kind, and follows it when scaled', async () => {
    const t = setup()
    load()
    const w = await t.make(`widgets.${G}`, widget(G, 'Widget', 'w', { size: 4 }))
    await t.pod('w-0', w, true)
    await t.pod('w-1', w, true)
    await t.pod('w-2', w, true)
    // A new isolate: the controller must load the Widget kind to resolve the pods' controller.
    forget()
    await t.budget('web', { maxUnavailable: 1 })
    const s = await t.statusWhen('web', (x) => x.observedGeneration === 1)
    expect(kindLookups).toBeGreaterThan(0)
    expect({ ...s, conditions: t.conditionsOf(s) }).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 3,
      desiredHealthy: 3,
      expectedPods: 4,
      conditions: ['DisruptionAllowed=False/InsufficientPods/'],
    })

    // Scaling the Widget through its CRD's path moves the denominator.
    const r = await t.host.controllerView.update(`widgets.${G}`, 'w', (o) => {
      ;(o as Obj).spec.size = 3
      return o
    })
    expect(r.ok).toBe(true)
    const scaled = await t.statusWhen('web', (x) => x.expectedPods === 3)
    expect({ ...scaled, conditions: t.conditionsOf(scaled) }).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: ['DisruptionAllowed=True/SufficientPods/'],
    })
  })

  it('a percentage over a custom kind named Deployment uses that kind’s Scale, not apps’ Deployments', async () => {
    const t = setup()
    load()
    const d = await t.make(`deployments.${D}`, widget(D, 'Deployment', 'web', { replicas: 4 }))
    await t.pod('d-0', d, true)
    await t.pod('d-1', d, true)
    await t.pod('d-2', d, false)
    await t.budget('half', { minAvailable: '50%' })
    const s = await t.statusWhen('half', (x) => x.observedGeneration === 1)
    expect({ ...s, conditions: t.conditionsOf(s) }).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 4,
      conditions: ['DisruptionAllowed=False/InsufficientPods/'],
    })
  })

  it('a custom kind without /scale, and a kind no group serves, fail the sync with kube’s errors', async () => {
    const t = setup()
    load()
    const g = await t.make(`gizmos.${G}`, widget(G, 'Gizmo', 'g', {}))
    await t.pod('g-0', g, true)
    await t.budget('web', { maxUnavailable: '25%' })
    const s = await t.statusWhen('web', (x) => (x.conditions ?? []).length > 0)
    expect(s.disruptionsAllowed).toBe(0)
    expect(t.conditionsOf(s)).toEqual([
      `DisruptionAllowed=False/SyncFailed/gizmos.${G} does not implement the scale subresource`,
    ])

    const t2 = setup()
    const ghost = widget('nowhere.example.com', 'Nope', 'n', {})
    ghost.metadata.uid = 'u-nope'
    await t2.pod('n-0', ghost, true)
    await t2.budget('web', { maxUnavailable: 1 })
    const s2 = await t2.statusWhen('web', (x) => (x.conditions ?? []).length > 0)
    expect(t2.conditionsOf(s2)).toEqual([
      'DisruptionAllowed=False/SyncFailed/no matches for kind "Nope" in version "nowhere.example.com/v1"',
    ])
  })
})

describe('disruption controller: the finders', () => {
  afterEach(forget)

  const ref = (o: KubeObject) => ({
    apiVersion: o.apiVersion!,
    kind: o.kind!,
    name: o.metadata.name!,
    uid: o.metadata.uid!,
    controller: true,
  })
  const obj = (apiVersion: string, kind: string, name: string, uid: string, rest: Obj = {}): KubeObject =>
    ({ apiVersion, kind, metadata: { name, uid, ...rest.metadata }, spec: rest.spec ?? {} }) as KubeObject
  const lookupOver = (objects: Record<string, KubeObject[]>) =>
    scaleLookup((resource, name) => objects[resource]?.find((o) => o.metadata.name === name))

  it('a ReplicaSet under an apps Deployment counts as the Deployment; under a custom Deployment, as itself', () => {
    load()
    const apps = obj('apps/v1', 'Deployment', 'web', 'u-dep', { spec: { replicas: 5 } })
    const custom = obj(`${D}/v1`, 'Deployment', 'web', 'u-cdep', { spec: { replicas: 7 } })
    const under = (name: string, owner: KubeObject) =>
      obj('apps/v1', 'ReplicaSet', name, `u-${name}`, {
        metadata: { ownerReferences: [ref(owner)] },
        spec: { replicas: 2 },
      })
    const rsA = under('rs-a', apps)
    const rsC = under('rs-c', custom)
    const lookup = lookupOver({
      deployments: [apps],
      replicasets: [rsA, rsC],
      [`deployments.${D}`]: [custom],
    })
    expect(lookup(ref(rsA))).toBe(5)
    expect(lookup(ref(rsC))).toBe(2)
    // The custom Deployment itself: its Scale.
    expect(lookup(ref(custom))).toBe(7)
    // Gone, or its name now holds another object: no controller.
    expect(lookup({ ...ref(custom), uid: 'other' })).toBeNull()
    expect(lookup({ ...ref(custom), name: 'gone' })).toBeNull()
  })

  it('kinds that do not serve /scale name their resource; an unserved version is no match', () => {
    load()
    const lookup = lookupOver({})
    expect(lookup({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u' })).toEqual({
      error: 'daemonsets.apps does not implement the scale subresource',
    })
    expect(lookup({ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u' })).toEqual({
      error: 'configmaps does not implement the scale subresource',
    })
    expect(lookup({ apiVersion: `${G}/v2`, kind: 'Widget', name: 'w', uid: 'u' })).toEqual({
      error: `no matches for kind "Widget" in version "${G}/v2"`,
    })
    expect(lookup({ apiVersion: 'v1', kind: 'Widget', name: 'w', uid: 'u' })).toEqual({
      error: 'no matches for kind "Widget" in version "v1"',
    })
  })
})
