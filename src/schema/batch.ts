// batch/v1 Job and CronJob with the parts they are made of (pod failure and success policies, conditions, the job
// template), fields in the order of k8s.io/api batch/v1/types.go (release-1.33), list metadata from its tags.
import { z } from 'zod'
import { ObjectMeta, Time, int32, int64 } from './meta'
import { ObjectReference } from './object-reference'
import { LabelSelector } from './pod-common'
import { PodTemplateSpec } from './replication-controller'
import { atomic, set } from './schema-helpers'

const gvk = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: 'batch', version: 'v1', kind }] })

export const PodFailurePolicyOnExitCodesRequirement = z
  .strictObject({
    containerName: z
      .string()
      .optional()
      .describe('Only the container (or init container) of this name is checked; every one when unset'),
    operator: z.string().describe('In or NotIn: how the exit code relates to the values'),
    values: z
      .array(int32)
      .describe('Exit codes to compare with, ordered and without duplicates; 0 is not allowed with In')
      .meta(set),
  })
  .describe('Matches a failed pod by the exit codes of its terminated containers')

export const PodFailurePolicyOnPodConditionsPattern = z
  .strictObject({
    type: z.string().describe('Pod condition type to look for'),
    status: z.string().describe('Status the condition must have; True by default'),
  })
  .describe('Matches a failed pod by one of its conditions')

export const PodFailurePolicyRule = z
  .strictObject({
    action: z.string().describe('What a match does: FailJob, FailIndex, Ignore or Count'),
    onExitCodes: PodFailurePolicyOnExitCodesRequirement.optional().describe('The container exit codes to match'),
    onPodConditions: z
      .array(PodFailurePolicyOnPodConditionsPattern)
      .optional()
      .describe('The pod conditions to match; any one of them is enough')
      .meta(atomic),
  })
  .describe('One rule of a pod failure policy; exactly one of onExitCodes and onPodConditions is set')

export const PodFailurePolicy = z
  .strictObject({
    rules: z
      .array(PodFailurePolicyRule)
      .describe('Rules tried in order against each failed pod; the first match decides (at most 20)')
      .meta(atomic),
  })
  .describe('How failed pods count against the Job')

export const SuccessPolicyRule = z
  .strictObject({
    succeededIndexes: z
      .string()
      .optional()
      .describe('Indexes that must succeed, as intervals such as 1,3-5 below completions'),
    succeededCount: int32.optional().describe('How many of those indexes (or of all) must succeed'),
  })
  .describe('A rule declaring an Indexed Job succeeded')

export const SuccessPolicy = z
  .strictObject({
    rules: z.array(SuccessPolicyRule).describe('Any rule met makes the Job succeed (at most 20)').meta(atomic),
  })
  .describe('When an Indexed Job counts as succeeded before all its indexes do')

export const JobSpec = z
  .strictObject({
    parallelism: int32.optional().describe('Most pods running at any time; 1 by default'),
    completions: int32
      .optional()
      .describe('Successful pods needed; unset: any success completes the Job once no pod is running'),
    activeDeadlineSeconds: int64.optional().describe('Seconds the Job may be active before it is failed'),
    podFailurePolicy: PodFailurePolicy.optional().describe('How pod failures are handled'),
    successPolicy: SuccessPolicy.optional().describe('When an Indexed Job is declared succeeded'),
    backoffLimit: int32.optional().describe('Retries before the Job is failed; 6 by default'),
    backoffLimitPerIndex: int32.optional().describe('Retries per index of an Indexed Job'),
    maxFailedIndexes: int32.optional().describe('Failed indexes tolerated before the Job is failed'),
    selector: LabelSelector.optional().describe(
      'Label query over the pods of the Job; generated unless manualSelector',
    ),
    manualSelector: z.boolean().optional().describe('Whether the selector and pod labels are chosen by the caller'),
    template: PodTemplateSpec.describe('The pods the Job runs'),
    ttlSecondsAfterFinished: int32
      .optional()
      .describe('Seconds after the Job finishes before it is deleted, with its pods'),
    completionMode: z.string().optional().describe('NonIndexed (default) or Indexed: pods get a completion index'),
    suspend: z.boolean().optional().describe('Whether the Job is paused: no pods run while it is'),
    podReplacementPolicy: z
      .string()
      .optional()
      .describe('When a replacement pod is made: TerminatingOrFailed (default) or Failed'),
    managedBy: z.string().optional().describe('The controller that manages the Job; the built-in one when unset'),
  })
  .describe('What a Job runs and how')

export const JobCondition = z
  .strictObject({
    type: z.string().describe('Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet'),
    status: z.string().describe('True, False or Unknown'),
    lastProbeTime: Time.optional().describe('When the condition was last checked'),
    lastTransitionTime: Time.optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Why the condition last changed, in one word'),
    message: z.string().optional().describe('Why the condition last changed, for people'),
  })
  .describe('An observation about a Job')

export const UncountedTerminatedPods = z
  .strictObject({
    succeeded: z.array(z.string()).optional().describe('UIDs of succeeded pods not yet counted').meta(set),
    failed: z.array(z.string()).optional().describe('UIDs of failed pods not yet counted').meta(set),
  })
  .describe('Finished pods the controller has seen but not yet added to the counters')

export const JobStatus = z
  .strictObject({
    conditions: z
      .array(JobCondition)
      .optional()
      .describe('Latest observations of the Job')
      .meta({ 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge', ...atomic }),
    startTime: Time.optional().describe('When the controller started the Job (reset when it is resumed)'),
    completionTime: Time.optional().describe('When the Job completed; unset for a failed Job'),
    active: int32.optional().describe('Pods pending or running'),
    succeeded: int32.optional().describe('Pods that succeeded'),
    failed: int32.optional().describe('Pods that failed'),
    terminating: int32.optional().describe('Pods being deleted that have not stopped yet'),
    completedIndexes: z.string().optional().describe('Succeeded indexes of an Indexed Job, as intervals'),
    failedIndexes: z.string().optional().describe('Failed indexes of a Job with backoffLimitPerIndex'),
    uncountedTerminatedPods: UncountedTerminatedPods.optional().describe('Finished pods not yet in the counters'),
    ready: int32.optional().describe('Active pods that are ready'),
  })
  .describe('What the Job controller observed')

export const Job = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Job'),
    apiVersion: z.string().optional().describe('Schema version of this object: batch/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: JobSpec.optional().describe('What the Job runs'),
    status: JobStatus.optional().describe('Observed state, written by the Job controller'),
  })
  .describe('Runs pods to completion')
  .meta(gvk('Job'))
export type Job = z.infer<typeof Job>
export type JobSpec = z.infer<typeof JobSpec>
export type JobStatus = z.infer<typeof JobStatus>
export type JobCondition = z.infer<typeof JobCondition>

export const JobTemplateSpec = z
  .strictObject({
    metadata: ObjectMeta.optional().describe('Metadata of the Jobs created from this template'),
    spec: JobSpec.optional().describe('Spec of the Jobs created from this template'),
  })
  .describe('Describes the Jobs a CronJob creates')

export const CronJobSpec = z
  .strictObject({
    schedule: z.string().describe('When Jobs start, in cron syntax (five fields, or @hourly and the like)'),
    timeZone: z.string().optional().describe('IANA time zone the schedule is read in; UTC when unset'),
    startingDeadlineSeconds: int64.optional().describe('Seconds after a missed time within which a Job still starts'),
    concurrencyPolicy: z.string().optional().describe('Allow (default), Forbid or Replace overlapping Jobs'),
    suspend: z.boolean().optional().describe('Whether later executions are held back'),
    jobTemplate: JobTemplateSpec.describe('The Job each execution creates'),
    successfulJobsHistoryLimit: int32.optional().describe('Completed Jobs kept; 3 by default'),
    failedJobsHistoryLimit: int32.optional().describe('Failed Jobs kept; 1 by default'),
  })
  .describe('When and how a CronJob runs its Jobs')

export const CronJobStatus = z
  .strictObject({
    active: z.array(ObjectReference).optional().describe('The Jobs running now').meta(atomic),
    lastScheduleTime: Time.optional().describe('When a Job was last scheduled'),
    lastSuccessfulTime: Time.optional().describe('When a Job last completed'),
  })
  .describe('What the CronJob controller observed')

export const CronJob = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: CronJob'),
    apiVersion: z.string().optional().describe('Schema version of this object: batch/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: CronJobSpec.optional().describe('The schedule and the Job to run'),
    status: CronJobStatus.optional().describe('Observed state, written by the CronJob controller'),
  })
  .describe('Runs a Job on a schedule')
  .meta(gvk('CronJob'))
export type CronJob = z.infer<typeof CronJob>
export type CronJobSpec = z.infer<typeof CronJobSpec>
export type CronJobStatus = z.infer<typeof CronJobStatus>
