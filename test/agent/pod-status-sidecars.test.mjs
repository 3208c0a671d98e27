// The pod status of pods with native sidecars and ephemeral containers, as kubelet 1.33 reports it: getPhase's
// sidecar cases, Initialized once the sidecars started, ContainersReady counting the sidecars.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { podPhase, podStatus } from '../../agent/pod-status.ts'

const running = (name, { started = true, ready = started } = {}) => ({
  name,
  state: { running: { startedAt: 't' } },
  lastState: {},
  ready,
  started,
})
const exited = (name, exitCode) => ({ name, state: { terminated: { exitCode, finishedAt: 't' } }, lastState: {} })
const backingOff = (name, exitCode) => ({
  name,
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: { terminated: { exitCode } },
})
const creating = (name) => ({ name, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {} })
const initializing = (name) => ({ name, state: { waiting: { reason: 'PodInitializing' } }, lastState: {} })
/** A pod with a sidecar `side` (and a regular init container `i` when asked) and the container `a`. */
const pod = (restartPolicy, { regularInit = false } = {}) => ({
  metadata: { name: 'p', namespace: 'n', uid: 'u' },
  spec: {
    restartPolicy,
    initContainers: [{ name: 'side', restartPolicy: 'Always' }, ...(regularInit ? [{ name: 'i' }] : [])],
    containers: [{ name: 'a' }],
  },
})

describe('podPhase with sidecars (kubelet 1.33 getPhase)', () => {
  const cases = [
    ['sidecar being created', pod('Always'), [creating('side')], [initializing('a')], 'Pending'],
    [
      'sidecar past no startup probe yet',
      pod('Always'),
      [running('side', { started: false })],
      [initializing('a')],
      'Pending',
    ],
    [
      'sidecar started, init running',
      pod('Always', { regularInit: true }),
      [running('side'), running('i')],
      [initializing('a')],
      'Pending',
    ],
    ['sidecar and container running', pod('Always'), [running('side')], [running('a')], 'Running'],
    [
      'sidecar restarting, container running',
      pod('Never'),
      [running('side', { started: false })],
      [running('a')],
      'Running',
    ],
    ['sidecar backing off, container running', pod('Never'), [backingOff('side', 1)], [running('a')], 'Running'],
    ['container done, sidecar still running (Never)', pod('Never'), [running('side')], [exited('a', 0)], 'Running'],
    ['container done, sidecar stopped (Never)', pod('Never'), [exited('side', 143)], [exited('a', 0)], 'Succeeded'],
    ['container failed, sidecar stopped (Never)', pod('Never'), [exited('side', 0)], [exited('a', 1)], 'Failed'],
    [
      'container done, sidecar stopped (OnFailure)',
      pod('OnFailure'),
      [exited('side', 137)],
      [exited('a', 0)],
      'Succeeded',
    ],
    [
      'container failed, sidecar running (OnFailure)',
      pod('OnFailure'),
      [running('side')],
      [backingOff('a', 1)],
      'Running',
    ],
    [
      'regular init failed under Never',
      pod('Never', { regularInit: true }),
      [running('side'), exited('i', 2)],
      [initializing('a')],
      'Failed',
    ],
  ]
  for (const [what, p, init, statuses, phase] of cases)
    it(`${what} → ${phase}`, () => assert.equal(podPhase(p, init, statuses, false), phase))
})

describe('podStatus with sidecars and ephemeral containers', () => {
  const input = (p, init, statuses, extra = {}) => ({
    pod: p,
    initStatuses: init,
    statuses,
    terminal: false,
    hostIP: '192.0.2.1',
    startTime: '2026-01-01T00:00:00Z',
    now: '2026-01-01T00:00:05Z',
    ...extra,
  })
  const byType = (s) => Object.fromEntries(s.conditions.map((c) => [c.type, c]))

  it('is not initialized until the sidecar has started', () => {
    const c = byType(podStatus(input(pod('Always'), [running('side', { started: false })], [initializing('a')])))
    assert.equal(c.Initialized.status, 'False')
    assert.equal(c.Initialized.message, 'containers with incomplete status: [side]')
    assert.equal(c.ContainersReady.message, 'containers with unready status: [side a]')
  })

  it('counts an unready sidecar against Ready, and a ready one toward it', () => {
    const unready = byType(podStatus(input(pod('Always'), [running('side', { ready: false })], [running('a')])))
    assert.equal(unready.Initialized.status, 'True')
    assert.equal(unready.Ready.status, 'False')
    assert.equal(unready.Ready.message, 'containers with unready status: [side]')
    const ready = byType(podStatus(input(pod('Always'), [running('side')], [running('a')])))
    assert.equal(ready.Ready.status, 'True')
    assert.equal(ready.ContainersReady.status, 'True')
  })

  it('stays initialized while a sidecar restarts after the containers ran', () => {
    const c = byType(podStatus(input(pod('Always'), [backingOff('side', 1)], [running('a')])))
    assert.equal(c.Initialized.status, 'True')
  })

  it('reports a completed pod initialized with PodCompleted', () => {
    const s = podStatus(input(pod('Never'), [exited('side', 143)], [exited('a', 0)]))
    assert.equal(s.phase, 'Succeeded')
    assert.equal(byType(s).Initialized.reason, 'PodCompleted')
  })

  it('reports ephemeral container statuses, which change neither phase nor readiness', () => {
    const debug = {
      name: 'debugger',
      state: { terminated: { exitCode: 3, finishedAt: 't' } },
      lastState: {},
      ready: false,
    }
    const s = podStatus(input(pod('Always'), [running('side')], [running('a')], { ephemeralStatuses: [debug] }))
    assert.deepEqual(s.ephemeralContainerStatuses, [debug])
    assert.equal(s.phase, 'Running')
    assert.equal(byType(s).Ready.status, 'True')
    assert.equal(
      podStatus(input(pod('Always'), [running('side')], [running('a')])).ephemeralContainerStatuses,
      undefined,
    )
  })
})
