// The names kube's batch API gives the labels, annotations and finalizer Jobs and CronJobs put on what they create
// (k8s.io/api batch/v1 types.go), and the object types the batch strategies and controllers share.
import type { CronJob, Job } from '../../schema/batch'
import type { ObjectMeta } from '../../schema/meta'

export type JobObject = Omit<Job, 'metadata'> & { metadata: ObjectMeta }
export type CronJobObject = Omit<CronJob, 'metadata'> & { metadata: ObjectMeta }

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid'
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name'
/** The unprefixed labels kube still sets beside the prefixed ones, for older selectors. */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid'
export const LEGACY_JOB_NAME_LABEL = 'job-name'
/** On every pod a Job creates, until the Job controller has counted it. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking'
/** Annotation and (PodIndexLabel) label carrying an Indexed Job pod's index. */
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index'
/** The value of spec.managedBy that means kube's own Job controller. */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller'
/** The scheduled time of a CronJob's Job, RFC 3339 in the CronJob's time zone. */
export const CRONJOB_SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp'
