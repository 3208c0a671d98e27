// The error each metric source ends in when no metrics API is served, worded as kube's HPA controller and metrics
// clients word it: the event/condition message and the wrapped error `first error is:` quotes.
import { describe, expect, it } from 'vitest'
import { metricFailure } from '../../../src/registry/autoscaling/hpa-metrics-errors'

const CUSTOM =
  'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered'

describe('metricFailure', () => {
  it.each([
    [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
      'FailedGetResourceMetric',
      'failed to get memory usage: unable to get metrics for resource memory: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
      'failed to get memory resource metric value: failed to get memory usage: ',
    ],
    [
      {
        type: 'ContainerResource',
        containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } },
      },
      'FailedGetContainerResourceMetric',
      'failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
      'failed to get app container metric value: failed to get cpu utilization: ',
    ],
    [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      'FailedGetPodsMetric',
      `unable to get metric qps: ${CUSTOM}`,
      'failed to get pods metric value: unable to get metric qps: ',
    ],
    [
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Ingress', name: 'main' },
          metric: { name: 'rps' },
          target: { type: 'Value', value: '2' },
        },
      },
      'FailedGetObjectMetric',
      `unable to get metric rps: Ingress on ns main/${CUSTOM}`,
      'failed to get object metric value: unable to get metric rps: ',
    ],
    [
      {
        type: 'External',
        external: {
          metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } },
          target: { type: 'AverageValue', averageValue: '30' },
        },
      },
      'FailedGetExternalMetric',
      'unable to get external metric ns/queue/&LabelSelector{MatchLabels:map[string]string{q: jobs,},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue.external.metrics.k8s.io)',
      'failed to get queue external metric value: failed to get queue external metric: unable to get external metric ns/queue/',
    ],
  ])('%#', (spec, reason, message, errorStart) => {
    const f = metricFailure(spec as never, 'ns')
    expect(f.reason).toBe(reason)
    expect(f.message).toBe(message)
    expect(f.error.startsWith(errorStart)).toBe(true)
    expect(f.error.endsWith(message)).toBe(true)
  })
})
