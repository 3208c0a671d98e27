// The python client (Debian's python3-kubernetes, the distribution's own build) against the server: each script in
// test/e2e/python/ prints one JSON line per check; the assertions live here.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { uniqueNs } from './helpers.mjs'

// Debian's package installs for the system python, not for a pyenv shim that may come first on PATH.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
const dir = join(import.meta.dirname, 'python')

/** Runs a script with a fresh namespace; answers its checks keyed by name. */
function runScript(script) {
  const ns = uniqueNs('py')
  const r = spawnSync(PYTHON, [join(dir, script), ns], { encoding: 'utf8', timeout: 60_000, env: process.env })
  assert.equal(r.status, 0, `${script} exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`)
  return Object.fromEntries(
    r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .map((c) => [c.check, c]),
  )
}

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
