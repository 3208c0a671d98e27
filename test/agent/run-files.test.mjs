// The shim's launch record (<n>.shim, written by the agent as it starts a shim): a run whose shim takes longer than
// a couple of seconds to record itself (a loaded host) is adopted by the next agent once it does, not taken for a
// failed start and run again beside it; a starting shim that dies without a record is a StartError; a pod gone
// meanwhile has its starting shim killed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { ContainerProcess, SHIM } from '../../agent/container-process.ts'
import { parseRecords } from '../../agent/cri-log.ts'
import {
  exitOf,
  killRecordedRuns,
  readRun,
  readShim,
  recordShim,
  sameProcess,
  shimStarting,
} from '../../agent/run-files.ts'

/** Process groups the tests started, and directories whose recorded commands (their own groups) go at the end. */
const started = []
const dirs = []
after(() => {
  for (const dir of dirs) killRecordedRuns(dir)
  for (const pid of started)
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // gone
    }
})

/**
 * The state an agent leaves when it dies just after launching a shim on a loaded host: the launch record and the
 * shim's (empty) stderr file, and a shim that only gets going `delay` seconds later (the same process: sh execs it).
 */
function slowShim(command, delay) {
  const dir = mkdtempSync(join(tmpdir(), 'slow-shim-'))
  dirs.push(dir)
  closeSync(openSync(join(dir, '0.shim.err'), 'w'))
  const options = JSON.stringify({ command, dir, attempt: 0, tty: false, stdin: false })
  const child = spawn('sh', ['-c', `sleep ${delay}; exec python3 -I -S "$0" "$1"`, SHIM, options], {
    cwd: dir,
    detached: true,
    stdio: 'ignore',
  })
  child.unref()
  started.push(child.pid)
  recordShim(dir, 0, child.pid)
  return { dir, pid: child.pid }
}

describe('shim launch records', () => {
  it('records the shim an agent starts, under the pid the shim then records for itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-record-'))
    const p = ContainerProcess.start({
      command: ['sleep', '30'],
      env: {},
      cwd: dir,
      stdin: false,
      logFile: join(dir, '0.log'),
    })
    assert.equal(await p.spawned, true)
    started.push(p.pid)
    const shim = readShim(dir, 0)
    assert.equal(shim.shimPid, readRun(dir, 0).shimPid)
    assert.equal(sameProcess(shim.shimPid, shim.shimStart), true)
    // Its run recorded, the shim is no longer starting.
    assert.equal(shimStarting(dir, 0), null)
    await p.stop(0)
  })

  it('adopts a run whose shim records itself only after 2.5 s, instead of starting it again', async () => {
    const { dir, pid } = slowShim(['sh', '-c', 'echo adopted; sleep 30'], 2.5)
    assert.deepEqual(shimStarting(dir, 0)?.shimPid, pid)
    const p = ContainerProcess.adopt(join(dir, '0.log'), false)
    if (!(p instanceof ContainerProcess)) assert.fail(`taken for ended: ${JSON.stringify(p)}`)
    assert.equal(await p.spawned, true)
    assert.equal(readRun(dir, 0).shimPid, pid)
    started.push(p.pid)
    for (let i = 0; i < 100 && !readFileSync(join(dir, '0.log'), 'utf8').includes('adopted'); i++)
      await new Promise((r) => setTimeout(r, 50))
    assert.deepEqual(
      parseRecords(readFileSync(join(dir, '0.log'), 'utf8')).map((r) => r.text),
      ['adopted'],
    )
    const exit = await p.stop(0)
    assert.equal(exit.exitCode, 137)
  })

  it('reports a starting shim that dies without recording anything as a StartError', async () => {
    const { dir, pid } = slowShim(['true'], 30)
    const p = ContainerProcess.adopt(join(dir, '0.log'), false)
    assert.ok(p instanceof ContainerProcess)
    process.kill(-pid, 'SIGKILL')
    const exit = await p.exited
    assert.equal(exit.reason, 'StartError')
    assert.equal(await p.spawned, false)
  })

  it('kills a starting shim of a pod that is gone', async () => {
    const { dir, pid } = slowShim(['true'], 30)
    assert.equal(killRecordedRuns(dir), 1)
    for (let i = 0; i < 40 && shimStarting(dir, 0); i++) await new Promise((r) => setTimeout(r, 50))
    assert.equal(shimStarting(dir, 0), null)
    assert.equal(sameProcess(pid, readShim(dir, 0).shimStart), false)
  })
})

// The records volumes add: a mount that failed in the container's namespace is kube's StartError naming it; the
// securityContext step, reporting through the same code, keeps its own words.
describe('exitOf for a mount failure', () => {
  const mountFailure = (message) =>
    exitOf({ exitCode: 128, finishedAt: 0, startError: { code: 'MOUNT', message, command: 'sleep' } })

  it('reports a failed mount as StartError 128 naming it', () => {
    const exit = mountFailure('Not a directory: /etc/hostname/x')
    assert.deepEqual(
      [exit.exitCode, exit.reason, exit.message],
      [128, 'StartError', 'error mounting volumes: Not a directory: /etc/hostname/x'],
    )
  })

  it("keeps a securityContext step's own message", () => {
    assert.equal(
      mountFailure('securityContext: Operation not permitted').message,
      'securityContext: Operation not permitted',
    )
  })
})
