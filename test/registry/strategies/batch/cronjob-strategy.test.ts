// The CronJob strategy through the pure store, table-driven against kube 1.33: SetDefaults_CronJob and
// validateCronJobSpec's messages (schedule, TZ in the schedule, time zone, concurrency policy, job template, history
// limits, the 52-character name), and what an update may keep.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result, Status } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
type Obj = Record<string, any>

const cronJob = (spec: Obj = {}, name = 'hello'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: 'default' },
  spec: {
    schedule: '*/5 * * * *',
    jobTemplate: {
      spec: {
        template: {
          spec: { containers: [{ name: 'c', image: 'busybox', command: ['date'] }], restartPolicy: 'OnFailure' },
        },
      },
    },
    ...spec,
  },
})
const create = (body: KubeObject) => planCreate(resourceByPlural('cronjobs')!, ctx, structuredClone(body), () => false)
function refusal(r: Result<unknown>): Status {
  if (r.ok) throw new Error('expected a refusal')
  return r.status
}

describe('CronJob defaults', () => {
  it('concurrencyPolicy Allow, not suspended, history limits 3 and 1; the Job fields are left to the Jobs', () => {
    const r = create(cronJob())
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Obj
    expect(o.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    })
    expect(o.spec.jobTemplate.spec.backoffLimit).toBeUndefined()
    expect(o.spec.jobTemplate.spec.template.spec.dnsPolicy).toBe('ClusterFirst')
    expect(o.status).toEqual({})
    expect(o.metadata.generation).toBe(1)
  })
})

describe('CronJob validation', () => {
  const cases: [string, KubeObject, string][] = [
    ['no schedule', cronJob({ schedule: '' }), 'CronJob.batch "hello" is invalid: spec.schedule: Required value'],
    [
      'a schedule robfig/cron refuses',
      cronJob({ schedule: '61 * * * *' }),
      'CronJob.batch "hello" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    ],
    [
      'six fields',
      cronJob({ schedule: '0 0 * * * *' }),
      'CronJob.batch "hello" is invalid: spec.schedule: Invalid value: "0 0 * * * *": expected exactly 5 fields, found 6: [0 0 * * * *]',
    ],
    [
      'TZ in the schedule',
      cronJob({ schedule: 'TZ=UTC 0 * * * *' }),
      'CronJob.batch "hello" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ],
    [
      'an unknown time zone',
      cronJob({ timeZone: 'Mars/Olympus' }),
      'CronJob.batch "hello" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    ],
    [
      'a time zone part that is not a name',
      cronJob({ timeZone: 'Europe/Paris Nord' }),
      'CronJob.batch "hello" is invalid: spec.timeZone: Invalid value: "Europe/Paris Nord": unknown time zone Europe/Paris Nord',
    ],
    [
      'Local',
      cronJob({ timeZone: 'Local' }),
      'CronJob.batch "hello" is invalid: spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ],
    [
      'an empty time zone',
      cronJob({ timeZone: '' }),
      'CronJob.batch "hello" is invalid: spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string',
    ],
    [
      'an unknown concurrency policy',
      cronJob({ concurrencyPolicy: 'Sometimes' }),
      'CronJob.batch "hello" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
    ],
    [
      'negative deadlines and limits',
      cronJob({ startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -2, failedJobsHistoryLimit: -3 }),
      'CronJob.batch "hello" is invalid: [spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.successfulJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0, spec.failedJobsHistoryLimit: Invalid value: -3: must be greater than or equal to 0]',
    ],
    [
      'a job template with a selector, manualSelector and an Always restart policy',
      cronJob({
        jobTemplate: {
          spec: {
            manualSelector: true,
            selector: { matchLabels: { a: 'b' } },
            template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } },
          },
        },
      }),
      'CronJob.batch "hello" is invalid: [spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never", spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated, spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"]',
    ],
    [
      'a name its Jobs could not carry',
      cronJob({}, 'a'.repeat(53)),
      `CronJob.batch "${'a'.repeat(53)}" is invalid: metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`,
    ],
  ]
  for (const [name, body, message] of cases) {
    it(name, () => {
      const s = refusal(create(body))
      expect(s.code).toBe(422)
      expect(s.message).toBe(message)
    })
  }

  it('an update bumps generation (the name limit is for creates only)', () => {
    const r = create(cronJob({}, 'a'.repeat(52)))
    if (!r.ok) throw new Error(r.status.message)
    const current = {
      rv: 3,
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '3' } },
    }
    const next = structuredClone(current.object) as Obj
    next.spec.suspend = true
    const u = planUpdate(resourceByPlural('cronjobs')!, ctx, current.object.metadata.name!, next as KubeObject, current)
    if (!u.ok) throw new Error(u.status.message)
    expect(u.value.object.metadata.generation).toBe(2)
  })
})
