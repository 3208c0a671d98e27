// The Job controller of one namespace (kube's job controller): which Jobs to sync when Jobs and pods change, the
// claim of pods by their Job (orphans matching a Job's selector are adopted with the tracking finalizer, owned pods
// that stop matching are released), and the release of tracking finalizers that no Job will ever remove (their Job
// is gone). The sync itself is in job-sync.ts. Driven by the namespace DO's commits and alarms, never by polling: a
// Job with a deadline or a back-off asks to be woken when it falls due.
import type { Controller, ControllerHost } from '../host/controller'
import { labelSelectorFromMetaV1 } from '../registry/label-selector'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { isJobFinished } from '../registry/batch/job-conditions'
import { JOB_TRACKING_FINALIZER, type JobObject } from '../registry/batch/job-labels'
import { type BackoffRecord, hasTrackingFinalizer } from '../registry/batch/job-pods'
import { syncJob } from './job-sync'
import { JobGone } from './job-tracking'
import { type CreateRetries, JOB_LIMITER } from './create-retries'
import { CONTROLLER_MANAGER, controllerRef, ownerReference, SyncQueue } from './pod-owner'
import { ownersNamingNewServiceAccounts } from './service-account-waiters'

const JOBS = 'jobs'

interface JobControllerOptions {
  /** Whether new pods may be created now: a namespace being terminated gets none. */
  canCreate(): boolean
  /** Where a Job whose pod create was refused waits to be synced again (kube's AddRateLimited). */
  retries: CreateRetries
  /** The controller's clock (ms since the epoch); tests pass their own. */
  clock?: () => number
}

/** A Job's selector as a matcher; an invalid one matches nothing. */
function matcher(job: JobObject): (labels: Record<string, string> | undefined) => boolean {
  const parsed = labelSelectorFromMetaV1(job.spec?.selector)
  return parsed.ok ? (labels) => parsed.selector.matches(labels) : () => false
}

const ownedBy = (pod: KubeObject, uid: string) => controllerRef(pod)?.uid === uid

export class JobController implements Controller {
  readonly name = 'job-controller'
  private readonly queue = new SyncQueue('job controller')
  private readonly backoff = new Map<string, BackoffRecord>()
  private readonly clock: () => number

  constructor(private readonly opts: JobControllerOptions) {
    this.clock = opts.clock ?? Date.now
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const jobs = new Set<string>()
    const orphans = new Set<string>()
    // The Jobs an orphan pod may be adopted by, read once per commit (a commit carries many pods).
    let open: JobObject[] | null = null
    const openJobs = () =>
      (open ??= host
        .all(JOBS)
        .map(({ object }) => object as JobObject)
        .filter((job) => !isJobFinished(job.status)))
    for (const e of entries) {
      if (e.resource === JOBS) {
        if (e.type !== 'DELETED') jobs.add(e.name)
        else {
          this.backoff.delete(e.object.metadata.uid ?? '')
          // Its pods' finalizers are nobody's to remove now.
          for (const d of host.dependents(e.object.metadata.uid ?? '')) if (d.resource === 'pods') orphans.add(d.name)
        }
        continue
      }
      if (e.resource !== 'pods') continue
      if (e.type === 'DELETED') {
        // A pod gone for good: its Job counts it (if uncounted) and no longer sees it terminating.
        const ref = controllerRef(e.object)
        if (ref?.kind === 'Job' && host.get(JOBS, ref.name)?.object.metadata.uid === ref.uid) jobs.add(ref.name)
        continue
      }
      for (const pod of [e.object, e.prev]) {
        if (!pod) continue
        const ref = controllerRef(pod)
        if (ref) {
          if (ref.kind !== 'Job') continue
          const job = host.get(JOBS, ref.name)
          if (job && job.object.metadata.uid === ref.uid) jobs.add(ref.name)
          else if (hasTrackingFinalizer(e.object)) orphans.add(e.name)
          continue
        }
        if (hasTrackingFinalizer(e.object)) orphans.add(e.name)
        // An orphan a Job's selector matches may be adopted.
        for (const job of openJobs()) if (matcher(job)(pod.metadata.labels)) jobs.add(job.metadata.name!)
      }
    }
    for (const n of ownersNamingNewServiceAccounts(entries, host, JOBS)) jobs.add(n)
    await Promise.all([
      ...[...jobs].map((n) => this.enqueue(host, n)),
      ...[...orphans].map((n) => this.releaseOrphan(host, n)),
    ])
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    const work: Promise<void>[] = []
    for (const { object } of host.all(JOBS)) {
      if (!isJobFinished((object as JobObject).status)) work.push(this.enqueue(host, object.metadata.name!, now))
    }
    // Tracking finalizers whose Job is gone (a crash between the Job's deletion and their release).
    for (const { object } of host.attending('pods')) {
      if (!hasTrackingFinalizer(object)) continue
      const ref = controllerRef(object)
      const job = ref?.kind === 'Job' ? host.get(JOBS, ref.name) : null
      if (!ref || (ref.kind === 'Job' && (!job || job.object.metadata.uid !== ref.uid)))
        work.push(this.releaseOrphan(host, object.metadata.name!))
    }
    await Promise.all(work)
  }

  private enqueue(host: ControllerHost, name: string, now?: number): Promise<void> {
    return this.queue.enqueue(name, async () => {
      const key = `${JOBS}/${name}`
      const stored = host.get(JOBS, name)
      if (!stored) return this.opts.retries.forget(key)
      const pods = await this.claim(host, stored.object as JobObject)
      const at = Math.max(now ?? 0, this.clock())
      let refused = false
      try {
        const wake = await syncJob(
          {
            host,
            now: at,
            canCreate: this.opts.canCreate(),
            backoff: this.backoff,
            pods,
            refused: () => {
              refused = true
            },
          },
          stored.object,
        )
        if (wake !== null) await host.wakeAt(wake)
      } catch (e) {
        if (!(e instanceof JobGone)) throw e
      }
      // kube's syncJob returns manageJob's create error and the worker requeues the Job rate-limited.
      if (refused) await this.opts.retries.failed(key, () => this.enqueue(host, name), host, { limiter: JOB_LIMITER })
      else this.opts.retries.forget(key)
    })
  }

  /**
   * getPodsForJob: the pods the Job controls, after releasing those that stopped matching its selector and adopting
   * orphans that match (with the tracking finalizer, as kube's claim adds it). A Job being deleted adopts nothing.
   */
  private async claim(host: ControllerHost, job: JobObject): Promise<KubeObject[]> {
    const uid = job.metadata.uid!
    const matches = matcher(job)
    const ref = ownerReference(job, 'batch/v1', 'Job')
    const writes: Promise<unknown>[] = []
    for (const { object: pod } of host.all('pods')) {
      const owner = controllerRef(pod)
      if (owner?.uid === uid && !matches(pod.metadata.labels)) writes.push(this.release(host, pod, uid))
      else if (!owner && matches(pod.metadata.labels) && !job.metadata.deletionTimestamp)
        writes.push(this.adopt(host, pod, ref))
    }
    await Promise.all(writes)
    return host
      .dependents(uid)
      .filter((d) => d.resource === 'pods')
      .map((d) => host.get('pods', d.name)?.object)
      .filter((p): p is KubeObject => p !== undefined && ownedBy(p, uid))
  }

  private adopt(host: ControllerHost, pod: KubeObject, ref: ReturnType<typeof ownerReference>) {
    return host.update(
      'pods',
      pod.metadata.name!,
      (current) => {
        const job = host.get(JOBS, ref.name)?.object as JobObject | undefined
        if (current.metadata.uid !== pod.metadata.uid || controllerRef(current)) return null
        if (!job || job.metadata.uid !== ref.uid || job.metadata.deletionTimestamp) return null
        if (!matcher(job)(current.metadata.labels)) return null
        current.metadata.ownerReferences = [...(current.metadata.ownerReferences ?? []), { ...ref }]
        if (!hasTrackingFinalizer(current))
          current.metadata.finalizers = [...(current.metadata.finalizers ?? []), JOB_TRACKING_FINALIZER]
        return current
      },
      { fieldManager: CONTROLLER_MANAGER },
    )
  }

  private release(host: ControllerHost, pod: KubeObject, uid: string) {
    return host.update(
      'pods',
      pod.metadata.name!,
      (current) => {
        if (!ownedBy(current, uid)) return null
        const job = host.all(JOBS).find((s) => s.object.metadata.uid === uid)?.object as JobObject | undefined
        if (job && matcher(job)(current.metadata.labels)) return null
        current.metadata.ownerReferences = (current.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid)
        if (current.metadata.ownerReferences.length === 0) delete current.metadata.ownerReferences
        return current
      },
      { fieldManager: CONTROLLER_MANAGER },
    )
  }

  /** The orphan queue: a pod whose Job is gone (or that has none) loses its tracking finalizer. */
  private async releaseOrphan(host: ControllerHost, name: string): Promise<void> {
    const r = await host.update(
      'pods',
      name,
      (pod) => {
        if (!hasTrackingFinalizer(pod)) return null
        const ref = controllerRef(pod)
        const job = ref?.kind === 'Job' ? host.get(JOBS, ref.name) : null
        // Still a Job's own pod: the Job counts it and removes the finalizer itself.
        if (ref && (ref.kind !== 'Job' || (job && job.object.metadata.uid === ref.uid))) return null
        pod.metadata.finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER)
        if (pod.metadata.finalizers.length === 0) delete pod.metadata.finalizers
        return pod
      },
      { fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok && r.status.code !== 404)
      console.error(`job controller: releasing orphan pod ${host.scope}/${name}`, r.status.message)
  }
}
