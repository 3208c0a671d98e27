// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscalers, as kube converts them through its internal version
// (pkg/apis/autoscaling/v1/conversion.go and the round-trip annotation helpers, release-1.33). v1 keeps only the CPU
// utilization target; what else v2 holds (other metrics, their current values, the behavior, the conditions) rides
// in `autoscaling.alpha.kubernetes.io/*` annotations of the v1 object, so a v1 client that reads and writes an HPA
// back loses nothing. Objects are stored as v2; v1 requests convert on the way in and answers on the way out.
import type { KubeObject } from '../../schema/meta'
import type { HorizontalPodAutoscaler, MetricSpec } from '../../schema/autoscaling-v2'
import { clone } from '../deep-equal'
import { ok, type Result } from '../status'
import {
  BEHAVIOR,
  CONDITIONS,
  type GoType,
  METRIC_SPECS,
  METRIC_STATUSES,
  unmarshalAnnotation,
} from './hpa-annotation-decode'
import {
  behaviorFromGo,
  behaviorToGo,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
} from './hpa-metric-conversion'

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics'
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics'
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions'
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior'
const TOLERANCE_DOWN_ANNOTATION = 'autoscaling.alpha.kubernetes.io/scale-down-tolerance'
const TOLERANCE_UP_ANNOTATION = 'autoscaling.alpha.kubernetes.io/scale-up-tolerance'
const ROUND_TRIP = [
  METRIC_SPECS_ANNOTATION,
  BEHAVIOR_ANNOTATION,
  TOLERANCE_DOWN_ANNOTATION,
  TOLERANCE_UP_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
  CONDITIONS_ANNOTATION,
]
/** autoscaling.DefaultCPUUtilization: v1's implicit target, made explicit when no metric is given. */
const DEFAULT_CPU_UTILIZATION = 80

type Json = Record<string, unknown>
type Hpa = HorizontalPodAutoscaler & { metadata: NonNullable<HorizontalPodAutoscaler['metadata']> }

/** json.Marshal's bytes: fields in the order given, Go maps (matchLabels) sorted, `<`, `>`, `&`, U+2028/9 escaped. */
const marshal = (v: unknown) =>
  JSON.stringify(v, (key, value: unknown) =>
    key === 'matchLabels' && value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  ).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** DropRoundTripHorizontalPodAutoscalerAnnotations: an annotation map left empty is gone (omitempty). */
function dropRoundTrip(meta: Json) {
  const annotations = meta.annotations as Record<string, string> | undefined
  if (!annotations || !ROUND_TRIP.some((k) => Object.hasOwn(annotations, k))) return
  for (const k of ROUND_TRIP) delete annotations[k]
  if (Object.keys(annotations).length === 0) delete meta.annotations
}

function annotate(meta: Json, key: string, value: string) {
  const annotations = (meta.annotations ??= {}) as Record<string, string>
  annotations[key] = value
}

const isCpuUtilization = (m: MetricSpec) =>
  m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.averageUtilization != null

/** The stored (v2) object as autoscaling/v1 serves it. */
export function hpaToV1(stored: KubeObject): KubeObject {
  const hpa = clone(stored) as Hpa
  const out: Json = { ...hpa, apiVersion: 'autoscaling/v1' }
  const meta = (out.metadata = { ...hpa.metadata }) as Json
  if (meta.annotations) meta.annotations = { ...(meta.annotations as Json) }
  dropRoundTrip(meta)
  const spec = hpa.spec ?? { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 }
  const metrics = spec.metrics ?? []
  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef }
  if (spec.minReplicas != null) v1Spec.minReplicas = spec.minReplicas
  v1Spec.maxReplicas = spec.maxReplicas ?? 0
  // The first CPU resource metric decides, whether or not it has a utilization target.
  const cpu = metrics.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu')
  if (cpu?.resource?.target?.averageUtilization != null)
    v1Spec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization
  out.spec = v1Spec

  const status = hpa.status ?? { desiredReplicas: 0 }
  const current = status.currentMetrics ?? []
  const v1Status: Json = {}
  if (status.observedGeneration != null) v1Status.observedGeneration = status.observedGeneration
  if (status.lastScaleTime != null) v1Status.lastScaleTime = status.lastScaleTime
  v1Status.currentReplicas = status.currentReplicas ?? 0
  v1Status.desiredReplicas = status.desiredReplicas ?? 0
  // No break upstream: the last CPU status with a utilization wins.
  for (const m of current)
    if (m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization != null)
      v1Status.currentCPUUtilizationPercentage = m.resource.current.averageUtilization
  out.status = v1Status

  const others = metrics.filter((m) => !isCpuUtilization(m))
  if (others.length) annotate(meta, METRIC_SPECS_ANNOTATION, marshal(others.map(metricSpecToV1)))
  if (current.length) annotate(meta, METRIC_STATUSES_ANNOTATION, marshal(current.map(metricStatusToV1)))
  if (spec.behavior) annotate(meta, BEHAVIOR_ANNOTATION, marshal(behaviorToGo(spec.behavior)))
  const conditions = status.conditions ?? []
  if (conditions.length)
    annotate(
      meta,
      CONDITIONS_ANNOTATION,
      marshal(
        conditions.map((c) => {
          const v: Json = { type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime ?? null }
          if (c.reason) v.reason = c.reason
          if (c.message) v.message = c.message
          return v
        }),
      ),
    )
  return out as KubeObject
}

/**
 * An annotation as kube's conversion reads it: what json.Unmarshal into `type` decodes, or undefined when it is
 * absent or Unmarshal fails (kube ignores a malformed annotation since #89963: "only move well-formed data from
 * annotations to fields"). Either way the annotation itself is dropped.
 */
function readAnnotation(meta: Json, key: string, type: GoType): unknown {
  const text = (meta.annotations as Record<string, string> | undefined)?.[key]
  return text === undefined ? undefined : unmarshalAnnotation(text, type)
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** An autoscaling/v1 object as the v2 object it stands for (what is stored); v1's defaults applied first. */
export function hpaFromV1(input: KubeObject): Result<KubeObject> {
  const v1 = clone(input) as Json
  const meta = { ...((v1.metadata as Json | undefined) ?? {}) }
  if (meta.annotations) meta.annotations = { ...(meta.annotations as Json) }
  const spec = (v1.spec as Json | undefined) ?? {}
  const status = (v1.status as Json | undefined) ?? {}
  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef ?? { kind: '', name: '' } }
  // SetDefaults_HorizontalPodAutoscaler (v1).
  v2Spec.minReplicas = spec.minReplicas ?? 1
  v2Spec.maxReplicas = spec.maxReplicas ?? 0
  let metrics: unknown[] = []
  if (spec.targetCPUUtilizationPercentage != null) metrics = [cpuMetric(spec.targetCPUUtilizationPercentage)]
  const v2Status: Json = {}
  if (status.observedGeneration != null) v2Status.observedGeneration = status.observedGeneration
  if (status.lastScaleTime != null) v2Status.lastScaleTime = status.lastScaleTime
  if (status.currentReplicas) v2Status.currentReplicas = status.currentReplicas
  v2Status.desiredReplicas = status.desiredReplicas ?? 0
  if (status.currentCPUUtilizationPercentage != null)
    v2Status.currentMetrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      },
    ]

  // A JSON null decodes to a nil slice: no metrics added, and the current metrics and conditions emptied.
  const others = readAnnotation(meta, METRIC_SPECS_ANNOTATION, METRIC_SPECS)
  // The CPU target from the spec goes after the annotation's metrics.
  if (others !== undefined) metrics = [...list(others).map(metricSpecFromV1), ...metrics]
  // Only a behavior with a direction set counts (`behavior != (autoscaling.HorizontalPodAutoscalerBehavior{})`).
  const behavior = readAnnotation(meta, BEHAVIOR_ANNOTATION, BEHAVIOR) as Json | null | undefined
  if (behavior && (behavior.ScaleUp != null || behavior.ScaleDown != null)) v2Spec.behavior = behaviorFromGo(behavior)
  const current = readAnnotation(meta, METRIC_STATUSES_ANNOTATION, METRIC_STATUSES)
  if (current !== undefined) v2Status.currentMetrics = list(current).map(metricStatusFromV1)
  // v1's implicit default, applied explicitly now that the annotation's metrics are known.
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)]
  v2Spec.metrics = metrics
  const conditions = readAnnotation(meta, CONDITIONS_ANNOTATION, CONDITIONS)
  if (conditions !== undefined) v2Status.conditions = list(conditions)
  dropRoundTrip(meta)
  return ok({ ...v1, apiVersion: 'autoscaling/v2', metadata: meta, spec: v2Spec, status: v2Status } as KubeObject)
}

const cpuMetric = (utilization: unknown) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
})
