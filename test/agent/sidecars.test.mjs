// Native sidecars' rules, without processes: which init container a pass starts or restarts, and the termination
// order (other containers at once, then the sidecars last one first, on what is left of the grace period).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { stepInit, TerminationOrdering } from '../../agent/sidecars.ts'

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

describe('TerminationOrdering (newTerminationOrdering)', () => {
  /** Kills every container at once as killContainer does: a preStop of `hook` ms, the wait for its turn, the stop. */
  async function kill(others, sidecars, grace, { hook = {}, stopMs = {} } = {}) {
    const log = []
    const order = new TerminationOrdering(others, sidecars)
    const t0 = Date.now()
    const at = () => Math.round((Date.now() - t0) / 100) / 10
    await Promise.all(
      [...others, ...sidecars].map(async (r) => {
        let left = grace
        log.push(`kill ${r} ${at()}`)
        if (hook[r]) {
          const t = Date.now()
          await new Promise((resolve) => setTimeout(resolve, hook[r]))
          left -= Math.floor((Date.now() - t) / 1000)
        }
        left -= await order.waitForTurn(r, left)
        log.push(`stop ${r} ${Math.max(left, 2)}`)
        await new Promise((resolve) => setTimeout(resolve, stopMs[r] ?? 10))
        order.terminated(r)
      }),
    )
    return log
  }

  it('stops the other containers at once, then the sidecars last one first, each on the grace left', async () => {
    const log = await kill(['main', 'debug'], ['s1', 's2'], 5, { stopMs: { main: 1100 } })
    assert.deepEqual(log, [
      'kill main 0',
      'kill debug 0',
      'kill s1 0',
      'kill s2 0',
      'stop main 5',
      'stop debug 5',
      // main takes 1.1 s to stop: the sidecars have a second less (whole seconds).
      'stop s2 4',
      'stop s1 4',
    ])
  })

  it('runs every preStop hook at once, sidecars’ too, and counts a sidecar’s hook against its wait', async () => {
    const log = await kill(['main'], ['s'], 5, { hook: { main: 1100, s: 1100 } })
    assert.deepEqual(log, ['kill main 0', 'kill s 0', 'stop main 4', 'stop s 4'])
  })

  it('waits for its turn no longer than the grace left, and gives at least 2 s', async () => {
    const log = await kill(['main'], ['s'], 1, { stopMs: { main: 1500 } })
    assert.deepEqual(log, ['kill main 0', 'kill s 0', 'stop main 2', 'stop s 2'])
  })
})
