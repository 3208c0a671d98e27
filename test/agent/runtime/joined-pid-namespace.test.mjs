// A container that joins a PID namespace it is not the init of (kubectl debug --target: its target's; a
// shareProcessNamespace pod: the pod's, held by shim.py --pod-init): a stop's SIGKILL, its shim's death and its init's
// death end everything it started, also what left its process group, and never what else runs in the namespace; the
// namespace joined is the one of the process the agent planned with (its pid and start time), never a pid reused.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { ContainerProcess, SHIM } from '../../../agent/container-process.ts'
import { processStart, readExit, readRun, recordedAttempts, sameProcess } from '../../../agent/run-files.ts'
import { pidNamespaces } from '../../../agent/runtime/pid-namespace.ts'
import { podPidHolder, releasePodPidNamespace } from '../../../agent/runtime/pod-pid-namespace.ts'
import { marked, sleepMarks, until } from './sleep-marks.mjs'

const skip = pidNamespaces() ? false : 'this host gives no PID namespace (neither root nor user namespaces)'
const _sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const dirs = []
const podDirs = []
const { mark, killMarked } = sleepMarks()
after(() => {
  for (const dir of dirs)
    for (const attempt of recordedAttempts(dir)) {
      const run = readRun(dir, attempt)
      if (run && !readExit(dir, attempt) && sameProcess(run.pid, run.pidStart))
        try {
          process.kill(-run.pid, 'SIGKILL')
        } catch {}
    }
  for (const dir of podDirs) releasePodPidNamespace(dir)
  killMarked()
})

function spec(script, extra = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'pidns-joined-'))
  dirs.push(cwd)
  return {
    command: ['sh', '-c', script],
    env: { PATH: process.env.PATH },
    cwd,
    stdin: false,
    logFile: join(cwd, '0.log'),
    ...extra,
  }
}

/**
 * A script that ignores the stop's SIGTERM (so only the grace period's SIGKILL ends it) and leaves sleeps out of its
 * process group: b (setsid), d (a daemon's double fork, its own session), then waits in c.
 */
const stubborn = (b, c, d) => `trap '' TERM; setsid sleep ${b} & (setsid sh -c "sleep ${d} &" &); sleep ${c}`

/** The namespaces a container may join: a running container's own (--target), a shared pod's holder's. */
async function targets(a) {
  const target = ContainerProcess.start(spec(`sleep ${a}`, { pidns: true }))
  assert.equal(await target.spawned, true)
  const podDir = mkdtempSync(join(tmpdir(), 'pidns-pod-'))
  podDirs.push(podDir)
  const holder = podPidHolder(podDir)
  assert.equal(typeof holder, 'number', String(holder))
  return [
    { name: 'a target container', pid: target.pid, end: () => target.stop(0) },
    { name: 'a shared pod’s holder', pid: holder, end: () => releasePodPidNamespace(podDir) },
  ]
}

/** Starts a run joining `pid`'s namespace, as the process runtime starts one (pidNamespaceOf). */
const joining = (script, pid) => ContainerProcess.start(spec(script, { pidnsOf: pid, pidnsOfStart: processStart(pid) }))

describe('a container in a PID namespace it joins', { skip }, () => {
  it('is ended whole by its grace period’s SIGKILL, also what left its process group', async () => {
    const a = mark()
    for (const target of await targets(a)) {
      const [b, c, d] = [mark(), mark(), mark()]
      const p = joining(stubborn(b, c, d), target.pid)
      assert.equal(await p.spawned, true, target.name)
      await until('the sleeps', () => marked(b).length && marked(c).length && marked(d).length)
      const exit = await p.stop(300)
      assert.deepEqual([exit.exitCode, exit.signal], [137, 9], target.name)
      assert.deepEqual([...marked(b), ...marked(c), ...marked(d)], [], `left in ${target.name}’s namespace`)
      if (target.name.startsWith('a target')) assert.equal(marked(a).length, 1, 'the target went with it')
      await target.end()
    }
  })

  it('goes whole with its shim, with no agent to notice; the next agent finds the run lost', async () => {
    const a = mark()
    for (const target of await targets(a)) {
      const [b, c, d] = [mark(), mark(), mark()]
      const s = spec(stubborn(b, c, d))
      const options = {
        command: s.command,
        dir: s.cwd,
        attempt: 0,
        tty: false,
        stdin: false,
        pidnsOf: target.pid,
        pidnsOfStart: processStart(target.pid),
      }
      const shim = spawn('python3', ['-I', '-S', SHIM, JSON.stringify(options)], {
        cwd: s.cwd,
        env: s.env,
        detached: true,
        stdio: 'ignore',
      })
      await until('the sleeps', () => marked(b).length && marked(c).length && marked(d).length)
      process.kill(shim.pid, 'SIGKILL')
      await until(
        `nothing left in ${target.name}’s namespace`,
        () => ![...marked(b), ...marked(c), ...marked(d)].length,
        3000,
      )
      const lost = ContainerProcess.adopt(s.logFile, false)
      assert.deepEqual([lost.exitCode, lost.reason], [137, 'ContainerStatusUnknown'])
      if (target.name.startsWith('a target')) assert.equal(marked(a).length, 1, 'the target went with it')
      await target.end()
    }
  })

  it('has its command go with its init when the init alone is killed, also a command out of the init’s group', async () => {
    const a = mark()
    const [target, shared] = await targets(a)
    const c = mark()
    // setsid(1) in the command's own process (it leads no group): the command leaves the init's group and session, so
    // only its parent's death reaches it.
    const p = joining(`exec setsid sleep ${c}`, target.pid)
    assert.equal(await p.spawned, true)
    await until('the sleep', () => marked(c).length)
    process.kill(p.pid, 'SIGKILL')
    const exit = await p.exited
    assert.equal(exit.exitCode, 137)
    await until('the command to go', () => !marked(c).length, 3000)
    assert.equal(marked(a).length, 1, 'the target went with it')
    await target.end()
    await shared.end()
  })
})

/** Runs a shim for a run joining `pid` with `start` as its start time; answers the run's dir once it ended or runs. */
async function shimJoining(script, pid, start, { pidfd = true } = {}) {
  const s = spec(script)
  const options = {
    command: s.command,
    dir: s.cwd,
    attempt: 0,
    tty: false,
    stdin: false,
    pidnsOf: pid,
    pidnsOfStart: start,
  }
  // Without pidfd_open (Python < 3.9): the namespace files, opened and then checked against the start time.
  const argv = pidfd
    ? ['-I', '-S', SHIM, JSON.stringify(options)]
    : [
        '-I',
        '-S',
        '-c',
        'import os, runpy, sys; del os.pidfd_open; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name="__main__")',
        SHIM,
        JSON.stringify(options),
      ]
  const shim = spawn('python3', argv, { cwd: s.cwd, env: s.env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
  const said = await new Promise((r) => {
    shim.stdout.once('data', (d) => r(String(d).trim()))
    shim.once('close', (code) => r(`shim ended with ${code}`))
  })
  return { said, dir: s.cwd, log: () => readFileSync(join(s.cwd, '0.log'), 'utf8') }
}

describe('the namespace a container joins', { skip }, () => {
  for (const pidfd of [true, false])
    it(`is its planned target’s: a pid that names another process by now is refused${pidfd ? '' : ' (no pidfd)'}`, async () => {
      const [a, b] = [mark(), mark()]
      const target = ContainerProcess.start(spec(`sleep ${a}`, { pidns: true }))
      assert.equal(await target.spawned, true)
      const start = processStart(target.pid)
      // The pid with another start time: the process planned with has ended and its pid went to this one.
      const refused = await shimJoining(`ps -e -o args=; exec sleep ${b}`, target.pid, start + 1, { pidfd })
      assert.equal(refused.said, 'failed')
      const exit = readExit(refused.dir, 0)
      assert.equal(exit.startError?.code, 'SHIM')
      assert.match(exit.startError.message, /target process \d+ has ended/)
      assert.deepEqual(marked(b), [])
      // The planned one: joined.
      const joined = await shimJoining(`ps -e -o args=; exec sleep ${b}`, target.pid, start, { pidfd })
      assert.equal(joined.said, 'started')
      await until('its ps', () => joined.log().includes(`sleep ${b}`) || joined.log().includes('ps -e'))
      await until('the ps output', () => joined.log().includes(`sleep ${a}`))
      const run = readRun(joined.dir, 0)
      process.kill(-run.pid, 'SIGKILL')
      await target.stop(0)
    })
})
