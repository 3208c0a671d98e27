// The simulated container lifecycle after start, as kubelet 1.33 runs it: restartPolicy decides whether an exited
// container runs again, the crash-loop back-off when (at once, then 10s doubling to 5m from the exit, reset after a run
// longer than 10 minutes), and a step at any later time replays the exits and restarts that fell due meanwhile.
import { describe, expect, it } from 'vitest'
import { backoffMs, restartsAfter, stepContainers } from '../../src/registry/container-restarts'

type Obj = Record<string, any>
const T0 = Date.parse('2026-01-01T00:00:00Z')
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
const idOf = (name: string, run: number) => `id-${name}-${run}`

function pod(policy: string | undefined, script: string, extra: Obj[] = []): Obj {
  const containers = [{ name: 'c', image: 'busybox', command: ['sh', '-c', script] }, ...extra]
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { restartPolicy: policy, containers },
    status: {
      phase: 'Running',
      containerStatuses: containers.map((c) => ({
        name: c.name,
        state: { running: { startedAt: at(0) } },
        lastState: {},
        ready: true,
        restartCount: 0,
        containerID: idOf(c.name, 0),
        started: true,
      })),
    },
  }
}

/** Steps the pod to `s` seconds after T0, keeping what the step wrote. */
function stepTo(p: Obj, s: number) {
  const r = stepContainers(p, T0 + s * 1000, idOf)
  p.status.containerStatuses = r.statuses
  return r
}

describe('restartsAfter and backoffMs', () => {
  it('follow the restart policy and flowcontrol.Backoff', () => {
    expect([restartsAfter(undefined, 0), restartsAfter('Always', 0), restartsAfter('OnFailure', 0)]).toEqual([
      true,
      true,
      false,
    ])
    expect([restartsAfter('OnFailure', 2), restartsAfter('Never', 1)]).toEqual([true, false])
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => backoffMs(n, 1000) / 1000)).toEqual([0, 10, 20, 40, 80, 160, 300, 300])
    // A run longer than twice the cap finds the back-off expired: at once.
    expect(backoffMs(5, 601_000)).toBe(0)
  })
})

describe('stepContainers', () => {
  it('Always: the first exit restarts at once, the next waits in CrashLoopBackOff, then 10s, 20s, 40s', () => {
    const p = pod('Always', 'echo hi; sleep 2; exit 3')
    expect(stepTo(p, 1)).toMatchObject({ changed: false, due: T0 + 2000 })
    const first = stepTo(p, 2)
    expect(first).toMatchObject({ changed: true, restarted: ['c'], exits: [{ name: 'c', run: 0 }], due: T0 + 4000 })
    expect(p.status.containerStatuses[0]).toMatchObject({
      state: { running: { startedAt: at(2) } },
      lastState: {
        terminated: { exitCode: 3, reason: 'Error', startedAt: at(0), finishedAt: at(2), containerID: idOf('c', 0) },
      },
      ready: true,
      restartCount: 1,
      containerID: idOf('c', 1),
      started: true,
    })
    const second = stepTo(p, 4)
    expect(second.backedOff).toEqual([
      { name: 'c', message: 'back-off 10s restarting failed container=c pod=p_ns(u1)' },
    ])
    expect(second.due).toBe(T0 + 14_000)
    expect(p.status.containerStatuses[0]).toMatchObject({
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { startedAt: at(2), finishedAt: at(4), containerID: idOf('c', 1) } },
      ready: false,
      started: false,
      restartCount: 1,
      containerID: idOf('c', 1),
    })
    expect(stepTo(p, 13).changed).toBe(false)
    // At 14: started again (restart 2), exits at 16, back-off 20s to 36; started at 36 (restart 3), exits at 38,
    // back-off 40s: one later step replays all of it.
    const caughtUp = stepTo(p, 40)
    expect(caughtUp.restarted).toEqual(['c', 'c'])
    expect(caughtUp.exits.map((e) => e.run)).toEqual([2, 3])
    expect(p.status.containerStatuses[0]).toMatchObject({
      state: { waiting: { message: 'back-off 40s restarting failed container=c pod=p_ns(u1)' } },
      lastState: { terminated: { startedAt: at(36), finishedAt: at(38) } },
      restartCount: 3,
    })
    expect(caughtUp.due).toBe(T0 + 78_000)
  })

  it('the back-off caps at 5m0s', () => {
    const p = pod('Always', 'exit 1')
    p.status.containerStatuses[0].restartCount = 7
    stepTo(p, 0)
    expect(p.status.containerStatuses[0].state.waiting.message).toBe(
      'back-off 5m0s restarting failed container=c pod=p_ns(u1)',
    )
  })

  it('Always restarts a container that exits 0 too (Completed as lastState)', () => {
    const p = pod(undefined, 'true')
    stepTo(p, 0)
    expect(p.status.containerStatuses[0]).toMatchObject({
      restartCount: 1,
      lastState: { terminated: { exitCode: 0, reason: 'Completed' } },
    })
  })

  it('OnFailure restarts a failing container and leaves one that succeeded terminated; Never restarts nothing', () => {
    const onFailure = pod('OnFailure', 'exit 2', [{ name: 'ok', image: 'busybox', command: ['sh', '-c', 'sleep 1'] }])
    stepTo(onFailure, 5)
    expect(
      onFailure.status.containerStatuses.map((s: Obj) => [s.name, s.restartCount, Object.keys(s.state)[0]]),
    ).toEqual([
      ['c', 1, 'waiting'],
      ['ok', 0, 'terminated'],
    ])
    expect(onFailure.status.containerStatuses[1].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' })
    const never = pod('Never', 'sleep 1; exit 1', [{ name: 'server', image: 'nginx' }])
    const r = stepTo(never, 3)
    expect(r.restarted).toEqual([])
    expect(never.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, finishedAt: at(1) })
    expect(never.status.containerStatuses[1].state.running).toBeDefined()
    expect(r.due).toBeNull()
  })

  it('a container whose program never exits is left alone', () => {
    const p = pod('Always', 'nginx -g daemon off;')
    expect(stepTo(p, 10_000)).toMatchObject({ changed: false, due: null })
  })

  it('a sidecar whose program exits restarts whatever the pod restartPolicy, with its own back-off', () => {
    const p = pod('Never', 'sleep 3600')
    p.spec.initContainers = [
      { name: 'side', image: 'busybox', restartPolicy: 'Always', command: ['sh', '-c', 'exit 1'] },
      { name: 'setup', image: 'busybox', command: ['sh', '-c', 'exit 0'] },
    ]
    p.status.initContainerStatuses = [
      { name: 'side', state: { running: { startedAt: at(0) } }, lastState: {}, ready: true, restartCount: 0 },
      { name: 'setup', state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: true, restartCount: 0 },
    ]
    const r = stepContainers(p, T0, idOf)
    expect(r.restarted).toEqual(['side'])
    expect(r.initStatuses[0]).toMatchObject({
      restartCount: 1,
      state: {
        waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=side pod=p_ns(u1)' },
      },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    })
    expect(r.initStatuses[1]).toBe(p.status.initContainerStatuses[1])
    expect(r.statuses[0]).toBe(p.status.containerStatuses[0])
    expect(r.due).toBe(T0 + 10_000)
  })

  it('catches up a long sleep in bounded steps, and leaves a status without times alone', () => {
    const p = pod('Always', 'exit 1')
    // A year of crash-looping at the 5m cap is over 100,000 restarts: each step replays a bounded part and asks for
    // the next at once.
    const year = 365 * 86400
    const first = stepTo(p, year)
    expect(first.due).toBe(T0 + year * 1000)
    expect(p.status.containerStatuses[0].restartCount).toBeGreaterThan(400)
    expect(p.status.containerStatuses[0].restartCount).toBeLessThan(1001)
    const broken = pod('Always', 'exit 1')
    broken.status.containerStatuses[0].state = { running: {} }
    expect(stepTo(broken, 10)).toMatchObject({ changed: false, due: null })
  })
})
