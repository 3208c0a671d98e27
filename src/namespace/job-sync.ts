// One sync of one Job, as kube's job controller's syncJob and manageJob do it: count the pods (new successes and
// failures, failures the pod failure policy ignores left out), decide whether the Job has failed (pod failure policy,
// backoffLimit, activeDeadlineSeconds) or succeeded (completions, success policy), otherwise keep `parallelism` pods
// running (within the completions still needed, after the back-off since the last failure, Indexed pods on the
// lowest pending indexes), delete pods of a suspended or finished Job, keep the Suspended condition, then count and
// finish (job-tracking.ts). Answers when it wants to be woken again (a deadline, a back-off), or null.
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { JobCondition, JobSpec } from '../schema/batch'
import type { KubeObject } from '../schema/meta'
import { type Interval, intervalsTotal, parseIndexes, withIndexes } from '../registry/batch/index-intervals'
import { matchSuccessPolicy } from '../registry/batch/indexed-job'
import { ensureCondition, isJobFinished, newCondition } from '../registry/batch/job-conditions'
import { JOB_CONTROLLER_NAME, type JobObject } from '../registry/batch/job-labels'
import {
  type BackoffRecord,
  completionIndex,
  hasTrackingFinalizer,
  isPodFailed,
  isTerminating,
  matchPodFailurePolicy,
  nextBackoffRecord,
  pastBackoffLimitOnFailure,
} from '../registry/batch/job-pods'
import { rfc3339 } from '../registry/time'
import { deletePods, JOB_COMPONENT } from './job-pod-control'
import { delayedDeletions, failedIndexes } from '../registry/batch/backoff-per-index'
import { manageJob } from './job-manage'
import { type JobSyncContext, trackJobStatus } from './job-tracking'
import { isActive, isReady } from './pod-owner'

type Obj = Record<string, any>

interface JobSyncDeps {
  host: ControllerHost
  now: number
  /** Whether pods may be created (a terminating namespace gets none). */
  canCreate: boolean
  /** Back-off records by Job uid (kube keeps them in memory too: a restart forgets them). */
  backoff: Map<string, BackoffRecord>
  /** The Job's pods, claimed. */
  pods: KubeObject[]
  /** Told when a pod create was refused (the Job is synced again after kube's rate-limited backoff). */
  refused?(): void
}

const NO_BACKOFF: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureTime: null }

const event = (host: ControllerHost, job: JobObject, type: 'Normal' | 'Warning', reason: string, message: string) =>
  recordEvent(host, job, { type, reason, message, component: JOB_COMPONENT })

/** syncJob: answers when the Job wants to be synced again (ms since the epoch), or null. */
export async function syncJob(deps: JobSyncDeps, stored: KubeObject): Promise<number | null> {
  const { host, now, pods } = deps
  const job = structuredClone(stored) as JobObject
  const spec = job.spec ?? ({} as JobSpec)
  const uid = job.metadata.uid!
  if (spec.managedBy !== undefined && spec.managedBy !== JOB_CONTROLLER_NAME) return null
  if (isJobFinished(job.status)) {
    deps.backoff.delete(uid)
    return null
  }
  if (spec.completionMode !== undefined && spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
    await event(host, job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown')
    return null
  }
  const status = (job.status ??= {})
  status.uncountedTerminatedPods ??= {}
  const uncountedSucceeded = new Set(status.uncountedTerminatedPods.succeeded ?? [])
  const uncountedFailed = new Set(status.uncountedTerminatedPods.failed ?? [])
  const indexed = spec.completionMode === 'Indexed'
  const completions = spec.completions
  const validIndex = (p: KubeObject) => !indexed || (completionIndex(p) >= 0 && completionIndex(p) < (completions ?? 0))
  const active = pods.filter(isActive)
  let ready = active.filter(isReady).length
  let terminating = pods.filter(isTerminating).length
  // getNewFinishedPods: finished pods not yet recorded (pods without the finalizer are counted already).
  const fresh = (p: KubeObject, recorded: Set<string>) =>
    hasTrackingFinalizer(p) && !recorded.has(p.metadata.uid!) && validIndex(p)
  const newSucceeded = pods.filter((p) => fresh(p, uncountedSucceeded) && (p as Obj).status?.phase === 'Succeeded')
  const newFailed = pods.filter((p) => fresh(p, uncountedFailed) && isPodFailed(p, spec))
  let succeeded = (status.succeeded ?? 0) + newSucceeded.length + uncountedSucceeded.size
  const failed =
    (status.failed ?? 0) +
    newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).count).length +
    uncountedFailed.size
  const suspended = spec.suspend === true
  if (status.startTime === undefined && !suspended) status.startTime = rfc3339(new Date(now))
  const backoff = nextBackoffRecord(deps.backoff.get(uid) ?? NO_BACKOFF, newSucceeded, newFailed)
  let wake: number | null = null

  let finished: JobCondition | null =
    (status.conditions ?? []).find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True') ?? null
  if (!finished) {
    const target = (status.conditions ?? []).find((c) => c.type === 'FailureTarget' && c.status === 'True')
    if (target) finished = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now)
    else {
      const failJob = pods
        .filter((p) => isPodFailed(p, spec))
        .map((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).failJob)
        .find((m) => m !== undefined)
      if (failJob) finished = newCondition('FailureTarget', 'True', 'PodFailurePolicy', failJob, now)
    }
  }
  if (!finished) {
    const deadline = spec.activeDeadlineSeconds
    const started = status.startTime ? Date.parse(status.startTime) : null
    if (failed > (spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(spec, pods)) {
      finished = newCondition(
        'FailureTarget',
        'True',
        'BackoffLimitExceeded',
        'Job has reached the specified backoff limit',
        now,
      )
    } else if (deadline !== undefined && started !== null && !suspended && now - started >= deadline * 1000) {
      finished = newCondition(
        'FailureTarget',
        'True',
        'DeadlineExceeded',
        'Job was active longer than specified deadline',
        now,
      )
    } else if (deadline !== undefined && started !== null && !suspended) wake = started + deadline * 1000
  }
  let prevSucceededIndexes: Interval[] = []
  let succeededIndexes = prevSucceededIndexes
  // backoffLimitPerIndex: the failed indexes, and per index the failed pod whose finalizer waits for its replacement.
  let failed_: Interval[] | null = null
  let delayed = new Map<number, KubeObject>()
  if (indexed) {
    prevSucceededIndexes = parseIndexes(status.completedIndexes, completions ?? 0)
    const done = pods
      .filter((p) => (p as Obj).status?.phase === 'Succeeded' && validIndex(p) && hasTrackingFinalizer(p))
      .map(completionIndex)
    succeededIndexes = withIndexes(prevSucceededIndexes, done)
    succeeded = intervalsTotal(succeededIndexes)
    if (spec.backoffLimitPerIndex !== undefined) {
      failed_ = failedIndexes(spec, status.failedIndexes, pods)
      const failedCount = intervalsTotal(failed_)
      if (!finished && spec.maxFailedIndexes !== undefined && failedCount > spec.maxFailedIndexes)
        finished = newCondition(
          'FailureTarget',
          'True',
          'MaxFailedIndexesExceeded',
          'Job has exceeded the specified maximal number of failed indexes',
          now,
        )
      else if (!finished && failedCount > 0 && failedCount + succeeded >= (completions ?? 0))
        finished = newCondition('FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes', now)
      delayed = delayedDeletions(spec, pods, active, succeededIndexes, failed_)
    }
    if (!finished) {
      const matched = matchSuccessPolicy(spec, succeededIndexes)
      if (matched) finished = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', matched, now)
    }
  }

  let activeCount = active.length
  let suspendChanged = false
  if (finished) {
    // The Job is over: its active pods go (their finalizers stay until they are counted as failed).
    const r = await deletePods(host, job, active, false)
    if (r.deleted !== activeCount) finished = null
    activeCount -= r.deleted
    terminating += r.deleted
    ready -= r.ready
  } else {
    let managed = false
    if (!job.metadata.deletionTimestamp) {
      const m = await manageJob({
        ...deps,
        job,
        succeeded,
        terminating,
        backoff,
        succeededIndexes,
        failed: failed_,
        delayed,
      })
      activeCount = m.active
      terminating += m.terminated
      ready -= m.terminatedReady
      if (m.wake !== null) wake = wake === null ? m.wake : Math.min(wake, m.wake)
      managed = true
    }
    const complete =
      completions === undefined ? succeeded > 0 && activeCount === 0 : succeeded >= completions && activeCount === 0
    if (complete) {
      finished = newCondition(
        'SuccessCriteriaMet',
        'True',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
        now,
      )
    } else if (managed) {
      const [type, reason, message, eventReason] = suspended
        ? ['True', 'JobSuspended', 'Job suspended', 'Suspended']
        : ['False', 'JobResumed', 'Job resumed', 'Resumed']
      const r = ensureCondition(status.conditions ?? [], 'Suspended', type, reason, message, now)
      if (r.changed) {
        status.conditions = r.conditions
        suspendChanged = true
        await event(host, job, 'Normal', eventReason, message)
        // activeDeadlineSeconds counts the time a Job is continuously active: it starts again on resume.
        if (!suspended) status.startTime = rfc3339(new Date(now))
      }
    }
  }
  const needsFlush =
    suspendChanged ||
    activeCount !== (status.active ?? 0) ||
    ready !== status.ready ||
    terminating !== status.terminating
  status.active = activeCount
  status.ready = ready
  status.terminating = terminating
  const ctx: JobSyncContext = {
    host,
    now,
    job,
    pods,
    finished,
    prevSucceededIndexes,
    succeededIndexes,
    failedIndexes: failed_,
    delayed,
    terminating,
    flushed: () => deps.backoff.set(uid, backoff),
  }
  await trackJobStatus(ctx, needsFlush)
  return wake
}
