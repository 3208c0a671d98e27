// The Job controller on a namespace host whose kubelet the test plays, with a clock it moves: the exact watch events
// of a Job as its pods run and finish (kube's two-step counting through uncountedTerminatedPods, then the interim
// SuccessCriteriaMet/FailureTarget condition before Complete/Failed), parallelism, back-off between retries and
// BackoffLimitExceeded, Indexed Jobs, activeDeadlineSeconds, the pod failure policy, suspend and resume, the tracking
// finalizer, orphaned pods, and ttlSecondsAfterFinished.
import { describe, expect, it } from 'vitest'
import { job, jobHost, jobLine } from './job-host'

type Obj = Record<string, any>
const byName = (a: Obj, b: Obj) => (a.metadata.name < b.metadata.name ? -1 : 1)
const lines = async (t: ReturnType<typeof jobHost>) => (await t.events('jobs')).map(jobLine)
const eventTexts = async (t: ReturnType<typeof jobHost>) =>
  (await t.events('events')).map((e) => `${e.object.type} ${e.object.reason}: ${e.object.message}`)

/** Runs a live pod to the end: started (ready), then its containers exit. */
async function run(t: ReturnType<typeof jobHost>, name: string, phase: 'Succeeded' | 'Failed') {
  await t.start(name)
  await t.idle()
  await t.finish(name, phase)
  await t.idle()
}

describe('Job controller', () => {
  it('5 completions, parallelism 2: two pods at a time, each success counted in two writes, then Complete', async () => {
    const t = jobHost()
    await t.create('jobs', job('work', { completions: 5, parallelism: 2 }))
    const seen = new Set<string>()
    for (let live = t.livePods(); live.length > 0; live = t.livePods()) {
      expect(live.length).toBeLessThanOrEqual(2)
      // Every pod carries the tracking finalizer until the Job has counted it.
      for (const p of live) expect(p.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
      const next = live.sort(byName)[0]!
      seen.add(next.metadata.name)
      await run(t, next.metadata.name, 'Succeeded')
    }
    expect(seen.size).toBe(5)
    expect(t.pods().every((p) => p.metadata.finalizers === undefined && p.status.phase === 'Succeeded')).toBe(true)
    expect(await lines(t)).toEqual([
      'ADDED',
      'MODIFIED active=2 ready=0 terminating=0 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 uncounted=0/0 started',
      'MODIFIED active=2 ready=0 terminating=0 uncounted=1/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=1 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 succeeded=1 uncounted=0/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=1 uncounted=1/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=2 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 succeeded=2 uncounted=0/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=2 uncounted=1/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=3 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 succeeded=3 uncounted=0/0 started',
      'MODIFIED active=1 ready=0 terminating=0 succeeded=3 uncounted=1/0 started',
      'MODIFIED active=1 ready=0 terminating=0 succeeded=4 uncounted=0/0 started',
      'MODIFIED active=1 ready=1 terminating=0 succeeded=4 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=0 succeeded=4 uncounted=1/0 SuccessCriteriaMet=True(CompletionsReached) started',
      'MODIFIED ready=0 terminating=0 succeeded=5 uncounted=0/0 SuccessCriteriaMet=True(CompletionsReached) Complete=True(CompletionsReached) started completed',
    ])
    const done = t.view.get('jobs', 'work')!.object as Obj
    expect(done.status.conditions[1]).toMatchObject({ message: 'Reached expected number of succeeded pods' })
    expect(done.status.completionTime).toBe(done.status.conditions[1].lastTransitionTime)
    expect((await eventTexts(t)).filter((e) => !e.includes('SuccessfulCreate'))).toEqual([
      'Normal Completed: Job completed',
    ])
  })

  it('back-off: a failed pod is replaced after 10 s, then 20 s; the third failure exceeds backoffLimit 2', async () => {
    const t = jobHost()
    await t.create('jobs', job('flaky', { backoffLimit: 2 }, ['sh', '-c', 'exit 3']))
    const waits: number[] = []
    for (let i = 0; i < 3; i++) {
      const [pod] = t.livePods()
      expect(pod).toBeDefined()
      await run(t, pod!.metadata.name, 'Failed')
      if (i === 2) break
      waits.push((await t.alarms.next())! - t.clock())
      expect(t.livePods()).toHaveLength(0)
      await t.advance(waits[i]! - 1000)
      expect(t.livePods()).toHaveLength(0)
      await t.advance(1000)
    }
    expect(waits).toEqual([10_000, 20_000])
    expect(t.livePods()).toHaveLength(0)
    expect(await lines(t)).toEqual([
      'ADDED',
      'MODIFIED active=1 ready=0 terminating=0 uncounted=0/0 started',
      'MODIFIED active=1 ready=1 terminating=0 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=0 uncounted=0/1 started',
      'MODIFIED ready=0 terminating=0 failed=1 uncounted=0/0 started',
      'MODIFIED active=1 ready=0 terminating=0 failed=1 uncounted=0/0 started',
      'MODIFIED active=1 ready=1 terminating=0 failed=1 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=0 failed=1 uncounted=0/1 started',
      'MODIFIED ready=0 terminating=0 failed=2 uncounted=0/0 started',
      'MODIFIED active=1 ready=0 terminating=0 failed=2 uncounted=0/0 started',
      'MODIFIED active=1 ready=1 terminating=0 failed=2 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=0 failed=2 uncounted=0/1 FailureTarget=True(BackoffLimitExceeded) started',
      'MODIFIED ready=0 terminating=0 failed=3 uncounted=0/0 FailureTarget=True(BackoffLimitExceeded) Failed=True(BackoffLimitExceeded) started',
    ])
    const failed = t.view.get('jobs', 'flaky')!.object as Obj
    expect(failed.status.conditions[1]).toMatchObject({ message: 'Job has reached the specified backoff limit' })
    expect(failed.status.completionTime).toBeUndefined()
    expect((await eventTexts(t)).at(-1)).toBe(
      'Warning BackoffLimitExceeded: Job has reached the specified backoff limit',
    )
  })

  it('Indexed: one pod per index (annotation, label, hostname, JOB_COMPLETION_INDEX), completedIndexes as intervals', async () => {
    const t = jobHost()
    await t.create('jobs', job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }))
    const pods = t.pods().sort(byName)
    expect(pods.map((p) => p.metadata.generateName)).toEqual(['idx-0-', 'idx-1-', 'idx-2-'])
    pods.forEach((p, i) => {
      expect(p.metadata.annotations).toEqual({ 'batch.kubernetes.io/job-completion-index': String(i) })
      expect(p.metadata.labels['batch.kubernetes.io/job-completion-index']).toBe(String(i))
      expect(p.spec.hostname).toBe(`idx-${i}`)
      expect(p.spec.containers[0].env).toEqual([
        {
          name: 'JOB_COMPLETION_INDEX',
          valueFrom: {
            fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" },
          },
        },
      ])
    })
    for (const i of [1, 0, 2]) await run(t, pods[i]!.metadata.name, 'Succeeded')
    expect(await lines(t)).toEqual([
      'ADDED',
      'MODIFIED active=3 ready=0 terminating=0 uncounted=0/0 started',
      'MODIFIED active=3 ready=1 terminating=0 uncounted=0/0 started',
      'MODIFIED active=2 ready=0 terminating=0 succeeded=1 completedIndexes=1 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 succeeded=1 completedIndexes=1 uncounted=0/0 started',
      'MODIFIED active=1 ready=0 terminating=0 succeeded=2 completedIndexes=0-1 uncounted=0/0 started',
      'MODIFIED active=1 ready=1 terminating=0 succeeded=2 completedIndexes=0-1 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=0 succeeded=3 completedIndexes=0-2 uncounted=0/0 SuccessCriteriaMet=True(CompletionsReached) started',
      'MODIFIED ready=0 terminating=0 succeeded=3 completedIndexes=0-2 uncounted=0/0 SuccessCriteriaMet=True(CompletionsReached) Complete=True(CompletionsReached) started completed',
    ])
  })

  it('an Indexed pod that fails is replaced on the same index', async () => {
    const t = jobHost()
    await t.create('jobs', job('idx', { completions: 2, parallelism: 2, completionMode: 'Indexed' }))
    const one = t.pods().find((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'] === '1')!
    await run(t, one.metadata.name, 'Failed')
    await t.advance(10_000)
    const replacement = t
      .livePods()
      .find((p) => p.metadata.name !== one.metadata.name && p.metadata.generateName === 'idx-1-')
    expect(replacement?.metadata.annotations['batch.kubernetes.io/job-completion-index']).toBe('1')
  })

  it('backoffLimitPerIndex: an index is retried with its failure count, then failed; the Job fails with FailedIndexes', async () => {
    const t = jobHost()
    await t.create(
      'jobs',
      job('per', { completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 1 }, [
        'sh',
        '-c',
        'exit 3',
      ]),
    )
    const ofIndex = (i: number) =>
      t.livePods().find((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'] === String(i))!
    expect(ofIndex(0).metadata.annotations['batch.kubernetes.io/job-index-failure-count']).toBe('0')
    const first = ofIndex(0).metadata.name
    await run(t, first, 'Failed')
    // The failed pod keeps its finalizer until its replacement, 10 s later, carries the count on.
    expect(t.pods().find((p) => p.metadata.name === first)!.metadata.finalizers).toEqual([
      'batch.kubernetes.io/job-tracking',
    ])
    await t.advance(10_000)
    expect(ofIndex(0).metadata.annotations['batch.kubernetes.io/job-index-failure-count']).toBe('1')
    expect(t.pods().find((p) => p.metadata.name === first)!.metadata.finalizers).toBeUndefined()
    await run(t, ofIndex(0).metadata.name, 'Failed')
    expect((t.view.get('jobs', 'per')!.object as Obj).status.failedIndexes).toBe('0')
    await run(t, ofIndex(1).metadata.name, 'Succeeded')
    const done = t.view.get('jobs', 'per')!.object as Obj
    expect(done.status).toMatchObject({ completedIndexes: '1', failedIndexes: '0', failed: 2, succeeded: 1 })
    expect(done.status.conditions.map((c: Obj) => `${c.type}=${c.status}(${c.reason})`)).toEqual([
      'FailureTarget=True(FailedIndexes)',
      'Failed=True(FailedIndexes)',
    ])
  })

  it('a FailIndex rule fails the index at once', async () => {
    const t = jobHost()
    await t.create(
      'jobs',
      job(
        'fi',
        {
          completions: 2,
          parallelism: 1,
          completionMode: 'Indexed',
          backoffLimitPerIndex: 3,
          maxFailedIndexes: 0,
          podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } }] },
        },
        ['sh', '-c', 'exit 3'],
      ),
    )
    await run(t, t.livePods()[0]!.metadata.name, 'Failed')
    const failed = t.view.get('jobs', 'fi')!.object as Obj
    expect(failed.status.failedIndexes).toBe('0')
    expect(failed.status.conditions.at(-1)).toMatchObject({
      type: 'Failed',
      reason: 'MaxFailedIndexesExceeded',
      message: 'Job has exceeded the specified maximal number of failed indexes',
    })
  })

  it('activeDeadlineSeconds: active pods are deleted, counted as failed, then the Job fails with DeadlineExceeded', async () => {
    const t = jobHost()
    await t.create(
      'jobs',
      job('slow', { activeDeadlineSeconds: 30, parallelism: 2, completions: 4 }, ['sleep', '3600']),
    )
    for (const p of t.pods()) await t.start(p.metadata.name)
    await t.idle()
    expect((await t.alarms.next())! - t.clock()).toBe(30_000)
    await t.advance(29_000)
    expect(t.livePods()).toHaveLength(2)
    await t.advance(1_000)
    await t.confirmDeletions()
    await t.idle()
    expect(t.pods()).toHaveLength(0)
    expect(await lines(t)).toEqual([
      'ADDED',
      'MODIFIED active=2 ready=0 terminating=0 uncounted=0/0 started',
      'MODIFIED active=2 ready=1 terminating=0 uncounted=0/0 started',
      'MODIFIED active=2 ready=2 terminating=0 uncounted=0/0 started',
      'MODIFIED ready=0 terminating=2 uncounted=0/2 FailureTarget=True(DeadlineExceeded) started',
      'MODIFIED ready=0 terminating=2 failed=2 uncounted=0/0 FailureTarget=True(DeadlineExceeded) started',
      'MODIFIED ready=0 terminating=0 failed=2 uncounted=0/0 FailureTarget=True(DeadlineExceeded) started',
      'MODIFIED ready=0 terminating=0 failed=2 uncounted=0/0 FailureTarget=True(DeadlineExceeded) Failed=True(DeadlineExceeded) started',
    ])
    const events = await eventTexts(t)
    expect(events.filter((e) => e.includes('SuccessfulDelete'))).toHaveLength(2)
    expect(events.at(-1)).toBe('Warning DeadlineExceeded: Job was active longer than specified deadline')
  })

  it('pod failure policy: Ignore does not count the failure, FailJob fails the Job with the rule in its message', async () => {
    const policy = {
      rules: [
        { action: 'Ignore', onExitCodes: { operator: 'In', values: [3] } },
        { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
      ],
    }
    const t = jobHost()
    await t.create('jobs', job('ignored', { podFailurePolicy: policy, backoffLimit: 0 }, ['sh', '-c', 'exit 3']))
    await run(t, t.livePods()[0]!.metadata.name, 'Failed')
    expect((t.view.get('jobs', 'ignored')!.object as Obj).status.failed).toBeUndefined()
    await t.advance(10_000)
    expect(t.livePods()).toHaveLength(1)

    await t.create('jobs', job('fatal', { podFailurePolicy: policy }, ['sh', '-c', 'exit 42']))
    const pod = t.livePods().find((p) => p.metadata.generateName === 'fatal-')!
    await run(t, pod.metadata.name, 'Failed')
    const fatal = t.view.get('jobs', 'fatal')!.object as Obj
    expect(fatal.status.conditions.map((c: Obj) => `${c.type}=${c.status} ${c.reason}: ${c.message}`)).toEqual([
      `FailureTarget=True PodFailurePolicy: Container main for pod ns/${pod.metadata.name} failed with exit code 42 matching FailJob rule at index 1`,
      `Failed=True PodFailurePolicy: Container main for pod ns/${pod.metadata.name} failed with exit code 42 matching FailJob rule at index 1`,
    ])
    expect(fatal.status.failed).toBe(1)
  })

  it('suspend: no pods while suspended (Suspended=True); resume creates them and restarts the clock', async () => {
    const t = jobHost()
    await t.create('jobs', job('later', { suspend: true, parallelism: 2, completions: 2 }))
    expect(t.pods()).toHaveLength(0)
    await t.advance(5_000)
    const r = await t.host.mutate('jobs', 'later', (j) => ({ ...j, spec: { ...(j.spec as Obj), suspend: false } }))
    expect(r.ok).toBe(true)
    await t.idle()
    expect(t.livePods()).toHaveLength(2)
    const resumed = t.view.get('jobs', 'later')!.object as Obj
    expect(resumed.status.startTime).toBe(new Date(t.clock()).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    await t.host.mutate('jobs', 'later', (j) => ({ ...j, spec: { ...(j.spec as Obj), suspend: true } }))
    await t.idle()
    expect(t.livePods()).toHaveLength(0)
    expect(await lines(t)).toEqual([
      'ADDED',
      'MODIFIED ready=0 terminating=0 uncounted=0/0 Suspended=True(JobSuspended)',
      'MODIFIED ready=0 terminating=0 uncounted=0/0 Suspended=True(JobSuspended)',
      'MODIFIED active=2 ready=0 terminating=0 uncounted=0/0 Suspended=False(JobResumed) started',
      'MODIFIED active=2 ready=0 terminating=0 uncounted=0/0 Suspended=False(JobResumed) started',
      'MODIFIED ready=0 terminating=2 uncounted=0/0 Suspended=True(JobSuspended) started',
      // The pods never ran (nothing bound them), so their deletion needed no grace period.
      'MODIFIED ready=0 terminating=0 uncounted=0/0 Suspended=True(JobSuspended) started',
    ])
    expect((await eventTexts(t)).filter((e) => /Suspended|Resumed/.test(e))).toEqual([
      'Normal Suspended: Job suspended',
      'Normal Resumed: Job resumed',
      'Normal Suspended: Job suspended',
    ])
  })

  it('a deleted Job leaves no tracking finalizer behind', async () => {
    const t = jobHost()
    await t.create('jobs', job('gone', { parallelism: 2, completions: 2 }, ['sleep', '3600']))
    expect(t.livePods().every((p) => p.metadata.finalizers?.includes('batch.kubernetes.io/job-tracking'))).toBe(true)
    const r = await t.host.delete('jobs', 'gone', { propagationPolicy: 'Orphan' })
    expect(r.ok).toBe(true)
    await t.idle()
    expect(t.view.get('jobs', 'gone')).toBeNull()
    expect(t.pods()).toHaveLength(2)
    expect(t.pods().every((p) => p.metadata.finalizers === undefined && p.metadata.ownerReferences === undefined)).toBe(
      true,
    )
  })

  it('ttlSecondsAfterFinished: the finished Job and its pods are deleted once the TTL has passed', async () => {
    const t = jobHost()
    await t.create('jobs', job('short', { ttlSecondsAfterFinished: 100 }))
    await run(t, t.livePods()[0]!.metadata.name, 'Succeeded')
    expect((await t.alarms.next())! - t.clock()).toBe(100_000)
    await t.advance(99_000)
    expect(t.view.get('jobs', 'short')).not.toBeNull()
    await t.advance(1_000)
    expect(t.view.get('jobs', 'short')).toBeNull()
    expect(t.pods()).toHaveLength(0)
    const deleted = (await t.events('jobs')).at(-1)!
    expect(deleted.type).toBe('DELETED')
  })
})
