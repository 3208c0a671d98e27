// `kubectl get hpa`'s Table: kube's printHorizontalPodAutoscaler and formatHPAMetrics (pkg/printers/internalversion,
// release-1.33): NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, TARGETS reading `cpu: <unknown>/50%` until a
// current value is known, at most two metrics then `+ N more...`.
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from '../../../schema/autoscaling-v2'
import { canonicalQuantity } from '../../../schema/quantity'
import { age } from '../../human-duration'
import type { TableConvertor } from '../../strategy'
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'

/** autoscaling/v2beta1's SwaggerDoc texts, which kube's printers give these columns. */
const SPEC_DOC = {
  scaleTargetRef:
    'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
  metrics:
    'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.',
  minReplicas:
    'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
  maxReplicas:
    'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
  currentReplicas:
    'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
}

const UNKNOWN = '<unknown>'
/** Quantity.String(): the canonical form. */
const q = (v: string | number | undefined) => (v === undefined ? '0' : (canonicalQuantity(v) ?? String(v)))
const percent = (v: number | undefined) => (v === undefined ? undefined : `${v}%`)

/** One metric's `current/target`, as formatHPAMetrics writes it. */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External': {
      const t = spec.external?.target
      if (t?.averageValue !== undefined) {
        const cur = status?.external?.current?.averageValue
        return `${cur !== undefined ? q(cur) : UNKNOWN}/${q(t.averageValue)} (avg)`
      }
      return `${status?.external ? q(status.external.current?.value) : UNKNOWN}/${q(t?.value)}`
    }
    case 'Pods':
      return `${status?.pods ? q(status.pods.current?.averageValue) : UNKNOWN}/${q(spec.pods?.target?.averageValue)}`
    case 'Object': {
      const t = spec.object?.target
      if (t?.averageValue !== undefined) {
        const cur = status?.object?.current?.averageValue
        return `${cur !== undefined ? q(cur) : UNKNOWN}/${q(t.averageValue)} (avg)`
      }
      return `${status?.object ? q(status.object.current?.value) : UNKNOWN}/${q(t?.value)}`
    }
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource
      const current = spec.type === 'Resource' ? status?.resource : status?.containerResource
      const t = source?.target
      if (t?.averageValue !== undefined)
        return `${source?.name ?? ''}: ${current ? q(current.current?.averageValue) : UNKNOWN}/${q(t.averageValue)}`
      const cur = percent(current?.current?.averageUtilization) ?? UNKNOWN
      return `${source?.name ?? ''}: ${cur}/${percent(t?.averageUtilization) ?? '<auto>'}`
    }
    default:
      return '<unknown type>'
  }
}

/** formatHPAMetrics. */
export function formatHpaMetrics(specs: MetricSpec[] | undefined, statuses: MetricStatus[] | null | undefined) {
  if (!specs?.length) return '<none>'
  const list = specs.map((s, i) => formatMetric(s, statuses?.[i]))
  const shown = list.slice(0, 2).join(', ')
  return list.length > 2 ? `${shown} + ${list.length - 2} more...` : shown
}

const column = (name: string, description: string, format = '') => ({
  name,
  type: 'string' as const,
  format,
  description,
  priority: 0,
})

export const hpaTable: TableConvertor<HorizontalPodAutoscaler & { metadata: { name?: string } }> = {
  columns: [
    column('Name', NAME_DOC, 'name'),
    column('Reference', SPEC_DOC.scaleTargetRef),
    column('Targets', SPEC_DOC.metrics),
    column('MinPods', SPEC_DOC.minReplicas),
    column('MaxPods', SPEC_DOC.maxReplicas),
    column('Replicas', SPEC_DOC.currentReplicas),
    column('Age', CREATION_DOC),
  ],
  cells: (hpa, now) => [
    hpa.metadata.name,
    `${hpa.spec?.scaleTargetRef?.kind ?? ''}/${hpa.spec?.scaleTargetRef?.name ?? ''}`,
    formatHpaMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics),
    hpa.spec?.minReplicas !== undefined ? String(hpa.spec.minReplicas) : '<unset>',
    hpa.spec?.maxReplicas ?? 0,
    hpa.status?.currentReplicas ?? 0,
    age(hpa.metadata?.creationTimestamp ?? undefined, now),
  ],
}
