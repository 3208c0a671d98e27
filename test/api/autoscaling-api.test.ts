// autoscaling/v2 and v1 HorizontalPodAutoscalers through the API: discovery (v2 preferred, hpa, all, /status),
// OpenAPI, v2 defaults, kube's validation messages, the Table kubectl prints, and the v1 view of the stored v2 object
// (its annotations) for reads, creates, updates, patches, applies and watches.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req } from '../helpers'

const v2Path = (ns: string, name = '') =>
  `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers${name ? `/${name}` : ''}`
const v1Path = (ns: string, name = '') =>
  `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers${name ? `/${name}` : ''}`
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }

/** The HPA of kube's walkthrough (docs/tasks/run-application/horizontal-pod-autoscale-walkthrough). */
const docsHpa = (name = 'php-apache') => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'php-apache' },
    minReplicas: 1,
    maxReplicas: 10,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
  },
})

describe('autoscaling discovery', () => {
  it('serves the group with v2 preferred, hpa in both versions with their /status', async () => {
    const groups = await req('GET', '/apis')
    expect(groups.json.groups.find((g: any) => g.name === 'autoscaling')).toEqual({
      name: 'autoscaling',
      versions: [
        { groupVersion: 'autoscaling/v2', version: 'v2' },
        { groupVersion: 'autoscaling/v1', version: 'v1' },
      ],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    })
    for (const v of ['v2', 'v1']) {
      const list = await req('GET', `/apis/autoscaling/${v}`)
      const byName = Object.fromEntries(list.json.resources.map((r: any) => [r.name, r]))
      expect(byName.horizontalpodautoscalers).toEqual({
        name: 'horizontalpodautoscalers',
        singularName: 'horizontalpodautoscaler',
        namespaced: true,
        kind: 'HorizontalPodAutoscaler',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['hpa'],
        categories: ['all'],
        storageVersionHash: 'qwQve8ut294=',
      })
      expect(byName['horizontalpodautoscalers/status']).toMatchObject({ verbs: ['get', 'patch', 'update'] })
    }
  })

  it('publishes both versions in OpenAPI v3 under their own packages', async () => {
    const v2 = await req('GET', '/openapi/v3/apis/autoscaling/v2')
    const s2 = v2.json.components.schemas
    expect(s2['io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec'].required).toEqual([
      'scaleTargetRef',
      'maxReplicas',
    ])
    expect(s2['io.k8s.api.autoscaling.v2.MetricTarget'].properties.averageUtilization.format).toBe('int32')
    const swagger = await req('GET', '/openapi/v2', undefined, { accept: 'application/json' })
    expect(swagger.json.definitions['io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler']).toBeDefined()
    expect(swagger.json.definitions['io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler']).toBeDefined()
    const v1 = await req('GET', '/openapi/v3/apis/autoscaling/v1')
    const s1 = v1.json.components.schemas
    expect(Object.keys(s1['io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec'].properties)).toEqual([
      'scaleTargetRef',
      'minReplicas',
      'maxReplicas',
      'targetCPUUtilizationPercentage',
    ])
  })
})

describe('autoscaling/v2 HorizontalPodAutoscalers', () => {
  it("stores the docs manifest with kube's zero status and prints its Table", async () => {
    const ns = await makeNamespace('hpa')
    const created = await req('POST', v2Path(ns), docsHpa())
    expect(created.status).toBe(201)
    expect(created.json.status).toEqual({ currentMetrics: null, desiredReplicas: 0 })
    expect(created.json.metadata.generation).toBeUndefined()
    const table = await req('GET', v2Path(ns), undefined, TABLE)
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Reference',
      'Targets',
      'MinPods',
      'MaxPods',
      'Replicas',
      'Age',
    ])
    expect(table.json.rows[0].cells.slice(0, 6)).toEqual([
      'php-apache',
      'Deployment/php-apache',
      'cpu: <unknown>/50%',
      '1',
      10,
      0,
    ])
  })

  it('defaults minReplicas, an 80% CPU target and a given behavior direction as kube does', async () => {
    const ns = await makeNamespace('hpadef')
    const body = {
      metadata: { name: 'd' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 3,
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    }
    const r = await req('POST', v2Path(ns), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', ...body })
    expect(r.status).toBe(201)
    expect(r.json.spec.minReplicas).toBe(1)
    expect(r.json.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ])
    expect(r.json.spec.behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: {
        stabilizationWindowSeconds: 60,
        selectPolicy: 'Max',
        policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
      },
    })
  })

  it("refuses bad specs with kube's causes", async () => {
    const ns = await makeNamespace('hpabad')
    const bad = docsHpa('bad') as any
    bad.spec.minReplicas = 0
    bad.spec.maxReplicas = 0
    bad.spec.scaleTargetRef = { kind: 'Deployment' }
    bad.spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
    ]
    const r = await req('POST', v2Path(ns), bad)
    expect(r.status).toBe(422)
    expect(r.json.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.name: Required value',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ])
  })
})

describe('autoscaling/v1 HorizontalPodAutoscalers (converted)', () => {
  it('reads a v2 object as v1: the CPU target as targetCPUUtilizationPercentage, the rest in annotations', async () => {
    const ns = await makeNamespace('hpav1')
    const body = docsHpa('mixed') as any
    body.spec.metrics.push({
      type: 'Resource',
      resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
    })
    expect((await req('POST', v2Path(ns), body)).status).toBe(201)
    const v1 = await req('GET', v1Path(ns, 'mixed'))
    expect(v1.json.apiVersion).toBe('autoscaling/v1')
    expect(v1.json.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'php-apache', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 50,
    })
    expect(v1.json.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 })
    expect(v1.json.metadata.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/metrics':
        '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]',
    })
    const table = await req('GET', v1Path(ns), undefined, TABLE)
    expect(table.json.rows[0].cells[2]).toBe('cpu: <unknown>/50%, memory: <unknown>/100Mi')
  })

  it('creates from v1 (80% CPU by default) and round-trips the annotations through a v1 update', async () => {
    const ns = await makeNamespace('hpav1c')
    const created = await req('POST', v1Path(ns), {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, maxReplicas: 5 },
    })
    expect(created.status).toBe(201)
    expect(created.json.apiVersion).toBe('autoscaling/v1')
    expect(created.json.spec).toMatchObject({ minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 })
    const v2 = await req('GET', v2Path(ns, 'x'))
    expect(v2.json.spec.metrics[0].resource.target).toEqual({ type: 'Utilization', averageUtilization: 80 })
    // A v2 client adds a memory metric and a behavior; a v1 client's read-modify-write keeps them.
    v2.json.spec.metrics.push({
      type: 'Resource',
      resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 70 } },
    })
    v2.json.spec.behavior = { scaleUp: { selectPolicy: 'Min' } }
    expect((await req('PUT', v2Path(ns, 'x'), v2.json)).status).toBe(200)
    const v1 = await req('GET', v1Path(ns, 'x'))
    expect(JSON.parse(v1.json.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'])).toMatchObject({
      ScaleUp: { SelectPolicy: 'Min', StabilizationWindowSeconds: 0 },
      ScaleDown: { SelectPolicy: 'Max', StabilizationWindowSeconds: null, Tolerance: null },
    })
    v1.json.spec.maxReplicas = 7
    const put = await req('PUT', v1Path(ns, 'x'), v1.json)
    expect(put.status).toBe(200)
    expect(put.json.spec.maxReplicas).toBe(7)
    const after = await req('GET', v2Path(ns, 'x'))
    expect(after.json.metadata.annotations).toBeUndefined()
    expect(after.json.spec.maxReplicas).toBe(7)
    expect(after.json.spec.metrics.map((m: any) => m.resource.name)).toEqual(['memory', 'cpu'])
    expect(after.json.spec.behavior.scaleUp.selectPolicy).toBe('Min')
  })

  it('patches and applies through v1 against the v1 view', async () => {
    const ns = await makeNamespace('hpav1p')
    expect((await req('POST', v2Path(ns), docsHpa('p'))).status).toBe(201)
    const merge = await req(
      'PATCH',
      v1Path(ns, 'p'),
      { spec: { targetCPUUtilizationPercentage: 65 } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(merge.status).toBe(200)
    expect(merge.json.spec.targetCPUUtilizationPercentage).toBe(65)
    expect((await req('GET', v2Path(ns, 'p'))).json.spec.metrics[0].resource.target.averageUtilization).toBe(65)
    const applied = await req(
      'PATCH',
      `${v1Path(ns, 'a')}?fieldManager=me`,
      'apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: a\nspec:\n  scaleTargetRef:\n    kind: Deployment\n    name: a\n  maxReplicas: 4\n',
      { 'content-type': 'application/apply-patch+yaml' },
    )
    expect(applied.status).toBe(201)
    expect(applied.json.spec).toMatchObject({ maxReplicas: 4, targetCPUUtilizationPercentage: 80 })
    // A round-trip annotation json.Unmarshal refuses (bad syntax, or the wrong shape) is ignored and dropped, as
    // kube has done since 1.18: the update goes through.
    for (const text of ['[{', '{"a":1}', '[{"type":"Pods","pods":{"metricName":"q","targetAverageValue":[]}}]']) {
      const current = (await req('GET', v1Path(ns, 'p'))).json
      const put = await req('PUT', v1Path(ns, 'p'), {
        ...current,
        metadata: { ...current.metadata, annotations: { 'autoscaling.alpha.kubernetes.io/metrics': text } },
      })
      expect(put.status, put.text).toBe(200)
      expect(put.json.metadata.annotations).toBeUndefined()
      expect((await req('GET', v2Path(ns, 'p'))).json.spec.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 65 } } },
      ])
    }
  })

  it('watches in v1', async () => {
    const ns = await makeNamespace('hpav1w')
    const w = await openWatch(`${v1Path(ns)}?watch=true`)
    try {
      await req('POST', v2Path(ns), docsHpa('w'))
      const ev = await w.next()
      expect(ev.type).toBe('ADDED')
      expect(ev.object.apiVersion).toBe('autoscaling/v1')
      expect(ev.object.spec.targetCPUUtilizationPercentage).toBe(50)
    } finally {
      await w.cancel()
    }
  })
})
