// The parts of an autoscaling/v2 HPA that autoscaling/v1 has no field for, in the shapes kube keeps them in v1
// objects' annotations (pkg/apis/autoscaling/v1/conversion.go, release-1.33): metric specs and statuses as v1
// MetricSpec/MetricStatus (other field names, targets flattened), and the behavior as json.Marshal writes the internal
// HorizontalPodAutoscalerBehavior, which has no json tags (Go field names; read back case-insensitively).
import type { MetricSpec, MetricStatus } from '../../schema/autoscaling-v2'

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const obj = (v: unknown): Json => (isObject(v) ? v : {})
/** Sets `key` when `value` is present (a Go pointer that is not nil). */
function put(out: Json, key: string, value: unknown) {
  if (value !== undefined && value !== null) out[key] = value
}
/** A resource.Quantity that is a value in v1 (not a pointer): a nil pointer becomes the zero quantity. */
const quantity = (v: unknown) => (v === undefined || v === null ? '0' : v)

function refOf(r: unknown): Json {
  const ref = obj(r)
  const out: Json = { kind: ref.kind ?? '', name: ref.name ?? '' }
  put(out, 'apiVersion', ref.apiVersion || undefined)
  return out
}

/** Convert_autoscaling_MetricSpec_To_v1_MetricSpec. */
export function metricSpecToV1(m: MetricSpec): Json {
  const out: Json = { type: m.type ?? '' }
  if (m.object) {
    const o = m.object
    const v: Json = { target: refOf(o.describedObject), metricName: o.metric?.name ?? '' }
    v.targetValue = quantity(o.target?.value)
    put(v, 'selector', o.metric?.selector)
    put(v, 'averageValue', o.target?.averageValue)
    out.object = v
  }
  if (m.pods) {
    const p = m.pods
    const v: Json = { metricName: p.metric?.name ?? '', targetAverageValue: quantity(p.target?.averageValue) }
    put(v, 'selector', p.metric?.selector)
    out.pods = v
  }
  if (m.resource) {
    const v: Json = { name: m.resource.name ?? '' }
    put(v, 'targetAverageUtilization', m.resource.target?.averageUtilization)
    put(v, 'targetAverageValue', m.resource.target?.averageValue)
    out.resource = v
  }
  if (m.containerResource) {
    const c = m.containerResource
    const v: Json = { name: c.name ?? '' }
    put(v, 'targetAverageUtilization', c.target?.averageUtilization)
    put(v, 'targetAverageValue', c.target?.averageValue)
    v.container = c.container ?? ''
    out.containerResource = v
  }
  if (m.external) {
    const e = m.external
    const v: Json = { metricName: e.metric?.name ?? '' }
    put(v, 'metricSelector', e.metric?.selector)
    put(v, 'targetValue', e.target?.value)
    put(v, 'targetAverageValue', e.target?.averageValue)
    out.external = v
  }
  return out
}

function identifier(name: unknown, selector: unknown): Json {
  const id: Json = { name: typeof name === 'string' ? name : '' }
  put(id, 'selector', selector)
  return id
}

/** Convert_v1_MetricSpec_To_autoscaling_MetricSpec, for one entry of the metrics annotation. */
export function metricSpecFromV1(raw: unknown): MetricSpec {
  const m = obj(raw)
  const out: Json = { type: typeof m.type === 'string' ? m.type : '' }
  if (isObject(m.object)) {
    const o = m.object
    const target: Json = { type: o.averageValue == null ? 'Value' : 'AverageValue', value: quantity(o.targetValue) }
    put(target, 'averageValue', o.averageValue)
    out.object = { describedObject: refOf(o.target), target, metric: identifier(o.metricName, o.selector) }
  }
  if (isObject(m.pods)) {
    const p = m.pods
    out.pods = {
      metric: identifier(p.metricName, p.selector),
      target: { type: 'AverageValue', averageValue: quantity(p.targetAverageValue) },
    }
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key]
    if (!isObject(r)) continue
    const target: Json = { type: r.targetAverageUtilization == null ? 'AverageValue' : 'Utilization' }
    put(target, 'averageValue', r.targetAverageValue)
    put(target, 'averageUtilization', r.targetAverageUtilization)
    const v: Json = { name: typeof r.name === 'string' ? r.name : '', target }
    if (key === 'containerResource') v.container = typeof r.container === 'string' ? r.container : ''
    out[key] = v
  }
  if (isObject(m.external)) {
    const e = m.external
    const target: Json = { type: e.targetValue == null ? 'AverageValue' : 'Value' }
    put(target, 'value', e.targetValue)
    put(target, 'averageValue', e.targetAverageValue)
    out.external = { metric: identifier(e.metricName, e.metricSelector), target }
  }
  return out as MetricSpec
}

/** Convert_autoscaling_MetricStatus_To_v1_MetricStatus. */
export function metricStatusToV1(m: MetricStatus): Json {
  const out: Json = { type: m.type ?? '' }
  if (m.object) {
    const o = m.object
    const v: Json = { target: refOf(o.describedObject), metricName: o.metric?.name ?? '' }
    v.currentValue = quantity(o.current?.value)
    put(v, 'selector', o.metric?.selector)
    put(v, 'averageValue', o.current?.averageValue)
    out.object = v
  }
  if (m.pods) {
    const v: Json = {
      metricName: m.pods.metric?.name ?? '',
      currentAverageValue: quantity(m.pods.current?.averageValue),
    }
    put(v, 'selector', m.pods.metric?.selector)
    out.pods = v
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key] as { name?: string; current?: Json; container?: string } | undefined
    if (!r) continue
    const v: Json = { name: r.name ?? '' }
    put(v, 'currentAverageUtilization', r.current?.averageUtilization)
    v.currentAverageValue = quantity(r.current?.averageValue)
    if (key === 'containerResource') v.container = r.container ?? ''
    out[key] = v
  }
  if (m.external) {
    const e = m.external
    const v: Json = { metricName: e.metric?.name ?? '' }
    put(v, 'metricSelector', e.metric?.selector)
    v.currentValue = quantity(e.current?.value)
    put(v, 'currentAverageValue', e.current?.averageValue)
    out.external = v
  }
  return out
}

/** Convert_v1_MetricStatus_To_autoscaling_MetricStatus, for one entry of the current-metrics annotation. */
export function metricStatusFromV1(raw: unknown): MetricStatus {
  const m = obj(raw)
  const out: Json = { type: typeof m.type === 'string' ? m.type : '' }
  if (isObject(m.object)) {
    const o = m.object
    const current: Json = { value: quantity(o.currentValue) }
    put(current, 'averageValue', o.averageValue)
    out.object = { metric: identifier(o.metricName, o.selector), current, describedObject: refOf(o.target) }
  }
  if (isObject(m.pods)) {
    const p = m.pods
    out.pods = {
      metric: identifier(p.metricName, p.selector),
      current: { averageValue: quantity(p.currentAverageValue) },
    }
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key]
    if (!isObject(r)) continue
    const current: Json = { averageValue: quantity(r.currentAverageValue) }
    put(current, 'averageUtilization', r.currentAverageUtilization)
    const v: Json = { name: typeof r.name === 'string' ? r.name : '', current }
    if (key === 'containerResource') v.container = typeof r.container === 'string' ? r.container : ''
    out[key] = v
  }
  if (isObject(m.external)) {
    const e = m.external
    const current: Json = { value: quantity(e.currentValue) }
    put(current, 'averageValue', e.currentAverageValue)
    out.external = { metric: identifier(e.metricName, e.metricSelector), current }
  }
  return out as MetricStatus
}

/** One direction's rules as json.Marshal writes the internal HPAScalingRules (nil pointers and slices as null). */
function rulesToGo(r: unknown): Json | null {
  if (!isObject(r)) return null
  const policies = Array.isArray(r.policies)
    ? r.policies.map((p) => {
        const q = obj(p)
        return { Type: q.type ?? '', Value: q.value ?? 0, PeriodSeconds: q.periodSeconds ?? 0 }
      })
    : null
  return {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: policies,
    Tolerance: r.tolerance ?? null,
  }
}

/** The behavior annotation's value: the internal HorizontalPodAutoscalerBehavior as json.Marshal writes it. */
export function behaviorToGo(b: unknown): Json {
  const behavior = obj(b)
  return { ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) }
}

/** encoding/json's field matching: the exact key, else one equal under case folding. */
function field(o: Json, name: string): unknown {
  if (Object.hasOwn(o, name)) return o[name]
  const lower = name.toLowerCase()
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === lower) return v
  return undefined
}

function rulesFromGo(raw: unknown): Json | undefined {
  if (!isObject(raw)) return undefined
  const out: Json = {}
  put(out, 'stabilizationWindowSeconds', field(raw, 'StabilizationWindowSeconds'))
  put(out, 'selectPolicy', field(raw, 'SelectPolicy'))
  const policies = field(raw, 'Policies')
  if (Array.isArray(policies))
    out.policies = policies.map((p) => {
      const q = obj(p)
      return {
        type: field(q, 'Type') ?? '',
        value: field(q, 'Value') ?? 0,
        periodSeconds: field(q, 'PeriodSeconds') ?? 0,
      }
    })
  put(out, 'tolerance', field(raw, 'Tolerance'))
  return out
}

/** The behavior a v1 object's annotation carries (json.Unmarshal into the internal struct: a non-nil behavior). */
export function behaviorFromGo(raw: unknown): Json {
  const b = obj(raw)
  const out: Json = {}
  const up = rulesFromGo(field(b, 'ScaleUp'))
  const down = rulesFromGo(field(b, 'ScaleDown'))
  if (up) out.scaleUp = up
  if (down) out.scaleDown = down
  return out
}
