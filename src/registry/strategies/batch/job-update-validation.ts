// What an update of a Job may change, as kube 1.33's ValidateJobSpecUpdate judges it: completions (only together with
// parallelism, for Indexed Jobs), selector, template (but a suspended Job that never started may move its pods),
// completion mode, policies and managedBy are immutable. Bad values print as Go's %#v prints them.
import type { JobSpec } from '../../../schema/batch'
import type { PodSpec } from '../../../schema/pod'
import type { JobObject } from '../../batch/job-labels'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { semanticEqual } from '../../rbac/semantic-equal'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { goLabelSelector, invalidGo } from '../pod/pod-validation-formats'
import { goPodFailurePolicy, goSuccessPolicy } from './job-policy-validation'
import { validateJobSpec } from './job-validation'

const specPath = new FieldPath('spec')

/** ValidateImmutableField with the bad value rendered as Go's %#v prints it. */
function immutable(newValue: unknown, oldValue: unknown, at: string, render: () => string): FieldError[] {
  return semanticEqual(newValue, oldValue) ? [] : [invalidGo(at, render(), FIELD_IMMUTABLE_ERROR_MSG)]
}

/** A pointer field's value as field errors print it: dereferenced, or null. */
const scalar = (v: string | number | undefined) =>
  v === undefined ? 'null' : typeof v === 'string' ? JSON.stringify(v) : String(v)

/**
 * kube prints the whole internal core.PodTemplateSpec with %#v here (thousands of characters with pointer
 * addresses); the type name stands in for that dump.
 */
const GO_TEMPLATE = 'core.PodTemplateSpec{...}'

/** validatePodTemplateUpdate: the template is immutable, but a suspended Job that never started may change where
 * its pods go (node affinity, node selector, tolerations, scheduling gates) and the template's labels and annotations. */
function validateTemplateUpdate(spec: JobSpec, old: JobSpec, mutableScheduling: boolean): FieldError[] {
  const template = spec.template ?? {}
  let oldTemplate = old.template ?? {}
  if (mutableScheduling) {
    oldTemplate = structuredClone(oldTemplate)
    const now = (template.spec ?? {}) as Partial<PodSpec>
    const was = (oldTemplate.spec ??= { containers: [] }) as Partial<PodSpec>
    if (!now.affinity && was.affinity) {
      const { nodeAffinity: _, ...rest } = was.affinity
      was.affinity = Object.keys(rest).length === 0 ? undefined : rest
      if (was.affinity === undefined) delete was.affinity
    } else if (now.affinity && !was.affinity) {
      was.affinity = now.affinity.nodeAffinity ? { nodeAffinity: now.affinity.nodeAffinity } : {}
    } else if (now.affinity && was.affinity) {
      was.affinity = { ...was.affinity, nodeAffinity: now.affinity.nodeAffinity }
      if (was.affinity.nodeAffinity === undefined) delete was.affinity.nodeAffinity
    }
    for (const k of ['nodeSelector', 'tolerations', 'schedulingGates'] as const) {
      if (now[k] === undefined) delete was[k]
      else (was as Record<string, unknown>)[k] = now[k]
    }
    oldTemplate.metadata = {
      ...oldTemplate.metadata,
      labels: template.metadata?.labels,
      annotations: template.metadata?.annotations,
    }
  }
  return immutable(template, oldTemplate, 'spec.template', () => GO_TEMPLATE)
}

/** ValidateJobSpecUpdate (kube validates the spec a second time here, so an update repeats its spec errors). */
export function validateJobUpdate(job: JobObject, old: JobObject): FieldError[] {
  const spec = job.spec ?? ({} as JobSpec)
  const oldSpec = old.spec ?? ({} as JobSpec)
  const errs = validateJobSpec(spec, specPath)
  errs.push(...validateCompletionsUpdate(spec, oldSpec))
  errs.push(
    ...immutable(spec.selector, oldSpec.selector, 'spec.selector', () =>
      spec.selector ? goLabelSelector(spec.selector) : 'null',
    ),
  )
  // Scheduling directives of a suspended Job that never started may change (kube's AllowMutableSchedulingDirectives).
  const mutableScheduling = oldSpec.suspend === true && old.status?.startTime === undefined
  errs.push(...validateTemplateUpdate(spec, oldSpec, mutableScheduling))
  errs.push(
    ...immutable(spec.completionMode, oldSpec.completionMode, 'spec.completionMode', () => scalar(spec.completionMode)),
  )
  errs.push(
    ...immutable(spec.podFailurePolicy, oldSpec.podFailurePolicy, 'spec.podFailurePolicy', () =>
      spec.podFailurePolicy ? goPodFailurePolicy(spec.podFailurePolicy) : 'null',
    ),
  )
  errs.push(
    ...immutable(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, 'spec.backoffLimitPerIndex', () =>
      scalar(spec.backoffLimitPerIndex),
    ),
  )
  errs.push(...immutable(spec.managedBy, oldSpec.managedBy, 'spec.managedBy', () => scalar(spec.managedBy)))
  errs.push(
    ...immutable(spec.successPolicy, oldSpec.successPolicy, 'spec.successPolicy', () =>
      spec.successPolicy ? goSuccessPolicy(spec.successPolicy) : 'null',
    ),
  )
  return errs
}

/** validateCompletions: immutable, except that an Indexed Job may change it together with parallelism (elastic). */
function validateCompletionsUpdate(spec: JobSpec, old: JobSpec): FieldError[] {
  const at = 'spec.completions'
  if (spec.completionMode !== 'Indexed')
    return immutable(spec.completions, old.completions, at, () => scalar(spec.completions))
  if (spec.completions === old.completions || spec.completions === undefined) return []
  if (spec.completions !== spec.parallelism)
    return [fieldError.invalid(at, spec.completions, 'can only be modified in tandem with spec.parallelism')]
  return []
}
