// What the Job controller reads off its pods (kube's pod_failure_policy.go and backoff_utils.go): the rule a failed
// pod matches (exit codes In/NotIn, a container name, init containers, pod conditions; the first rule decides), the
// FailJob messages, and the back-off before a replacement.
import { describe, expect, it } from 'vitest'
import type { JobSpec } from '../../../src/schema/batch'
import type { KubeObject } from '../../../src/schema/meta'
import {
  backoffRemaining,
  isPodFailed,
  matchPodFailurePolicy,
  nextBackoffRecord,
} from '../../../src/registry/batch/job-pods'

type Obj = Record<string, any>
const terminated = (name: string, exitCode: number, finishedAt = '2026-03-01T10:00:00Z') => ({
  name,
  state: { terminated: { exitCode, finishedAt } },
})
const pod = (status: Obj, meta: Obj = {}): KubeObject =>
  ({ metadata: { name: 'p', namespace: 'ns', ...meta }, status: { phase: 'Failed', ...status } }) as KubeObject
const policy = (rules: Obj[]) => ({ rules }) as NonNullable<JobSpec['podFailurePolicy']>

describe('matchPodFailurePolicy', () => {
  const rules = policy([
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
    { action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } },
  ])
  it('no policy: every failure counts', () => {
    expect(matchPodFailurePolicy(undefined, pod({}))).toEqual({ count: true })
  })
  it('a pod condition: Ignore, the failure is not counted', () => {
    const p = pod({
      conditions: [{ type: 'DisruptionTarget', status: 'True' }],
      containerStatuses: [terminated('main', 42)],
    })
    expect(matchPodFailurePolicy(rules, p)).toEqual({ count: false, action: 'Ignore' })
  })
  it('FailJob on a named container, with kube’s message', () => {
    expect(matchPodFailurePolicy(rules, pod({ containerStatuses: [terminated('main', 42)] }))).toEqual({
      failJob: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 1',
      count: true,
      action: 'FailJob',
    })
  })
  it('NotIn: any other non-zero code; zero codes never match; init containers are looked at too', () => {
    expect(matchPodFailurePolicy(rules, pod({ containerStatuses: [terminated('side', 7)] }))).toEqual({
      count: true,
      action: 'Count',
    })
    const init = pod({ containerStatuses: [terminated('main', 0)], initContainerStatuses: [terminated('setup', 1)] })
    expect(matchPodFailurePolicy(rules, init).failJob).toBe(
      'Container setup for pod ns/p failed with exit code 1 matching FailJob rule at index 3',
    )
  })
  it('a FailJob on a pod condition', () => {
    const p = policy([{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }])
    expect(matchPodFailurePolicy(p, pod({ conditions: [{ type: 'ConfigIssue', status: 'True' }] })).failJob).toBe(
      'Pod ns/p has condition ConfigIssue matching FailJob rule at index 0',
    )
  })
})

describe('failed pods and back-off', () => {
  it('a pod being deleted counts as failed unless only failed pods are replaced', () => {
    const deleting = pod({ phase: 'Running' }, { deletionTimestamp: '2026-03-01T10:00:00Z' })
    expect(isPodFailed(deleting, {} as JobSpec)).toBe(true)
    expect(isPodFailed(deleting, { podReplacementPolicy: 'Failed' } as JobSpec)).toBe(false)
  })
  it('10 s after one failure, doubling, at most 10 minutes; a success resets it', () => {
    const t = Date.parse('2026-03-01T10:00:00Z')
    const failedAt = (i: number) =>
      pod({ containerStatuses: [terminated('main', 1, new Date(t + i * 1000).toISOString())] })
    let record = nextBackoffRecord({ failuresAfterLastSuccess: 0, lastFailureTime: null }, [], [failedAt(0)])
    expect(backoffRemaining(record, t + 4000)).toBe(6000)
    record = nextBackoffRecord(record, [], [failedAt(1), failedAt(2)])
    expect(record.failuresAfterLastSuccess).toBe(3)
    expect(backoffRemaining(record, t + 2000)).toBe(40_000)
    record = nextBackoffRecord(
      record,
      [],
      Array.from({ length: 10 }, (_, i) => failedAt(3 + i)),
    )
    expect(backoffRemaining(record, t + 12_000)).toBe(600_000)
    const succeeded = pod({
      phase: 'Succeeded',
      containerStatuses: [terminated('main', 0, new Date(t + 20_000).toISOString())],
    })
    expect(nextBackoffRecord(record, [succeeded], [failedAt(21)])).toEqual({
      failuresAfterLastSuccess: 1,
      lastFailureTime: t + 21_000,
    })
  })
})
