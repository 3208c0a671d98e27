// A Job's spec as kube 1.33 validates it on create (pkg/apis/batch/validation: ValidateJob, validateJobSpec,
// ValidateJobSpec and the generated-selector check), in kube's order and words. The JobTemplateSpec of a CronJob goes
// through the same validateJobSpec; updates add job-update-validation.ts.
import type { JobSpec } from '../../../schema/batch'
import type { PodSpec } from '../../../schema/pod'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import { isDNS1123Label, isDNS1123Subdomain, regexError } from '../../validation/names'
import { validateNonnegativeField } from '../../validation/object-meta'
import { goLabelSelector, goStringMap, invalidGo, validateLabelSelector } from '../pod/pod-validation-formats'
import { selectorMismatch, validatePodTemplateSpec } from '../pod-template'
import {
  CONTROLLER_UID_LABEL,
  JOB_NAME_LABEL,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  type JobObject,
} from '../../batch/job-labels'
import {
  goSuccessPolicy,
  validatePodFailurePolicy,
  validatePodReplacementPolicy,
  validateSuccessPolicy,
} from './job-policy-validation'

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000
const COMPLETIONS_SOFT_LIMIT = 100_000
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
const MAX_MANAGED_BY_LENGTH = 63
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/

const specPath = new FieldPath('spec')

/** IsDomainPrefixedPath: `host/path`, the host a DNS subdomain. */
function validateDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  const at = path.toString()
  if (value.length === 0) return [fieldError.required(at)]
  const slash = value.indexOf('/')
  if (slash <= 0 || slash === value.length - 1)
    return [fieldError.invalid(at, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
  const host = value.slice(0, slash)
  const errs = isDNS1123Subdomain(host).map((m) => fieldError.invalid(at, host, m))
  const rest = value.slice(slash + 1)
  if (!HTTP_PATH.test(rest))
    errs.push(fieldError.invalid(at, rest, regexError('Invalid path', "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+")))
  return errs
}

/** validateJobSpec: everything but the selector (the JobTemplateSpec of a CronJob has none to check). */
export function validateJobSpecFields(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = (f: string) => path.child(f)
  if (spec.parallelism !== undefined) errs.push(...validateNonnegativeField(spec.parallelism, at('parallelism')))
  if (spec.completions !== undefined) errs.push(...validateNonnegativeField(spec.completions, at('completions')))
  if (spec.activeDeadlineSeconds !== undefined)
    errs.push(...validateNonnegativeField(spec.activeDeadlineSeconds, at('activeDeadlineSeconds')))
  if (spec.backoffLimit !== undefined) errs.push(...validateNonnegativeField(spec.backoffLimit, at('backoffLimit')))
  if (spec.ttlSecondsAfterFinished !== undefined)
    errs.push(...validateNonnegativeField(spec.ttlSecondsAfterFinished, at('ttlSecondsAfterFinished')))
  if (spec.backoffLimitPerIndex !== undefined)
    errs.push(...validateNonnegativeField(spec.backoffLimitPerIndex, at('backoffLimitPerIndex')))
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, at('maxFailedIndexes')))
    if (spec.backoffLimitPerIndex === undefined)
      errs.push(fieldError.required(at('backoffLimitPerIndex').toString(), 'when maxFailedIndexes is specified'))
  }
  if (spec.managedBy !== undefined) {
    errs.push(...validateDomainPrefixedPath(at('managedBy'), spec.managedBy))
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH)
      errs.push(fieldError.tooLong(at('managedBy').toString(), MAX_MANAGED_BY_LENGTH))
  }
  const indexed = spec.completionMode === 'Indexed'
  if (spec.completionMode !== undefined) {
    if (spec.completionMode !== 'NonIndexed' && !indexed)
      errs.push(
        fieldError.notSupported(at('completionMode').toString(), spec.completionMode, ['NonIndexed', 'Indexed']),
      )
    if (indexed) errs.push(...validateIndexedLimits(spec, path))
  }
  if (spec.completionMode === undefined || spec.completionMode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex !== undefined)
      errs.push(
        fieldError.invalid(
          at('backoffLimitPerIndex').toString(),
          spec.backoffLimitPerIndex,
          'requires indexed completion mode',
        ),
      )
    if (spec.maxFailedIndexes !== undefined)
      errs.push(
        fieldError.invalid(
          at('maxFailedIndexes').toString(),
          spec.maxFailedIndexes,
          'requires indexed completion mode',
        ),
      )
  }
  if (spec.podFailurePolicy) errs.push(...validatePodFailurePolicy(spec, at('podFailurePolicy')))
  if (spec.successPolicy) {
    if (!indexed)
      errs.push(
        invalidGo(
          at('successPolicy').toString(),
          goSuccessPolicy(spec.successPolicy),
          'requires indexed completion mode',
        ),
      )
    else errs.push(...validateSuccessPolicy(spec, at('successPolicy')))
  }
  errs.push(...validatePodReplacementPolicy(spec, at('podReplacementPolicy')))
  const template = spec.template ?? {}
  errs.push(...validatePodTemplateSpec(template, at('template')))
  const restartPath = at('template').child('spec').child('restartPolicy').toString()
  const restart = (template.spec as Partial<PodSpec> | undefined)?.restartPolicy ?? ''
  if (restart === 'Always' || restart === '')
    errs.push(fieldError.required(restartPath, 'valid values: "OnFailure", "Never"'))
  else if (restart !== 'OnFailure' && restart !== 'Never')
    errs.push(fieldError.notSupported(restartPath, restart, ['OnFailure', 'Never']))
  else if (spec.podFailurePolicy && restart !== 'Never')
    errs.push(fieldError.invalid(restartPath, restart, 'only "Never" is supported when podFailurePolicy is specified'))
  return errs
}

function validateIndexedLimits(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = (f: string) => path.child(f).toString()
  if (spec.completions === undefined)
    errs.push(fieldError.required(at('completions'), 'when completion mode is Indexed'))
  if (spec.parallelism !== undefined && spec.parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB)
    errs.push(
      fieldError.invalid(
        at('parallelism'),
        spec.parallelism,
        `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`,
      ),
    )
  const maxFailed = spec.maxFailedIndexes
  if (spec.completions !== undefined && maxFailed !== undefined && maxFailed > spec.completions)
    errs.push(fieldError.invalid(at('maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'))
  if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_FOR_INDEXED_JOB)
    errs.push(
      fieldError.invalid(
        at('maxFailedIndexes'),
        maxFailed,
        `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`,
      ),
    )
  if (
    spec.completions !== undefined &&
    spec.completions > COMPLETIONS_SOFT_LIMIT &&
    spec.backoffLimitPerIndex !== undefined
  ) {
    const high = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`
    if (maxFailed === undefined)
      errs.push(
        fieldError.required(
          at('maxFailedIndexes'),
          `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
        ),
      )
    if (spec.parallelism !== undefined && spec.parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS)
      errs.push(
        fieldError.invalid(
          at('parallelism'),
          spec.parallelism,
          `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`,
        ),
      )
    if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS)
      errs.push(
        fieldError.invalid(
          at('maxFailedIndexes'),
          maxFailed,
          `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`,
        ),
      )
  }
  return errs
}

/** ValidateJobSpec: the fields, a valid selector, and a selector that matches the template's labels. */
export function validateJobSpec(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs = validateJobSpecFields(spec, path)
  const selectorPath = path.child('selector')
  if (!spec.selector) errs.push(fieldError.required(selectorPath.toString()))
  else errs.push(...validateLabelSelector(spec.selector, selectorPath))
  // A nil selector is labels.Nothing(): it matches no labels, so the template check fails too.
  const parsed = labelSelectorFromMetaV1(spec.selector)
  if (parsed.ok && !parsed.selector.matches(spec.template?.metadata?.labels))
    errs.push(selectorMismatch(spec.template ?? {}, path.child('template')))
  return errs
}

/** ValidateHasLabel: the template carries `key` with exactly `value`. */
function validateHasLabel(labels: Record<string, string> | undefined, key: string, value: string): FieldError[] {
  const at = specPath.child('template').child('metadata').child('labels').key(key).toString()
  if (!labels || !Object.hasOwn(labels, key)) return [fieldError.required(at, `must be '${value}'`)]
  return labels[key] === value ? [] : [invalidGo(at, goStringMap(labels), `must be '${value}'`)]
}

/** validateGeneratedSelector: unless manualSelector, the template carries the generated labels the selector picks. */
function validateGeneratedSelector(job: JobObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = job.spec ?? ({} as JobSpec)
  if (spec.manualSelector === true || !spec.selector) return []
  const errs: FieldError[] = []
  const uid = job.metadata.uid ?? ''
  const name = job.metadata.name ?? ''
  if (uid === '') errs.push(fieldError.required('metadata.uid'))
  const labels = spec.template?.metadata?.labels
  errs.push(...validateHasLabel(labels, LEGACY_CONTROLLER_UID_LABEL, uid))
  errs.push(...validateHasLabel(labels, LEGACY_JOB_NAME_LABEL, name))
  const expected: Record<string, string> = {}
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(labels, CONTROLLER_UID_LABEL, uid))
    errs.push(...validateHasLabel(labels, JOB_NAME_LABEL, name))
    expected[CONTROLLER_UID_LABEL] = uid
    expected[JOB_NAME_LABEL] = name
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid
  expected[LEGACY_JOB_NAME_LABEL] = name
  const parsed = labelSelectorFromMetaV1(spec.selector)
  if (parsed.ok && !parsed.selector.matches(expected))
    errs.push(invalidGo('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'))
  return errs
}

/** ValidateJob (after ValidateObjectMeta, which the store runs). */
export function validateJob(job: JobObject, requirePrefixedLabels = true): FieldError[] {
  const spec = job.spec ?? ({} as JobSpec)
  const errs = [...validateGeneratedSelector(job, requirePrefixedLabels), ...validateJobSpec(spec, specPath)]
  if (spec.completionMode === 'Indexed' && spec.completions !== undefined && spec.completions > 0) {
    // Indexed pods are named and hostnamed `<job>-<index>`: the highest index must still make a DNS label.
    const hostname = `${job.metadata.name ?? ''}-${spec.completions - 1}`
    if (isDNS1123Label(hostname).length > 0)
      errs.push(
        fieldError.invalid(
          'metadata.name',
          job.metadata.name ?? '',
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      )
  }
  return errs
}
