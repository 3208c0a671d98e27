// A pod run by its worker with real processes, against a recording API: init containers in order, restarts with
// back-off, restartPolicy endings, liveness kills, and graceful deletion confirmed with grace 0.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { last, setup, sh, until } from './worker-harness.mjs'

describe('PodWorker', () => {
  it('runs init containers in order, then the containers', async () => {
    const t = setup({
      initContainers: [
        { name: 'one', image: 'i', command: sh('sleep 0.2') },
        { name: 'two', image: 'i', command: sh('exit 0') },
      ],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.phase === 'Running')
    const phases = t.api.statuses().map((s) => s.phase)
    assert.equal(phases[0], 'Pending')
    const first = t.api.statuses()[0]
    assert.deepEqual(first.containerStatuses[0].state, { waiting: { reason: 'PodInitializing' } })
    const s = last(t.api)
    assert.deepEqual(
      s.initContainerStatuses.map((c) => [c.name, c.state.terminated.reason, c.ready]),
      [
        ['one', 'Completed', true],
        ['two', 'Completed', true],
      ],
    )
    assert.ok(
      Date.parse(s.initContainerStatuses[1].state.terminated.startedAt) >=
        Date.parse(s.initContainerStatuses[0].state.terminated.finishedAt),
    )
    assert.equal(s.containerStatuses[0].ready, true)
    assert.equal(s.podIP, '192.0.2.9')
    await t.worker.shutdown()
  })

  it('restarts a crashing container with back-off (CrashLoopBackOff) and keeps its last state', async () => {
    const t = setup({ containers: [{ name: 'main', image: 'i', command: sh('echo run; exit 3') }] }, { backoffMs: 300 })
    t.worker.sync()
    const backingOff = () =>
      t.api.statuses().find((x) => x.containerStatuses[0].state.waiting?.reason === 'CrashLoopBackOff')
    await until('CrashLoopBackOff', backingOff)
    // The first restart is immediate; the second waits for the back-off.
    const s = backingOff().containerStatuses[0]
    assert.equal(s.restartCount, 1)
    assert.equal(s.lastState.terminated.exitCode, 3)
    assert.equal(s.lastState.terminated.reason, 'Error')
    assert.match(s.state.waiting.message, /^back-off 300ms restarting failed container=main pod=p_n\(uid-/)
    assert.equal(backingOff().phase, 'Running')
    await until('a later restart', () => last(t.api)?.containerStatuses[0].restartCount >= 2)
    assert.ok(
      t.events.some((e) => e.startsWith('Warning BackOff: Back-off restarting failed container main in pod p_n(')),
    )
    await t.worker.shutdown()
  })

  it('ends a Never pod Succeeded or Failed by its exits', async () => {
    const ok = setup({ restartPolicy: 'Never', containers: [{ name: 'a', image: 'i', command: sh('exit 0') }] })
    ok.worker.sync()
    await until('Succeeded', () => last(ok.api)?.phase === 'Succeeded')
    const bad = setup({
      restartPolicy: 'Never',
      containers: [
        { name: 'a', image: 'i', command: sh('exit 0') },
        { name: 'b', image: 'i', command: sh('exit 2') },
      ],
    })
    bad.worker.sync()
    await until('Failed', () => last(bad.api)?.phase === 'Failed')
    assert.equal(last(bad.api).containerStatuses[1].state.terminated.exitCode, 2)
  })

  it('restarts OnFailure only after a failure', async () => {
    const t = setup({
      restartPolicy: 'OnFailure',
      containers: [{ name: 'a', image: 'i', command: sh('test -e ../flag && exit 0; touch ../flag; exit 1') }],
    })
    t.worker.sync()
    await until('Succeeded', () => last(t.api)?.phase === 'Succeeded')
    assert.equal(last(t.api).containerStatuses[0].restartCount, 1)
  })

  it('kills a container failing its liveness probe and restarts it', async () => {
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          command: sh('sleep 30'),
          livenessProbe: { exec: { command: ['false'] }, periodSeconds: 0.05, failureThreshold: 2 },
        },
      ],
    })
    t.worker.sync()
    await until('a restart', () => last(t.api)?.containerStatuses[0].restartCount >= 1)
    assert.equal(last(t.api).containerStatuses[0].lastState.terminated.exitCode, 143)
    assert.ok(t.events.some((e) => e === 'Normal Killing: Container a failed liveness probe, will be restarted'))
    await t.worker.shutdown()
  })

  it('stops a deleted pod within its grace period, reports it, and confirms with grace 0', async () => {
    const t = setup({
      containers: [{ name: 'a', image: 'i', command: sh("trap 'exit 0' TERM; while true; do sleep 0.1; done") }],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.phase === 'Running')
    const current = t.worker.current
    t.worker.update({
      ...current,
      metadata: {
        ...current.metadata,
        resourceVersion: '999',
        deletionTimestamp: new Date().toISOString(),
        deletionGracePeriodSeconds: 5,
      },
    })
    await until('the delete', () => t.api.calls.some((c) => c.method === 'DELETE'))
    const del = t.api.calls.find((c) => c.method === 'DELETE')
    assert.equal(del.path, '/api/v1/namespaces/n/pods/p')
    assert.equal(del.body.gracePeriodSeconds, 0)
    assert.equal(del.body.preconditions.uid, t.pod.metadata.uid)
    const final = last(t.api)
    assert.equal(final.phase, 'Succeeded')
    assert.equal(final.containerStatuses[0].state.terminated.exitCode, 0)
    t.worker.removed()
    await until('teardown', () => t.finished())
  })

  it('waits with a container it cannot configure', async () => {
    const t = setup({ containers: [{ name: 'a', image: 'redis:7' }] })
    t.worker.sync()
    await until('a status', () => last(t.api))
    const w = last(t.api).containerStatuses[0].state.waiting
    assert.equal(w.reason, 'CreateContainerError')
    assert.match(w.message, /--image-default redis=<command>/)
    assert.equal(last(t.api).phase, 'Pending')
    await t.worker.shutdown()
  })

  it('stops a container whose start was under way when the worker shut down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'late-start-'))
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          envFrom: [{ configMapRef: { name: 'slow' } }],
          // Found on the host by its argv: in a PID namespace of its own, its $$ is not its pid there.
          command: sh(`touch ${dir}/started; exec sleep 30.${process.pid}`),
        },
      ],
    })
    t.api.get = () => new Promise((resolve) => setTimeout(() => resolve({ data: { A: '1' } }), 300))
    t.worker.sync()
    await new Promise((r) => setTimeout(r, 50))
    await t.worker.shutdown()
    await new Promise((r) => setTimeout(r, 1000))
    const running = () =>
      readdirSync('/proc').some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\u000030.${process.pid}\u0000`
        } catch {
          return false
        }
      })
    if (existsSync(join(dir, 'started'))) assert.equal(running(), false, 'left running')
  })
})
