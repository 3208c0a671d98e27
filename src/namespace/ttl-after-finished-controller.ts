// kube's TTL-after-finished controller for one namespace: a finished Job (Complete or Failed) with
// spec.ttlSecondsAfterFinished is deleted, with its pods (Foreground), that many seconds after it finished (the
// terminal condition's last transition). The host's alarm brings it back when the next Job expires; the TTL is read
// again when the delete is planned, and the uid is its precondition, so a Job changed or replaced meanwhile is kept.
import type { Controller, ControllerHost } from '../host/controller'
import { finishTime, isJobFinished } from '../registry/batch/job-conditions'
import type { JobObject } from '../registry/batch/job-labels'
import type { LogEntry } from '../registry/store'

const JOBS = 'jobs'

/** When a Job expires (ms since the epoch), or null when it never does (not finished, no TTL, being deleted). */
function expiresAt(job: JobObject): number | null {
  const ttl = job.spec?.ttlSecondsAfterFinished
  if (ttl === undefined || job.metadata.deletionTimestamp || !isJobFinished(job.status)) return null
  const finished = finishTime(job.status)
  return finished === null ? null : finished + ttl * 1000
}

export class TtlAfterFinishedController implements Controller {
  readonly name = 'ttl-after-finished-controller'
  private readonly clock: () => number

  constructor(opts: { clock?: () => number } = {}) {
    this.clock = opts.clock ?? Date.now
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = entries.filter((e) => e.resource === JOBS && e.type !== 'DELETED').map((e) => e.name)
    await Promise.all([...new Set(names)].map((n) => this.process(host, n, this.clock())))
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    await Promise.all(host.all(JOBS).map((s) => this.process(host, s.object.metadata.name!, now)))
  }

  private async process(host: ControllerHost, name: string, now: number): Promise<void> {
    const stored = host.get(JOBS, name)
    if (!stored) return
    const at = expiresAt(stored.object as JobObject)
    if (at === null) return
    if (at > now) {
      await host.wakeAt(at)
      return
    }
    const uid = stored.object.metadata.uid
    // The final check against the newest Job: still this Job, still finished with an expired TTL.
    const r = await host.reconcile(JOBS, name, (current) => {
      if (!current || current.metadata.uid !== uid) return null
      const due = expiresAt(current as JobObject)
      return due !== null && due <= now ? { delete: { propagationPolicy: 'Foreground', preconditions: { uid } } } : null
    })
    if (!r.ok && r.status.code !== 404)
      console.error(`ttl-after-finished: deleting Job ${host.scope}/${name}`, r.status.message)
  }
}
