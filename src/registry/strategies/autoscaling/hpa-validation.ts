// kube's HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation, release-1.33), over the stored
// autoscaling/v2 shape (kube validates its internal version, whose field paths are v2's): replica bounds, the scale
// target reference, each metric source and its target, the scaling behavior's rules and policies, and the status.
import type { HorizontalPodAutoscaler, MetricSpec } from '../../../schema/autoscaling-v2'
import { BINARY_SUFFIXES, DECIMAL_SUFFIXES, parseQuantity } from '../../../schema/quantity-parse'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import { validateNonnegativeField } from '../../validation/object-meta'
import { validateDNS1123Label } from '../pod/pod-validation-formats'
import { validateContainerResourceName } from '../pod/pod-validation-quantities'
import { validateRBACName } from '../rbac/policy-rule-validation'

type Spec = NonNullable<HorizontalPodAutoscaler['spec']>
type Target = { type?: string; value?: string | number; averageValue?: string | number; averageUtilization?: number }
type Rules = NonNullable<NonNullable<Spec['behavior']>['scaleUp']>

const MAX_PERIOD_SECONDS = 1800
const MAX_STABILIZATION_WINDOW_SECONDS = 3600
const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource']
const SELECT_POLICIES = ['Disabled', 'Max', 'Min']
const POLICY_TYPES = ['Percent', 'Pods']
const spec = new FieldPath('spec')

/**
 * A *resource.Quantity as field.Invalid prints it: the pointer is dereferenced and Quantity's String has a pointer
 * receiver, so Go falls back to %#v of the struct ParseQuantity built: the digits as an int64 at the suffix's scale
 * less the decimals, and the input kept as `s` when ParseQuantity judged it canonical.
 */
function goQuantity(v: string | number): string {
  const q = parseQuantity(v)
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(String(v).trim())
  if (!q || !m) return JSON.stringify(String(v))
  const [, sign, num = '', denom = '', suffix = ''] = m
  const shifted = (num + denom).replace(/^0+(?=\d)/, '') || '0'
  const binary = q.format === 'BinarySI'
  const exponent = binary ? 0 : (DECIMAL_SUFFIXES.get(suffix) ?? Number(suffix.replace(/^[eE]/, '')))
  const scale = exponent - (binary ? 0 : denom.length)
  const factor = binary ? 2n ** BigInt(BINARY_SUFFIXES.get(suffix) ?? 0) : 1n
  const value = (sign === '-' ? -1n : 1n) * BigInt(shifted) * factor
  return (
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, ` +
    `d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(q.verbatim ?? '')}, Format:"${q.format}"}`
  )
}

/** Quantity.Sign() != 1: zero or negative. */
const notPositive = (v: string | number) => {
  const q = parseQuantity(v)
  return q !== null && q.mantissa <= 0n
}

/** ValidateCrossVersionObjectReference: kind and name required, each a valid path segment. */
function validateReference(ref: { kind?: string; name?: string } | undefined, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  for (const key of ['kind', 'name'] as const) {
    const value = ref?.[key] ?? ''
    if (!value) errs.push(fieldError.required(at.child(key).path, ''))
    else for (const msg of validateRBACName(value, false)) errs.push(fieldError.invalid(at.child(key).path, value, msg))
  }
  return errs
}

function validateIdentifier(id: { name?: string } | undefined, at: FieldPath): FieldError[] {
  const name = id?.name ?? ''
  if (!name) return [fieldError.required(at.child('name').path, 'must specify a metric name')]
  return validateRBACName(name, false).map((msg) => fieldError.invalid(at.child('name').path, name, msg))
}

function validateTarget(t: Target | undefined, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = t?.type ?? ''
  if (!type) errs.push(fieldError.required(at.child('type').path, 'must specify a metric target type'))
  if (!['Utilization', 'Value', 'AverageValue'].includes(type))
    errs.push(fieldError.invalid(at.child('type').path, type, 'must be either Utilization, Value, or AverageValue'))
  for (const key of ['value', 'averageValue'] as const) {
    const q = t?.[key]
    if (q !== undefined && notPositive(q))
      errs.push({
        type: 'FieldValueInvalid',
        field: at.child(key).path,
        message: `Invalid value: ${goQuantity(q)}: must be positive`,
      })
  }
  if (t?.averageUtilization !== undefined && t.averageUtilization < 1)
    errs.push(fieldError.invalid(at.child('averageUtilization').path, t.averageUtilization, 'must be greater than 0'))
  return errs
}

/** The target checks Resource and ContainerResource metrics share: a utilization or a raw value, not both. */
function resourceTargetRule(t: Target | undefined, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const target = at.child('target')
  if (t?.averageUtilization === undefined && t?.averageValue === undefined)
    errs.push(
      fieldError.required(
        target.child('averageUtilization').path,
        'must set either a target raw value or a target utilization',
      ),
    )
  if (t?.averageUtilization !== undefined && t.averageValue !== undefined)
    errs.push(
      fieldError.forbidden(
        target.child('averageValue').path,
        'may not set both a target raw value and a target utilization',
      ),
    )
  return errs
}

type Source = NonNullable<MetricSpec[keyof MetricSpec]>

function validateSource(kind: string, src: Source, at: FieldPath): FieldError[] {
  const s = src as Record<string, unknown> & { target?: Target; metric?: { name?: string } }
  const target = at.child('target')
  const errs: FieldError[] = []
  if (kind === 'object') {
    errs.push(...validateReference(s.describedObject as { kind?: string }, at.child('describedObject')))
    errs.push(...validateIdentifier(s.metric, at.child('metric')), ...validateTarget(s.target, target))
    if (s.target?.value === undefined && s.target?.averageValue === undefined)
      errs.push(
        fieldError.required(target.child('averageValue').path, 'must set either a target value or averageValue'),
      )
  } else if (kind === 'external') {
    errs.push(...validateIdentifier(s.metric, at.child('metric')), ...validateTarget(s.target, target))
    if (s.target?.value === undefined && s.target?.averageValue === undefined)
      errs.push(
        fieldError.required(
          target.child('averageValue').path,
          'must set either a target value for metric or a per-pod target',
        ),
      )
    if (s.target?.value !== undefined && s.target?.averageValue !== undefined)
      errs.push(
        fieldError.forbidden(
          target.child('value').path,
          'may not set both a target value for metric and a per-pod target',
        ),
      )
  } else if (kind === 'pods') {
    errs.push(...validateIdentifier(s.metric, at.child('metric')), ...validateTarget(s.target, target))
    if (s.target?.averageValue === undefined)
      errs.push(fieldError.required(target.child('averageValue').path, 'must specify a positive target averageValue'))
  } else if (kind === 'resource') {
    const name = (s.name as string | undefined) ?? ''
    if (!name) errs.push(fieldError.required(at.child('name').path, 'must specify a resource name'))
    errs.push(...validateTarget(s.target, target), ...resourceTargetRule(s.target, at))
  } else {
    const name = (s.name as string | undefined) ?? ''
    if (!name) errs.push(fieldError.required(at.child('name').path, 'must specify a resource name'))
    else errs.push(...validateContainerResourceName(name, at.child('name')))
    const container = (s.container as string | undefined) ?? ''
    if (!container) errs.push(fieldError.required(at.child('container').path, 'must specify a container'))
    else errs.push(...validateDNS1123Label(container, at.child('container')))
    errs.push(...validateTarget(s.target, target), ...resourceTargetRule(s.target, at))
  }
  return errs
}

/** The source field each metric type must fill, and the order kube meets them in. */
const SOURCES: [field: keyof MetricSpec, type: string][] = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
]

/** validateMetricSpec. */
function validateMetricSpec(m: MetricSpec, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = m.type ?? ''
  if (!type) errs.push(fieldError.required(at.child('type').path, 'must specify a metric source type'))
  if (!SOURCE_TYPES.includes(type)) errs.push(fieldError.notSupported(at.child('type').path, type, SOURCE_TYPES))
  const present: string[] = []
  for (const [key] of SOURCES) {
    if (m[key] === undefined || m[key] === null) continue
    present.push(key)
    // Only the first source present is validated.
    if (present.length === 1) errs.push(...validateSource(key, m[key] as Source, at.child(key)))
  }
  const expected = SOURCES.find(([, t]) => t === type)?.[0]
  if (expected === undefined) errs.push(fieldError.notSupported(at.child('type').path, type, SOURCE_TYPES))
  else if (m[expected] === undefined || m[expected] === null)
    errs.push(fieldError.required(at.child(expected).path, 'must populate information for the given metric source'))
  if (present.length !== 1)
    for (const key of present.filter((k) => k !== expected).sort())
      errs.push(fieldError.forbidden(at.child(key).path, 'must populate the given metric source only'))
  return errs
}

function validateRules(rules: Rules | undefined, at: FieldPath): FieldError[] {
  if (!rules) return []
  const errs: FieldError[] = []
  const window = rules.stabilizationWindowSeconds
  if (window !== undefined && window < 0)
    errs.push(
      fieldError.invalid(at.child('stabilizationWindowSeconds').path, window, 'must be greater than or equal to zero'),
    )
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS)
    errs.push(
      fieldError.invalid(
        at.child('stabilizationWindowSeconds').path,
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    )
  if (rules.selectPolicy !== undefined && !SELECT_POLICIES.includes(rules.selectPolicy))
    errs.push(fieldError.notSupported(at.child('selectPolicy').path, rules.selectPolicy, SELECT_POLICIES))
  const policies = at.child('policies')
  if (!rules.policies?.length) errs.push(fieldError.required(policies.path, 'must specify at least one Policy'))
  for (const [i, p] of (rules.policies ?? []).entries()) {
    const pa = policies.index(i)
    if (p.type !== 'Pods' && p.type !== 'Percent')
      errs.push(fieldError.notSupported(pa.child('type').path, p.type, POLICY_TYPES))
    if (p.value <= 0) errs.push(fieldError.invalid(pa.child('value').path, p.value, 'must be greater than zero'))
    if (p.periodSeconds <= 0)
      errs.push(fieldError.invalid(pa.child('periodSeconds').path, p.periodSeconds, 'must be greater than zero'))
    if (p.periodSeconds > MAX_PERIOD_SECONDS)
      errs.push(
        fieldError.invalid(
          pa.child('periodSeconds').path,
          p.periodSeconds,
          `must be less than or equal to ${MAX_PERIOD_SECONDS}`,
        ),
      )
  }
  return errs
}

/** validateHorizontalPodAutoscalerSpec; `minBound` is 1, or 0 on an update of an HPA whose minReplicas was 0. */
export function validateHpaSpec(s: Spec | undefined, minBound: number): FieldError[] {
  const errs: FieldError[] = []
  const min = s?.minReplicas
  const max = s?.maxReplicas ?? 0
  if (min !== undefined && min < minBound)
    errs.push(fieldError.invalid('spec.minReplicas', min, `must be greater than or equal to ${minBound}`))
  if (max < 1) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'))
  if (min !== undefined && max < min)
    errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'))
  errs.push(...validateReference(s?.scaleTargetRef, spec.child('scaleTargetRef')))
  const metrics = s?.metrics ?? []
  for (const [i, m] of metrics.entries()) errs.push(...validateMetricSpec(m, spec.child('metrics').index(i)))
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External'))
    errs.push(
      fieldError.forbidden(
        'spec.metrics',
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    )
  const behavior = s?.behavior
  if (behavior) {
    errs.push(...validateRules(behavior.scaleUp, spec.child('behavior').child('scaleUp')))
    errs.push(...validateRules(behavior.scaleDown, spec.child('behavior').child('scaleDown')))
  }
  return errs
}

/** ValidateHorizontalPodAutoscalerStatusUpdate: replica counts are not negative. */
export function validateHpaStatus(hpa: HorizontalPodAutoscaler): FieldError[] {
  const status = new FieldPath('status')
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, status.child('currentReplicas')),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, status.child('desiredReplicas')),
  ]
}
