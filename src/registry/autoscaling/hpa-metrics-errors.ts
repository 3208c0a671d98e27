// What kube's HPA controller meets, metric by metric, on a cluster that serves no metrics APIs (ours:
// metrics.k8s.io, custom.metrics.k8s.io and external.metrics.k8s.io are not served): the error each metric source's
// read ends in, worded as pkg/controller/podautoscaler (horizontal.go, replica_calculator.go, the metrics clients,
// release-1.33) words it, and the reason of the event and the ScalingActive condition it gives. No metric value is
// ever made up.
import type { MetricSpec } from '../../schema/autoscaling-v2'

/** One metric that could not be read: the event (and condition) reason, its message, and the wrapped error. */
interface MetricFailure {
  reason: string
  /** getUnableComputeReplicaCountCondition's err: the event's message, after "the HPA was unable to ..." in the condition. */
  message: string
  /** computeReplicasForMetric's error, which "first error is: ..." quotes. */
  error: string
}

/** client-go's error for the 404 a group that is not served answers. */
const notFound = (resource: string) => `the server could not find the requested resource (get ${resource})`
const RESOURCE_API = `unable to fetch metrics from resource metrics API: ${notFound('pods.metrics.k8s.io')}`
const CUSTOM_API =
  'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered'
const externalApi = (metric: string) =>
  `unable to fetch metrics from external metrics API: ${notFound(`${metric}.external.metrics.k8s.io`)}`

type Selector = {
  matchLabels?: Record<string, string>
  matchExpressions?: { key: string; operator: string; values?: string[] }[]
}

/** %+v of a *metav1.LabelSelector: its generated String(), `nil` for none. */
function selectorV(sel: Selector | undefined): string {
  if (!sel) return 'nil'
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('')
  const exprs = (sel.matchExpressions ?? [])
    .map(
      (e) => `&LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('')
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`
}

/** A resource metric (of pods or of one container): its utilization or raw usage target. */
function resourceFailure(name: string, target: { averageValue?: unknown } | undefined): string {
  const read = `unable to get metrics for resource ${name}: ${RESOURCE_API}`
  return target?.averageValue !== undefined
    ? `failed to get ${name} usage: ${read}`
    : `failed to get ${name} utilization: ${read}`
}

/** Why `spec` cannot be computed here (computeReplicasForMetric's error path for its source type). */
export function metricFailure(spec: MetricSpec, namespace: string): MetricFailure {
  switch (spec.type) {
    case 'Resource': {
      const name = spec.resource?.name ?? ''
      const message = resourceFailure(name, spec.resource?.target)
      return {
        reason: 'FailedGetResourceMetric',
        message,
        error: `failed to get ${name} resource metric value: ${message}`,
      }
    }
    case 'ContainerResource': {
      const c = spec.containerResource
      const message = resourceFailure(c?.name ?? '', c?.target)
      return {
        reason: 'FailedGetContainerResourceMetric',
        message,
        error: `failed to get ${c?.container ?? ''} container metric value: ${message}`,
      }
    }
    case 'Pods': {
      const name = spec.pods?.metric?.name ?? ''
      const message = `unable to get metric ${name}: ${CUSTOM_API}`
      return { reason: 'FailedGetPodsMetric', message, error: `failed to get pods metric value: ${message}` }
    }
    case 'Object': {
      const o = spec.object
      const name = o?.metric?.name ?? ''
      const message = `unable to get metric ${name}: ${o?.describedObject?.kind ?? ''} on ${namespace} ${o?.describedObject?.name ?? ''}/${CUSTOM_API}`
      const perPod = o?.target?.type === 'AverageValue' && o.target.averageValue !== undefined
      const inner = perPod ? `failed to get ${name} object metric: ${message}` : message
      return { reason: 'FailedGetObjectMetric', message, error: `failed to get object metric value: ${inner}` }
    }
    case 'External': {
      const e = spec.external
      const name = e?.metric?.name ?? ''
      const message = `unable to get external metric ${namespace}/${name}/${selectorV(e?.metric?.selector)}: ${externalApi(name)}`
      const inner =
        e?.target?.averageValue !== undefined
          ? `failed to get ${name} external metric: ${message}`
          : `failed to get external metric ${name}: ${message}`
      return {
        reason: 'FailedGetExternalMetric',
        message,
        error: `failed to get ${name} external metric value: ${inner}`,
      }
    }
    default: {
      const message = `unknown metric source type ${JSON.stringify(spec.type ?? '')}`
      return { reason: 'InvalidMetricSourceType', message, error: message }
    }
  }
}
