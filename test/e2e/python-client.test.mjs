// The python client (Debian's python3-kubernetes, the distribution's own build) against the server: each script in
// test/e2e/python/ prints one JSON line per check; the assertions live here.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { pythonChecks, uniqueNs } from './helpers.mjs'

/** Runs a script with a fresh namespace; answers its checks keyed by name. */
const runScript = (script) => pythonChecks(script, [uniqueNs('py')], 60_000)

describe('python client (kubernetes package)', () => {
  it('lists, then watch.Watch().stream() from the list resourceVersion sees every later change', () => {
    const checks = runScript('core_watch.py')
    assert.deepEqual(checks.list.names, ['before'])
    // The simulated scheduler and kubelet add MODIFIED events of their own between the client's writes.
    // 'before' was listed, so the watch shows it only as the cluster works on it (MODIFIED), never as ADDED.
    assert.ok(
      !checks.watch.events.some(([type, name]) => name === 'before' && type !== 'MODIFIED'),
      JSON.stringify(checks.watch.events),
    )
    const events = checks.watch.events.filter(([, name]) => name === 'during')
    assert.deepEqual(events[0], ['ADDED', 'during'])
    assert.deepEqual(events.at(-1), ['DELETED', 'during'])
    assert.ok(
      events.slice(1, -1).every(([type, name]) => type === 'MODIFIED' && name === 'during'),
      JSON.stringify(events),
    )
    assert.ok(events.length >= 3, JSON.stringify(events))
    assert.deepEqual(checks['404'], {
      check: '404',
      status: 404,
      reason: 'NotFound',
      message: 'pods "nobody" not found',
    })
  })
})
