// What kube's job controller reads off a Job's pods (pkg/controller/job: pod_failure_policy.go, indexed_job_utils.go,
// backoff_utils.go): whether a pod counts as failed, which pod failure policy rule it matches and the message a
// FailJob match gives, completion indexes, when a pod finished, and the back-off before a failed pod is replaced.
import type { JobSpec } from '../../schema/batch'
import type { KubeObject } from '../../schema/meta'
import { JOB_COMPLETION_INDEX, JOB_TRACKING_FINALIZER } from './job-labels'

type Obj = Record<string, any>
type PodFailurePolicy = NonNullable<JobSpec['podFailurePolicy']>

/** Pods are replaced once a failed pod is gone, after 10 s doubling per consecutive failure, at most 10 minutes. */
const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000
const MAX_POD_FAILURE_BACKOFF_MS = 600_000

export const hasTrackingFinalizer = (p: KubeObject) => (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)

/** onlyReplaceFailedPods: a pod failure policy, or podReplacementPolicy Failed, waits for pods to fail. */
export const onlyReplaceFailedPods = (spec: JobSpec) =>
  spec.podFailurePolicy !== undefined || spec.podReplacementPolicy === 'Failed'

/** isPodFailed: phase Failed, or (unless only failed pods are replaced) being deleted without having succeeded. */
export function isPodFailed(p: KubeObject, spec: JobSpec): boolean {
  const phase = (p as Obj).status?.phase
  if (phase === 'Failed') return true
  if (onlyReplaceFailedPods(spec)) return false
  return p.metadata.deletionTimestamp !== undefined && phase !== 'Succeeded'
}

/** controller.CountTerminatingPods: being deleted and not finished. */
export const isTerminating = (p: KubeObject) => {
  const phase = (p as Obj).status?.phase
  return p.metadata.deletionTimestamp !== undefined && phase !== 'Succeeded' && phase !== 'Failed'
}

/** getCompletionIndex: the annotation's index, or -1 when absent or not a non-negative integer. */
export function completionIndex(p: KubeObject): number {
  const v = p.metadata.annotations?.[JOB_COMPLETION_INDEX]
  if (v === undefined || !/^[0-9]+$/.test(v)) return -1
  const n = Number(v)
  return Number.isSafeInteger(n) ? n : -1
}

interface PolicyMatch {
  /** The FailJob message, when a FailJob rule matched. */
  failJob?: string
  /** Whether the failure counts against backoffLimit (an Ignore rule says no). */
  count: boolean
  action?: string
}

function matchingContainer(
  statuses: Obj[] | undefined,
  req: NonNullable<PodFailurePolicy['rules'][number]['onExitCodes']>,
) {
  for (const s of statuses ?? []) {
    if (req.containerName !== undefined && req.containerName !== s.name) continue
    const code = s.state?.terminated?.exitCode
    if (code === undefined || code === 0) continue
    const listed = (req.values ?? []).includes(code)
    if (req.operator === 'In' ? listed : req.operator === 'NotIn' ? !listed : false) return s
  }
  return null
}

/** matchPodFailurePolicy: the first rule (in order) a failed pod matches decides. */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: KubeObject): PolicyMatch {
  if (!policy) return { count: true }
  const status = ((pod as Obj).status ?? {}) as Obj
  const where = `${pod.metadata.namespace}/${pod.metadata.name}`
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    let failJob: string | null = null
    if (rule.onExitCodes) {
      const c =
        matchingContainer(status.containerStatuses, rule.onExitCodes) ??
        matchingContainer(status.initContainerStatuses, rule.onExitCodes)
      if (!c) continue
      failJob = `Container ${c.name} for pod ${where} failed with exit code ${c.state.terminated.exitCode} matching ${rule.action} rule at index ${index}`
    } else if (rule.onPodConditions) {
      const cond = ((status.conditions ?? []) as Obj[]).find((c) =>
        (rule.onPodConditions ?? []).some((p) => c.type === p.type && c.status === p.status),
      )
      if (!cond) continue
      failJob = `Pod ${where} has condition ${cond.type} matching ${rule.action} rule at index ${index}`
    } else continue
    switch (rule.action) {
      case 'Ignore':
        return { count: false, action: 'Ignore' }
      case 'FailIndex':
        return { count: true, action: 'FailIndex' }
      case 'Count':
        return { count: true, action: 'Count' }
      case 'FailJob':
        return { failJob, count: true, action: 'FailJob' }
    }
  }
  return { count: true }
}

/** When a pod finished: its containers' last finishedAt, else its Ready condition's change, else its creation. */
export function finishedAt(p: KubeObject): number {
  const status = ((p as Obj).status ?? {}) as Obj
  let latest = Number.NaN
  for (const s of [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])] as Obj[]) {
    const t = Date.parse(s.state?.terminated?.finishedAt ?? '')
    if (!Number.isNaN(t) && (Number.isNaN(latest) || t > latest)) latest = t
  }
  if (!Number.isNaN(latest)) return latest
  const ready = ((status.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')
  const t = Date.parse(ready?.lastTransitionTime ?? p.metadata.deletionTimestamp ?? p.metadata.creationTimestamp ?? '')
  return Number.isNaN(t) ? 0 : t
}

/** The back-off record of one Job: failures since the last success and when the last of them happened. */
export interface BackoffRecord {
  failuresAfterLastSuccess: number
  lastFailureTime: number | null
}

/** newBackoffRecord: the record moved on by the pods that finished since it was made. */
export function nextBackoffRecord(record: BackoffRecord, succeeded: KubeObject[], failed: KubeObject[]): BackoffRecord {
  const byTime = (a: KubeObject, b: KubeObject) => finishedAt(a) - finishedAt(b)
  const s = [...succeeded].sort(byTime)
  const f = [...failed].sort(byTime)
  if (s.length === 0) {
    if (f.length === 0) return record
    return {
      failuresAfterLastSuccess: record.failuresAfterLastSuccess + f.length,
      lastFailureTime: finishedAt(f[f.length - 1]!),
    }
  }
  const lastSuccess = finishedAt(s[s.length - 1]!)
  const after = f.filter((p) => finishedAt(p) > lastSuccess)
  return {
    failuresAfterLastSuccess: after.length,
    lastFailureTime: after.length > 0 ? finishedAt(after[after.length - 1]!) : null,
  }
}

/** getRemainingTime: how long pod creation still waits (0: now). */
export function backoffRemaining(record: BackoffRecord, now: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === null) return 0
  let backoff = DEFAULT_POD_FAILURE_BACKOFF_MS
  for (let i = 1; i < record.failuresAfterLastSuccess; i++) {
    backoff *= 2
    if (backoff >= MAX_POD_FAILURE_BACKOFF_MS) {
      backoff = MAX_POD_FAILURE_BACKOFF_MS
      break
    }
  }
  const elapsed = now - record.lastFailureTime
  return backoff < elapsed ? 0 : backoff - elapsed
}

/** pastBackoffLimitOnFailure: for OnFailure pods, container restarts of running pods reach backoffLimit. */
export function pastBackoffLimitOnFailure(spec: JobSpec, pods: KubeObject[]): boolean {
  if ((spec.template?.spec as Obj | undefined)?.restartPolicy !== 'OnFailure') return false
  let restarts = 0
  for (const p of pods) {
    const status = ((p as Obj).status ?? {}) as Obj
    if (status.phase !== 'Running' && status.phase !== 'Pending') continue
    for (const s of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])] as Obj[])
      restarts += s.restartCount ?? 0
  }
  const limit = spec.backoffLimit ?? 6
  return limit === 0 ? restarts > 0 : restarts >= limit
}
