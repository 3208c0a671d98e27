// A server-side apply that creates gets the admission a POST gets: LimitRanger's defaults on a pod, and the quota's
// charge on an object written through a converting version (autoscaling/v1 HorizontalPodAutoscalers).
import { describe, expect, it } from 'vitest'
import { makeNamespace, quotaSynced, req } from '../helpers'

const APPLY = { 'content-type': 'application/apply-patch+yaml' }

describe('server-side apply that creates', () => {
  it('gives a pod its LimitRange defaults, as a POST does', async () => {
    const ns = await makeNamespace()
    const lr = await req('POST', `/api/v1/namespaces/${ns}/limitranges`, {
      metadata: { name: 'defaults' },
      spec: {
        limits: [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '100m' }, min: { cpu: '50m' } }],
      },
    })
    expect(lr.status, lr.text).toBe(201)
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { schedulerName: 'none', containers: [{ name: 'c', image: 'nginx' }] },
    }
    const r = await req('PATCH', `/api/v1/namespaces/${ns}/pods/p?fieldManager=me`, JSON.stringify(pod), APPLY)
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '100m' } })
    expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container c; cpu limit for container c',
    )
  })

  it('charges the quota for an object created through autoscaling/v1', async () => {
    const ns = await makeNamespace()
    const q = await req('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      metadata: { name: 'q' },
      spec: { hard: { 'count/horizontalpodautoscalers.autoscaling': '1' } },
    })
    expect(q.status, q.text).toBe(201)
    await quotaSynced(ns, 'q')
    const hpa = (name: string) =>
      JSON.stringify({
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
      })
    const path = (name: string) =>
      `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers/${name}?fieldManager=me`
    expect((await req('PATCH', path('a'), hpa('a'), APPLY)).status).toBe(201)
    const second = await req('PATCH', path('b'), hpa('b'), APPLY)
    expect(second.status, second.text).toBe(403)
    expect(second.json.message).toBe(
      'horizontalpodautoscalers.autoscaling "b" is forbidden: exceeded quota: q, requested: count/horizontalpodautoscalers.autoscaling=1, used: count/horizontalpodautoscalers.autoscaling=1, limited: count/horizontalpodautoscalers.autoscaling=1',
    )
  })
})
