// Lifecycle hooks run by a pod worker with real processes, as kubelet's startContainer and killContainer run them: a
// postStart that holds the container in its earlier state (ContainerCreating) and its probes until it ends, a failing
// one that kills the container (FailedPostStartHook, Killing, PostStartHookError) and runs it again, preStop before
// the SIGTERM of a deletion and of a liveness restart, a preStop sleep that shortens the grace, FailedPreStopHook, and
// sidecars' preStop hooks run at once with the others' while their stop waits for its turn.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { last, setup, sh, until, updatePod } from './worker-harness.mjs'

/** A graceful deletion, which the API's later answers carry too (as the API server's would). */
function deleteNow(t, grace) {
  const deletion = { deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: grace }
  const request = t.api.request.bind(t.api)
  t.api.request = async (method, path, body) => {
    const answer = await request(method, path, body)
    return method === 'PATCH' ? { ...answer, metadata: { ...answer.metadata, ...deletion } } : answer
  }
  updatePod(t, (p) => ({ ...p, metadata: { ...p.metadata, ...deletion } }))
}
const cwdOf = (t, name) => t.worker.record(name).cwd
const logOf = (t, name, attempt = 0) => readFileSync(t.worker.record(name).logFile(attempt), 'utf8')
const status = (s, name = 'main') => s?.containerStatuses?.find((c) => c.name === name)

describe('lifecycle hooks in the pod worker', () => {
  it('runs postStart after the start; the container waits in ContainerCreating and is not probed until it ends', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh('while ! test -e ready; do sleep 0.05; done; echo "read $(cat ready)"; exec sleep 30'),
          lifecycle: { postStart: { exec: { command: sh('sleep 1; echo hooked > ready') } } },
          readinessProbe: { exec: { command: sh('echo probed >> probes') }, periodSeconds: 1 },
        },
      ],
    })
    t.worker.sync()
    await until('the hook to start', () => t.events.some((e) => e.startsWith('Normal Started')))
    const during = t.worker.statusNow()
    assert.deepEqual(status(during).state, { waiting: { reason: 'ContainerCreating' } })
    assert.equal(status(during).started, false)
    assert.equal(during.phase, 'Pending')
    assert.ok(!existsSync(join(cwdOf(t, 'main'), 'probes')), 'probed while postStart ran')
    // Written while the hook runs, as kubelet's status manager has it.
    await until('ContainerCreating written', () => status(last(t.api))?.state.waiting?.reason === 'ContainerCreating')
    await until('Ready', () => status(last(t.api))?.ready === true)
    assert.ok(t.api.statuses().every((s) => !status(s).state.running || existsSync(join(cwdOf(t, 'main'), 'ready'))))
    await until('the container to read the file', () => logOf(t, 'main').includes('read hooked'))
  })

  it('kills a container whose postStart fails, reports PostStartHookError with the message, and runs it again', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh('exec sleep 30'),
          lifecycle: { postStart: { exec: { command: sh('echo nope >&2; exit 7') } } },
        },
      ],
    })
    t.worker.sync()
    const hookError = () => t.api.statuses().find((s) => status(s).state.waiting?.reason === 'PostStartHookError')
    await until('PostStartHookError', hookError)
    const s = status(hookError())
    assert.equal(
      s.state.waiting.message,
      `Exec lifecycle hook ([sh -c echo nope >&2; exit 7]) for Container "main" in Pod "p_n(${t.pod.metadata.uid})" failed - error: command 'sh -c echo nope >&2; exit 7' exited with 7: nope\n, message: "nope\\n"`,
    )
    assert.equal(s.lastState.terminated.exitCode, 143)
    assert.deepEqual(t.events.slice(0, 4), [
      'Normal Created: Created container: main',
      'Normal Started: Started container main',
      'Warning FailedPostStartHook: PostStartHook failed',
      'Normal Killing: FailedPostStartHook',
    ])
    await until('a restart', () => status(last(t.api))?.restartCount >= 1)
  })

  it('records the kill of a container that ended while its failing postStart ran, and waits in PostStartHookError', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh('exit 0'),
          lifecycle: { postStart: { exec: { command: sh('sleep 0.5; exit 1') } } },
        },
      ],
    })
    t.worker.sync()
    await until('PostStartHookError', () =>
      t.api.statuses().some((s) => status(s).state.waiting?.reason === 'PostStartHookError'),
    )
    assert.ok(t.events.includes('Normal Killing: FailedPostStartHook'), t.events.join('\n'))
  })

  it("runs a sidecar whose postStart failed again, whatever the pod's restartPolicy (PostStartHookError meanwhile)", async () => {
    const t = setup({
      restartPolicy: 'Never',
      initContainers: [
        {
          name: 'side',
          image: 'i',
          restartPolicy: 'Always',
          command: sh('exec sleep 30'),
          lifecycle: { postStart: { exec: { command: ['false'] } } },
        },
      ],
      containers: [{ name: 'main', image: 'i', command: sh('exec sleep 30') }],
    })
    t.worker.sync()
    const side = (s) => s?.initContainerStatuses?.[0]
    await until('PostStartHookError', () =>
      t.api.statuses().some((s) => side(s).state.waiting?.reason === 'PostStartHookError'),
    )
    await until('a restart', () => side(last(t.api))?.restartCount >= 1)
  })

  it('leaves a Never container that failed its postStart terminated, and kills one whose handler is tcpSocket', async () => {
    const t = setup({
      restartPolicy: 'Never',
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh('exec sleep 30'),
          lifecycle: { postStart: { tcpSocket: { port: 1 } } },
        },
      ],
    })
    t.worker.sync()
    await until('Failed', () => last(t.api)?.phase === 'Failed')
    assert.equal(status(last(t.api)).state.terminated.exitCode, 143)
    assert.ok(t.events.includes('Warning FailedPostStartHook: PostStartHook failed'))
  })

  it('ends a postStart hook for a deletion: no FailedPostStartHook, the preStop runs, the container stops', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'echo TERM saw $(cat stopping); exit 0' TERM; while true; do sleep 0.05; done"),
          lifecycle: {
            postStart: { exec: { command: sh('sleep 30') } },
            preStop: { exec: { command: sh('echo prestop > stopping') } },
          },
        },
      ],
    })
    t.worker.sync()
    await until('the hook to start', () => t.events.some((e) => e.startsWith('Normal Started')))
    const t0 = Date.now()
    deleteNow(t, 5)
    await until('the deletion confirmed', () => t.api.calls.some((c) => c.method === 'DELETE'))
    assert.ok(Date.now() - t0 < 4000, 'the deletion waited for the postStart hook')
    assert.match(logOf(t, 'main'), /TERM saw prestop/)
    assert.ok(!t.events.some((e) => e.includes('FailedPostStartHook')), t.events.join('\n'))
  })

  it('runs preStop before the SIGTERM of a deletion, within the grace period', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'echo TERM saw $(cat stopping); exit 0' TERM; while true; do sleep 0.05; done"),
          lifecycle: { preStop: { exec: { command: sh('sleep 0.5; echo prestop > stopping') } } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => status(last(t.api))?.state.running)
    deleteNow(t, 5)
    await until('the deletion confirmed', () => t.api.calls.some((c) => c.method === 'DELETE'))
    assert.match(logOf(t, 'main'), /TERM saw prestop/)
    assert.ok(t.events.includes('Normal Killing: Stopping container main'))
    assert.equal(status(last(t.api)).state.terminated.exitCode, 0)
  })

  it('runs a preStop sleep before the SIGTERM and shortens the grace by its whole seconds (at least 2 s left)', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          // Notes the SIGTERM and carries on: only the SIGKILL at the end of the grace stops it.
          command: sh("trap 'date +%s%N > termed' TERM; while true; do sleep 0.05; done"),
          lifecycle: { preStop: { sleep: { seconds: 2 } } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => status(last(t.api))?.state.running)
    const t0 = Date.now()
    deleteNow(t, 3)
    await until('the deletion confirmed', () => t.api.calls.some((c) => c.method === 'DELETE'), 20_000)
    const termed = Number(readFileSync(join(cwdOf(t, 'main'), 'termed'), 'utf8')) / 1e6 - t0
    assert.ok(termed >= 1900, `SIGTERM ${termed} ms after the deletion`)
    // 2 s of hook, then max(3 - 2, 2) = 2 s of grace before the SIGKILL.
    const took = Date.now() - t0
    assert.ok(took >= 3800 && took < 5500, `took ${took} ms`)
    assert.equal(status(last(t.api)).state.terminated.exitCode, 137)
  })

  it('records FailedPreStopHook for a failing preStop and stops the container anyway', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh('exec sleep 30'),
          lifecycle: { preStop: { exec: { command: ['false'] } } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => status(last(t.api))?.state.running)
    deleteNow(t, 5)
    await until('the deletion confirmed', () => t.api.calls.some((c) => c.method === 'DELETE'))
    assert.ok(t.events.includes('Warning FailedPreStopHook: PreStopHook failed'))
  })

  it('runs preStop before a startup-probe restart, within the probe’s own grace period', async () => {
    const t = setup({
      terminationGracePeriodSeconds: 30,
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'echo TERM saw $(cat stopping)' TERM; while true; do sleep 0.05; done"),
          startupProbe: {
            exec: { command: ['false'] },
            periodSeconds: 1,
            failureThreshold: 1,
            terminationGracePeriodSeconds: 3,
          },
          lifecycle: { preStop: { sleep: { seconds: 1 } } },
        },
      ],
    })
    t.worker.sync()
    await until('the probe to fail', () =>
      t.events.includes('Normal Killing: Container main failed startup probe, will be restarted'),
    )
    const t0 = Date.now()
    await until('a restart', () => status(last(t.api))?.restartCount >= 1, 10_000)
    // 1 s of preStop, then max(3 - 1, 2) = 2 s before the SIGKILL of a container that ignores SIGTERM.
    const took = Date.now() - t0
    assert.ok(took >= 2700 && took < 5000, `took ${took} ms`)
    assert.equal(status(last(t.api)).lastState.terminated.exitCode, 137)
  })

  it('runs preStop before a liveness restart', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'echo TERM saw $(cat stopping); exit 1' TERM; while true; do sleep 0.05; done"),
          livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 1 },
          lifecycle: { preStop: { exec: { command: sh('echo prestop > stopping') } } },
        },
      ],
    })
    t.worker.sync()
    await until('a restart', () => status(last(t.api))?.restartCount >= 1)
    assert.match(logOf(t, 'main', 0), /TERM saw prestop/)
    assert.ok(t.events.includes('Normal Killing: Container main failed liveness probe, will be restarted'))
  })

  it("runs a sidecar's preStop at once with the container's, and stops the sidecar after the container", async () => {
    const t = setup({
      initContainers: [
        {
          name: 'side',
          image: 'i',
          restartPolicy: 'Always',
          command: sh("trap 'echo side TERM; exit 0' TERM; while true; do sleep 0.05; done"),
          lifecycle: { preStop: { exec: { command: sh('date +%s%N > ../../main/root/side-prestop') } } },
        },
      ],
      containers: [
        {
          name: 'main',
          image: 'i',
          command: sh("trap 'sleep 1; exit 0' TERM; while true; do sleep 0.05; done"),
          lifecycle: { preStop: { exec: { command: sh('date +%s%N > main-prestop') } } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => status(last(t.api))?.state.running)
    deleteNow(t, 10)
    await until('the deletion confirmed', () => t.api.calls.some((c) => c.method === 'DELETE'), 20_000)
    const main = Number(readFileSync(join(cwdOf(t, 'main'), 'main-prestop'), 'utf8')) / 1e6
    const side = Number(readFileSync(join(cwdOf(t, 'main'), 'side-prestop'), 'utf8')) / 1e6
    assert.ok(Math.abs(main - side) < 500, `preStop hooks ${Math.abs(main - side)} ms apart`)
    const mainEnd = Date.parse(status(last(t.api)).state.terminated.finishedAt)
    const sideEnd = Date.parse(last(t.api).initContainerStatuses[0].state.terminated.finishedAt)
    assert.ok(sideEnd >= mainEnd, 'the sidecar stopped before the container')
  })
})
