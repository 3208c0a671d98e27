// The kubelet's pod status from container statuses: getPhase's cases, the conditions and their reasons.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mergeConditions, podPhase, podStatus } from '../../agent/pod-status.ts'

const running = (name, ready = true) => ({ name, state: { running: { startedAt: 't' } }, lastState: {}, ready })
const exited = (name, exitCode) => ({ name, state: { terminated: { exitCode, finishedAt: 't' } }, lastState: {} })
const backingOff = (name, exitCode) => ({
  name,
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: { terminated: { exitCode } },
})
const creating = (name) => ({ name, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {} })
const pod = (restartPolicy, containers = ['a'], init = []) => ({
  metadata: { name: 'p', namespace: 'n', uid: 'u' },
  spec: {
    restartPolicy,
    containers: containers.map((name) => ({ name })),
    initContainers: init.map((name) => ({ name })),
  },
})

describe('podPhase (kubelet getPhase)', () => {
  const cases = [
    ['waiting to start', pod('Always'), [], [creating('a')], false, 'Pending'],
    ['running', pod('Always'), [], [running('a')], false, 'Running'],
    ['init running', pod('Always', ['a'], ['i']), [running('i')], [creating('a')], false, 'Pending'],
    ['init failed, Never', pod('Never', ['a'], ['i']), [exited('i', 1)], [creating('a')], false, 'Failed'],
    ['init failed, OnFailure', pod('OnFailure', ['a'], ['i']), [backingOff('i', 1)], [creating('a')], false, 'Pending'],
    ['back-off under Always', pod('Always'), [], [backingOff('a', 1)], false, 'Running'],
    ['exited 0 under Always', pod('Always'), [], [exited('a', 0)], false, 'Running'],
    ['exited 0 under Never', pod('Never'), [], [exited('a', 0)], false, 'Succeeded'],
    ['exited 1 under Never', pod('Never'), [], [exited('a', 1)], false, 'Failed'],
    ['one of two failed, Never', pod('Never', ['a', 'b']), [], [exited('a', 0), exited('b', 2)], false, 'Failed'],
    ['one still running', pod('Never', ['a', 'b']), [], [exited('a', 0), running('b')], false, 'Running'],
    ['exited 1 under OnFailure', pod('OnFailure'), [], [exited('a', 1)], false, 'Running'],
    ['deleted, stopped with 0', pod('Always'), [], [exited('a', 0)], true, 'Succeeded'],
    ['deleted, killed', pod('Always'), [], [exited('a', 137)], true, 'Failed'],
  ]
  for (const [what, p, init, statuses, terminal, phase] of cases)
    it(`${what} → ${phase}`, () => assert.equal(podPhase(p, init, statuses, terminal), phase))
})

describe('podStatus', () => {
  const input = (p, init, statuses, terminal = false) => ({
    pod: p,
    initStatuses: init,
    statuses,
    terminal,
    hostIP: '192.0.2.1',
    startTime: '2026-01-01T00:00:00Z',
    now: '2026-01-01T00:00:05Z',
  })
  const byType = (s) => Object.fromEntries(s.conditions.map((c) => [c.type, c]))

  it('reports a ready pod with the host address as its IP', () => {
    const s = podStatus(input(pod('Always'), [], [running('a')]))
    assert.equal(s.phase, 'Running')
    assert.equal(s.podIP, '192.0.2.1')
    assert.deepEqual(s.hostIPs, [{ ip: '192.0.2.1' }])
    const c = byType(s)
    for (const t of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'])
      assert.equal(c[t].status, 'True', t)
    assert.equal(s.initContainerStatuses, null)
  })

  it('names unready and uninitialized containers', () => {
    const s = podStatus(input(pod('Always', ['a', 'b'], ['i']), [running('i')], [creating('a'), creating('b')]))
    const c = byType(s)
    assert.equal(c.Initialized.reason, 'ContainersNotInitialized')
    assert.equal(c.Initialized.message, 'containers with incomplete status: [i]')
    assert.equal(c.Ready.message, 'containers with unready status: [a b]')
    assert.equal(c.ContainersReady.reason, 'ContainersNotReady')
  })

  it('holds Ready back for an unmet readiness gate', () => {
    const p = { ...pod('Always'), spec: { ...pod('Always').spec, readinessGates: [{ conditionType: 'x/ok' }] } }
    const c = byType(podStatus(input(p, [], [running('a')])))
    assert.equal(c.Ready.status, 'False')
    assert.equal(c.Ready.reason, 'ReadinessGatesNotReady')
    assert.equal(c.Ready.message, 'corresponding condition of pod readiness gate "x/ok" does not exist.')
  })

  it('marks a finished pod', () => {
    const s = podStatus(input(pod('Never'), [], [exited('a', 0)]))
    assert.equal(s.phase, 'Succeeded')
    const c = byType(s)
    assert.equal(c.Ready.reason, 'PodCompleted')
    assert.equal(c.PodReadyToStartContainers.status, 'False')
    const f = byType(podStatus(input(pod('Never'), [], [exited('a', 3)])))
    assert.equal(f.ContainersReady.reason, 'PodFailed')
  })

  it('keeps transition times of unchanged conditions and others’ conditions', () => {
    const merged = mergeConditions(
      [
        { type: 'Ready', status: 'True', lastTransitionTime: 'old' },
        { type: 'x/ok', status: 'True', lastTransitionTime: 'gate' },
      ],
      [
        { type: 'Ready', status: 'True', lastTransitionTime: 'new' },
        { type: 'Initialized', status: 'True', lastTransitionTime: 'new' },
      ],
    )
    assert.deepEqual(
      merged.map((c) => [c.type, c.lastTransitionTime]),
      [
        ['Ready', 'old'],
        ['x/ok', 'gate'],
        ['Initialized', 'new'],
      ],
    )
  })
})
