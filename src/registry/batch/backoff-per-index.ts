// backoffLimitPerIndex of Indexed Jobs, as kube's job controller keeps it (indexed_job_utils.go): each pod carries
// how many times its index failed before it (batch.kubernetes.io/job-index-failure-count, and the failures a pod
// failure policy ignored), an index whose failures reach the limit (or that a FailIndex rule matched) is failed for
// good, the last failed pod of an index keeps its finalizer until its replacement carries the count on, and an index
// is retried after its own back-off.
import type { JobSpec } from '../../schema/batch'
import type { KubeObject } from '../../schema/meta'
import { type Interval, intervalsHas, parseIndexes, withIndexes } from './index-intervals'
import {
  backoffRemaining,
  completionIndex,
  finishedAt,
  hasTrackingFinalizer,
  isPodFailed,
  matchPodFailurePolicy,
} from './job-pods'

const FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count'
const IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count'

const count = (p: KubeObject, key: string) => {
  const v = p.metadata.annotations?.[key]
  return v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : 0
}
const absoluteFailures = (p: KubeObject) => count(p, FAILURE_COUNT) + count(p, IGNORED_FAILURE_COUNT)

/** isIndexFailed: a FailIndex match, or a counted failure with the index's failures at the limit. */
function isIndexFailed(spec: JobSpec, pod: KubeObject): boolean {
  if (!isPodFailed(pod, spec)) return false
  const match = matchPodFailurePolicy(spec.podFailurePolicy, pod)
  if (match.action === 'FailIndex') return true
  return match.count && count(pod, FAILURE_COUNT) >= (spec.backoffLimitPerIndex ?? 0)
}

/** calculateFailedIndexes: the failed indexes recorded, with those this sync's pods fail. */
export function failedIndexes(spec: JobSpec, recorded: string | undefined, pods: KubeObject[]): Interval[] {
  const completions = spec.completions ?? 0
  const fresh = pods
    .filter((p) => hasTrackingFinalizer(p) && completionIndex(p) >= 0 && completionIndex(p) < completions)
    .filter((p) => isIndexFailed(spec, p))
    .map(completionIndex)
  return withIndexes(recorded === undefined ? [] : parseIndexes(recorded, completions), fresh)
}

/**
 * getPodsWithDelayedDeletionPerIndex: per index still to retry (not succeeded, failed or running), its latest failed
 * pod; that pod keeps its finalizer until a replacement carries the failure count on.
 */
export function delayedDeletions(
  spec: JobSpec,
  pods: KubeObject[],
  active: KubeObject[],
  succeeded: Interval[],
  failed: Interval[],
): Map<number, KubeObject> {
  const completions = spec.completions ?? 0
  const running = new Set(active.map(completionIndex))
  const out = new Map<number, KubeObject>()
  for (const p of pods) {
    if (!hasTrackingFinalizer(p) || !isPodFailed(p, spec)) continue
    const ix = completionIndex(p)
    if (ix < 0 || ix >= completions || intervalsHas(succeeded, ix) || intervalsHas(failed, ix) || running.has(ix))
      continue
    const last = out.get(ix)
    if (!last || (absoluteFailures(last) <= absoluteFailures(p) && finishedAt(p) >= finishedAt(last))) out.set(ix, p)
  }
  return out
}

/** getRemainingTimePerIndex: the index's own back-off after its last failed pod (0: now). */
export function indexBackoffRemaining(lastFailed: KubeObject | undefined, now: number): number {
  if (!lastFailed) return 0
  return backoffRemaining(
    { failuresAfterLastSuccess: absoluteFailures(lastFailed) + 1, lastFailureTime: finishedAt(lastFailed) },
    now,
  )
}

/** addIndexFailureCountAnnotation: the counts a replacement of `replaced` carries (0 for an index's first pod). */
export function failureCountAnnotations(spec: JobSpec, replaced: KubeObject | undefined): Record<string, string> {
  let failures = 0
  let ignored = 0
  if (replaced) {
    failures = count(replaced, FAILURE_COUNT)
    ignored = count(replaced, IGNORED_FAILURE_COUNT)
    if (matchPodFailurePolicy(spec.podFailurePolicy, replaced).count) failures++
    else ignored++
  }
  return { [FAILURE_COUNT]: String(failures), ...(ignored > 0 ? { [IGNORED_FAILURE_COUNT]: String(ignored) } : {}) }
}
