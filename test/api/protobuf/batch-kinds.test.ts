// batch/v1 Job and CronJob protobuf bodies, built field by field from k8s.io/api batch/v1 generated.proto's numbers
// (independently of src/api/protobuf/batch-messages.ts) as kubectl 1.33's `create job` and `create cronjob` write
// them: Go's marshaller writes every non-pointer scalar, so zeros of value fields arrive and are dropped, pointer
// zeros are kept.
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'
import { envelope, I, M, type Part, S } from './proto-writer'

const meta = (name: string): Part => M(1, S(1, name), S(2, ''), S(3, ''), S(4, ''), S(5, ''), S(6, ''), I(7, 0), M(8))
/** A container with its empty workingDir: a value field's zero, written by Go and dropped on decoding. */
const container = M(2, S(1, 'x'), S(2, 'busybox'), S(3, 'sh'), S(3, '-c'), S(3, 'echo hi'), S(5, ''))

describe('batch/v1 protobuf bodies', () => {
  it('a Job as kubectl create job sends it', () => {
    const template = M(6, M(1, S(1, '')), M(2, container, S(3, 'Never')))
    const spec = M(2, template, I(5, false))
    const o = decodeKubeProtobuf(
      envelope('batch/v1', 'Job', [meta('x'), spec, M(3, I(4, 0), I(5, 0), I(6, 0), S(7, ''))]),
    ).object
    expect(o).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'x' },
      spec: {
        manualSelector: false,
        template: {
          metadata: {},
          spec: {
            containers: [{ name: 'x', image: 'busybox', command: ['sh', '-c', 'echo hi'] }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {},
    })
  })

  it('a CronJob with its job template, limits and a pod failure policy', () => {
    const rule = M(1, S(1, 'FailJob'), M(2, S(2, 'In'), I(3, 1), I(3, 42)))
    const jobSpec = M(2, I(7, 0), M(11, rule), M(6, M(2, container, S(3, 'Never'))))
    const spec = M(
      2,
      S(1, '*/1 * * * *'),
      S(3, 'Forbid'),
      I(4, false),
      M(5, M(1, S(1, 'x')), jobSpec),
      I(6, 3),
      I(7, 0),
    )
    const o = decodeKubeProtobuf(envelope('batch/v1', 'CronJob', [meta('x'), spec, M(3)])).object
    expect(o.spec).toEqual({
      schedule: '*/1 * * * *',
      concurrencyPolicy: 'Forbid',
      suspend: false,
      jobTemplate: {
        metadata: { name: 'x' },
        spec: {
          backoffLimit: 0,
          podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 42] } }] },
          template: {
            spec: {
              containers: [{ name: 'x', image: 'busybox', command: ['sh', '-c', 'echo hi'] }],
              restartPolicy: 'Never',
            },
          },
        },
      },
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 0,
    })
  })
})
