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
import {
  addCompletionIndexEnv,
  firstPendingIndexes,
  indexedPodsForRemoval,
  matchSuccessPolicy,
  withCompletionIndex,
} from '../registry/batch/indexed-job'
import { ensureCondition, isJobFinished, newCondition } from '../registry/batch/job-conditions'
import { JOB_CONTROLLER_NAME, JOB_TRACKING_FINALIZER, type JobObject } from '../registry/batch/job-labels'
import {
  type BackoffRecord,
  backoffRemaining,
  completionIndex,
  hasTrackingFinalizer,
  isPodFailed,
  isTerminating,
  matchPodFailurePolicy,
  nextBackoffRecord,
  onlyReplaceFailedPods,
  pastBackoffLimitOnFailure,
} from '../registry/batch/job-pods'
import { rfc3339 } from '../registry/time'
import { deletePods, JOB_COMPONENT } from './job-pod-control'
import { type JobSyncContext, trackJobStatus } from './job-tracking'
import { CONTROLLER_MANAGER, deletionRank, isActive, isReady, ownerReference, podFromTemplate } from './pod-owner'

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
  if (indexed) {
    prevSucceededIndexes = parseIndexes(status.completedIndexes, completions ?? 0)
    const done = pods
      .filter((p) => (p as Obj).status?.phase === 'Succeeded' && validIndex(p) && hasTrackingFinalizer(p))
      .map(completionIndex)
    succeededIndexes = withIndexes(prevSucceededIndexes, done)
    succeeded = intervalsTotal(succeededIndexes)
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
      const m = await manageJob({ ...deps, job, succeeded, terminating, backoff, succeededIndexes })
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
    terminating,
    flushed: () => deps.backoff.set(uid, backoff),
  }
  await trackJobStatus(ctx, needsFlush)
  return wake
}

interface ManageInput extends Omit<JobSyncDeps, 'backoff'> {
  job: JobObject
  succeeded: number
  terminating: number
  backoff: BackoffRecord
  succeededIndexes: Interval[]
}

/** manageJob: answers the active pods after its creations and deletions, and when to come back (a back-off). */
async function manageJob(m: ManageInput) {
  const { host, job, now } = m
  const spec = job.spec!
  const active = m.pods.filter(isActive)
  const parallelism = spec.parallelism ?? 1
  const none = { active: active.length, terminated: 0, terminatedReady: 0, wake: null as number | null }
  if (spec.suspend === true) {
    const r = await deletePods(host, job, active, true)
    return { ...none, active: active.length - r.deleted, terminated: r.deleted, terminatedReady: r.ready }
  }
  const completions = spec.completions
  const want =
    completions === undefined
      ? m.succeeded > 0
        ? active.length
        : parallelism
      : Math.max(0, Math.min(parallelism, completions - m.succeeded))
  const atLeast = Math.max(0, active.length - want)
  const toDelete =
    spec.completionMode === 'Indexed'
      ? indexedPodsForRemoval(active, atLeast, completions ?? 0, deletionRank)
      : [...active].sort(deletionRank).slice(0, atLeast)
  if (toDelete.length > 0) {
    // Deletion takes precedence: a sync either deletes or creates.
    const r = await deletePods(host, job, toDelete, true)
    return { ...none, active: active.length - r.deleted, terminated: r.deleted, terminatedReady: r.ready }
  }
  const terminating = onlyReplaceFailedPods(spec) ? m.terminating : 0
  let diff = want - terminating - active.length
  if (diff <= 0) return none
  const remaining = spec.backoffLimitPerIndex === undefined ? backoffRemaining(m.backoff, now) : 0
  // kube reports no active pods while it waits out a back-off.
  if (remaining > 0) return { ...none, active: 0, wake: now + remaining }
  if (!m.canCreate) return none
  const indexes =
    spec.completionMode === 'Indexed' ? firstPendingIndexes(m.succeededIndexes, active, diff, completions ?? 0) : []
  if (spec.completionMode === 'Indexed') diff = indexes.length
  const template = structuredClone(spec.template ?? {})
  if (spec.completionMode === 'Indexed') addCompletionIndexEnv(template)
  const meta = (template.metadata ??= {})
  if (!(meta.finalizers ?? []).includes(JOB_TRACKING_FINALIZER))
    meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER]
  const ref = ownerReference(job, 'batch/v1', 'Job')
  let created = 0
  // Slow start: batches of 1, 2, 4... stop at the first failure, so a template that cannot work fails once.
  for (let batch = 1, left = diff; left > 0; left -= batch, batch *= 2) {
    const size = Math.min(batch, left)
    const results = await Promise.all(
      Array.from({ length: size }, async () => {
        const index = indexes.shift()
        const t = index === undefined ? template : withCompletionIndex(template, job.metadata.name!, index)
        const prefix = index === undefined ? `${job.metadata.name}-` : `${job.metadata.name}-${index}-`
        const pod = podFromTemplate(t, ref, '', prefix)
        delete pod.metadata.name
        const r = await host.create('pods', pod, { fieldManager: CONTROLLER_MANAGER })
        if (r.ok) {
          await event(host, job, 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.object.metadata.name}`)
          return true
        }
        // A namespace being torn down refuses every create: nothing to report.
        if (r.status.code !== 403)
          await event(host, job, 'Warning', 'FailedCreate', `Error creating: ${r.status.message}`)
        return false
      }),
    )
    created += results.filter(Boolean).length
    if (results.includes(false)) break
  }
  return { ...none, active: active.length + created }
}
