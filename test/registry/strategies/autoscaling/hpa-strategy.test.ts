// The HorizontalPodAutoscaler strategy: v2 defaults, kube's validation messages for each metric source and the
// behavior, the scale-to-zero bound on updates, tolerance dropped, and formatHPAMetrics' TARGETS column.
import { describe, expect, it } from 'vitest'
import { defaultHpa, hpaStrategy, type HpaObject } from '../../../../src/registry/strategies/autoscaling/hpa-strategy'
import { formatHpaMetrics } from '../../../../src/registry/strategies/autoscaling/hpa-table'

const hpa = (spec: Record<string, unknown>): HpaObject =>
  ({
    metadata: { name: 'h', namespace: 'ns' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 3,
      ...spec,
    },
  }) as HpaObject
const causes = (obj: HpaObject, old?: HpaObject) =>
  (old ? hpaStrategy.validateUpdate(obj, old) : hpaStrategy.validate(obj)).map((e) => `${e.field}: ${e.message}`)

describe('defaults', () => {
  it('fills minReplicas and the default CPU metric, and both behavior directions once one is given', () => {
    const h = hpa({
      minReplicas: undefined,
      behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    })
    defaultHpa(h)
    expect(h.spec?.minReplicas).toBe(1)
    expect(h.spec?.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ])
    expect(h.spec?.behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }],
      },
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    })
  })

  it('drops tolerance (HPAConfigurableTolerance is off in 1.33) unless the old object used it', () => {
    const h = hpa({ behavior: { scaleUp: { tolerance: '0.05', policies: [] } } })
    hpaStrategy.prepareForCreate(h, { now: new Date(), namespace: 'ns' })
    expect(h.spec?.behavior?.scaleUp?.tolerance).toBeUndefined()
    expect(h.status).toEqual({ desiredReplicas: 0, currentMetrics: null })
  })
})

describe('validation', () => {
  it.each([
    [
      { type: '' },
      [
        'spec.metrics[0].type: Required value: must specify a metric source type',
        'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
        'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      ],
    ],
    [{ type: 'Pods' }, ['spec.metrics[0].pods: Required value: must populate information for the given metric source']],
    [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } },
      [
        'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      ],
    ],
    [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Bogus', averageValue: '-1' } } },
      [
        'spec.metrics[0].resource.target.type: Invalid value: "Bogus": must be either Utilization, Value, or AverageValue',
        'spec.metrics[0].resource.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
      ],
    ],
    [
      {
        type: 'Pods',
        pods: { metric: { name: 'a/b' }, target: { type: 'Value', value: '1' } },
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5 } },
      },
      [
        'spec.metrics[0].pods.metric.name: Invalid value: "a/b": may not contain \'/\'',
        'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
        'spec.metrics[0].resource: Forbidden: must populate the given metric source only',
      ],
    ],
    [
      {
        type: 'External',
        external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '1' } },
      },
      [
        'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
      ],
    ],
    [
      {
        type: 'ContainerResource',
        containerResource: {
          name: 'cpu',
          container: 'Bad_Name',
          target: { type: 'Utilization', averageUtilization: 50 },
        },
      },
      [
        "spec.metrics[0].containerResource.container: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  ])('metric %j', (metric, expected) => {
    expect(causes(hpa({ metrics: [metric] }))).toEqual(expected)
  })

  it('prints a non-positive quantity as Go prints the Quantity struct', () => {
    const metric = {
      type: 'Pods',
      pods: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '-500m' } },
    }
    expect(causes(hpa({ metrics: [metric] }))).toEqual([
      'spec.metrics[0].pods.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-500m", Format:"DecimalSI"}: must be positive',
    ])
  })

  it('checks the behavior rules and policies', () => {
    const rules = {
      stabilizationWindowSeconds: 3601,
      selectPolicy: 'Any',
      policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }],
    }
    expect(causes(hpa({ behavior: { scaleUp: rules, scaleDown: { policies: [] } } }))).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Any": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ])
  })

  it('bounds replicas, and lets an HPA already at minReplicas 0 keep it on update', () => {
    expect(causes(hpa({ minReplicas: 4, maxReplicas: 2 }))).toEqual([
      'spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    ])
    const zero = hpa({
      minReplicas: 0,
      metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }],
    })
    expect(causes(zero)).toEqual(['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1'])
    expect(causes(zero, zero)).toEqual([])
  })

  it('checks status counts on /status', () => {
    const h = hpa({})
    h.status = { currentReplicas: -1, desiredReplicas: 0 }
    expect(hpaStrategy.validateStatusUpdate!(h, h).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    ])
  })
})

describe('TARGETS', () => {
  const res = (name: string, target: Record<string, unknown>) => ({ type: 'Resource', resource: { name, target } })
  it.each([
    [[res('cpu', { type: 'Utilization', averageUtilization: 50 })], [], 'cpu: <unknown>/50%'],
    [[res('cpu', { type: 'Utilization', averageUtilization: 50 })], [{ type: '' }], 'cpu: <unknown>/50%'],
    [
      [res('cpu', { type: 'Utilization', averageUtilization: 50 })],
      [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }],
      'cpu: 12%/50%',
    ],
    [[res('memory', { type: 'AverageValue', averageValue: '1024Mi' })], [], 'memory: <unknown>/1Gi'],
    [
      [
        res('cpu', { type: 'Utilization' }),
        res('a', { type: 'AverageValue', averageValue: '1' }),
        res('b', { type: 'AverageValue', averageValue: '1' }),
      ],
      [],
      'cpu: <unknown>/<auto>, a: <unknown>/1 + 1 more...',
    ],
    [
      [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } }],
      [],
      '<unknown>/30 (avg)',
    ],
  ])('%#', (specs, statuses, text) => {
    expect(formatHpaMetrics(specs as never, statuses as never)).toBe(text)
  })
  it('reads <none> without metrics', () => expect(formatHpaMetrics([], null)).toBe('<none>'))
})
