// Writes through jobs/status as kube 1.33 validates them (ValidateJobUpdateStatus with the options the status strategy
// computes while JobManagedBy is on, its default): counters never negative or decreasing, terminal conditions
// consistent and never withdrawn, completion and start times coherent, index lists well formed. Most rules apply only
// when the fields they read changed, so a status that was already off can still be updated elsewhere.
import type { JobSpec, JobStatus } from '../../../schema/batch'
import type { JobObject } from '../../batch/job-labels'
import { validateIndexesFormat, parseIndexes, intervalsHas } from '../../batch/index-intervals'
import { semanticEqual } from '../../rbac/semantic-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { validateNonnegativeField } from '../../validation/object-meta'
import { goQuote } from '../../go-strings'

const statusPath = new FieldPath('status')
const at = (f: string) => statusPath.child(f).toString()

const conditionTrue = (status: JobStatus | undefined, type: string) =>
  (status?.conditions ?? []).some((c) => c.type === type && c.status === 'True')
const complete = (s: JobStatus | undefined) => conditionTrue(s, 'Complete')
const failed = (s: JobStatus | undefined) => conditionTrue(s, 'Failed')
const finished = (s: JobStatus | undefined) => complete(s) || failed(s)
const successCriteriaMet = (s: JobStatus | undefined) => conditionTrue(s, 'SuccessCriteriaMet')
const failureTarget = (s: JobStatus | undefined) => conditionTrue(s, 'FailureTarget')

const omitted = (field: string, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${detail}`,
})

/** A metav1.Time as a field error prints it (time.Time's String, in UTC). */
function goTime(value: string): string {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return goQuote(value)
  const iso = d.toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`
}

/** validateFailedIndexesNotOverlapCompleted, over the valid parts of both lists. */
function overlap(completed: string, failedIndexes: string, completions: number): number | null {
  const done = parseIndexes(completed, completions)
  for (const f of parseIndexes(failedIndexes, completions)) {
    for (let x = f.first; x <= f.last; x++) if (intervalsHas(done, x)) return x
  }
  return null
}

export function validateJobStatusUpdate(job: JobObject, old: JobObject): FieldError[] {
  const s = job.status ?? {}
  const o = old.status ?? {}
  const spec = job.spec ?? ({} as JobSpec)
  const indexed = spec.completionMode === 'Indexed'
  const changed = <K extends keyof JobStatus>(k: K) => !semanticEqual(s[k], o[k])
  const finishedChanged = finished(s) !== finished(o)
  const completeChanged = complete(s) !== complete(o)
  const errs: FieldError[] = []
  // validateJobStatus
  errs.push(...validateNonnegativeField(s.active ?? 0, statusPath.child('active')))
  errs.push(...validateNonnegativeField(s.succeeded ?? 0, statusPath.child('succeeded')))
  errs.push(...validateNonnegativeField(s.failed ?? 0, statusPath.child('failed')))
  if (s.ready !== undefined) errs.push(...validateNonnegativeField(s.ready, statusPath.child('ready')))
  if (s.terminating !== undefined)
    errs.push(...validateNonnegativeField(s.terminating, statusPath.child('terminating')))
  if (s.uncountedTerminatedPods) {
    const seen = new Set<string>()
    for (const list of ['succeeded', 'failed'] as const) {
      ;(s.uncountedTerminatedPods[list] ?? []).forEach((uid, i) => {
        const p = statusPath.child('uncountedTerminatedPods').child(list).index(i).toString()
        if (uid === '') errs.push(fieldError.invalid(p, uid, 'must not be empty'))
        else if (seen.has(uid)) errs.push(fieldError.duplicate(p, uid))
        else seen.add(uid)
      })
    }
  }
  const conditions = at('conditions')
  if ((completeChanged || failed(s) !== failed(o)) && complete(s) && failed(s))
    errs.push(omitted(conditions, 'cannot set Complete=True and Failed=true conditions'))
  if ((completeChanged || failureTarget(s) !== failureTarget(o)) && complete(s) && failureTarget(s))
    errs.push(omitted(conditions, 'cannot set Complete=True and FailureTarget=true conditions'))
  const completionTimeChanged = changed('completionTime')
  const startTimeChanged = changed('startTime')
  if ((completeChanged || completionTimeChanged) && s.completionTime !== undefined && !complete(s))
    errs.push(
      timeError(
        'completionTime',
        s.completionTime,
        'cannot set completionTime when there is no Complete=True condition',
      ),
    )
  if ((completeChanged || completionTimeChanged) && s.completionTime === undefined && complete(s))
    errs.push(fieldError.required(at('completionTime'), 'completionTime is required for Complete jobs'))
  if (
    (startTimeChanged || completionTimeChanged) &&
    s.startTime !== undefined &&
    s.completionTime !== undefined &&
    Date.parse(s.completionTime) < Date.parse(s.startTime)
  )
    errs.push(timeError('completionTime', s.completionTime, 'completionTime cannot be set before startTime'))
  // Checked when the conditions they read change, so a Job finished before these rules existed stays writable.
  if ((failed(s) !== failed(o) || failureTarget(s) !== failureTarget(o)) && failed(s) && !failureTarget(s))
    errs.push(omitted(conditions, 'cannot set Failed=True condition without the FailureTarget=true condition'))
  if ((completeChanged || successCriteriaMet(s) !== successCriteriaMet(o)) && complete(s) && !successCriteriaMet(s))
    errs.push(omitted(conditions, 'cannot set Complete=True condition without the SuccessCriteriaMet=true condition'))
  if ((finishedChanged || changed('active')) && (s.active ?? 0) > 0 && finished(s))
    errs.push(fieldError.invalid(at('active'), s.active, 'active>0 is invalid for finished job'))
  if ((finishedChanged || startTimeChanged) && s.startTime === undefined && finished(s))
    errs.push(fieldError.required(at('startTime'), 'startTime is required for finished job'))
  const uncounted =
    (s.uncountedTerminatedPods?.succeeded ?? []).length + (s.uncountedTerminatedPods?.failed ?? []).length
  if ((finishedChanged || changed('uncountedTerminatedPods')) && finished(s) && uncounted > 0)
    errs.push({
      type: 'FieldValueInvalid',
      field: at('uncountedTerminatedPods'),
      message: `Invalid value: ${JSON.stringify(s.uncountedTerminatedPods)}: uncountedTerminatedPods needs to be empty for finished job`,
    })
  const completions = spec.completions
  if (changed('completedIndexes') && completions !== undefined) {
    const r = validateIndexesFormat(s.completedIndexes ?? '', completions)
    if (!r.ok)
      errs.push(
        fieldError.invalid(
          at('completedIndexes'),
          s.completedIndexes ?? '',
          `error parsing completedIndexes: ${r.message}`,
        ),
      )
  }
  if (
    changed('failedIndexes') &&
    completions !== undefined &&
    spec.backoffLimitPerIndex !== undefined &&
    s.failedIndexes !== undefined
  ) {
    const r = validateIndexesFormat(s.failedIndexes, completions)
    if (!r.ok)
      errs.push(fieldError.invalid(at('failedIndexes'), s.failedIndexes, `error parsing failedIndexes: ${r.message}`))
  }
  if (changed('completedIndexes') && (s.completedIndexes ?? '') !== '' && !indexed)
    errs.push(
      fieldError.invalid(
        at('completedIndexes'),
        s.completedIndexes,
        'cannot set non-empty completedIndexes when non-indexed completion mode',
      ),
    )
  if (changed('failedIndexes') && spec.backoffLimitPerIndex === undefined && s.failedIndexes !== undefined)
    errs.push(
      fieldError.invalid(
        at('failedIndexes'),
        s.failedIndexes,
        'cannot set non-null failedIndexes when backoffLimitPerIndex is null',
      ),
    )
  if (
    (changed('failedIndexes') || changed('completedIndexes')) &&
    completions !== undefined &&
    s.failedIndexes !== undefined
  ) {
    const x = overlap(s.completedIndexes ?? '', s.failedIndexes, completions)
    if (x !== null)
      errs.push(
        fieldError.invalid(
          at('failedIndexes'),
          s.failedIndexes,
          `failedIndexes and completedIndexes overlap at index: ${x}`,
        ),
      )
  }
  if ((finishedChanged || changed('terminating')) && (s.terminating ?? 0) > 0 && finished(s))
    errs.push(fieldError.invalid(at('terminating'), s.terminating, 'terminating>0 is invalid for finished job'))
  if ((changed('ready') || changed('active')) && s.ready !== undefined && s.ready > (s.active ?? 0))
    errs.push(fieldError.invalid(at('ready'), s.ready, 'cannot set more ready pods than active'))
  if (successCriteriaMet(s) && failed(s))
    errs.push(omitted(conditions, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'))
  if (successCriteriaMet(s) && failureTarget(s))
    errs.push(omitted(conditions, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'))
  if (spec.successPolicy && !successCriteriaMet(s) && complete(s))
    errs.push(omitted(conditions, 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'))
  // ValidateJobStatusUpdate's transitions
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(o, type) && !conditionTrue(s, type))
      errs.push(omitted(conditions, `cannot disable the terminal ${type}=True condition`))
  }
  if ((s.failed ?? 0) < (o.failed ?? 0))
    errs.push(fieldError.invalid(at('failed'), s.failed ?? 0, 'cannot decrease the failed counter'))
  // Indexed Jobs whose completions and parallelism move together may be scaled down, and lose succeeded indexes.
  const elastic = indexed && spec.completions === spec.parallelism
  if (!elastic && (s.succeeded ?? 0) < (o.succeeded ?? 0))
    errs.push(fieldError.invalid(at('succeeded'), s.succeeded ?? 0, 'cannot decrease the succeeded counter'))
  if (
    s.completionTime !== undefined &&
    o.completionTime !== undefined &&
    Date.parse(s.completionTime) !== Date.parse(o.completionTime)
  )
    errs.push(timeError('completionTime', s.completionTime, 'completionTime cannot be mutated'))
  if (startTimeChanged && o.startTime !== undefined && spec.suspend !== true)
    errs.push(fieldError.required(at('startTime'), 'startTime cannot be removed for unsuspended job'))
  if (successCriteriaMet(o) && !successCriteriaMet(s))
    errs.push(omitted(conditions, 'cannot disable the SuccessCriteriaMet=True condition'))
  if (complete(o) && !successCriteriaMet(o) && successCriteriaMet(s))
    errs.push(omitted(conditions, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'))
  return errs
}

function timeError(field: string, value: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: at(field), message: `Invalid value: ${goTime(value)}: ${detail}` }
}
