// Containers outlive the agent: a run started by an agent that is then SIGKILLed keeps running under its shim and is
// adopted by the next agent (same pid and start, output, stdin and a terminal's size still reachable, stop works); a
// run that exits while no agent watches is reported with the exit code and time its shim recorded; a run whose shim is
// gone, or a pid that now belongs to another process, is never adopted; a pod worker started again carries on with
// the same statuses and restarts what exited meanwhile as restartPolicy says.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'
import { ContainerProcess, SHIM } from '../../agent/container-process.ts'
import { parseRecords } from '../../agent/cri-log.ts'
import { PodWorker } from '../../agent/pod-worker.ts'
import { processStart, readExit, readRun, recordedAttempts, sameProcess } from '../../agent/run-files.ts'

const CHILD = join(import.meta.dirname, 'fixtures', 'agent-child.mjs')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/** Container directories and stand-in agents of the tests: whatever a failed test left running goes at the end. */
const dirs = []
const children = []
after(() => {
  for (const c of children) c.kill('SIGKILL')
  for (const dir of dirs)
    for (const attempt of recordedAttempts(dir)) {
      const run = readRun(dir, attempt)
      if (run && !readExit(dir, attempt) && sameProcess(run.pid, run.pidStart)) process.kill(-run.pid, 'SIGKILL')
    }
})

/** Starts a stand-in agent; answers its JSON lines as they come and a SIGKILL. */
function agentChild(spec) {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', CHILD, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const lines = []
  let buf = ''
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buf += d
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)))
      buf = buf.slice(nl + 1)
    }
  })
  const exited = new Promise((r) => child.on('exit', r))
  return {
    lines,
    async line(pred = () => true, ms = 15_000) {
      const t0 = Date.now()
      for (;;) {
        const found = lines.find(pred)
        if (found) return found
        if (Date.now() - t0 > ms) assert.fail(`no line from the agent child (got ${JSON.stringify(lines)})`)
        await sleep(20)
      }
    },
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
}

function runSpec(script, extra = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'readopt-'))
  dirs.push(cwd)
  return {
    command: ['sh', '-c', script],
    env: { PATH: process.env.PATH, GREETING: 'hi there' },
    cwd,
    stdin: extra.stdin ?? false,
    tty: extra.tty ?? false,
    logFile: join(cwd, '0.log'),
  }
}
const texts = (file) => parseRecords(readFileSync(file, 'utf8')).map((r) => `${r.stream}:${r.text}`)
const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('re-adopting container runs', () => {
  it('a run outlives its agent; the next adopts it with the same pid and start, output, stdin, environment, stop', async () => {
    const spec = runSpec('echo hello; while read l; do echo "got $l"; done', { stdin: true })
    const agent = agentChild({ process: spec })
    const started = await agent.line()
    await agent.kill()
    assert.ok(alive(started.pid), 'the container died with its agent')
    const p = ContainerProcess.adopt(spec.logFile, true)
    assert.ok(p instanceof ContainerProcess, 'not adopted')
    assert.equal(p.pid, started.pid)
    assert.equal(p.startedAt.getTime(), started.startedAt)
    assert.equal(await p.spawned, true)
    assert.equal(p.environment().GREETING, 'hi there')
    const seen = []
    const stop = p.onOutput((stream, chunk) => seen.push(`${stream}:${chunk}`))
    p.stdin.write('again\n')
    for (let i = 0; i < 100 && !seen.length; i++) await sleep(20)
    stop()
    assert.deepEqual(seen, ['stdout:got again\n'])
    assert.deepEqual(texts(spec.logFile), ['stdout:hello', 'stdout:got again'])
    const exit = await p.stop(5000)
    assert.deepEqual([exit.exitCode, exit.signal, exit.reason], [143, 15, 'Error'])
    assert.ok(!alive(started.pid))
  })

  it('a run that exits while no agent watches is reported with its exit code and finish time', async () => {
    const spec = runSpec('sleep 0.6; echo bye; exit 7')
    const agent = agentChild({ process: spec })
    const started = await agent.line()
    await agent.kill()
    const t0 = Date.now()
    await sleep(1500)
    const exit = ContainerProcess.adopt(spec.logFile, false)
    assert.ok(!(exit instanceof ContainerProcess) && exit, `got ${exit}`)
    assert.deepEqual([exit.exitCode, exit.reason], [7, 'Error'])
    const finished = exit.finishedAt.getTime()
    assert.ok(finished >= started.startedAt + 500 && finished <= t0 + 1500, `finished at ${finished}`)
    assert.deepEqual(texts(spec.logFile), ['stdout:bye'])
  })

  it('a tty run keeps its terminal: after re-adoption resize and stdin reach it', async () => {
    const spec = runSpec('read l; stty size; echo "read $l"', { stdin: true, tty: true })
    const agent = agentChild({ process: spec })
    await agent.line()
    await agent.kill()
    const p = ContainerProcess.adopt(spec.logFile, true)
    assert.ok(p instanceof ContainerProcess)
    p.resize(91, 33)
    await sleep(100)
    p.stdin.write('word\n')
    const exit = await p.exited
    assert.equal(exit.exitCode, 0)
    const out = texts(spec.logFile).map((l) => l.replace(/\r$/, ''))
    assert.ok(out.includes('stdout:33 91') && out.includes('stdout:read word'), String(out))
  })

  it('a run whose shim died while no agent ran is lost: its command is killed and the loss recorded; a pid now naming another process is never touched', async () => {
    const spec = runSpec('sleep 600')
    const agent = agentChild({ process: spec })
    const started = await agent.line()
    await agent.kill()
    const run = JSON.parse(readFileSync(spec.logFile.replace(/log$/, 'run'), 'utf8'))
    assert.ok(sameProcess(run.shimPid, run.shimStart))
    process.kill(run.shimPid, 'SIGKILL')
    await sleep(200)
    assert.ok(sameProcess(started.pid, run.pidStart), 'the command went with its shim')
    const lost = ContainerProcess.adopt(spec.logFile, false)
    assert.ok(!(lost instanceof ContainerProcess))
    assert.deepEqual([lost.exitCode, lost.reason], [137, 'ContainerStatusUnknown'])
    for (let i = 0; i < 50 && sameProcess(started.pid, run.pidStart); i++) await sleep(20)
    assert.ok(!sameProcess(started.pid, run.pidStart), 'the command of a lost run still runs')
    // Recorded: the next agent reports the same loss, at the same time.
    const again = ContainerProcess.adopt(spec.logFile, false)
    assert.equal(again.finishedAt.getTime(), lost.finishedAt.getTime())
    // The pid of a live process (this one) with another start time is someone else: not adopted, not killed.
    const other = runSpec('true')
    const me = { shimPid: process.pid, shimStart: processStart(process.pid) + 1, pid: process.pid, startedAt: 1 }
    writeFileSync(other.logFile.replace(/log$/, 'run'), JSON.stringify({ ...me, pidStart: me.shimStart }))
    assert.equal(ContainerProcess.adopt(other.logFile, false).reason, 'ContainerStatusUnknown')
    assert.ok(sameProcess(process.pid, processStart(process.pid)))
  })

  it('an agent started just after its predecessor started a shim waits for the shim’s record instead of starting the run again', async () => {
    const spec = runSpec('sleep 600')
    writeFileSync(spec.logFile.replace(/log$/, 'shim.err'), '')
    // The shim comes up 300 ms late (a slow python start), started by an agent that is gone.
    const options = JSON.stringify({ command: spec.command, dir: spec.cwd, attempt: 0 })
    spawn('sh', ['-c', `sleep 0.3; exec python3 -I -S "$0" "$1"`, SHIM, options], {
      cwd: spec.cwd,
      detached: true,
      stdio: 'ignore',
    }).unref()
    const p = ContainerProcess.adopt(spec.logFile, false)
    assert.ok(p instanceof ContainerProcess, `not adopted: ${p?.reason}`)
    assert.equal((await p.stop(0)).exitCode, 137)
  })

  it('a stdin closed once (stdinOnce: the first attach ended it) stays closed for the next agent', async () => {
    const spec = runSpec('cat; echo eof; sleep 600', { stdin: true })
    const p = ContainerProcess.start(spec)
    assert.equal(await p.spawned, true)
    p.stdin.write('x\n')
    p.stdin.end()
    for (let i = 0; i < 100 && !texts(spec.logFile).includes('stdout:eof'); i++) await sleep(20)
    assert.deepEqual(texts(spec.logFile), ['stdout:x', 'stdout:eof'])
    const next = ContainerProcess.adopt(spec.logFile, true)
    assert.ok(next instanceof ContainerProcess)
    assert.equal(next.stdin, null)
    assert.equal((await next.stop(0)).exitCode, 137)
    await p.exited
  })

  it('a run whose shim dies is lost (ContainerStatusUnknown, 137) and its command killed, so no restart runs beside it', async () => {
    const spec = runSpec('sleep 600')
    const p = ContainerProcess.start(spec)
    assert.equal(await p.spawned, true)
    const run = JSON.parse(readFileSync(spec.logFile.replace(/log$/, 'run'), 'utf8'))
    process.kill(run.shimPid, 'SIGKILL')
    const exit = await p.exited
    assert.deepEqual([exit.exitCode, exit.reason], [137, 'ContainerStatusUnknown'])
    // (Killed, it may stay a zombie where pid 1 reaps nothing: sameProcess does not count zombies.)
    for (let i = 0; i < 50 && sameProcess(run.pid, run.pidStart); i++) await sleep(20)
    assert.ok(!sameProcess(run.pid, run.pidStart), 'the command outlived its shim')
  })

  it('a pod worker started again reports running containers unchanged (ready too) and restarts one that exited meanwhile', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'readopt-worker-'))
    const trigger = join(dataDir, 'exit-now')
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random()}`, resourceVersion: '1' },
      spec: {
        nodeName: 'edge',
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 5,
        containers: [
          {
            name: 'main',
            image: 'i',
            command: ['sh', '-c', 'echo hello; sleep 600'],
            readinessProbe: { exec: { command: ['true'] }, initialDelaySeconds: 2, periodSeconds: 1 },
          },
          { name: 'quits', image: 'i', command: ['sh', '-c', `until [ -e ${trigger} ]; do sleep 0.05; done; exit 5`] },
        ],
      },
    }
    const podDir = join(dataDir, 'pods', pod.metadata.uid)
    dirs.push(join(podDir, 'main'), join(podDir, 'quits'))
    const agent = agentChild({ worker: { pod, dataDir } })
    const running = await agent.line(
      (s) => s.containerStatuses?.every((c) => c.state.running) && s.containerStatuses[0].ready,
    )
    await agent.kill()
    const downAt = Date.now()
    // While no agent watches, one container exits.
    writeFileSync(trigger, '')
    await sleep(1000)
    const statuses = []
    const worker = new PodWorker(
      { ...pod, metadata: { ...pod.metadata, resourceVersion: '50' }, status: running },
      {
        config: { dataDir, imageDefaults: new Map(), backoffInitialMs: 10_000 },
        client: {
          async request(method, _path, body) {
            if (method === 'PATCH') statuses.push(body.status)
            return { ...pod, metadata: { ...pod.metadata, resourceVersion: '60' }, status: body.status }
          },
          async get() {
            throw new Error('no config maps here')
          },
        },
        hostIP: '192.0.2.9',
        allocatable: { cpu: '2', memory: '1Gi' },
        backoff: new Backoff(10_000, 40_000),
        event: () => {},
        log: () => {},
        done: () => {},
      },
    )
    try {
      worker.sync()
      for (let i = 0; i < 250 && !statuses.length; i++) await sleep(20)
      const [main, quits] = statuses[0].containerStatuses
      const before = running.containerStatuses
      assert.deepEqual(main.state, before[0].state)
      assert.equal(main.restartCount, 0)
      // Still ready, though its readiness probe (2 s initial delay) has not run again yet: kubelet 1.35's KEP-4781.
      assert.equal(main.ready, true)
      assert.equal(main.containerID, before[0].containerID)
      // The run that exited while no agent watched: its exit code and time, then restarted (the first restart is
      // at once, as after a kubelet restart: the back-off is the kubelet's memory).
      assert.equal(quits.restartCount, 1)
      assert.equal(quits.lastState.terminated.exitCode, 5)
      assert.equal(quits.lastState.terminated.startedAt, before[1].state.running.startedAt)
      const finished = Date.parse(quits.lastState.terminated.finishedAt)
      assert.ok(finished >= downAt - 1000 && finished <= downAt + 1500, quits.lastState.terminated.finishedAt)
      assert.ok(quits.state.running, JSON.stringify(quits.state))
      const log = texts(join(dataDir, 'pods', pod.metadata.uid, 'main', '0.log'))
      assert.deepEqual(log, ['stdout:hello'])
    } finally {
      await worker.shutdown()
    }
  })
})
