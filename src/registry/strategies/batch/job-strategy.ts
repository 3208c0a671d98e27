// The batch/v1 Job strategy: SetDefaults_Job (completions and parallelism, backoffLimit, completionMode, suspend,
// podReplacementPolicy, manualSelector, labels from the template), the selector kube generates from the Job's uid and
// name, status kept from the stored object, generation bumped on spec changes, kube's validation, the `status.successful`
// field selector and the `kubectl get jobs` table (1.33's STATUS, COMPLETIONS, DURATION columns).
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { JobSpec } from '../../../schema/batch'
import type { Strategy, TableConvertor } from '../../strategy'
import { deepEqual } from '../../deep-equal'
import { age, humanDuration } from '../../human-duration'
import { nameIsDNSSubdomain } from '../../validation/names'
import {
  CONTROLLER_UID_LABEL,
  JOB_NAME_LABEL,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  type JobObject,
} from '../../batch/job-labels'
import { formatLabelSelector } from '../apps/apps-selector'
import { applyTemplateDefaults, containerCells } from '../pod-template'
import { validateJobStatusUpdate } from './job-status-validation'
import { validateJobUpdate } from './job-update-validation'
import { validateJob } from './job-validation'

const INT32_MAX = 2147483647

/** SetDefaults_Job (batch/v1), JobPodReplacementPolicy on, and the pod template's defaults. */
function applyJobDefaults(job: JobObject) {
  const spec = (job.spec ??= {} as JobSpec)
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1
    spec.parallelism = 1
  }
  spec.parallelism ??= 1
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? INT32_MAX : 6
  const templateLabels = spec.template?.metadata?.labels
  if (templateLabels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...templateLabels }
  spec.completionMode ??= 'NonIndexed'
  spec.suspend ??= false
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) if (!pattern.status) pattern.status = 'True'
  }
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed'
  spec.manualSelector ??= false
  applyTemplateDefaults((spec.template ??= {}))
}

/**
 * generateSelector: the template gets the job-name and controller-uid labels (prefixed and legacy) unless it has them,
 * and the selector matches the prefixed controller-uid. A conflicting value the caller set is left for validation.
 */
function generateSelector(job: JobObject) {
  const spec = job.spec!
  const template = (spec.template ??= {})
  const labels = ((template.metadata ??= {}).labels ??= {})
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL])
    if (!Object.hasOwn(labels, key)) labels[key] = job.metadata.name ?? ''
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL])
    if (!Object.hasOwn(labels, key)) labels[key] = job.metadata.uid ?? ''
  const selector = (spec.selector ??= {})
  const matchLabels = (selector.matchLabels ??= {})
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = job.metadata.uid ?? ''
}

const hasCondition = (job: JobObject, type: string) =>
  (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True')

/** printJob's STATUS: the terminal condition, else Terminating, Suspended, FailureTarget or Running. */
function jobStatusCell(job: JobObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete'
  if (hasCondition(job, 'Failed')) return 'Failed'
  if (job.metadata.deletionTimestamp) return 'Terminating'
  if (hasCondition(job, 'Suspended')) return 'Suspended'
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget'
  return 'Running'
}

function completionsCell(job: JobObject): string {
  const succeeded = job.status?.succeeded ?? 0
  const completions = job.spec?.completions
  if (completions !== undefined) return `${succeeded}/${completions}`
  const parallelism = job.spec?.parallelism ?? 0
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`
}

function durationCell(job: JobObject, now: Date): string {
  const start = job.status?.startTime
  if (!start) return ''
  const end = job.status?.completionTime
  return humanDuration((end ? Date.parse(end) : now.getTime()) - Date.parse(start))
}

const jobTable: TableConvertor<JobObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: NAME_DOC,
      priority: 0,
    },
    { name: 'Status', type: 'string', format: '', description: 'Status of the job.', priority: 0 },
    {
      name: 'Completions',
      type: 'string',
      format: '',
      description:
        'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
      priority: 0,
    },
    { name: 'Duration', type: 'string', format: '', description: 'Time required to complete the job.', priority: 0 },
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
  cells(job, now) {
    const [names, images] = containerCells(job.spec?.template)
    return [
      job.metadata.name,
      jobStatusCell(job),
      completionsCell(job),
      durationCell(job, now),
      age(job.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(job.spec?.selector),
    ]
  },
}

/** Whether an update must see the prefixed labels: only when the stored template already had them. */
const hadPrefixedLabels = (old: JobObject) => {
  const labels = old.spec?.template?.metadata?.labels ?? {}
  return Object.hasOwn(labels, JOB_NAME_LABEL) && Object.hasOwn(labels, CONTROLLER_UID_LABEL)
}

export const jobStrategy: Strategy<JobObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: applyJobDefaults,
  prepareForCreate(job) {
    const before = job.spec?.template?.metadata?.labels
    const labelsFromTemplate =
      Object.keys(job.metadata.labels ?? {}).length === 0 || deepEqual(job.metadata.labels, before)
    if (job.spec?.manualSelector !== true) generateSelector(job)
    // kube's defaulting shares the template's label map with the Job's (or copies it when the stored Job is read back),
    // so a Job that took its labels from the template carries the generated ones too.
    const labels = job.spec?.template?.metadata?.labels
    if (labelsFromTemplate && labels && Object.keys(labels).length > 0) job.metadata.labels = { ...labels }
    job.status = {}
    job.metadata.generation = 1
  },
  validate: (job) => validateJob(job),
  prepareForUpdate(job, old) {
    job.status = old.status
    const generation = old.metadata.generation ?? 1
    job.metadata.generation = deepEqual(job.spec, old.spec) ? generation : generation + 1
  },
  validateUpdate: (job, old) => [...validateJob(job, hadPrefixedLabels(old)), ...validateJobUpdate(job, old)],
  validateStatusUpdate: validateJobStatusUpdate,
  selectableFields: (job) => ({
    'metadata.name': job.metadata.name ?? '',
    'metadata.namespace': job.metadata.namespace ?? '',
    'status.successful': String(job.status?.succeeded ?? 0),
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace', 'status.successful'],
  allowUnconditionalUpdate: true,
  table: jobTable,
}
