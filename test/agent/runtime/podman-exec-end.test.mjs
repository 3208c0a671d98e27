// An exec probe's timeout ends its command inside a real podman container (skipped where none runs containers): the
// command, found on this host by the variable its exec carries, is gone once the timeout passes, where killing the
// `podman exec` client alone leaves it running.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'
import { setup, status, until } from './cli-harness.mjs'
import { PODMAN_IMAGE, podmanUnusable } from './podman-image.mjs'

const savedConf = process.env.CONTAINERS_CONF
const why = podmanUnusable()
let runtime
before(async () => {
  if (why) return
  runtime = await selectRuntime('podman', {
    node: 'podman-exec',
    backoffInitialMs: 500,
    backoffMaxMs: 2000,
    log: () => {},
  })
})
after(() => {
  if (savedConf === undefined) delete process.env.CONTAINERS_CONF
  else process.env.CONTAINERS_CONF = savedConf
})

/** The host pids whose command line is exactly `argv`. */
const running = (argv) =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1') === `${argv.join('\0')}\0`
      } catch {
        return false
      }
    })

describe('exec probes under a real podman', { skip: why ?? false }, () => {
  it('ends the probe’s command in the container once its timeout passes', async () => {
    const cmd = ['sleep', '61.5']
    const t = setup(runtime, {
      containers: [
        {
          name: 'c',
          image: PODMAN_IMAGE,
          imagePullPolicy: 'Never',
          command: ['sleep', '300'],
          readinessProbe: { exec: { command: cmd }, timeoutSeconds: 1, periodSeconds: 60 },
        },
      ],
    })
    await until('Running', () => status(t)?.state.running, 60_000, t)
    await until('the probe’s command in the container', () => running(cmd).length === 1, 20_000)
    await until('the probe’s command to end', () => running(cmd).length === 0, 10_000)
    assert.equal(status(t).ready, false)
  })
})
