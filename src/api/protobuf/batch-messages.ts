// Protobuf message descriptors of batch/v1 Job and CronJob (`kubectl create job` and `kubectl create cronjob`, and
// `kubectl create job --from=cronjob/x`, send them as application/vnd.kubernetes.protobuf), per k8s.io/api batch/v1
// generated.proto (release-1.33), in ./messages.ts's notation; that file spreads these tables into its own.

export const BATCH_MESSAGES: Record<string, Record<number, string>> = {
  Job: { 1: 'metadata:ObjectMeta', 2: 'spec:JobSpec', 3: 'status:JobStatus' },
  JobSpec: {
    1: 'parallelism:int32!',
    2: 'completions:int32!',
    3: 'activeDeadlineSeconds:int64!',
    11: 'podFailurePolicy:PodFailurePolicy',
    16: 'successPolicy:SuccessPolicy',
    7: 'backoffLimit:int32!',
    12: 'backoffLimitPerIndex:int32!',
    13: 'maxFailedIndexes:int32!',
    4: 'selector:LabelSelector',
    5: 'manualSelector:bool!',
    6: 'template:PodTemplateSpec',
    8: 'ttlSecondsAfterFinished:int32!',
    9: 'completionMode:string!',
    10: 'suspend:bool!',
    14: 'podReplacementPolicy:string!',
    15: 'managedBy:string!',
  },
  PodFailurePolicy: { 1: 'rules:[]PodFailurePolicyRule' },
  PodFailurePolicyRule: {
    1: 'action:string!',
    2: 'onExitCodes:PodFailurePolicyOnExitCodesRequirement',
    3: 'onPodConditions:[]PodFailurePolicyOnPodConditionsPattern',
  },
  PodFailurePolicyOnExitCodesRequirement: { 1: 'containerName:string!', 2: 'operator:string!', 3: 'values:[]int32' },
  PodFailurePolicyOnPodConditionsPattern: { 1: 'type:string!', 2: 'status:string!' },
  SuccessPolicy: { 1: 'rules:[]SuccessPolicyRule' },
  SuccessPolicyRule: { 1: 'succeededIndexes:string!', 2: 'succeededCount:int32!' },
  JobStatus: {
    1: 'conditions:[]JobCondition',
    2: 'startTime:Time',
    3: 'completionTime:Time',
    4: 'active:int32',
    5: 'succeeded:int32',
    6: 'failed:int32',
    11: 'terminating:int32!',
    7: 'completedIndexes:string',
    10: 'failedIndexes:string!',
    8: 'uncountedTerminatedPods:UncountedTerminatedPods',
    9: 'ready:int32!',
  },
  JobCondition: {
    1: 'type:string!',
    2: 'status:string!',
    3: 'lastProbeTime:Time',
    4: 'lastTransitionTime:Time',
    5: 'reason:string',
    6: 'message:string',
  },
  UncountedTerminatedPods: { 1: 'succeeded:[]string', 2: 'failed:[]string' },
  JobTemplateSpec: { 1: 'metadata:ObjectMeta', 2: 'spec:JobSpec' },
  CronJob: { 1: 'metadata:ObjectMeta', 2: 'spec:CronJobSpec', 3: 'status:CronJobStatus' },
  CronJobSpec: {
    1: 'schedule:string!',
    8: 'timeZone:string!',
    2: 'startingDeadlineSeconds:int64!',
    3: 'concurrencyPolicy:string',
    4: 'suspend:bool!',
    5: 'jobTemplate:JobTemplateSpec',
    6: 'successfulJobsHistoryLimit:int32!',
    7: 'failedJobsHistoryLimit:int32!',
  },
  CronJobStatus: {
    1: 'active:[]ObjectReference',
    4: 'lastScheduleTime:Time',
    5: 'lastSuccessfulTime:Time',
  },
}

/** Top-level message per "apiVersion kind". */
export const BATCH_KINDS: Record<string, string> = {
  'batch/v1 Job': 'Job',
  'batch/v1 CronJob': 'CronJob',
}
