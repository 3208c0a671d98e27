// The batch/v1 CronJob strategy: SetDefaults_CronJob (concurrencyPolicy Allow, suspend false, history limits 3 and 1;
// the job template's pod spec gets the pod template defaults, its Job fields are defaulted when a Job is made),
// kube 1.33's validation (schedule through robfig/cron with its errors, no TZ= in it, an IANA time zone, the job
// template without a selector, names of at most 52 characters), status kept from the stored object, generation bumped on
// spec changes and the `kubectl get cronjobs` table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { CronJobSpec, CronJobStatus, JobSpec } from '../../../schema/batch'
import type { Strategy, TableConvertor } from '../../strategy'
import { parseCronSchedule } from '../../batch/cron-schedule'
import type { CronJobObject } from '../../batch/job-labels'
import { loadLocation } from '../../batch/time-zone'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import { nameIsDNSSubdomain } from '../../validation/names'
import { validateNonnegativeField } from '../../validation/object-meta'
import { formatLabelSelector } from '../apps/apps-selector'
import { goLabelSelector, invalidGo } from '../pod/pod-validation-formats'
import { applyTemplateDefaults, containerCells } from '../pod-template'
import { validateJobSpecFields } from './job-validation'

const specPath = new FieldPath('spec')
/** A CronJob's Jobs are named `<cronjob>-<minutes since the epoch>`: 11 more characters within a 63-character name. */
const MAX_NAME_LENGTH = 63 - 11
/** IANA's rules for a zone name's parts, with the digits and + that legacy names use. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/

function validateSchedule(schedule: string, allowTZ: boolean, timeZone: string | undefined): FieldError[] {
  const at = specPath.child('schedule').toString()
  const errs: FieldError[] = []
  const parsed = parseCronSchedule(schedule)
  if (!parsed.ok) errs.push(fieldError.invalid(at, schedule, parsed.message))
  if (allowTZ && schedule.includes('TZ') && timeZone !== undefined)
    errs.push(fieldError.invalid(at, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'))
  else if (!allowTZ && schedule.includes('TZ'))
    errs.push(fieldError.invalid(at, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'))
  return errs
}

/** validateTimeZone: a non-empty, explicit IANA name that loads. */
function validateTimeZone(timeZone: string | undefined): FieldError[] {
  if (timeZone === undefined) return []
  const at = specPath.child('timeZone').toString()
  if (timeZone.length === 0) return [fieldError.invalid(at, timeZone, 'timeZone must be nil or non-empty string')]
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part))
      return [fieldError.invalid(at, timeZone, `unknown time zone ${timeZone}`)]
  }
  const errs: FieldError[] = []
  if (timeZone.toLowerCase() === 'local')
    errs.push(
      fieldError.invalid(
        at,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    )
  const loaded = loadLocation(timeZone)
  if (!loaded.ok) errs.push(fieldError.invalid(at, timeZone, loaded.message))
  return errs
}

function validateConcurrencyPolicy(policy: string | undefined): FieldError[] {
  const at = specPath.child('concurrencyPolicy').toString()
  const supported = ['Allow', 'Forbid', 'Replace']
  if (policy === undefined || policy === '') return [fieldError.required(at)]
  return supported.includes(policy) ? [] : [fieldError.notSupported(at, policy, supported)]
}

/** validateCronJobSpec (old: the stored spec on update). */
function validateCronJobSpec(spec: CronJobSpec, old: CronJobSpec | null): FieldError[] {
  const errs: FieldError[] = []
  if (!spec.schedule) errs.push(fieldError.required(specPath.child('schedule').toString()))
  else errs.push(...validateSchedule(spec.schedule, old?.schedule.includes('TZ') ?? false, spec.timeZone))
  if (spec.startingDeadlineSeconds !== undefined)
    errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, specPath.child('startingDeadlineSeconds')))
  if (old === null || old.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone))
  errs.push(...validateConcurrencyPolicy(spec.concurrencyPolicy))
  // ValidateJobTemplateSpec: the Job's fields; the selector is always generated for the Jobs it makes.
  const templatePath = specPath.child('jobTemplate').child('spec')
  const jobSpec = spec.jobTemplate?.spec ?? ({} as JobSpec)
  errs.push(...validateJobSpecFields(jobSpec, templatePath))
  if (jobSpec.selector)
    errs.push(
      invalidGo(
        templatePath.child('selector').toString(),
        goLabelSelector(jobSpec.selector),
        '`selector` will be auto-generated',
      ),
    )
  if (jobSpec.manualSelector === true)
    errs.push(fieldError.notSupported(templatePath.child('manualSelector').toString(), true, ['nil', 'false']))
  for (const k of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    if (spec[k] !== undefined) errs.push(...validateNonnegativeField(spec[k], specPath.child(k)))
  }
  return errs
}

const cronJobTable: TableConvertor<CronJobObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: NAME_DOC,
      priority: 0,
    },
    {
      name: 'Schedule',
      type: 'string',
      format: '',
      description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
      priority: 0,
    },
    {
      name: 'Timezone',
      type: 'string',
      format: '',
      description:
        'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
      priority: 0,
    },
    {
      name: 'Suspend',
      type: 'boolean',
      format: '',
      description:
        'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
      priority: 0,
    },
    {
      name: 'Active',
      type: 'integer',
      format: '',
      description: 'A list of pointers to currently running jobs.',
      priority: 0,
    },
    {
      name: 'Last Schedule',
      type: 'string',
      format: '',
      description: 'Information when was the last time the job was successfully scheduled.',
      priority: 0,
    },
    {
      name: 'Age',
      type: 'string',
      format: '',
      description: CREATION_DOC,
      priority: 0,
    },
    {
      name: 'Containers',
      type: 'string',
      format: '',
      description: 'Names of each container in the template.',
      priority: 1,
    },
    {
      name: 'Images',
      type: 'string',
      format: '',
      description: 'Images referenced by each container in the template.',
      priority: 1,
    },
    {
      name: 'Selector',
      type: 'string',
      format: '',
      description:
        'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      priority: 1,
    },
  ],
  cells(cj, now) {
    const template = cj.spec?.jobTemplate?.spec
    const [names, images] = containerCells(template?.template)
    const suspend = cj.spec?.suspend
    return [
      cj.metadata.name,
      cj.spec?.schedule ?? '',
      cj.spec?.timeZone ?? '<none>',
      suspend === undefined ? '<unset>' : suspend ? 'True' : 'False',
      ((cj.status ?? {}) as CronJobStatus).active?.length ?? 0,
      cj.status?.lastScheduleTime ? age(cj.status.lastScheduleTime, now) : '<none>',
      age(cj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(template?.selector),
    ]
  },
}

export const cronJobStrategy: Strategy<CronJobObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(cj) {
    const spec = (cj.spec ??= { schedule: '', jobTemplate: {} })
    if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow'
    spec.suspend ??= false
    spec.successfulJobsHistoryLimit ??= 3
    spec.failedJobsHistoryLimit ??= 1
    const jobSpec = ((spec.jobTemplate ??= {}).spec ??= {} as JobSpec)
    applyTemplateDefaults((jobSpec.template ??= {}))
  },
  prepareForCreate(cj) {
    cj.status = {}
    cj.metadata.generation = 1
  },
  validate(cj) {
    const errs = validateCronJobSpec(cj.spec!, null)
    const name = cj.metadata.name ?? ''
    if (name.length > MAX_NAME_LENGTH)
      errs.push(fieldError.invalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`))
    return errs
  },
  prepareForUpdate(cj, old) {
    cj.status = old.status
    const generation = old.metadata.generation ?? 1
    cj.metadata.generation = deepEqual(cj.spec, old.spec) ? generation : generation + 1
  },
  // The 52-character limit applies on create only, so older CronJobs with longer names stay writable.
  validateUpdate: (cj, old) => validateCronJobSpec(cj.spec!, old.spec ?? null),
  selectableFields: (cj) => ({
    'metadata.name': cj.metadata.name ?? '',
    'metadata.namespace': cj.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: cronJobTable,
}
