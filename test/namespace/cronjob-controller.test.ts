// The CronJob controller on a namespace host with the Job controller, a test-played kubelet and a clock the test
// moves: Jobs created at each scheduled time (name, scheduled-timestamp annotation, owner, status.active and
// lastScheduleTime as exact watch events), Forbid and Replace, suspend, missed schedules after downtime (one Job for
// the most recent time, none past startingDeadlineSeconds, "too many missed start times"), history limits, time zones.
import { describe, expect, it } from 'vitest'
import { CronJobController } from '../../src/namespace/cronjob-controller'
import type { KubeObject } from '../../src/schema/meta'
import { jobHost } from './job-host'

type Obj = Record<string, any>
const MINUTE = 60_000

const cronJob = (name: string, spec: Obj, command = ['sleep', '3600']): KubeObject =>
  ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: {
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command }] } },
        },
      },
      ...spec,
    },
  }) as KubeObject

function setup() {
  const t = jobHost((clock, retries) => [new CronJobController({ clock, retries })])
  /** Moves the clock to the alarm the controllers asked for, and rings it. */
  const nextAlarm = async () => {
    const at = (await t.alarms.next())!
    await t.advance(at - t.clock())
    return at
  }
  const jobNames = () =>
    t.view
      .all('jobs')
      .map((s) => s.object.metadata.name!)
      .sort()
  const cronEvents = async () =>
    (await t.events('events'))
      .filter((e) => e.object.involvedObject.kind === 'CronJob')
      .map((e) => `${e.object.type} ${e.object.reason}: ${e.object.message}`)
  const statusLines = async () =>
    (await t.events('cronjobs')).map((e) => {
      const s = e.object.status ?? {}
      return [
        e.type,
        `active=[${(s.active ?? []).map((r: Obj) => r.name).join(',')}]`,
        s.lastScheduleTime ? `last=${s.lastScheduleTime}` : '',
        s.lastSuccessfulTime ? `success=${s.lastSuccessfulTime}` : '',
      ]
        .filter(Boolean)
        .join(' ')
    })
  /** The next scheduled minute boundary of `*\/n` after `from`. */
  const nextSlot = (from: number, n: number) => Math.floor(from / (n * MINUTE)) * n * MINUTE + n * MINUTE
  const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')
  const jobName = (cj: string, at: number) => `${cj}-${Math.floor(at / MINUTE)}`
  /** Plays the kubelet for a Job's pod: it runs and exits. */
  const complete = async (jobName: string, phase: 'Succeeded' | 'Failed' = 'Succeeded') => {
    const pod = t.livePods().find((p) => p.metadata.labels['job-name'] === jobName)!
    await t.start(pod.metadata.name)
    await t.finish(pod.metadata.name, phase)
    await t.idle()
  }
  return { t, nextAlarm, jobNames, cronEvents, statusLines, nextSlot, iso, jobName, complete }
}

describe('CronJob controller', () => {
  it('fires at each scheduled time: Job <name>-<minutes>, scheduled-timestamp, owner, active, lastScheduleTime', async () => {
    const s = setup()
    const created = await s.t.create('cronjobs', cronJob('tick', { schedule: '*/5 * * * *' }))
    const first = s.nextSlot(Date.parse(created.metadata.creationTimestamp), 5)
    expect(await s.t.alarms.next()).toBe(first + 100)
    expect(s.jobNames()).toEqual([])
    await s.nextAlarm()
    const name = s.jobName('tick', first)
    expect(s.jobNames()).toEqual([name])
    const job = s.t.view.get('jobs', name)!.object as Obj
    expect(job.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': s.iso(first) })
    expect(job.metadata.labels).toMatchObject({ app: 'tick' })
    expect(job.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'tick',
        uid: created.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
    const cj = s.t.view.get('cronjobs', 'tick')!.object as Obj
    expect(cj.status.active).toEqual([
      {
        kind: 'Job',
        namespace: 'ns',
        name,
        uid: job.metadata.uid,
        apiVersion: 'batch/v1',
        resourceVersion: expect.any(String),
      },
    ])
    expect(await s.t.alarms.next()).toBe(first + 5 * MINUTE + 100)
    // The Job finishes: it leaves the active list, its completion time is the last success.
    await s.complete(name)
    const doneAt = (s.t.view.get('jobs', name)!.object as Obj).status.completionTime
    await s.nextAlarm()
    const second = s.jobName('tick', first + 5 * MINUTE)
    expect(s.jobNames()).toEqual([name, second])
    expect(await s.statusLines()).toEqual([
      'ADDED active=[]',
      `MODIFIED active=[${name}] last=${s.iso(first)}`,
      `MODIFIED active=[] last=${s.iso(first)}`,
      `MODIFIED active=[] last=${s.iso(first)} success=${doneAt}`,
      `MODIFIED active=[${second}] last=${s.iso(first + 5 * MINUTE)} success=${doneAt}`,
    ])
    expect(await s.cronEvents()).toEqual([
      `Normal SuccessfulCreate: Created job ${name}`,
      `Normal SawCompletedJob: Saw completed job: ${name}, condition: Complete`,
      `Normal SuccessfulCreate: Created job ${second}`,
    ])
  })

  it('Forbid: no new Job while one runs; Replace: the running Job is deleted for the new one', async () => {
    const s = setup()
    const f = await s.t.create('cronjobs', cronJob('forbid', { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid' }))
    await s.t.create('cronjobs', cronJob('replace', { schedule: '*/5 * * * *', concurrencyPolicy: 'Replace' }))
    const first = s.nextSlot(Date.parse(f.metadata.creationTimestamp), 5)
    await s.nextAlarm()
    await s.nextAlarm()
    const second = first + 5 * MINUTE
    expect(s.jobNames()).toEqual([s.jobName('forbid', first), s.jobName('replace', second)].sort())
    const events = await s.cronEvents()
    expect(events).toContain(
      'Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid',
    )
    expect(events).toContain(`Normal SuccessfulDelete: Deleted job ${s.jobName('replace', first)}`)
    const replace = s.t.view.get('cronjobs', 'replace')!.object as Obj
    expect(replace.status.active.map((r: Obj) => r.name)).toEqual([s.jobName('replace', second)])
  })

  it('suspend holds executions back', async () => {
    const s = setup()
    await s.t.create('cronjobs', cronJob('held', { schedule: '* * * * *', suspend: true }))
    await s.t.advance(10 * MINUTE)
    expect(s.jobNames()).toEqual([])
    expect(await s.statusLines()).toEqual(['ADDED active=[]'])
  })

  it('after downtime: one Job for the most recent missed time; none when it is past startingDeadlineSeconds', async () => {
    const s = setup()
    const a = await s.t.create('cronjobs', cronJob('late', { schedule: '0 * * * *' }))
    await s.t.create('cronjobs', cronJob('strict', { schedule: '0 * * * *', startingDeadlineSeconds: 60 }))
    const created = Date.parse(a.metadata.creationTimestamp)
    // Three hours pass with nobody looking, then the alarm rings 10 minutes past the hour.
    const hour = Math.floor(created / 3_600_000) * 3_600_000 + 3 * 3_600_000
    await s.t.advance(hour + 10 * MINUTE - s.t.clock())
    expect(s.jobNames()).toEqual([s.jobName('late', hour)])
    // kube looks no further back than startingDeadlineSeconds: the missed start is not owed at all.
    expect(await s.cronEvents()).toEqual([`Normal SuccessfulCreate: Created job ${s.jobName('late', hour)}`])
  })

  it('more than 100 missed times: TooManyMissedTimes, then the most recent one runs', async () => {
    const s = setup()
    await s.t.create('cronjobs', cronJob('busy', { schedule: '* * * * *' }))
    await s.t.advance(200 * MINUTE)
    expect(s.jobNames()).toHaveLength(1)
    expect(await s.cronEvents()).toContain(
      'Warning TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    )
  })

  it('history limits: the oldest finished Jobs beyond successfulJobsHistoryLimit and failedJobsHistoryLimit go', async () => {
    const s = setup()
    await s.t.create(
      'cronjobs',
      cronJob('kept', { schedule: '* * * * *', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 }),
    )
    const made: string[] = []
    for (const phase of ['Succeeded', 'Succeeded', 'Failed', 'Failed'] as const) {
      await s.nextAlarm()
      const newest = s.jobNames().find((n) => !made.includes(n))!
      made.push(newest)
      // A failure with the default backoffLimit would be retried: fail it for good.
      if (phase === 'Failed')
        await s.t.host.mutate('jobs', newest, (j) => ({ ...j, spec: { ...(j.spec as Obj), backoffLimit: 0 } }))
      await s.complete(newest, phase)
    }
    await s.nextAlarm()
    const names = s.jobNames()
    expect(names).not.toContain(made[0])
    expect(names).toContain(made[1])
    expect(names).not.toContain(made[2])
    expect(names).toContain(made[3])
    const events = await s.cronEvents()
    expect(events).toContain(`Normal SuccessfulDelete: Deleted job ${made[0]}`)
    expect(events).toContain(`Normal SuccessfulDelete: Deleted job ${made[2]}`)
  })

  it('a time zone: the schedule is read there and the annotation carries its offset', async () => {
    const s = setup()
    await s.t.create('cronjobs', cronJob('tokyo', { schedule: '30 * * * *', timeZone: 'Asia/Tokyo' }))
    const at = (await s.nextAlarm()) - 100
    const [name] = s.jobNames()
    const job = s.t.view.get('jobs', name!)!.object as Obj
    const wall = new Date(at + 9 * 3_600_000).toISOString().replace('.000Z', '+09:00')
    expect(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(wall)
    expect(new Date(at).getUTCMinutes()).toBe(30)
  })
})
