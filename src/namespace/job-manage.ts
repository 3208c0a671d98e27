// kube's manageJob for one Job: keep `parallelism` pods running within the completions still needed (deleting the
// extra ones first, duplicated Indexed pods before others), after the back-off since the last failure (per index with
// backoffLimitPerIndex), Indexed pods on the lowest pending indexes with their index and failure count, all made
// from the template with the tracking finalizer in slow-start batches; a suspended Job's pods are deleted.
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { KubeObject } from '../schema/meta'
import { failureCountAnnotations, indexBackoffRemaining } from '../registry/batch/backoff-per-index'
import { type Interval, withIndexes } from '../registry/batch/index-intervals'
import {
  addCompletionIndexEnv,
  firstPendingIndexes,
  indexedPodsForRemoval,
  withCompletionIndex,
} from '../registry/batch/indexed-job'
import { JOB_TRACKING_FINALIZER, type JobObject } from '../registry/batch/job-labels'
import { type BackoffRecord, backoffRemaining, onlyReplaceFailedPods } from '../registry/batch/job-pods'
import { namespaceClosed } from './create-retries'
import { deletePods, JOB_COMPONENT } from './job-pod-control'
import { CONTROLLER_MANAGER, deletionRank, isActive, ownerReference, podFromTemplate } from './pod-owner'

const range = (i: Interval) => Array.from({ length: i.last - i.first + 1 }, (_, k) => i.first + k)

const event = (host: ControllerHost, job: JobObject, type: 'Normal' | 'Warning', reason: string, message: string) =>
  recordEvent(host, job, { type, reason, message, component: JOB_COMPONENT })

interface ManageInput {
  host: ControllerHost
  now: number
  canCreate: boolean
  /** The Job's pods, claimed. */
  pods: KubeObject[]
  job: JobObject
  succeeded: number
  terminating: number
  backoff: BackoffRecord
  succeededIndexes: Interval[]
  failed: Interval[] | null
  delayed: Map<number, KubeObject>
  /** Told when a pod create was refused for a reason other than the namespace's termination. */
  refused?(): void
}

/** manageJob: answers the active pods after its creations and deletions, and when to come back (a back-off). */
export async function manageJob(m: ManageInput) {
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
  const done = m.failed
    ? withIndexes(
        m.succeededIndexes,
        m.failed.flatMap((i) => range(i)),
      )
    : m.succeededIndexes
  let indexes = spec.completionMode === 'Indexed' ? firstPendingIndexes(done, active, diff, completions ?? 0) : []
  if (spec.backoffLimitPerIndex !== undefined) {
    // Each index waits out its own back-off: create those ready now, or come back when the first is.
    const waits = indexes.map((i) => indexBackoffRemaining(m.delayed.get(i), now))
    const ready = indexes.filter((_, i) => waits[i] === 0)
    if (ready.length === 0 && indexes.length > 0) return { ...none, active: 0, wake: now + Math.min(...waits) }
    indexes = ready
  }
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
        if (index !== undefined && spec.backoffLimitPerIndex !== undefined) {
          const meta = (t.metadata ??= {})
          meta.annotations = { ...meta.annotations, ...failureCountAnnotations(spec, m.delayed.get(index)) }
        }
        const prefix = index === undefined ? `${job.metadata.name}-` : `${job.metadata.name}-${index}-`
        const pod = podFromTemplate(t, ref, '', prefix)
        delete pod.metadata.name
        const r = await host.create('pods', pod, { fieldManager: CONTROLLER_MANAGER })
        if (r.ok) {
          await event(host, job, 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.object.metadata.name}`)
          return true
        }
        // A namespace being torn down refuses every create: nothing to report (kube's NamespaceTerminatingCause).
        // Other refusals, admission's (a missing ServiceAccount), are reported.
        if (!namespaceClosed(r.status)) {
          m.refused?.()
          await event(host, job, 'Warning', 'FailedCreate', `Error creating: ${r.status.message}`)
        }
        return false
      }),
    )
    created += results.filter(Boolean).length
    if (results.includes(false)) break
  }
  return { ...none, active: active.length + created }
}
