// One pass of kube's HPA controller over one HorizontalPodAutoscaler (reconcileAutoscaler, pkg/controller/
// podautoscaler/horizontal.go, release-1.33), pure: from the HPA and what reading its target's /scale gave, the
// status to write, the events to record and the replica count to set. Replica bounds are enforced as kube enforces
// them; metrics are never read (no metrics API is served), so a target within bounds is never rescaled and the HPA
// says why, as kube's does on such a cluster.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition } from '../../schema/autoscaling-v2'
import { rfc3339 } from '../time'
import { metricFailure } from './hpa-metrics-errors'

type Status = NonNullable<HorizontalPodAutoscaler['status']>
type HpaEvent = { type: 'Normal' | 'Warning'; reason: string; message: string }

/**
 * The target's Scale (with labels.Parse's error when its selector does not parse), or why it could not be had (the
 * error kube's scale client or REST mapper gives).
 */
export type TargetScale =
  | {
      replicas: number
      selector: string
      selectorError?: string
      /** The HPAs (this one among them) whose selectors take in pods this one's does, when more than one. */
      ambiguous?: string[]
    }
  | { error: string }

/** What a pass decided: the status to write (when it differs), events in order, and a rescale to attempt. */
interface HpaPass {
  status: Status
  events: HpaEvent[]
  rescale?: { replicas: number; reason: string }
}

/** setConditionInList: a new type goes last; lastTransitionTime moves only when the status does. */
export function setCondition(
  conditions: HorizontalPodAutoscalerCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: Date,
): HorizontalPodAutoscalerCondition[] {
  const out = conditions.map((c) => ({ ...c }))
  let existing = out.find((c) => c.type === type)
  if (!existing) {
    existing = { type, status: '' }
    out.push(existing)
  }
  if (existing.status !== status) existing.lastTransitionTime = rfc3339(now)
  existing.status = status
  existing.reason = reason
  existing.message = message
  return out
}

/** setStatus: the status is rebuilt (observedGeneration goes), a rescale stamps lastScaleTime. */
function statusOf(
  old: Status,
  conditions: HorizontalPodAutoscalerCondition[],
  current: number,
  desired: number,
  metrics: Status['currentMetrics'],
  rescaled: boolean,
  now: Date,
): Status {
  const s: Status = { desiredReplicas: desired, currentMetrics: metrics ?? null }
  const lastScaleTime = rescaled ? rfc3339(now) : old.lastScaleTime
  if (lastScaleTime) s.lastScaleTime = lastScaleTime
  if (current) s.currentReplicas = current
  if (conditions.length) s.conditions = conditions
  // Go's field order.
  return {
    ...(s.lastScaleTime ? { lastScaleTime: s.lastScaleTime } : {}),
    ...(s.currentReplicas ? { currentReplicas: s.currentReplicas } : {}),
    desiredReplicas: s.desiredReplicas,
    currentMetrics: s.currentMetrics,
    ...(s.conditions ? { conditions: s.conditions } : {}),
  }
}

/** A pass up to the rescale: bounds first, then the metrics (which fail here, as no metrics API is served). */
export function reconcileHpa(hpa: HorizontalPodAutoscaler, target: TargetScale, now: Date): HpaPass {
  const old: Status = hpa.status ?? { desiredReplicas: 0 }
  let conditions = [...(old.conditions ?? [])]
  const events: HpaEvent[] = []
  const unchangedStatus = (): Status => ({ ...old, conditions })
  if ('error' in target) {
    events.push({ type: 'Warning', reason: 'FailedGetScale', message: target.error })
    conditions = setCondition(
      conditions,
      'AbleToScale',
      'False',
      'FailedGetScale',
      `the HPA controller was unable to get the target's current scale: ${target.error}`,
      now,
    )
    return { status: unchangedStatus(), events }
  }
  conditions = setCondition(
    conditions,
    'AbleToScale',
    'True',
    'SucceededGetScale',
    "the HPA controller was able to get the target's current scale",
    now,
  )
  const current = target.replicas
  const spec = hpa.spec!
  const min = spec.minReplicas ?? 1
  const max = spec.maxReplicas
  if (current === 0 && min !== 0) {
    conditions = setCondition(
      conditions,
      'ScalingActive',
      'False',
      'ScalingDisabled',
      'scaling is disabled since the replica count of the target is zero',
      now,
    )
    return { status: statusOf(old, conditions, current, current, null, false, now), events }
  }
  if (current > max)
    return {
      status: statusOf(old, conditions, current, max, null, false, now),
      events,
      rescale: { replicas: max, reason: 'Current number of replicas above Spec.MaxReplicas' },
    }
  if (current < min)
    return {
      status: statusOf(old, conditions, current, min, null, false, now),
      events,
      rescale: { replicas: min, reason: 'Current number of replicas below Spec.MinReplicas' },
    }
  // computeReplicasForMetrics: the target's selector first.
  const fail = (status: Status) => ({ status, events })
  const metricsFailed = (error: string, metrics: Status['currentMetrics']) => {
    events.push({ type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: error })
    return fail(statusOf(old, conditions, current, old.desiredReplicas, metrics, false, now))
  }
  if (!target.selector) {
    events.push({ type: 'Warning', reason: 'SelectorRequired', message: 'selector is required' })
    conditions = setCondition(
      conditions,
      'ScalingActive',
      'False',
      'InvalidSelector',
      "the HPA target's scale is missing a selector",
      now,
    )
    return metricsFailed('selector is required', null)
  }
  if (target.selectorError) {
    const message = `couldn't convert selector into a corresponding internal selector object: ${target.selectorError}`
    events.push({ type: 'Warning', reason: 'InvalidSelector', message })
    conditions = setCondition(conditions, 'ScalingActive', 'False', 'InvalidSelector', message, now)
    return metricsFailed(message, null)
  }
  if (target.ambiguous) {
    // %v of the controller's []selectors.Key: {Name Namespace} each.
    const keys = target.ambiguous.map((name) => `{${name} ${hpa.metadata?.namespace ?? ''}}`).join(' ')
    const message = `pods by selector ${target.selector} are controlled by multiple HPAs: [${keys}]`
    events.push({ type: 'Warning', reason: 'AmbiguousSelector', message })
    conditions = setCondition(conditions, 'ScalingActive', 'False', 'AmbiguousSelector', message, now)
    return metricsFailed(message, null)
  }
  const metrics = spec.metrics ?? []
  const failures = metrics.map((m) => metricFailure(m, hpa.metadata?.namespace ?? ''))
  for (const f of failures) events.push({ type: 'Warning', reason: f.reason, message: f.message })
  const first = failures[0]
  if (first)
    conditions = setCondition(
      conditions,
      'ScalingActive',
      'False',
      first.reason,
      `the HPA was unable to compute the replica count: ${first.message}`,
      now,
    )
  const error = `invalid metrics (${failures.length} invalid out of ${metrics.length}), first error is: ${first?.error ?? ''}`
  // Each metric's status stays the zero MetricStatus kube allocates for it.
  return metricsFailed(
    error,
    metrics.map(() => ({ type: '' })),
  )
}

/** After the rescale's write: AbleToScale and the event say how it went; a success stamps lastScaleTime. */
export function afterRescale(
  hpa: HorizontalPodAutoscaler,
  pass: HpaPass,
  error: string | null,
  current: number,
  now: Date,
): HpaPass {
  const { replicas, reason } = pass.rescale!
  const old: Status = hpa.status ?? { desiredReplicas: 0 }
  let conditions = pass.status.conditions ?? []
  if (error) {
    conditions = setCondition(
      conditions,
      'AbleToScale',
      'False',
      'FailedUpdateScale',
      `the HPA controller was unable to update the target scale: ${error}`,
      now,
    )
    return {
      status: statusOf(old, conditions, current, old.desiredReplicas, null, false, now),
      events: [
        ...pass.events,
        {
          type: 'Warning',
          reason: 'FailedRescale',
          message: `New size: ${replicas}; reason: ${reason}; error: ${error}`,
        },
      ],
    }
  }
  conditions = setCondition(
    conditions,
    'AbleToScale',
    'True',
    'SucceededRescale',
    `the HPA controller was able to update the target scale to ${replicas}`,
    now,
  )
  return {
    status: statusOf(old, conditions, current, replicas, null, true, now),
    events: [
      ...pass.events,
      { type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${replicas}; reason: ${reason}` },
    ],
  }
}
