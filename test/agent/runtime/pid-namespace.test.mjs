// A PID namespace per container (process runtime): what a container starts cannot outlive it, even out of its process
// group (setsid, a double fork), whether it is stopped, its shim dies, or an agent started again stops it; its exit is
// its main process's; orphans are reaped; exec enters the namespace (ps there shows the container's processes only);
// an agent that is not root has it through a user namespace; an ephemeral container joins its target's; a
// shareProcessNamespace pod's containers share one held by a process of the pod's; hostPID pods keep the host's.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { ContainerProcess, SHIM } from '../../../agent/container-process.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { enterPrefix } from '../../../agent/volumes/mount-namespace.ts'
import { readExit, readRun, recordedAttempts, sameProcess } from '../../../agent/run-files.ts'
import { ownPidNamespace, pidNamespaceOf, pidNamespaces } from '../../../agent/runtime/pid-namespace.ts'
import { processRuntime } from '../../../agent/runtime/process-runtime.ts'
import { last, setup, sh, updatePod } from '../worker-harness.mjs'
import { marked, sleepMarks, until } from './sleep-marks.mjs'

const CHILD = join(import.meta.dirname, '..', 'fixtures', 'agent-child.mjs')
const skip = pidNamespaces() ? false : 'this host gives no PID namespace (neither root nor user namespaces)'
const asNobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
const userns =
  process.getuid() === 0 && spawnSync(asNobody[0], [...asNobody.slice(1), 'unshare', '-rpf', 'true']).status === 0
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const dirs = []
const { mark, killMarked } = sleepMarks()
after(() => {
  // Whatever a failed test left: its runs (the init's group takes its namespace), then anything still marked.
  for (const dir of dirs)
    for (const attempt of recordedAttempts(dir)) {
      const run = readRun(dir, attempt)
      if (run && !readExit(dir, attempt) && sameProcess(run.pid, run.pidStart))
        try {
          process.kill(-run.pid, 'SIGKILL')
        } catch {}
    }
  killMarked()
})

function spec(script, extra = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'pidns-'))
  dirs.push(cwd)
  return {
    command: ['sh', '-c', script],
    env: { PATH: process.env.PATH },
    cwd,
    stdin: false,
    logFile: join(cwd, '0.log'),
    pidns: true,
    ...extra,
  }
}
/** A script that leaves two sleeps out of its process group (setsid, a daemon's double fork), then waits. */
const escaping = (a, b, c) => `setsid sleep ${a} & (setsid sh -c "sleep ${b} &" &); sleep ${c}`

/** Runs `command` as exec into the run (processRuntime.exec's host argv); answers its stdout. */
function execIn(run, cwd, command) {
  const host = processRuntime.exec(run, { env: { PATH: process.env.PATH }, cwd, dir: cwd }, command, { tty: false })
  const r = spawnSync(host.argv[0], host.argv.slice(1), { env: host.env, cwd: host.cwd, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return r.stdout
}

describe('PID namespace per container', { skip }, () => {
  it('a stopped container leaves nothing behind, not even what left its process group', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const p = ContainerProcess.start(spec(escaping(a, b, c)))
    assert.equal(await p.spawned, true)
    await until('the sleeps', () => marked(a).length && marked(b).length && marked(c).length)
    const exit = await p.stop(5000)
    // SIGTERM reached the main process (sh), through the init: its exit is the container's.
    assert.deepEqual([exit.exitCode, exit.signal], [143, 15])
    assert.deepEqual([...marked(a), ...marked(b), ...marked(c)], [])
  })

  it('a container whose main process exits takes its leftovers with it; its exit code is the main process’s', async () => {
    const [a, b] = [mark(), mark()]
    const p = ContainerProcess.start(spec(`${escaping(a, b, '0.3')}; exit 3`))
    await until('the sleeps', () => marked(a).length && marked(b).length)
    const exit = await p.exited
    assert.deepEqual([exit.exitCode, exit.reason], [3, 'Error'])
    assert.deepEqual([...marked(a), ...marked(b)], [])
  })

  it('a main process that ignores SIGTERM is killed with everything after the grace period (137)', async () => {
    const a = mark()
    const p = ContainerProcess.start(spec(`trap '' TERM; setsid sleep ${a} & while true; do sleep 0.1; done`))
    await until('the sleep', () => marked(a).length)
    const t0 = Date.now()
    const exit = await p.stop(700)
    assert.ok(Date.now() - t0 >= 600, 'killed before the grace period ended')
    assert.deepEqual([exit.exitCode, exit.signal], [137, 9])
    assert.deepEqual(marked(a), [])
  })

  it('reaps orphans: no zombie piles up in a long-running container', async () => {
    const a = mark()
    const s = spec(`for i in 1 2 3 4 5; do (true &); done; sleep ${a}`)
    const p = ContainerProcess.start(s)
    assert.equal(await p.spawned, true)
    await until('the sleep', () => marked(a).length)
    await sleep(300)
    const zombies = execIn(p, s.cwd, ['sh', '-c', 'grep -l "^State:.*Z" /proc/[0-9]*/status || true'])
    assert.equal(zombies, '')
    await p.stop(0)
  })

  it('exec runs inside the namespace: ps and /proc show the container’s processes only', async () => {
    const a = mark()
    const s = spec(`sleep ${a}`)
    const p = ContainerProcess.start(s)
    assert.equal(await p.spawned, true)
    await until('the sleep', () => marked(a).length)
    // Every process there, by pid and command: the init (1), the main process (2), and this exec's own.
    const seen = execIn(p, s.cwd, [
      'sh',
      '-c',
      'cd /proc; for d in [0-9]*; do echo "$d $(tr "\\0" " " < $d/cmdline)"; done',
    ])
    const lines = seen.trim().split('\n')
    assert.match(
      lines.find((l) => l.startsWith('1 ')),
      /shim\.py/,
    )
    assert.match(lines.find((l) => l.startsWith('2 ')) ?? '', new RegExp(`sleep ${a.replace('.', '\\.')}`))
    assert.ok(lines.length <= 5, `more than the container's processes: ${seen}`)
    assert.ok(!lines.some((l) => l.includes('node')), `the agent is visible: ${seen}`)
    const ps = execIn(p, s.cwd, ['ps', '-e', '-o', 'pid=,comm='])
    assert.ok(!ps.includes('node'), ps)
    assert.match(ps, /^\s*1 python3/m)
    await p.stop(0)
  })

  it('a run whose shim died is killed with its namespace by the next agent', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const s = spec(escaping(a, b, c))
    const p = ContainerProcess.start(s)
    assert.equal(await p.spawned, true)
    await until('the sleeps', () => marked(a).length && marked(b).length)
    const run = readRun(s.cwd, 0)
    process.kill(run.shimPid, 'SIGKILL')
    const exit = await p.exited
    assert.deepEqual([exit.exitCode, exit.reason], [137, 'ContainerStatusUnknown'])
    await until('nothing left', () => ![...marked(a), ...marked(b), ...marked(c)].length, 3000)
  })

  it('goes with its shim at once, with no agent to notice', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const s = spec(escaping(a, b, c))
    const options = { command: s.command, dir: s.cwd, attempt: 0, tty: false, stdin: false, pidns: true }
    const shim = spawn('python3', ['-I', '-S', SHIM, JSON.stringify(options)], {
      cwd: s.cwd,
      env: s.env,
      detached: true,
      stdio: 'ignore',
    })
    await until('the sleeps', () => marked(a).length && marked(b).length && marked(c).length)
    process.kill(shim.pid, 'SIGKILL')
    await until('nothing left', () => ![...marked(a), ...marked(b), ...marked(c)].length, 3000)
  })

  it('survives its agent; the next one adopts it, execs into its namespace and stops everything in it', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const s = spec(escaping(a, b, c))
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', '--no-warnings', CHILD, JSON.stringify({ process: s })],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const started = await new Promise((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(JSON.parse(String(d))))
      child.once('exit', () => reject(new Error('the agent child ended')))
    })
    child.kill('SIGKILL')
    await new Promise((r) => child.once('close', r))
    await until('the sleeps', () => marked(a).length && marked(b).length && marked(c).length)
    const p = ContainerProcess.adopt(s.logFile, false)
    assert.ok(p instanceof ContainerProcess, 'not adopted')
    assert.equal(p.pid, started.pid)
    assert.equal(await p.spawned, true)
    const ps = execIn(p, s.cwd, ['ps', '-e', '-o', 'args='])
    assert.ok(ps.includes(`sleep ${b}`) && !ps.includes('node'), ps)
    const exit = await p.stop(5000)
    assert.deepEqual([exit.exitCode, exit.signal], [143, 15])
    assert.deepEqual([...marked(a), ...marked(b), ...marked(c)], [])
  })

  it('a container reads its stdin to its end once a client closes it (stdinOnce)', async () => {
    const s = spec('while read l; do echo "heard $l"; done; echo bye', { stdin: true })
    const p = ContainerProcess.start(s)
    assert.equal(await p.spawned, true)
    p.stdin.write('one\n')
    p.stdin.end()
    const exit = await Promise.race([p.exited, sleep(5000).then(() => null)])
    if (!exit) await p.stop(0)
    assert.equal(exit?.exitCode, 0, 'the container never saw the end of its stdin')
    assert.match(readFileSync(s.logFile, 'utf8'), /stdout F heard one\n.* stdout F bye\n$/)
  })

  it('a terminal container keeps its terminal: the main process is its foreground group', async () => {
    const s = spec('ps -o pid=,pgid=,tpgid=,comm= -p $$; exit 4', { tty: true })
    const p = ContainerProcess.start(s)
    const exit = await p.exited
    assert.equal(exit.exitCode, 4)
    const line = readFileSync(s.logFile, 'utf8').split('\n')[0]
    assert.match(line, / stdout F\s+2\s+2\s+2 sh\r?$/)
  })
})

describe('an ephemeral container with a target (kubectl debug --target)', { skip }, () => {
  it('joins the target’s namespace: it sees the target’s processes; its stop ends its own, not the target’s', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const target = ContainerProcess.start(spec(`sleep ${a}`))
    assert.equal(await target.spawned, true)
    const s = spec(`ps -e -o args=; setsid sleep ${b} & sleep ${c}`, { pidns: false, pidnsOf: target.pid })
    const debug = ContainerProcess.start(s)
    assert.equal(await debug.spawned, true)
    await until('the sleeps', () => marked(b).length && marked(c).length)
    const seen = readFileSync(s.logFile, 'utf8')
    assert.ok(seen.includes(`sleep ${a}`) && !seen.includes('node'), seen)
    // From the target's side too: one namespace.
    assert.ok(execIn(target, s.cwd, ['ps', '-e', '-o', 'args=']).includes(`sleep ${c}`))
    const exit = await debug.stop(5000)
    assert.deepEqual([exit.exitCode, exit.signal], [143, 15])
    assert.deepEqual([...marked(b), ...marked(c)], [])
    assert.equal(marked(a).length, 1, 'the target went with its debugger')
    await target.stop(0)
  })

  it('a pod worker runs an ephemeral container in its target’s namespace', async () => {
    const a = mark()
    const t = setup({ containers: [{ name: 'main', image: 'i', command: sh(`exec sleep ${a}`) }] })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses?.[0]?.state.running)
    updatePod(t, (p) => ({
      ...p,
      spec: {
        ...p.spec,
        ephemeralContainers: [
          { name: 'debug', image: 'busybox', command: sh('ps -e -o args='), targetContainerName: 'main' },
          { name: 'alone', image: 'busybox', command: sh('ps -e -o args=') },
        ],
      },
    }))
    const done = (name) => last(t.api)?.ephemeralContainerStatuses?.find((x) => x.name === name)?.state.terminated
    await until('the debuggers to finish', () => done('debug') && done('alone'))
    const log = (name) => readFileSync(t.worker.record(name).logFile(0), 'utf8')
    assert.ok(log('debug').includes(`sleep ${a}`), log('debug'))
    // Without a target: a namespace of its own.
    assert.ok(!log('alone').includes(`sleep ${a}`), log('alone'))
  })

  it('takes the target’s namespace only when the target has one of its own', () => {
    assert.deepEqual(pidNamespaceOf({ targetPid: process.pid, pod: { spec: { hostPID: true } } }), {})
    assert.deepEqual(pidNamespaceOf({ pod: { spec: {} } }), { pidns: true })
  })
})

describe('a pod with shareProcessNamespace', { skip }, () => {
  it('has one PID namespace for its containers, held by a process of its own and gone with the pod', async () => {
    const [a, b, c] = [mark(), mark(), mark()]
    const t = setup({
      shareProcessNamespace: true,
      containers: [
        { name: 'one', image: 'i', command: sh(`exec sleep ${a}`) },
        { name: 'two', image: 'i', command: sh(`setsid sleep ${b} & exec sleep ${c}`) },
      ],
    })
    t.worker.sync()
    await until('both running', () => last(t.api)?.containerStatuses?.every((s) => s.state.running))
    await until('the sleeps', () => marked(a).length && marked(b).length && marked(c).length)
    const holder = JSON.parse(readFileSync(join(t.worker.dir, 'pidns.json'), 'utf8'))
    const one = t.worker.record('one')
    const ps = execIn(one.proc, t.worker.dir, ['ps', '-e', '-o', 'pid=,args='])
    // PID 1 is the holder; each container sees the other's processes.
    assert.match(ps, /^\s*1 .*--pod-init/m)
    for (const m of [a, b, c]) assert.ok(ps.includes(`sleep ${m}`), ps)
    // One container may signal another's processes (by their pid in there).
    const pid = ps
      .split('\n')
      .find((l) => l.endsWith(`sleep ${c}`))
      .trim()
      .split(' ')[0]
    execIn(one.proc, t.worker.dir, ['kill', '-TERM', pid])
    await until('two to restart', () => last(t.api)?.containerStatuses?.[1]?.restartCount === 1)
    // Its restart left the holder, and the first container, as they were.
    assert.equal(marked(a).length, 1)
    assert.deepEqual(JSON.parse(readFileSync(join(t.worker.dir, 'pidns.json'), 'utf8')), holder)
    assert.ok(sameProcess(holder.pid, holder.pidStart))
    t.worker.removed()
    await until('the pod to go', () => t.finished())
    assert.deepEqual([...marked(a), ...marked(b), ...marked(c)], [])
    assert.equal(sameProcess(holder.pid, holder.pidStart), false, 'the holder outlived its pod')
  })
})

describe('a shareProcessNamespace pod across an agent restart', { skip }, () => {
  it('keeps its namespace and holder; the next agent’s worker joins the containers it starts to it', async () => {
    const [a, b] = [mark(), mark()]
    const dataDir = mkdtempSync(join(tmpdir(), 'pidns-shared-'))
    const trigger = join(dataDir, 'exit-now')
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random()}`, resourceVersion: '1' },
      spec: {
        nodeName: 'edge',
        restartPolicy: 'Always',
        shareProcessNamespace: true,
        terminationGracePeriodSeconds: 2,
        containers: [
          { name: 'one', image: 'i', command: sh(`exec sleep ${a}`) },
          // Exits once told (while no agent runs): the next agent restarts it, into the same namespace.
          { name: 'two', image: 'i', command: sh(`until [ -e ${trigger} ]; do sleep 0.05; done; exec sleep ${b}`) },
        ],
      },
    }
    const podDir = join(dataDir, 'pods', pod.metadata.uid)
    dirs.push(join(podDir, 'one'), join(podDir, 'two'))
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', '--no-warnings', CHILD, JSON.stringify({ worker: { pod, dataDir } })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let said = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (said += d))
    const running = () =>
      said
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .findLast((st) => st.containerStatuses?.every((c) => c.state.running))
    await until('both running', running)
    const holder = JSON.parse(readFileSync(join(podDir, 'pidns.json'), 'utf8'))
    child.kill('SIGKILL')
    await new Promise((r) => child.once('close', r))
    writeFileSync(trigger, '')
    // The next agent's worker for the pod, against an API that answers its status patches.
    const statuses = []
    let gone = false
    const worker = new PodWorker(
      { ...pod, metadata: { ...pod.metadata, resourceVersion: '50' }, status: running() },
      {
        config: { dataDir, imageDefaults: new Map(), backoffInitialMs: 100 },
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
        backoff: new Backoff(100, 400),
        event: () => {},
        log: () => {},
        done: () => (gone = true),
      },
    )
    worker.sync()
    await until('two restarted', () => statuses.at(-1)?.containerStatuses?.[1]?.state.running && marked(b).length)
    assert.deepEqual(JSON.parse(readFileSync(join(podDir, 'pidns.json'), 'utf8')), holder)
    const ps = execIn(worker.record('one').proc, podDir, ['ps', '-e', '-o', 'pid=,args='])
    assert.match(ps, /^\s*1 .*--pod-init/m)
    assert.ok(ps.includes(`sleep ${a}`) && ps.includes(`sleep ${b}`), ps)
    worker.removed()
    await until('the pod to go', () => gone)
    assert.deepEqual([...marked(a), ...marked(b)], [])
    assert.equal(sameProcess(holder.pid, holder.pidStart), false, 'the holder outlived its pod')
  })
})

describe('PID namespace of an agent that is not root', () => {
  it('comes with a user namespace of its uid, beside the volumes; exec enters both, and a stop leaves nothing', {
    skip: userns ? false : 'needs root to become nobody, and unprivileged user namespaces',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pidns-userns-'))
    dirs.push(dir)
    chmodSync(dir, 0o777)
    const volume = join(dir, 'volume')
    mkdirSync(volume)
    writeFileSync(join(volume, 'f'), 'in the volume\n')
    chmodSync(volume, 0o755)
    const target = join(dir, 'target')
    mkdirSync(target, { mode: 0o777 })
    const [a, b] = [mark(), mark()]
    const spec = {
      command: ['sh', '-c', `cat ${target}/f; setsid sleep ${a} & sleep ${b}`],
      dir,
      attempt: 0,
      tty: false,
      stdin: false,
      mounts: [{ source: volume, target, readOnly: true }],
      pidns: true,
    }
    // nobody must read the shim (a checkout under a 0700 directory would hide it).
    const shimCopy = join(dir, 'shim.py')
    copyFileSync(SHIM, shimCopy)
    chmodSync(shimCopy, 0o644)
    const shim = spawn(
      asNobody[0],
      [...asNobody.slice(1), '/usr/bin/python3', '-I', '-S', shimCopy, JSON.stringify(spec)],
      {
        cwd: dir,
        detached: true,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const said = await new Promise((r) => {
      shim.stdout.once('data', (d) => r(String(d)))
      shim.once('close', (code) => r(`shim ended with ${code} before it started`))
    })
    assert.equal(said, 'started\n')
    await until('the sleeps', () => marked(a).length && marked(b).length)
    const run = readRun(dir, 0)
    const prefix = enterPrefix(run.pid, dir)
    assert.deepEqual(prefix.slice(3, 7), ['--user', '--preserve-credentials', '--pid', '--mount'])
    const exec = spawnSync(
      asNobody[0],
      [...asNobody.slice(1), ...prefix, 'sh', '-c', `id -u; cat ${target}/f; ps -e -o args=`],
      {
        encoding: 'utf8',
      },
    )
    assert.equal(exec.status, 0, exec.stderr)
    const [uid, file, ...ps] = exec.stdout.trim().split('\n')
    assert.deepEqual([uid, file], ['65534', 'in the volume'])
    assert.ok(ps.includes(`sleep ${a}`) && ps.includes(`sleep ${b}`) && ps.length <= 6, String(ps))
    process.kill(-run.pid, 'SIGTERM')
    await until('the exit record', () => readExit(dir, 0))
    assert.deepEqual([readExit(dir, 0).exitCode, readExit(dir, 0).signal], [143, 15])
    assert.deepEqual([...marked(a), ...marked(b)], [])
  })
})

describe('which pods get one', () => {
  it('every pod where the host allows it, but not hostPID pods, nor shareProcessNamespace ones (they join the pod’s)', () => {
    const pod = (spec) => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } })
    assert.equal(ownPidNamespace(pod({})), pidNamespaces())
    assert.equal(ownPidNamespace(pod({ hostPID: true })), false)
    assert.equal(ownPidNamespace(pod({ shareProcessNamespace: true })), false)
  })
})
