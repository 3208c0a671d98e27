// The HPA controller in a namespace host over the in-memory parts, on a clock the test moves: a pass a resync period
// (15 s) after an HPA is first seen and every period after; replica bounds enforced through the target's /scale;
// kube's status, conditions and events when no metrics API answers; targets that cannot be read.
import { describe, expect, it } from 'vitest'
import { HorizontalPodAutoscalerController } from '../../src/namespace/hpa-controller'
import { customResourceRows } from '../../src/registry/custom/custom-rows'
import { kinds } from '../../src/registry/resources'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost } from '../support/memory-host'
import { deployment } from './deployment-fixtures'

type Obj = Record<string, any>
const HPAS = 'horizontalpodautoscalers'
const FETCH =
  'unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)'

function hpa(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      ...spec,
    },
  } as unknown as KubeObject
}

function setup() {
  let now = Math.floor(Date.now() / 1000) * 1000
  const controller = new HorizontalPodAutoscalerController({ clock: () => now })
  const { host, alarms } = memoryHost({ scope: 'ns', controllers: [controller] })
  const view = host.controllerView
  const idle = () => new Promise((r) => setTimeout(r, 20))
  return {
    host,
    get: (resource: string, name: string) => view.get(resource, name)?.object as Obj,
    events: () =>
      view
        .all('events')
        .map((s) => s.object as Obj)
        .map((e) => `${e.type} ${e.reason} ${e.message}${e.count > 1 ? ` (x${e.count})` : ''}`),
    async create(resource: string, obj: unknown) {
      const r = await host.create(resource, obj as KubeObject, { fieldManager: 'kubectl' })
      if (!r.ok) throw new Error(r.status.message)
      await idle()
    },
    async scaleTo(replicas: number) {
      const r = await host.mutate('deployments', 'web', (d) => ({ ...d, spec: { ...(d.spec as Obj), replicas } }))
      if (!r.ok) throw new Error(r.status.message)
    },
    /** Time passes: the clock moves and the alarm rings when it is due. */
    async advance(ms: number) {
      now += ms
      const at = await alarms.next()
      if (at !== null && at <= now) {
        alarms.ring()
        await host.alarm(now)
      }
      await idle()
    },
  }
}

const conditions = (h: Obj) =>
  (h.status.conditions ?? []).map((c: Obj) => `${c.type} ${c.status} ${c.reason}: ${c.message}`)

describe('HPA controller', () => {
  it('scales a Deployment below minReplicas to it a resync period after the HPA appears, then reports the metrics it cannot read', async () => {
    const t = setup()
    await t.create('deployments', deployment('web', 1))
    await t.create(HPAS, hpa('web', { minReplicas: 2 }))
    await t.advance(14_000)
    expect(t.get('deployments', 'web').spec.replicas).toBe(1)
    await t.advance(1_000)
    expect(t.get('deployments', 'web').spec.replicas).toBe(2)
    const first = t.get(HPAS, 'web')
    expect(first.status).toMatchObject({ currentReplicas: 1, desiredReplicas: 2, currentMetrics: null })
    expect(first.status.lastScaleTime).toBeDefined()
    expect(conditions(first)).toEqual([
      'AbleToScale True SucceededRescale: the HPA controller was able to update the target scale to 2',
    ])
    expect(t.events()).toEqual([
      'Normal SuccessfulRescale New size: 2; reason: Current number of replicas below Spec.MinReplicas',
    ])
    const scaled = t.get('deployments', 'web').metadata.managedFields.find((f: Obj) => f.subresource === 'scale')
    expect(scaled.manager).toBe('kube-controller-manager')

    await t.advance(15_000)
    const second = t.get(HPAS, 'web')
    expect(second.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: '' }] })
    expect(second.status.lastScaleTime).toBe(first.status.lastScaleTime)
    expect(conditions(second)).toEqual([
      "AbleToScale True SucceededGetScale: the HPA controller was able to get the target's current scale",
      `ScalingActive False FailedGetResourceMetric: the HPA was unable to compute the replica count: failed to get cpu utilization: ${FETCH}`,
    ])
    expect(t.events()).toEqual([
      'Normal SuccessfulRescale New size: 2; reason: Current number of replicas below Spec.MinReplicas',
      `Warning FailedGetResourceMetric failed to get cpu utilization: ${FETCH}`,
      `Warning FailedComputeMetricsReplicas invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: ${FETCH}`,
    ])
    // Nothing to change: the same status is not written again; the events count up.
    const rv = second.metadata.resourceVersion
    await t.advance(15_000)
    expect(t.get(HPAS, 'web').metadata.resourceVersion).toBe(rv)
    expect(t.events()[1]).toMatch(/\(x2\)$/)
  })

  it('scales down to maxReplicas, and leaves a target at zero replicas alone (ScalingDisabled)', async () => {
    const t = setup()
    await t.create('deployments', deployment('web', 9))
    await t.create(HPAS, hpa('web', {}))
    await t.advance(15_000)
    expect(t.get('deployments', 'web').spec.replicas).toBe(5)
    expect(t.events()).toEqual([
      'Normal SuccessfulRescale New size: 5; reason: Current number of replicas above Spec.MaxReplicas',
    ])
    await t.scaleTo(0)
    await t.advance(15_000)
    expect(t.get('deployments', 'web').spec.replicas).toBe(0)
    const h = t.get(HPAS, 'web')
    expect(h.status).toMatchObject({ desiredReplicas: 0, currentMetrics: null })
    expect(h.status.currentReplicas).toBeUndefined()
    expect(conditions(h)).toEqual([
      "AbleToScale True SucceededGetScale: the HPA controller was able to get the target's current scale",
      'ScalingActive False ScalingDisabled: scaling is disabled since the replica count of the target is zero',
    ])
  })

  it.each([
    [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nope' }, 'deployments.apps "nope" not found'],
    [{ kind: 'Deployment', name: 'web' }, 'no matches for kind "Deployment" in group ""'],
    [{ apiVersion: 'a/b/c', kind: 'Deployment', name: 'web' }, 'unexpected GroupVersion string: a/b/c'],
    [{ apiVersion: 'v1', kind: 'Pod', name: 'web' }, 'the server could not find the requested resource'],
  ])('reports a target it cannot read: %j', async (ref, error) => {
    const t = setup()
    await t.create('deployments', deployment('web', 1))
    await t.create(HPAS, hpa('h', { scaleTargetRef: ref }))
    await t.advance(15_000)
    expect(conditions(t.get(HPAS, 'h'))).toEqual([
      `AbleToScale False FailedGetScale: the HPA controller was unable to get the target's current scale: ${error}`,
    ])
    expect(t.events()).toEqual([`Warning FailedGetScale ${error}`])
  })

  it('scales a ReplicationController (core/v1, no apiVersion needed) through its /scale', async () => {
    const t = setup()
    await t.create('replicationcontrollers', {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: {
        replicas: 7,
        selector: { app: 'rc' },
        template: { metadata: { labels: { app: 'rc' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    })
    await t.create(HPAS, hpa('rc', { scaleTargetRef: { kind: 'ReplicationController', name: 'rc' }, maxReplicas: 3 }))
    await t.advance(15_000)
    expect(t.get('replicationcontrollers', 'rc').spec.replicas).toBe(3)
  })

  it('scales a custom resource through its CRD scale paths, then asks for the selector its Scale lacks', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'fleets.hpa.test' },
      spec: {
        group: 'hpa.test',
        scope: 'Namespaced',
        names: { plural: 'fleets', singular: 'fleet', kind: 'Fleet', listKind: 'FleetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { size: { type: 'integer', maximum: 4 } } },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
            subresources: { scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
          },
        ],
      },
    }
    kinds.replace(() => false, customResourceRows(crd as never, 'hash'))
    try {
      const t = setup()
      await t.create('fleets.hpa.test', {
        apiVersion: 'hpa.test/v1',
        kind: 'Fleet',
        metadata: { name: 'f' },
        spec: { size: 1 },
      })
      await t.create(
        HPAS,
        hpa('f', { minReplicas: 3, scaleTargetRef: { apiVersion: 'hpa.test/v1', kind: 'Fleet', name: 'f' } }),
      )
      await t.advance(15_000)
      expect(t.get('fleets.hpa.test', 'f').spec.size).toBe(3)
      await t.advance(15_000)
      expect(conditions(t.get(HPAS, 'f'))[1]).toBe(
        "ScalingActive False InvalidSelector: the HPA target's scale is missing a selector",
      )
      expect(t.events().slice(1)).toEqual([
        'Warning SelectorRequired selector is required',
        'Warning FailedComputeMetricsReplicas selector is required',
      ])
      // A rescale the target refuses: AbleToScale False FailedUpdateScale, FailedRescale with the API's error.
      await t.create(
        HPAS,
        hpa('big', { minReplicas: 5, scaleTargetRef: { apiVersion: 'hpa.test/v1', kind: 'Fleet', name: 'f' } }),
      )
      await t.advance(15_000)
      const refused =
        'Fleet.hpa.test "f" is invalid: spec.size: Invalid value: 5: spec.size in body should be less than or equal to 4'
      expect(conditions(t.get(HPAS, 'big'))).toEqual([
        `AbleToScale False FailedUpdateScale: the HPA controller was unable to update the target scale: ${refused}`,
      ])
      expect(t.get(HPAS, 'big').status.desiredReplicas).toBe(0)
      expect(t.events()).toContain(
        `Warning FailedRescale New size: 5; reason: Current number of replicas below Spec.MinReplicas; error: ${refused}`,
      )
    } finally {
      kinds.unregister('hpa.test', 'fleets')
    }
  })

  it('refuses to act for pods two HPAs take in (AmbiguousSelector)', async () => {
    const t = setup()
    await t.create('deployments', deployment('web', 1))
    await t.create('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    })
    await t.create(HPAS, hpa('a', { minReplicas: 1 }))
    await t.create(HPAS, hpa('b', { minReplicas: 1 }))
    await t.advance(15_000)
    await t.advance(15_000)
    const message = 'pods by selector app=web are controlled by multiple HPAs: [{a ns} {b ns}]'
    for (const name of ['a', 'b'])
      expect(conditions(t.get(HPAS, name))[1]).toBe(`ScalingActive False AmbiguousSelector: ${message}`)
    expect(t.events()).toContain(`Warning AmbiguousSelector ${message}`)
    expect(t.get('deployments', 'web').spec.replicas).toBe(1)
  })
})
