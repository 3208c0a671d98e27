// autoscaling/v1 <-> v2 HPA conversion as kube's pkg/apis/autoscaling/v1/conversion.go does it: table-driven in both
// directions, the round-trip annotations' exact bytes, and the v1 defaults applied on the way in.
import { describe, expect, it } from 'vitest'
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  METRIC_SPECS_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
  hpaFromV1,
  hpaToV1,
} from '../../../src/registry/autoscaling/hpa-conversion'

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }
const cpu = (u: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: u } },
})
const v2 = (
  spec: Record<string, unknown>,
  status: Record<string, unknown> = { desiredReplicas: 0, currentMetrics: null },
) =>
  ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', namespace: 'ns' },
    spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, ...spec },
    status,
  }) as any

const fromV1 = (obj: any) => {
  const r = hpaFromV1(obj)
  if (!r.ok) throw new Error(r.status.message)
  return r.value as any
}

describe('v2 -> v1', () => {
  it.each([
    ['a CPU utilization target', [cpu(50)], 50, undefined],
    [
      'no CPU metric: no target, the metric in the annotation',
      [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }],
      undefined,
      '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"1Gi"}}]',
    ],
    [
      'a CPU average value: no target, kept in the annotation',
      [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '500m' } } }],
      undefined,
      '[{"type":"Resource","resource":{"name":"cpu","targetAverageValue":"500m"}}]',
    ],
    [
      'a pods metric beside the CPU target',
      [
        cpu(70),
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      ],
      70,
      '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
    ],
  ])('%s', (_, metrics, target, annotation) => {
    const out = hpaToV1(v2({ metrics })) as any
    expect(out.apiVersion).toBe('autoscaling/v1')
    expect(out.spec.targetCPUUtilizationPercentage).toBe(target)
    expect(out.metadata.annotations?.[METRIC_SPECS_ANNOTATION]).toBe(annotation)
    expect(out.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 })
  })

  it('keeps current metrics, conditions and the behavior (Go field names) in annotations', () => {
    const out = hpaToV1(
      v2(
        {
          metrics: [cpu(50)],
          behavior: {
            scaleUp: {
              stabilizationWindowSeconds: 0,
              selectPolicy: 'Max',
              policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }],
            },
          },
        },
        {
          currentReplicas: 2,
          desiredReplicas: 2,
          currentMetrics: [
            { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 40 } } },
          ],
          conditions: [
            {
              type: 'AbleToScale',
              status: 'True',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              reason: 'SucceededGetScale',
              message: 'm',
            },
          ],
        },
      ),
    ) as any
    expect(out.status).toEqual({ currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 })
    expect(out.metadata.annotations).toEqual({
      [METRIC_STATUSES_ANNOTATION]:
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"100m"}}]',
      [CONDITIONS_ANNOTATION]:
        '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"SucceededGetScale","message":"m"}]',
      [BEHAVIOR_ANNOTATION]:
        '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":null}',
    })
  })

  it('drops round-trip annotations a stored object carries and leaves others', () => {
    const obj = v2({ metrics: [cpu(50)] })
    obj.metadata.annotations = { [METRIC_SPECS_ANNOTATION]: '[]', keep: 'me' }
    expect((hpaToV1(obj) as any).metadata.annotations).toEqual({ keep: 'me' })
  })
})

describe('v1 -> v2', () => {
  it('defaults minReplicas and the 80% CPU target, and drops currentReplicas 0 (omitempty in v2)', () => {
    const out = fromV1({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, maxReplicas: 3 },
    })
    expect(out.apiVersion).toBe('autoscaling/v2')
    expect(out.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, metrics: [cpu(80)] })
    expect(out.status).toEqual({ desiredReplicas: 0 })
  })

  it('reads the annotations back: other metrics first, then the CPU target; behavior case-insensitively', () => {
    const out = fromV1({
      metadata: {
        name: 'h',
        annotations: {
          [METRIC_SPECS_ANNOTATION]: '[{"type":"External","external":{"metricName":"q","targetValue":"5"}}]',
          [BEHAVIOR_ANNOTATION]: '{"scaleup":{"SelectPolicy":"Min","Policies":null}}',
          [CONDITIONS_ANNOTATION]: '[{"type":"ScalingActive","status":"False","lastTransitionTime":null}]',
          other: 'x',
        },
      },
      spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 3, targetCPUUtilizationPercentage: 60 },
      status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 10 },
    })
    expect(out.metadata.annotations).toEqual({ other: 'x' })
    expect(out.spec.metrics).toEqual([
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '5' } } },
      cpu(60),
    ])
    expect(out.spec.behavior).toEqual({ scaleUp: { selectPolicy: 'Min' } })
    expect(out.status).toEqual({
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 10 } } }],
      conditions: [{ type: 'ScalingActive', status: 'False', lastTransitionTime: null }],
    })
  })

  // kube >= 1.18 (#89963): an annotation json.Unmarshal refuses is ignored, and dropped with the others.
  const withAnnotations = (annotations: Record<string, string>) =>
    fromV1({
      metadata: { name: 'h', annotations: { ...annotations, keep: 'me' } },
      spec: { scaleTargetRef: ref, maxReplicas: 1, targetCPUUtilizationPercentage: 60 },
      status: { desiredReplicas: 1, currentCPUUtilizationPercentage: 10 },
    })
  const cpuNow = { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 10 } } }

  it.each([
    ['bad syntax', '[{'],
    ['empty', ''],
    ['an object where a list is expected', '{"a":1}'],
    ['a string where a list is expected', '"[]"'],
    ['a number where a string is expected', '[{"type":1}]'],
    [
      'a string where an int32 is expected',
      '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":"5"}}]',
    ],
    ['an int32 with a fraction', '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":5.0}}]'],
    [
      'an int32 out of range',
      '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":2147483648}}]',
    ],
    ['a quantity that does not parse', '[{"type":"Pods","pods":{"metricName":"q","targetAverageValue":"5x"}}]'],
    ['a list where a selector is expected', '[{"type":"Pods","pods":{"metricName":"q","selector":[]}}]'],
  ])('ignores a metrics annotation with %s', (_, text) => {
    const out = withAnnotations({ [METRIC_SPECS_ANNOTATION]: text })
    expect(out.metadata.annotations).toEqual({ keep: 'me' })
    expect(out.spec.metrics).toEqual([cpu(60)])
  })

  it('ignores current metrics, conditions and a behavior that json.Unmarshal refuses, each on its own', () => {
    const out = withAnnotations({
      [METRIC_SPECS_ANNOTATION]: '[{"type":"External","external":{"metricName":"q","targetValue":"5"}}]',
      [METRIC_STATUSES_ANNOTATION]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageValue":{}}}]',
      [CONDITIONS_ANNOTATION]: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"yesterday"}]',
      [BEHAVIOR_ANNOTATION]: '{"ScaleUp":{"Policies":{}}}',
    })
    expect(out.metadata.annotations).toEqual({ keep: 'me' })
    expect(out.spec.metrics).toEqual([
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '5' } } },
      cpu(60),
    ])
    expect(out.spec.behavior).toBeUndefined()
    expect(out.status.currentMetrics).toEqual([cpuNow])
    expect(out.status.conditions).toBeUndefined()
  })

  it('reads keys case-insensitively and skips unknown ones, as encoding/json does', () => {
    const out = withAnnotations({
      [METRIC_SPECS_ANNOTATION]:
        '[{"TYPE":"Pods","pods":{"MetricName":"q","targetaveragevalue":5,"extra":[1]},"unknown":{"a":1}}]',
      [CONDITIONS_ANNOTATION]:
        '[{"Type":"AbleToScale","STATUS":"True","lastTransitionTime":"2024-01-02T03:04:05+01:00","x":1}]',
    })
    expect(out.spec.metrics).toEqual([
      { type: 'Pods', pods: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '5' } } },
      cpu(60),
    ])
    expect(out.status.conditions).toEqual([
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-02T02:04:05Z' },
    ])
  })

  it('takes null as Go does: no metrics added, current metrics and conditions emptied, no behavior', () => {
    const out = withAnnotations({
      [METRIC_SPECS_ANNOTATION]: 'null',
      [METRIC_STATUSES_ANNOTATION]: 'null',
      [CONDITIONS_ANNOTATION]: '[]',
      [BEHAVIOR_ANNOTATION]: '{"ScaleUp":null}',
    })
    expect(out.spec.metrics).toEqual([cpu(60)])
    expect(out.spec.behavior).toBeUndefined()
    expect(out.status.currentMetrics).toEqual([])
    expect(out.status.conditions).toEqual([])
  })

  it('round-trips every v2 field through v1', () => {
    const original = v2(
      {
        metrics: [
          cpu(50),
          {
            type: 'Object',
            object: { describedObject: ref, target: { type: 'Value', value: '2' }, metric: { name: 'rps' } },
          },
          {
            type: 'ContainerResource',
            containerResource: {
              name: 'memory',
              target: { type: 'Utilization', averageUtilization: 60 },
              container: 'app',
            },
          },
        ],
        behavior: {
          scaleDown: { selectPolicy: 'Disabled', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
        },
      },
      { currentReplicas: 1, desiredReplicas: 1, currentMetrics: [{ type: '' }] },
    )
    const back = fromV1(hpaToV1(original))
    expect(back.spec.metrics).toEqual([original.spec.metrics[1], original.spec.metrics[2], original.spec.metrics[0]])
    expect(back.spec.behavior).toEqual(original.spec.behavior)
    expect(back.status).toEqual(original.status)
  })
})
