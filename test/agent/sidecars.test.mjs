// Native sidecars' rules, without processes: which init container a pass starts or restarts, and the termination
// order (other containers at once, then the sidecars last one first, on what is left of the grace period).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { stepInit, stopInOrder } from '../../agent/sidecars.ts'

/** An init container in a given state: 'new', 'running', 'starting' (startup probe pending), 'done', 'failed'. */
function ctr(name, state, sidecar = false) {
  const exited = state === 'done' || state === 'failed'
  return {
    name,
    spec: { name, ...(sidecar ? { restartPolicy: 'Always' } : {}) },
    running: state === 'running' || state === 'starting',
    started: state === 'running',
    attempts: state === 'new' ? 0 : 1,
    current: exited ? { exitCode: state === 'done' ? 0 : 1 } : null,
    waiting: null,
  }
}

/** Runs one pass; answers its outcome and what it started and restarted, by name. */
async function pass(init, { policy = 'Always', initialized = false, starts = 'running' } = {}) {
  const actions = []
  const outcome = await stepInit(init, policy, initialized, {
    async start(r) {
      actions.push(`start ${r.name}`)
      Object.assign(r, ctr(r.name, starts, r.spec.restartPolicy === 'Always'))
    },
    async restart(r) {
      actions.push(`restart ${r.name}`)
    },
  })
  return { outcome, actions }
}

describe('stepInit (computeInitContainerActions)', () => {
  it('starts a sidecar and goes on to the next init container in the same pass once it has started', async () => {
    const init = [ctr('a', 'done'), ctr('side', 'new', true), ctr('b', 'new')]
    assert.deepEqual(await pass(init), { outcome: 'waiting', actions: ['start side', 'start b'] })
  })

  it('holds the next init container while a sidecar’s startup probe has not passed', async () => {
    const init = [ctr('side', 'new', true), ctr('b', 'new')]
    assert.deepEqual(await pass(init, { starts: 'starting' }), { outcome: 'waiting', actions: ['start side'] })
    assert.deepEqual(await pass(init), { outcome: 'waiting', actions: [] })
  })

  it('is initialized when the regular init containers completed and the sidecars started', async () => {
    const init = [ctr('side', 'running', true), ctr('a', 'done')]
    assert.deepEqual(await pass(init), { outcome: 'initialized', actions: [] })
  })

  it('restarts an exited sidecar whatever the pod’s restartPolicy, before and after initialization', async () => {
    for (const initialized of [false, true]) {
      const init = [ctr('side', 'done', true), ctr('a', 'done')]
      const r = await pass(init, { policy: 'Never', initialized })
      assert.deepEqual(r.actions, ['restart side'])
      // Before initialization the next init container waits for the sidecar; afterwards nothing waits for it.
      assert.equal(r.outcome, initialized ? 'initialized' : 'waiting')
    }
  })

  it('never runs a regular init container again once the pod initialized', async () => {
    const init = [ctr('a', 'failed'), ctr('side', 'running', true)]
    assert.deepEqual(await pass(init, { initialized: true }), { outcome: 'initialized', actions: [] })
  })

  it('fails the pod for a failed regular init container under Never, restarts it otherwise', async () => {
    const init = () => [ctr('side', 'running', true), ctr('a', 'failed')]
    assert.deepEqual(await pass(init(), { policy: 'Never' }), { outcome: 'failed', actions: [] })
    assert.deepEqual(await pass(init(), { policy: 'OnFailure' }), { outcome: 'waiting', actions: ['restart a'] })
  })
})

describe('stopInOrder (newTerminationOrdering)', () => {
  it('stops the other containers at once, then the sidecars last one first, each on the grace left', async () => {
    const log = []
    const stop = (r, grace) =>
      new Promise((resolve) => {
        log.push(`stop ${r.spec.name} ${grace}`)
        // The regular container takes 1.1 s to stop: the sidecars get a second less (whole seconds).
        setTimeout(
          () => {
            log.push(`stopped ${r.spec.name}`)
            resolve()
          },
          r.spec.name === 'main' ? 1100 : 10,
        )
      })
    const spec = (name) => ({ spec: { name } })
    await stopInOrder([spec('main'), spec('debug')], [spec('s1'), spec('s2')], 5000, stop)
    assert.deepEqual(log, [
      'stop main 5000',
      'stop debug 5000',
      'stopped debug',
      'stopped main',
      'stop s2 4000',
      'stopped s2',
      'stop s1 4000',
      'stopped s1',
    ])
  })

  it('gives a sidecar at least 2 s, and kills at once with no grace', async () => {
    const log = []
    const stop = async (r, grace) => log.push(`${r.spec.name} ${grace}`)
    await stopInOrder([], [{ spec: { name: 's' } }], 1000, stop)
    await stopInOrder([], [{ spec: { name: 's' } }], 0, stop)
    assert.deepEqual(log, ['s 2000', 's 0'])
  })
})
