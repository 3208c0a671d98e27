// The simulated kubelet restarting containers whose programs exit (zero start delay): restartPolicy Always and
// OnFailure start them again, the second exit waits in CrashLoopBackOff with kube's message, restartCount and
// lastState, the pod stays Running with ContainersReady and Ready False, and the kubelet records BackOff. Never leaves
// an exited container terminated while the others run.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

type Obj = Record<string, any>

async function crashLooping(policy: 'Always' | 'OnFailure') {
  const ns = await makeNamespace('restart')
  const p = pod('crash', {}, { restartPolicy: policy })
  ;(p.spec.containers[0] as Obj).command = ['sh', '-c', 'echo try; exit 3']
  expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
  const looping = await waitFor(async () => {
    const g = (await req('GET', `/api/v1/namespaces/${ns}/pods/crash`)).json
    return g.status?.containerStatuses?.[0]?.state?.waiting ? g : undefined
  }, 8000)
  return { ns, looping }
}

describe('simulated container restarts', () => {
  for (const policy of ['Always', 'OnFailure'] as const) {
    it(`${policy}: a failing container restarts at once, then waits in CrashLoopBackOff`, async () => {
      const { ns, looping } = await crashLooping(policy)
      const uid = looping.metadata.uid
      const s = looping.status.containerStatuses[0]
      expect(looping.status.phase).toBe('Running')
      expect(s.state.waiting).toEqual({
        reason: 'CrashLoopBackOff',
        message: `back-off 10s restarting failed container=c pod=crash_${ns}(${uid})`,
      })
      expect(s.restartCount).toBe(1)
      expect(s.ready).toBe(false)
      expect(s.started).toBe(false)
      expect(s.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error', containerID: s.containerID })
      const conditions = Object.fromEntries(looping.status.conditions.map((c: Obj) => [c.type, c]))
      for (const type of ['ContainersReady', 'Ready'])
        expect(conditions[type]).toMatchObject({
          status: 'False',
          reason: 'ContainersNotReady',
          message: 'containers with unready status: [c]',
        })
      // Events are written after the status they follow.
      const events = await waitFor(async () => {
        const items = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
        return items.some((e) => e.reason === 'BackOff') ? items : undefined
      })
      const backOff = events.find((e) => e.reason === 'BackOff')
      expect(backOff).toMatchObject({
        type: 'Warning',
        message: `Back-off restarting failed container c in pod crash_${ns}(${uid})`,
        involvedObject: { fieldPath: 'spec.containers{c}' },
        source: { component: 'kubelet' },
      })
      expect(events.filter((e) => e.reason === 'Started').reduce((n, e) => n + (e.count ?? 1), 0)).toBe(2)
      // Each run wrote its line; the log is the newest run's (the one in lastState while it waits), as is --previous.
      const log = (q = '') => req('GET', `/api/v1/namespaces/${ns}/pods/crash/log?timestamps=true${q}`)
      const newest = (await log()).text
      expect(newest).toMatch(/^\S+ try\n$/)
      expect((await log('&previous=true')).text).toBe(newest)
    })
  }

  it('Never: a container that exits ends while the others run; the pod is Running and not Ready', async () => {
    const ns = await makeNamespace('restart')
    const p = pod('mixed', {}, { restartPolicy: 'Never' })
    p.spec.containers = [
      { name: 'once', image: 'busybox', command: ['sh', '-c', 'exit 1'] } as Obj as (typeof p.spec.containers)[0],
      { name: 'server', image: 'nginx:1.25' },
    ]
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    const ended = await waitFor(async () => {
      const g = (await req('GET', `/api/v1/namespaces/${ns}/pods/mixed`)).json
      return g.status?.containerStatuses?.[0]?.state?.terminated ? g : undefined
    }, 8000)
    expect(ended.status.phase).toBe('Running')
    expect(ended.status.containerStatuses[0]).toMatchObject({
      restartCount: 0,
      ready: false,
      state: { terminated: { exitCode: 1, reason: 'Error' } },
    })
    expect(ended.status.containerStatuses[1].state.running).toBeDefined()
    const ready = ended.status.conditions.find((c: Obj) => c.type === 'Ready')
    expect(ready).toMatchObject({ status: 'False', message: 'containers with unready status: [once]' })
    // Never restarted: there is no previous run.
    const previous = await req('GET', `/api/v1/namespaces/${ns}/pods/mixed/log?container=once&previous=true`)
    expect(previous.status).toBe(400)
    expect(previous.json.message).toBe('previous terminated container "once" in pod "mixed" not found')
  })

  it('an OnFailure Job whose container keeps failing reaches its backoffLimit through restart counts', async () => {
    const ns = await makeNamespace('restart')
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'flaky' },
      spec: {
        backoffLimit: 1,
        template: {
          spec: {
            restartPolicy: 'OnFailure',
            containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 1'] }],
          },
        },
      },
    }
    const created = await req('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, job)
    expect(created.status, created.text).toBe(201)
    const failed = await waitFor(async () => {
      const j = (await req('GET', `/apis/batch/v1/namespaces/${ns}/jobs/flaky`)).json
      return (j.status?.conditions ?? []).find((c: Obj) => c.type === 'Failed' && c.status === 'True')
    }, 8000)
    expect(failed).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    })
  })

  it('a sidecar whose program fails restarts and backs off while the pod runs', async () => {
    const ns = await makeNamespace('restart')
    const p = pod('with-side', {}, { restartPolicy: 'Never' }) as Obj
    p.spec.initContainers = [
      { name: 'side', image: 'busybox', restartPolicy: 'Always', command: ['sh', '-c', 'echo up; exit 1'] },
    ]
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    const looping = await waitFor(async () => {
      const g = (await req('GET', `/api/v1/namespaces/${ns}/pods/with-side`)).json
      return g.status?.initContainerStatuses?.[0]?.state?.waiting ? g : undefined
    }, 8000)
    expect(looping.status.phase).toBe('Running')
    expect(looping.status.initContainerStatuses[0]).toMatchObject({
      restartCount: 1,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1 } },
    })
    expect(looping.status.conditions.find((c: Obj) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      message: 'containers with unready status: [side]',
    })
    const events = await waitFor(async () => {
      const items = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
      return items.some((e) => e.reason === 'BackOff') ? items : undefined
    })
    expect(events.find((e) => e.reason === 'BackOff')?.involvedObject.fieldPath).toBe('spec.initContainers{side}')
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/with-side/log?container=side`)).text).toBe('up\n')
  })

  it('deleting a pod kills only its running containers (Killing), not one waiting in CrashLoopBackOff', async () => {
    const ns = await makeNamespace('restart')
    const p = pod('two', {}, { restartPolicy: 'Always' }) as Obj
    p.spec.containers = [
      { name: 'crash', image: 'busybox', command: ['sh', '-c', 'exit 1'] },
      { name: 'server', image: 'nginx:1.25' },
    ]
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    await waitFor(async () => {
      const g = (await req('GET', `/api/v1/namespaces/${ns}/pods/two`)).json
      return g.status?.containerStatuses?.[0]?.state?.waiting ? g : undefined
    }, 8000)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/pods/two`)).status).toBe(200)
    const killing = await waitFor(async () => {
      const items = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
      const k = items.filter((e) => e.reason === 'Killing')
      return k.length ? k : undefined
    }, 8000)
    expect(killing.map((e) => e.message)).toEqual(['Stopping container server'])
  })
})
