// The LimitRanger's pure parts against kube 1.33's plugin: defaults and the annotation, the min/max/ratio messages
// (milli-unit comparison, Go's %f ratio, the aggregate of several), Pod items over init containers and sidecars.
import { describe, expect, it } from 'vitest'
import { defaultPodResources, validatePodResources } from '../../../src/registry/quota/limit-ranger'
import type { PodObject } from '../../../src/registry/strategies/pod/pod-types'
import type { KubeObject } from '../../../src/schema/meta'

const range = (name: string, limits: unknown[]) => ({ metadata: { name }, spec: { limits } }) as KubeObject
const pod = (spec: Record<string, unknown>) => ({ metadata: { name: 'p' }, spec }) as unknown as PodObject

describe('defaults', () => {
  it('fills only what a container leaves out, and leaves no annotation when nothing was set', () => {
    const p = pod({ containers: [{ name: 'a', resources: { requests: { cpu: '1' }, limits: { cpu: '1' } } }] })
    defaultPodResources(p, [
      range('r', [{ type: 'Container', defaultRequest: { cpu: '100m' }, default: { cpu: '200m' } }]),
    ])
    expect(p.spec.containers[0]!.resources).toEqual({ requests: { cpu: '1' }, limits: { cpu: '1' } })
    expect(p.metadata.annotations).toBeUndefined()
  })

  it('the last Container item of a range wins', () => {
    const p = pod({ containers: [{ name: 'a' }] })
    defaultPodResources(p, [
      range('r', [
        { type: 'Container', default: { cpu: '1' } },
        { type: 'Container', default: { cpu: '2' } },
      ]),
    ])
    expect(p.spec.containers[0]!.resources).toEqual({ limits: { cpu: '2' } })
    expect(p.metadata.annotations).toEqual({
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu limit for container a',
    })
  })
})

describe('bounds', () => {
  it('compares in milli-units and prints the ratio as Go %f', () => {
    const p = pod({ containers: [{ name: 'a', resources: { requests: { cpu: '200m' }, limits: { cpu: '300m' } } }] })
    expect(validatePodResources(p, [range('r', [{ type: 'Container', maxLimitRequestRatio: { cpu: '1200m' } }])])).toBe(
      'cpu max limit to request ratio per Container is 1200m, but provided ratio is 1.500000',
    )
    expect(validatePodResources(p, [range('r', [{ type: 'Container', min: { cpu: '201m' } }])])).toBe(
      'minimum cpu usage per Container is 201m, but request is 200m',
    )
  })

  it('aggregates several refusals, each once, and stops at the first range that refuses', () => {
    const p = pod({ containers: [{ name: 'a' }, { name: 'b' }] })
    const ranges = [
      range('b-second', [{ type: 'Container', max: { cpu: '1' } }]),
      range('a-first', [{ type: 'Container', max: { memory: '1Gi' }, min: { cpu: '1' } }]),
    ]
    expect(validatePodResources(p, ranges)).toBe(
      '[minimum cpu usage per Container is 1.  No request is specified, maximum memory usage per Container is 1Gi.  No limit is specified]',
    )
  })

  it('a Pod item judges init containers as a floor and sidecars as added', () => {
    const p = pod({
      initContainers: [
        {
          name: 'side',
          restartPolicy: 'Always',
          resources: { requests: { memory: '200Mi' }, limits: { memory: '200Mi' } },
        },
        // Runs beside the sidecar: 900Mi + 200Mi, more than the regular containers' 700Mi + 200Mi.
        { name: 'init', resources: { requests: { memory: '900Mi' }, limits: { memory: '900Mi' } } },
      ],
      containers: [{ name: 'a', resources: { requests: { memory: '700Mi' }, limits: { memory: '700Mi' } } }],
    })
    expect(validatePodResources(p, [range('r', [{ type: 'Pod', max: { memory: '1000Mi' } }])])).toBe(
      'maximum memory usage per Pod is 1000Mi, but limit is 1100Mi',
    )
  })
})
