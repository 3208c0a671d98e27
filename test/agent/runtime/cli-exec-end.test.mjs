// An exec through the container runtime ends in the container, not only in its client: the stand-in engine runs an
// exec's command in a group of its own (killing `docker exec` leaves it running, as with a real engine), and the
// runtime's end() finds it by the variable the exec gave it and kills it; an exec probe's timeout does so.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { before, describe, it } from 'node:test'
import { image, setup, standIn, status, until } from './cli-harness.mjs'

let s
before(async () => {
  s = await standIn('docker', { images: { 'busybox:1': image('sha256:b1') } })
})

/** The pids whose command line is exactly `argv`. */
function running(argv) {
  const want = `${argv.join('\0')}\0`
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1') === want
      } catch {
        return false
      }
    })
}

const pod = (probe) => ({
  containers: [
    {
      name: 'c',
      image: 'busybox:1',
      imagePullPolicy: 'Never',
      command: ['sleep', '300'],
      ...(probe ? { readinessProbe: probe } : {}),
    },
  ],
})

describe('container runtime: an exec ends in the container', () => {
  it('end() kills the exec’d command that outlives its killed client', async () => {
    const t = setup(s.runtime, pod())
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const cmd = ['sleep', '47.25']
    const run = t.worker.record('c').execIn(cmd, { stdin: false, tty: false })
    const client = spawn(run.argv[0], run.argv.slice(1), {
      env: run.env,
      cwd: run.cwd,
      detached: true,
      stdio: 'ignore',
    })
    await until('the command to run', () => running(cmd).length === 1)
    process.kill(-client.pid, 'SIGKILL')
    await new Promise((r) => client.on('exit', r))
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(running(cmd).length, 1, 'the command outlives its client, as under a real engine')
    run.end()
    await until('the command to end', () => running(cmd).length === 0, 5_000)
  })

  it('ends an exec probe’s command once its timeout passes', async () => {
    const cmd = ['sleep', '53.5']
    const t = setup(s.runtime, pod({ exec: { command: cmd }, timeoutSeconds: 1, periodSeconds: 30 }))
    await until('Running', () => status(t)?.state.running, 15_000, t)
    await until('the probe to run', () => running(cmd).length === 1, 10_000)
    // Its timeout (1 s) passes: the probe fails, and its command is gone.
    await until('the probe’s command to end', () => running(cmd).length === 0, 5_000)
    assert.equal(status(t).ready, false)
  })
})
