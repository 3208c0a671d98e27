// The CronJob controller of one namespace (kube's cronjob controller v2): at each scheduled time (the schedule read
// by robfig/cron's rules, in spec.timeZone) it creates the Job `<cronjob>-<minutes since the epoch>`, honours
// concurrencyPolicy (Allow, Forbid: skip while one runs, Replace: delete the running ones first),
// startingDeadlineSeconds (a start missed by more is skipped, MissSchedule) and suspend, keeps status.active,
// lastScheduleTime and lastSuccessfulTime, and deletes finished Jobs beyond the history limits. Driven by commits and
// by an alarm at the next scheduled time (plus kube's 100 ms), never by polling.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { type CronSchedule, parseCronSchedule } from '../registry/batch/cron-schedule'
import { jobFromTemplate, nextScheduleTime, nextWakeUp } from '../registry/batch/cron-times'
import { conditionTrue, isJobFinished } from '../registry/batch/job-conditions'
import type { CronJobObject, JobObject } from '../registry/batch/job-labels'
import { loadLocation, UTC_ZONE, type Zone } from '../registry/batch/time-zone'
import type { LogEntry } from '../registry/store'
import { rfc1123z, rfc3339 } from '../registry/time'
import type { CronJobStatus } from '../schema/batch'
import type { KubeObject } from '../schema/meta'
import { type CreateRetries, namespaceClosed } from './create-retries'
import { CONTROLLER_MANAGER, controllerRef, SyncQueue } from './pod-owner'

const CRONJOBS = 'cronjobs'
const JOBS = 'jobs'
const COMPONENT = 'cronjob-controller'

type Reference = NonNullable<CronJobStatus['active']>[number]

interface CronJobControllerOptions {
  /** Where a CronJob whose Job create was refused waits to be synced again (kube's AddRateLimited). */
  retries: CreateRetries
  /** The controller's clock (ms since the epoch); tests pass their own. */
  clock?: () => number
}

/** reference.GetReference of a Job, as status.active holds it. */
const referenceTo = (job: KubeObject): Reference => ({
  kind: 'Job',
  namespace: job.metadata.namespace,
  name: job.metadata.name,
  uid: job.metadata.uid,
  apiVersion: 'batch/v1',
  resourceVersion: job.metadata.resourceVersion,
})

/** byJobStartTime: started Jobs by start time (then name), Jobs never started last. */
function byStartTime(a: JobObject, b: JobObject): number {
  const sa = a.status?.startTime
  const sb = b.status?.startTime
  if (!sa !== !sb) return sa ? -1 : 1
  if (sa === sb || (sa && sb && Date.parse(sa) === Date.parse(sb))) return a.metadata.name! < b.metadata.name! ? -1 : 1
  return Date.parse(sa!) - Date.parse(sb!)
}

/** One sync's view of a CronJob: the copy whose status it edits, and the Jobs it controls. */
interface Sync {
  host: ControllerHost
  cj: CronJobObject
  jobs: JobObject[]
  now: number
}

export class CronJobController implements Controller {
  readonly name = 'cronjob-controller'
  private readonly queue = new SyncQueue('cronjob controller')
  private readonly clock: () => number

  constructor(private readonly opts: CronJobControllerOptions) {
    this.clock = opts.clock ?? Date.now
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = new Set<string>()
    for (const e of entries) {
      if (e.resource === CRONJOBS && e.type !== 'DELETED') names.add(e.name)
      if (e.resource !== JOBS) continue
      for (const job of [e.object, e.prev]) {
        const ref = job ? controllerRef(job) : undefined
        if (ref?.kind === 'CronJob') names.add(ref.name)
      }
    }
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    await Promise.all(host.all(CRONJOBS).map((s) => this.enqueue(host, s.object.metadata.name!, now)))
  }

  private enqueue(host: ControllerHost, name: string, now?: number): Promise<void> {
    return this.queue.enqueue(name, async () => {
      const key = `${CRONJOBS}/${name}`
      const stored = host.get(CRONJOBS, name)
      if (!stored) return this.opts.retries.forget(key)
      const cj = structuredClone(stored.object) as CronJobObject
      const uid = cj.metadata.uid
      const jobs = host
        .all(JOBS)
        .map((s) => s.object as JobObject)
        .filter((j) => controllerRef(j)?.uid === uid)
      const sync: Sync = { host, cj, jobs, now: Math.max(now ?? 0, this.clock()) }
      const cleaned = await cleanupFinishedJobs(sync)
      const { wake, changed, refused } = await syncCronJob(sync)
      if (cleaned || changed) await writeStatus(sync)
      if (wake !== null) await host.wakeAt(wake)
      // kube's sync returns the refused create's error and the worker requeues the CronJob rate-limited.
      if (refused) await this.opts.retries.failed(key, () => this.enqueue(host, name), host)
      else this.opts.retries.forget(key)
    })
  }
}

const event = (s: Sync, type: 'Normal' | 'Warning', reason: string, message: string) =>
  recordEvent(s.host, s.cj, { type, reason, message, component: COMPONENT })

const removeFromActive = (cj: CronJobObject, uid: string | undefined) => {
  const status = (cj.status ??= {})
  status.active = (status.active ?? []).filter((r) => r.uid !== uid)
}

/** deleteJob: Background propagation, then out of the active list. */
async function deleteJob(s: Sync, job: JobObject): Promise<boolean> {
  const r = await s.host.delete(JOBS, job.metadata.name!, { propagationPolicy: 'Background' })
  if (!r.ok && r.status.code !== 404) {
    await event(s, 'Warning', 'FailedDelete', `Deleted job: ${r.status.message}`)
    return false
  }
  removeFromActive(s.cj, job.metadata.uid)
  await event(s, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`)
  return true
}

/** cleanupFinishedJobs: the oldest finished Jobs beyond successfulJobsHistoryLimit and failedJobsHistoryLimit go. */
async function cleanupFinishedJobs(s: Sync): Promise<boolean> {
  const spec = s.cj.spec!
  let changed = false
  for (const [type, limit] of [
    ['Complete', spec.successfulJobsHistoryLimit],
    ['Failed', spec.failedJobsHistoryLimit],
  ] as const) {
    if (limit === undefined) continue
    const finished = s.jobs.filter((j) => isJobFinished(j.status) && conditionTrue(j.status, type)).sort(byStartTime)
    for (const job of finished.slice(0, Math.max(0, finished.length - limit)))
      if (await deleteJob(s, job)) changed = true
  }
  return changed
}

/** syncCronJob: answers when to look again (null: not until the CronJob changes) and whether the status changed. */
async function syncCronJob(s: Sync): Promise<{ wake: number | null; changed: boolean; refused?: boolean }> {
  const { cj, now } = s
  const spec = cj.spec!
  const status = (cj.status ??= {})
  let changed = false
  const children = new Set<string>()
  for (const job of s.jobs) {
    children.add(job.metadata.uid!)
    const listed = (status.active ?? []).some((r) => r.uid === job.metadata.uid)
    const finished = isJobFinished(job.status)
    if (!listed && !finished) {
      await event(
        s,
        'Warning',
        'UnexpectedJob',
        `Saw a job that the controller did not create or forgot: ${job.metadata.name}`,
      )
    } else if (listed && finished) {
      removeFromActive(cj, job.metadata.uid)
      const condition = conditionTrue(job.status, 'Complete') ? 'Complete' : 'Failed'
      await event(s, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, condition: ${condition}`)
      changed = true
    } else if (conditionTrue(job.status, 'Complete') && job.status?.completionTime) {
      const done = job.status.completionTime
      if (!status.lastSuccessfulTime || Date.parse(done) > Date.parse(status.lastSuccessfulTime)) {
        status.lastSuccessfulTime = done
        changed = true
      }
    }
  }
  for (const ref of [...(status.active ?? [])]) {
    if (children.has(ref.uid ?? '') || s.host.get(JOBS, ref.name ?? '')) continue
    await event(s, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`)
    removeFromActive(cj, ref.uid)
    changed = true
  }
  if (cj.metadata.deletionTimestamp) return { wake: null, changed }
  let zone: Zone = UTC_ZONE
  if (spec.timeZone !== undefined) {
    const loaded = loadLocation(spec.timeZone)
    if (!loaded.ok) {
      await event(s, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${spec.timeZone}": ${loaded.message}`)
      return { wake: null, changed }
    }
    zone = loaded.zone
  }
  if (spec.suspend === true) return { wake: null, changed }
  const schedule = await parseSchedule(s)
  if (!schedule) return { wake: null, changed }
  const next = nextScheduleTime(cj, now, schedule)
  if (next.tooMany)
    await event(
      s,
      'Warning',
      'TooManyMissedTimes',
      'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    )
  if (next.error) {
    await event(s, 'Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${next.error}`)
    return { wake: null, changed }
  }
  const later = () => ({ wake: nextWakeUp(cj, now, schedule), changed })
  const scheduled = next.time
  if (scheduled === null) return later()
  if (spec.startingDeadlineSeconds !== undefined && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
    await event(s, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`)
    return later()
  }
  const job = jobFromTemplate(cj, scheduled, zone)
  const alreadyDone =
    (status.active ?? []).some((r) => r.name === job.metadata.name) ||
    (status.lastScheduleTime !== undefined && Date.parse(status.lastScheduleTime) === scheduled)
  if (alreadyDone) return later()
  if (spec.concurrencyPolicy === 'Forbid' && (status.active ?? []).length > 0) {
    await event(
      s,
      'Normal',
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    )
    return later()
  }
  if (spec.concurrencyPolicy === 'Replace') {
    for (const ref of [...(status.active ?? [])]) {
      const running = s.host.get(JOBS, ref.name ?? '')
      if (!running) {
        await event(s, 'Warning', 'FailedGet', `Get job: jobs.batch "${ref.name}" not found`)
        return { wake: null, changed }
      }
      if (!(await deleteJob(s, running.object as JobObject))) return { wake: null, changed }
      changed = true
    }
  }
  const created = await s.host.create(JOBS, job, { fieldManager: CONTROLLER_MANAGER })
  let made: KubeObject
  if (created.ok) {
    made = created.value.object
    await event(s, 'Normal', 'SuccessfulCreate', `Created job ${made.metadata.name}`)
  } else if (created.status.reason === 'AlreadyExists') {
    // Made before, and the status that recorded it lost: record it again if it is ours.
    const existing = s.host.get(JOBS, job.metadata.name!)
    if (!existing || controllerRef(existing.object)?.uid !== cj.metadata.uid) return { wake: null, changed }
    if ((status.active ?? []).some((r) => r.uid === existing.object.metadata.uid)) return { wake: null, changed }
    made = existing.object
  } else {
    // A namespace being torn down (or gone) refuses every create: nothing to report or retry (kube's
    // NamespaceTerminatingCause). Anything else is reported and retried.
    if (namespaceClosed(created.status)) return { wake: null, changed }
    await event(s, 'Warning', 'FailedCreate', `Error creating job: ${created.status.message}`)
    return { wake: null, changed, refused: true }
  }
  status.active = [...(status.active ?? []), referenceTo(made)]
  status.lastScheduleTime = rfc3339(new Date(scheduled))
  return { wake: nextWakeUp(cj, now, schedule), changed: true }
}

/** formatSchedule then cron.ParseStandard: spec.timeZone becomes TZ=; a TZ in the schedule itself is warned about. */
async function parseSchedule(s: Sync): Promise<CronSchedule | null> {
  const spec = s.cj.spec!
  let text = spec.schedule
  if (text.includes('TZ')) {
    await event(
      s,
      'Warning',
      'UnsupportedSchedule',
      `CRON_TZ or TZ used in schedule "${text}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    )
  } else if (spec.timeZone !== undefined) text = `TZ=${spec.timeZone} ${text}`
  const parsed = parseCronSchedule(text)
  if (parsed.ok) return parsed.value
  await event(s, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${spec.schedule}" : ${parsed.message}`)
  return null
}

/** UpdateStatus with the sync's status (an empty active list is left out, as Go's omitempty leaves it). */
async function writeStatus(s: Sync): Promise<void> {
  const status: CronJobStatus = structuredClone(s.cj.status ?? {})
  if ((status.active ?? []).length === 0) delete status.active
  const r = await s.host.update(
    CRONJOBS,
    s.cj.metadata.name!,
    (current) => (current.metadata.uid === s.cj.metadata.uid ? { ...current, status } : null),
    { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
  )
  if (!r.ok && r.status.code !== 404)
    console.error(`cronjob controller: updating the status of ${s.host.scope}/${s.cj.metadata.name}`, r.status.message)
}
