// A LimitRange written with only max and min bounds (the common form) still defaults pods, because kube defaults the
// item itself first (SetDefaults_LimitRangeItem): a pod with no resources is admitted with the max as its limit and
// the min, or the limit, as its request, instead of being refused for stating none.
import { describe, expect, it } from 'vitest'
import { makeNamespace, podPath, req, staticPod } from '../../../helpers'

describe('a LimitRange of bounds only', () => {
  it('defaults a pod that states no resources from the bounds', async () => {
    const ns = await makeNamespace()
    const lr = await req('POST', `/api/v1/namespaces/${ns}/limitranges`, {
      metadata: { name: 'bounds' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, min: { memory: '10Mi' } }] },
    })
    expect(lr.status, lr.text).toBe(201)
    expect(lr.json.spec.limits[0]).toMatchObject({
      default: { cpu: '1' },
      defaultRequest: { cpu: '1', memory: '10Mi' },
    })
    const p = await req('POST', podPath(ns), staticPod('web'))
    expect(p.status, p.text).toBe(201)
    expect(p.json.spec.containers[0].resources).toEqual({
      limits: { cpu: '1' },
      requests: { cpu: '1', memory: '10Mi' },
    })
  })
})
