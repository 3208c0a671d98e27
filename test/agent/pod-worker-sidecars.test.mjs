// Native sidecars and ephemeral containers run by the pod worker with real processes: a sidecar starts in its order
// and holds the next init container until its startup probe passes, keeps running (restarted whatever the pod's
// restartPolicy) beside the containers and counts toward Ready; a Job-like pod completes when its containers finish
// and its sidecars are then stopped last one first, as on deletion; ephemeral containers start once, never again.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { last, setup, sh, until, updatePod } from './worker-harness.mjs'

/** A sidecar that appends its name to the pod's `order` file when asked to stop, and then exits 0. */
const loggingSidecar = (name, extra = {}) => ({
  name,
  image: 'i',
  restartPolicy: 'Always',
  command: sh(`trap 'echo ${name} >> ../../order; exit 0' TERM; while true; do sleep 0.05; done`),
  ...extra,
})
const order = (t) => readFileSync(join(t.worker.dir, 'order'), 'utf8').trim().split('\n')
const named = (list, name) => list?.find((s) => s.name === name)

describe('PodWorker with native sidecars', () => {
  it('holds the next init container until the sidecar has started, then runs it beside the containers', async () => {
    const t = setup({
      initContainers: [
        { name: 'first', image: 'i', command: sh('sleep 0.1') },
        {
          name: 'side',
          image: 'i',
          restartPolicy: 'Always',
          command: sh('sleep 0.6; touch started; sleep 0.6; touch ready; exec sleep 30'),
          startupProbe: { exec: { command: ['test', '-e', 'started'] }, periodSeconds: 0.1, failureThreshold: 100 },
          readinessProbe: { exec: { command: ['test', '-e', 'ready'] }, periodSeconds: 0.1 },
        },
        // Fails (and would be restarted) if it ran before the sidecar had started.
        { name: 'after', image: 'i', command: sh('test -e ../../side/root/started') },
      ],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('the sidecar to run', () => named(last(t.api)?.initContainerStatuses, 'side')?.state.running)
    const starting = last(t.api)
    assert.equal(starting.phase, 'Pending')
    assert.equal(named(starting.initContainerStatuses, 'side').started, false)
    assert.equal(named(starting.initContainerStatuses, 'after').state.waiting?.reason, 'PodInitializing')
    await until('main to run', () => last(t.api)?.containerStatuses[0].state.running)
    const s = last(t.api)
    assert.equal(s.phase, 'Running')
    const after = named(s.initContainerStatuses, 'after')
    assert.deepEqual([after.state.terminated?.exitCode, after.restartCount], [0, 0])
    const side = named(s.initContainerStatuses, 'side')
    assert.deepEqual([Object.keys(side.state), side.started, side.restartCount], [['running'], true, 0])
    // The pod is Ready only once the sidecar's readiness probe passes.
    const ready = () => last(t.api)?.conditions.find((c) => c.type === 'Ready')
    if (!named(s.initContainerStatuses, 'side').ready) {
      assert.equal(ready().status, 'False')
      assert.equal(ready().message, 'containers with unready status: [side]')
    }
    await until('Ready', () => ready()?.status === 'True')
    assert.equal(named(last(t.api).initContainerStatuses, 'side').ready, true)
  })

  it('restarts an exiting sidecar with back-off under restartPolicy Never', async () => {
    const t = setup({
      restartPolicy: 'Never',
      initContainers: [{ name: 'side', image: 'i', restartPolicy: 'Always', command: sh('sleep 0.2; exit 1') }],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('two restarts', () => named(last(t.api)?.initContainerStatuses, 'side')?.restartCount >= 2)
    assert.ok(
      t.api.statuses().some((s) => named(s.initContainerStatuses, 'side').state.waiting?.reason === 'CrashLoopBackOff'),
    )
    assert.equal(last(t.api).phase, 'Running')
    assert.ok(last(t.api).containerStatuses[0].state.running)
  })

  it('completes a Job-like pod when its containers finish, then stops its sidecars last one first', async () => {
    const t = setup({
      restartPolicy: 'Never',
      initContainers: [loggingSidecar('s1'), loggingSidecar('s2')],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 0.5; echo main >> ../../order') }],
    })
    t.worker.sync()
    await until('Succeeded', () => last(t.api)?.phase === 'Succeeded', 10_000)
    assert.deepEqual(order(t), ['main', 's2', 's1'])
    const s = last(t.api)
    assert.deepEqual(
      s.initContainerStatuses.map((c) => [c.name, c.state.terminated?.exitCode, c.restartCount]),
      [
        ['s1', 0, 0],
        ['s2', 0, 0],
      ],
    )
    // Before the sidecars were stopped the pod was still Running, its container already done.
    const between = t.api.statuses().find((x) => x.containerStatuses[0].state.terminated)
    assert.equal(between.phase, 'Running')
    assert.ok(t.events.includes('Normal Killing: Stopping container s2'))
  })

  it('reports a sidecar backing off when its pod completes terminated by its last run', async () => {
    const t = setup(
      {
        restartPolicy: 'Never',
        initContainers: [{ name: 'side', image: 'i', restartPolicy: 'Always', command: sh('sleep 0.1; exit 1') }],
        containers: [{ name: 'main', image: 'i', command: sh('sleep 1.5') }],
      },
      { backoffMs: 10_000 },
    )
    t.worker.sync()
    await until('Succeeded', () => last(t.api)?.phase === 'Succeeded', 10_000)
    const side = named(last(t.api).initContainerStatuses, 'side')
    assert.deepEqual(
      [Object.keys(side.state), side.state.terminated.exitCode, side.restartCount],
      [['terminated'], 1, 1],
    )
  })

  it('fails a Never pod whose regular init container failed, and stops the sidecar started before it', async () => {
    const t = setup({
      restartPolicy: 'Never',
      initContainers: [loggingSidecar('s1'), { name: 'bad', image: 'i', command: sh('exit 2') }],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('Failed', () => last(t.api)?.phase === 'Failed', 10_000)
    await until('the sidecar to stop', () => named(last(t.api).initContainerStatuses, 's1').state.terminated)
    assert.deepEqual(order(t), ['s1'])
    assert.equal(named(last(t.api).initContainerStatuses, 'bad').state.terminated.exitCode, 2)
    assert.equal(last(t.api).containerStatuses[0].state.waiting?.reason, 'PodInitializing')
    assert.equal(t.worker.record('main').attempts, 0)
  })

  it('stops a deleted pod’s containers first, then its sidecars last one first', async () => {
    const t = setup({
      initContainers: [loggingSidecar('s1'), loggingSidecar('s2')],
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'sleep 0.3; echo main >> ../../order; exit 0' TERM; while true; do sleep 0.05; done"),
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses[0].state.running)
    updatePod(t, (p) => ({
      ...p,
      metadata: { ...p.metadata, deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: 5 },
    }))
    await until('the delete', () => t.api.calls.some((c) => c.method === 'DELETE'))
    assert.deepEqual(order(t), ['main', 's2', 's1'])
    assert.equal(last(t.api).phase, 'Succeeded')
  })
})

describe('PodWorker with ephemeral containers', () => {
  it('starts ephemeral containers added to a running pod once each, and reports them', async () => {
    const t = setup(
      { containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }] },
      { imageDefaults: new Map([['busybox', ['sh', '-c', 'echo default; exec sleep 30']]]) },
    )
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses[0].state.running)
    updatePod(t, (p) => ({
      ...p,
      spec: {
        ...p.spec,
        ephemeralContainers: [
          { name: 'quick', image: 'busybox', command: sh('echo debugging; exit 3'), targetContainerName: 'main' },
          { name: 'shell', image: 'busybox:1.36', stdin: true, tty: true },
        ],
      },
    }))
    const statuses = () => last(t.api)?.ephemeralContainerStatuses
    await until(
      'both ephemeral statuses',
      () => named(statuses(), 'quick')?.state.terminated && named(statuses(), 'shell')?.state.running,
    )
    const quick = named(statuses(), 'quick')
    assert.equal(quick.state.terminated.exitCode, 3)
    assert.deepEqual([quick.ready, quick.restartCount, 'started' in quick], [false, 0, false])
    assert.equal(named(statuses(), 'shell').ready, false)
    // The shell ran the image's default command, and is what an attach finds.
    assert.equal(t.worker.record('shell').running, true)
    // Never restarted, and the pod runs on as before.
    await new Promise((r) => setTimeout(r, 800))
    assert.equal(t.worker.record('quick').attempts, 1)
    assert.equal(named(statuses(), 'quick').restartCount, 0)
    assert.equal(last(t.api).phase, 'Running')
    assert.ok(t.events.includes('Normal Started: Started container quick'))
  })
})

describe('PodWorker with a sidecar failing its liveness probe', () => {
  it('restarts the sidecar, naming it an init container, while the container runs on', async () => {
    const t = setup({
      initContainers: [
        {
          name: 'side',
          image: 'i',
          restartPolicy: 'Always',
          command: sh('sleep 30'),
          livenessProbe: { exec: { command: ['false'] }, periodSeconds: 0.05, failureThreshold: 2 },
        },
      ],
      containers: [{ name: 'main', image: 'i', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('a sidecar restart', () => named(last(t.api)?.initContainerStatuses, 'side')?.restartCount >= 1)
    assert.ok(t.events.includes('Normal Killing: Init container side failed liveness probe'))
    assert.equal(last(t.api).containerStatuses[0].restartCount, 0)
    assert.ok(last(t.api).containerStatuses[0].state.running)
  })
})
