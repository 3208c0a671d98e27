// How kube's job controller counts finished pods and finishes a Job (trackJobStatusAndRemoveFinalizers and
// flushUncountedAndRemoveFinalizers): finished pods are first recorded in status.uncountedTerminatedPods (with the
// interim FailureTarget or SuccessCriteriaMet condition), then their batch.kubernetes.io/job-tracking finalizers are
// removed, then the counters take them over and, once nothing is uncounted or terminating, the Complete or Failed
// condition is set. Each step is a write through jobs/status or the pod, so a crash in between loses no pod.
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { JobCondition, JobStatus } from '../schema/batch'
import type { KubeObject } from '../schema/meta'
import {
  formatIntervals,
  type Interval,
  intervalsHas,
  intervalsTotal,
  withIndexes,
} from '../registry/batch/index-intervals'
import { conditionTrue, ensureCondition, newCondition } from '../registry/batch/job-conditions'
import type { JobObject } from '../registry/batch/job-labels'
import { completionIndex, hasTrackingFinalizer, isPodFailed, matchPodFailurePolicy } from '../registry/batch/job-pods'
import { CONTROLLER_MANAGER } from './pod-owner'
import { JOB_COMPONENT, removeFinalizer } from './job-pod-control'

type Obj = Record<string, any>

/** What one sync of a Job knows when it comes to count and finish (kube's syncJobCtx). */
export interface JobSyncContext {
  host: ControllerHost
  now: number
  /** A copy of the Job, whose status this sync edits and writes. */
  job: JobObject
  pods: KubeObject[]
  /** The condition that finishes the Job, once the pods are accounted for. */
  finished: JobCondition | null
  /** Succeeded indexes before this sync's pods, and with them (Indexed Jobs). */
  prevSucceededIndexes: Interval[]
  succeededIndexes: Interval[]
  /** backoffLimitPerIndex: the failed indexes (null without it), and the failed pods kept for their replacements. */
  failedIndexes: Interval[] | null
  delayed: Map<number, KubeObject>
  terminating: number
  /** Called once the status with this sync's newly finished pods is written (the back-off record moves on). */
  flushed(): void
}

const uidOf = (p: KubeObject) => p.metadata.uid ?? ''

/** The status as Go's encoder leaves it: zero counters and empty lists omitted; ready and terminating kept (pointers). */
function normalized(status: JobStatus): JobStatus {
  const s: JobStatus = structuredClone(status)
  for (const k of ['active', 'succeeded', 'failed'] as const) if (!s[k]) delete s[k]
  if (!s.completedIndexes) delete s.completedIndexes
  if (s.conditions && s.conditions.length === 0) delete s.conditions
  const u = s.uncountedTerminatedPods
  if (u) {
    if (!u.succeeded?.length) delete u.succeeded
    if (!u.failed?.length) delete u.failed
  }
  return s
}

/** The Job went away while it was being synced: nothing is left to do. */
export class JobGone extends Error {}

/** UpdateStatus: the Job's status replaced by ours, against the same Job (a new Job of the name is left alone). */
async function writeJobStatus(ctx: JobSyncContext): Promise<void> {
  const { host, job } = ctx
  const status = normalized(job.status ?? {})
  const r = await host.update(
    'jobs',
    job.metadata.name!,
    (current) => {
      if (current.metadata.uid !== job.metadata.uid) return null
      return { ...current, status }
    },
    { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
  )
  if ((!r.ok && r.status.code === 404) || (r.ok && r.value === null)) throw new JobGone()
  if (!r.ok) throw new Error(`updating the status of Job ${host.scope}/${job.metadata.name}: ${r.status.message}`)
  job.status = structuredClone(status)
}

/** cleanUncountedPodsWithoutFinalizers: uncounted pods whose finalizer is gone move into the counters. */
function countUncounted(status: JobStatus, withFinalizer: Set<string>): boolean {
  const u = (status.uncountedTerminatedPods ??= {})
  let changed = false
  for (const [list, counter] of [
    ['succeeded', 'succeeded'],
    ['failed', 'failed'],
  ] as const) {
    const before = u[list] ?? []
    const kept = before.filter((uid) => withFinalizer.has(uid))
    if (kept.length !== before.length) {
      changed = true
      status[counter] = (status[counter] ?? 0) + before.length - kept.length
      u[list] = kept
    }
  }
  return changed
}

/** trackJobStatusAndRemoveFinalizers. */
export async function trackJobStatus(ctx: JobSyncContext, needsFlushAtStart: boolean): Promise<void> {
  const { job, pods } = ctx
  const spec = job.spec!
  const status = (job.status ??= {})
  const uncounted = (status.uncountedTerminatedPods ??= {})
  const wasUncountedSucceeded = new Set(uncounted.succeeded ?? [])
  const wasUncountedFailed = new Set(uncounted.failed ?? [])
  const indexed = spec.completionMode === 'Indexed'
  const completions = spec.completions ?? 0
  let needsFlush = needsFlushAtStart
  const ordered = indexed ? [...pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : pods
  const withFinalizer = new Set(pods.filter(hasTrackingFinalizer).map(uidOf))
  if (countUncounted(status, withFinalizer)) needsFlush = true
  const toRelease: KubeObject[] = []
  const newSucceededIndexes: number[] = []
  let finished = ctx.finished
  for (const pod of ordered) {
    if (!hasTrackingFinalizer(pod)) continue
    const failed = isPodFailed(pod, spec)
    // canRemoveFinalizer: the Job is going or finished, or the pod is done.
    const phase = (pod as Obj).status?.phase
    if (!(job.metadata.deletionTimestamp || finished || phase === 'Succeeded' || failed)) continue
    // The last failed pod of an index to retry keeps its finalizer until its replacement carries its failure count.
    const held = ctx.delayed.get(completionIndex(pod))
    if (
      !(job.metadata.deletionTimestamp || finished || phase === 'Succeeded') &&
      held?.metadata.uid === pod.metadata.uid
    )
      continue
    toRelease.push(pod)
    const uid = uidOf(pod)
    const ix = completionIndex(pod)
    const validIndex = ix >= 0 && ix < completions
    if (phase === 'Succeeded' && !wasUncountedFailed.has(uid)) {
      if (indexed) {
        if (validIndex && !intervalsHas(ctx.prevSucceededIndexes, ix)) {
          newSucceededIndexes.push(ix)
          needsFlush = true
        }
      } else if (!wasUncountedSucceeded.has(uid)) {
        needsFlush = true
        uncounted.succeeded = [...(uncounted.succeeded ?? []), uid]
      }
    } else if (failed || (finished && finished.type !== 'SuccessCriteriaMet')) {
      // When the Job is finished, every pod not yet terminated counts as failed.
      if (
        !wasUncountedFailed.has(uid) &&
        (!indexed || validIndex) &&
        matchPodFailurePolicy(spec.podFailurePolicy, pod).count
      ) {
        needsFlush = true
        uncounted.failed = [...(uncounted.failed ?? []), uid]
      }
    }
  }
  if (indexed) {
    ctx.succeededIndexes = withIndexes(ctx.succeededIndexes, newSucceededIndexes)
    const text = formatIntervals(ctx.succeededIndexes)
    if (text !== (status.completedIndexes ?? '')) needsFlush = true
    status.succeeded = intervalsTotal(ctx.succeededIndexes)
    status.completedIndexes = text
    if (ctx.failedIndexes !== null) {
      const failedText = formatIntervals(ctx.failedIndexes)
      if (failedText !== status.failedIndexes) needsFlush = true
      status.failedIndexes = failedText
    }
  }
  if (finished?.type === 'FailureTarget') {
    // The interim condition is written before any pod is let go, so the failure's reason survives a crash.
    status.conditions = [...(status.conditions ?? []), finished]
    needsFlush = true
    finished = newCondition('Failed', 'True', finished.reason ?? '', finished.message ?? '', ctx.now)
  }
  if (finished?.type === 'SuccessCriteriaMet') {
    if (!conditionTrue(status, 'SuccessCriteriaMet')) {
      status.conditions = [...(status.conditions ?? []), finished]
      needsFlush = true
    }
    finished = newCondition('Complete', 'True', finished.reason ?? '', finished.message ?? '', ctx.now)
  }
  if (needsFlush) {
    await writeJobStatus(ctx)
    ctx.flushed()
    needsFlush = false
  }
  const released = await Promise.all(toRelease.map((p) => removeFinalizer(ctx.host, p)))
  toRelease.forEach((p, i) => {
    if (released[i]) withFinalizer.delete(uidOf(p))
  })
  if (countUncounted(job.status!, withFinalizer)) needsFlush = true
  if (released.includes(false)) {
    if (needsFlush) await writeJobStatus(ctx)
    return
  }
  const done = finished !== null && enactFinished(job, finished, ctx.terminating, ctx.now)
  if (done) needsFlush = true
  if (needsFlush) {
    await writeJobStatus(ctx)
    if (done && finished) await recordFinished(ctx, finished)
  }
}

/** enactJobFinished: the terminal condition, once nothing is uncounted or terminating. */
function enactFinished(job: JobObject, finished: JobCondition, terminating: number, now: number): boolean {
  const status = job.status!
  const u = status.uncountedTerminatedPods ?? {}
  if ((u.succeeded ?? []).length + (u.failed ?? []).length > 0) return false
  if (terminating > 0) return false
  status.conditions = ensureCondition(
    status.conditions ?? [],
    finished.type,
    finished.status,
    finished.reason ?? '',
    finished.message ?? '',
    now,
  ).conditions
  if (finished.type === 'Complete')
    status.completionTime = status.conditions.find((c) => c.type === 'Complete')?.lastTransitionTime
  return true
}

async function recordFinished(ctx: JobSyncContext, finished: JobCondition) {
  const { host, job } = ctx
  const event = (type: 'Normal' | 'Warning', reason: string, message: string) =>
    recordEvent(host, job, { type, reason, message, component: JOB_COMPONENT })
  if (finished.type === 'Complete') {
    const completions = job.spec?.completions
    if (completions !== undefined && (job.status?.succeeded ?? 0) > completions)
      await event('Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached')
    await event('Normal', 'Completed', 'Job completed')
  } else {
    await event('Warning', finished.reason ?? '', finished.message ?? '')
  }
}
