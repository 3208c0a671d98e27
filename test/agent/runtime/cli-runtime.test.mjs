// The container runtime against a stand-in `docker` first on PATH (fake-docker.mjs: containers are local processes,
// every invocation recorded): the exact argv the agent sends (run, stop -t, kill, exec, pull, inspect, rm, ps), and
// what kube sees of it: Running with docker:// IDs and the image's digest, exit codes and restarts, logs, exec and
// attach, a grace-period stop, OOMKilled, StartError, image pull policies and their waiting reasons, leftovers.
import assert from 'node:assert/strict'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { parseRecords } from '../../../agent/cri-log.ts'
import { nodeStatus } from '../../../agent/node-object.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { entrypoint, runArgs } from '../../../agent/runtime/cli-args.ts'
import { RuntimeError, selectRuntime } from '../../../agent/runtime/select-runtime.ts'
import { serveAttach } from '../../../agent/tunnel/attach-server.ts'
import { serveExec } from '../../../agent/tunnel/exec-server.ts'
import { TunnelClient } from '../../../agent/tunnel/tunnel-client.ts'
import { dataFrame, decodeFrame, eofFrame, FrameType, jsonFrame } from '../../../src/node/tunnel-frames.ts'

const root = mkdtempSync(join(tmpdir(), 'cli-runtime-'))
const state = join(root, 'state')
const bin = join(root, 'bin')
const savedPath = process.env.PATH
let runtime

before(async () => {
  mkdirSync(state, { recursive: true })
  mkdirSync(bin)
  copyFileSync(join(import.meta.dirname, 'fake-docker.mjs'), join(bin, 'docker'))
  chmodSync(join(bin, 'docker'), 0o755)
  const env = [`PATH=${savedPath}`]
  writeFileSync(
    join(state, 'images.json'),
    JSON.stringify({
      'busybox:1.36': { Id: 'sha256:b1', Size: 4261550, RepoDigests: ['busybox@sha256:d1'], Cmd: ['sh'], Env: env },
      'echoer:1': { Id: 'sha256:e1', Size: 10, Entrypoint: ['echo', 'entry'], Cmd: ['default', 'cmd'], Env: env },
      'oom:1': { Id: 'sha256:o1', Size: 10, Cmd: ['sh'], Env: env, OomOnKill: true },
    }),
  )
  writeFileSync(
    join(state, 'registry.json'),
    JSON.stringify({
      'pullme:2': {
        Id: 'sha256:p2',
        Size: 777,
        RepoDigests: ['pullme@sha256:p2d'],
        Cmd: ['sh'],
        Env: env,
        PullMs: 300,
      },
    }),
  )
  process.env.FAKE_DOCKER_DIR = state
  process.env.PATH = `${bin}:${savedPath}`
  runtime = await selectRuntime('docker', { node: 'edge', backoffInitialMs: 400, backoffMaxMs: 1600, log: () => {} })
})
after(() => {
  process.env.PATH = savedPath
})

const calls = () =>
  readFileSync(join(state, 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
const callsOf = (sub) => calls().filter((c) => c.argv[0] === sub)
const cid = (record, attempt = 0) => readFileSync(record.logFile(attempt).replace(/\.log$/, '.cid'), 'utf8').trim()

const workers = []
/** What the pod workers logged (a sync that threw): none is expected. */
const logs = []
const clients = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.stop()
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
  assert.deepEqual(logs.splice(0), [])
})

/** A pod worker for `spec`, or (`again`) a second one for the same pod and data directory: an agent started again. */
function setup(spec, again) {
  let pod = again?.pod ?? {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: 5, ...spec },
  }
  const statuses = []
  const events = []
  const api = {
    async request(method, _path, body) {
      if (method !== 'PATCH') return {}
      statuses.push(body.status)
      pod = {
        ...pod,
        metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 1) },
        status: body.status,
      }
      return pod
    },
    async get() {
      throw new Error('no config maps here')
    },
  }
  const worker = new PodWorker(pod, {
    config: {
      dataDir: again?.dataDir ?? mkdtempSync(join(root, 'data-')),
      imageDefaults: new Map(),
      backoffInitialMs: 200,
    },
    client: api,
    hostIP: '192.0.2.9',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(200, 800),
    event: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: (m) => logs.push(m),
    done: () => {},
    runtime,
  })
  if (!again) workers.push(worker)
  worker.sync()
  return {
    uid: pod.metadata.uid,
    worker,
    events,
    statuses,
    last: () => statuses.at(-1),
    again: () => setup(spec, { pod, dataDir: worker.dir.replace(/\/pods\/[^/]+$/, '') }),
  }
}

const until = async (what, cond, ms = 15_000, t) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}${t ? `: ${JSON.stringify(t.last())}` : ''}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
const status = (t) => t.last()?.containerStatuses?.[0]

describe('container runtime (docker CLI)', () => {
  it('is picked by name and by auto when the engine answers; nodeInfo names its version', async () => {
    assert.equal(runtime.name, 'docker')
    assert.equal(runtime.version, 'docker://99.1.0-fake')
    const auto = await selectRuntime('auto', { node: 'edge', backoffInitialMs: 1, backoffMaxMs: 1, log: () => {} })
    assert.equal(auto.version, 'docker://99.1.0-fake')
    const facts = { internalIP: '192.0.2.9', hostname: 'h', cpus: 1, memoryBytes: 1024, storageBytes: 0 }
    assert.equal(
      nodeStatus({ ...facts, runtime }, 10, undefined, 'now').nodeInfo.containerRuntimeVersion,
      'docker://99.1.0-fake',
    )
    assert.equal(nodeStatus(facts, 10, undefined, 'now').nodeInfo.containerRuntimeVersion, 'process://1.0.0')
  })

  it('is not picked when no engine answers: auto falls back to processes, by name it is an error', async () => {
    const dead = mkdtempSync(join(root, 'dead-'))
    writeFileSync(
      join(dead, 'docker'),
      '#!/bin/sh\necho "Cannot connect to the Docker daemon at unix:///var/run/docker.sock." >&2\nexit 1\n',
    )
    chmodSync(join(dead, 'docker'), 0o755)
    // Only this directory: a podman the host may have is not asked.
    process.env.PATH = dead
    try {
      const logs = []
      const options = { node: 'edge', backoffInitialMs: 1, backoffMaxMs: 1, log: (m) => logs.push(m) }
      assert.equal((await selectRuntime('auto', options)).name, 'process')
      assert.match(logs[0], /^--runtime auto: not docker \(.*\/docker version: Cannot connect to the Docker daemon/)
      assert.equal(logs[1], '--runtime auto: not podman (podman is not on PATH)')
      await assert.rejects(
        selectRuntime('docker', options),
        (e) => e instanceof RuntimeError && /Cannot connect/.test(e.message),
      )
    } finally {
      process.env.PATH = `${bin}:${savedPath}`
    }
  })

  it('maps command to ENTRYPOINT and args to CMD as kube does', () => {
    const env = { WHO: 'you' }
    assert.deepEqual(entrypoint({}, env), { args: [] })
    assert.deepEqual(entrypoint({ args: ['hi', '$(WHO)'] }, env), { args: ['hi', 'you'] })
    assert.deepEqual(entrypoint({ command: ['sh'] }, env), { entrypoint: 'sh', args: [] })
    assert.deepEqual(entrypoint({ command: ['sh', '-c'], args: ['echo $(WHO)'] }, env), {
      entrypoint: 'sh',
      args: ['-c', 'echo you'],
    })
    const base = { node: 'n1', podUID: 'u', podName: 'p', podNamespace: 'ns', attempt: 2, env: {}, cidFile: '/c' }
    assert.deepEqual(runArgs({ ...base, container: { name: 'c', image: 'img', tty: true } }).slice(-3), [
      'io.kubernetes.container.restartCount=2',
      '-t',
      'img',
    ])
  })

  it('runs the image with the exact flags, reports Running with docker IDs, and logs its output', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          imagePullPolicy: 'IfNotPresent',
          command: ['sh', '-c'],
          args: ['echo "hi $(GREETING) from $(pwd)"; echo oops >&2; sleep 30'],
          env: [{ name: 'GREETING', value: 'hola' }],
          workingDir: '/srv',
          resources: { limits: { memory: '64Mi', cpu: '500m' } },
          securityContext: { runAsUser: 1000, runAsGroup: 3000 },
        },
      ],
    })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    const id = cid(r)
    const run = callsOf('run').find((c) => c.argv.includes(`kubeflare_${t.uid}_main_0`))
    assert.deepEqual(run.argv, [
      'run',
      '--name',
      `kubeflare_${t.uid}_main_0`,
      '--cidfile',
      r.logFile(0).replace(/\.log$/, '.cid'),
      '--pull',
      'never',
      '--network',
      'host',
      '--label',
      'kubeflare.node=edge',
      '--label',
      `io.kubernetes.pod.uid=${t.uid}`,
      '--label',
      'io.kubernetes.pod.name=p',
      '--label',
      'io.kubernetes.pod.namespace=n',
      '--label',
      'io.kubernetes.container.name=main',
      '--label',
      'io.kubernetes.container.restartCount=0',
      '-e',
      'GREETING',
      '-w',
      '/srv',
      '--memory',
      '67108864',
      '--cpus',
      '0.5',
      '--user',
      '1000:3000',
      '--entrypoint',
      'sh',
      'busybox:1.36',
      '-c',
      'echo "hi hola from $(pwd)"; echo oops >&2; sleep 30',
    ])
    // The value never shows on the command line: the CLI takes it from its environment.
    assert.deepEqual(run.env, { GREETING: 'hola' })
    const s = status(t)
    assert.equal(s.containerID, `docker://${id}`)
    assert.equal(s.imageID, 'busybox@sha256:d1')
    const inspected = JSON.parse(readFileSync(join(state, 'containers', `${id}.json`), 'utf8')).State.StartedAt
    assert.equal(s.state.running.startedAt, `${inspected.slice(0, 19)}Z`)
    assert.ok(t.events.includes('Normal Pulled: Container image "busybox:1.36" already present on machine'))
    assert.ok(t.events.includes('Normal Started: Started container main'))
    assert.equal(callsOf('pull').length, 0)
    await until('output', () => parseRecords(readFileSync(r.logFile(0), 'utf8')).length >= 2)
    const lines = parseRecords(readFileSync(r.logFile(0), 'utf8')).map((x) => `${x.stream}:${x.text}`)
    assert.ok(
      lines.some((l) => /^stdout:hi hola from .*\/srv$/.test(l)),
      String(lines),
    )
    assert.ok(lines.includes('stderr:oops'), String(lines))
  })

  it('passes a variable the CLI itself reads (HOME, DOCKER_HOST, LD_*) through an env file, not its own environment', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          imagePullPolicy: 'IfNotPresent',
          command: ['sleep', '30'],
          env: [
            { name: 'HOME', value: '/pod-home' },
            { name: 'DOCKER_HOST', value: 'tcp://198.51.100.7:2375' },
            { name: 'LD_PRELOAD', value: '/pod/evil.so' },
            { name: 'GREETING', value: 'hola' },
          ],
        },
      ],
    })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    const run = callsOf('run').find((c) => c.argv.includes(`kubeflare_${t.uid}_main_0`))
    // The client ran as the agent's: its HOME, no engine of the pod's choosing.
    assert.deepEqual(run.own, { HOME: process.env.HOME ?? null, DOCKER_HOST: process.env.DOCKER_HOST ?? null })
    // The container still gets every variable, and no value shows on the command line.
    assert.deepEqual(run.env, {
      HOME: '/pod-home',
      DOCKER_HOST: 'tcp://198.51.100.7:2375',
      LD_PRELOAD: '/pod/evil.so',
      GREETING: 'hola',
    })
    const envFile = r.logFile(0).replace(/\.log$/, '.env')
    assert.deepEqual(run.argv.slice(run.argv.indexOf('--env-file'), run.argv.indexOf('--env-file') + 4), [
      '--env-file',
      envFile,
      '-e',
      'GREETING',
    ])
    assert.ok(!run.argv.some((a) => /pod-home|198\.51|evil/.test(a)), String(run.argv))
    // Read by the CLI as it started; then it goes, values and all.
    await until('the env file removed', () => !existsSync(envFile))
  })

  it('refuses a line break in such a variable as CreateContainerConfigError (an env file cannot carry one)', async () => {
    const t = setup({
      containers: [
        { name: 'main', image: 'busybox:1.36', command: ['sleep', '30'], env: [{ name: 'HOME', value: 'a\nb' }] },
      ],
    })
    await until('CreateContainerConfigError', () => status(t)?.state.waiting?.reason === 'CreateContainerConfigError')
    assert.match(status(t).state.waiting.message, /HOME/)
  })

  it('keeps the image CMD under args only, and drops it under command', async () => {
    const t = setup({
      restartPolicy: 'Never',
      containers: [
        { name: 'a', image: 'echoer:1', args: ['x', 'y'] },
        { name: 'b', image: 'echoer:1', command: ['echo'] },
        { name: 'c', image: 'echoer:1' },
      ],
    })
    await until('Succeeded', () => t.last()?.phase === 'Succeeded', 15_000, t)
    const out = (name) => parseRecords(readFileSync(t.worker.record(name).logFile(0), 'utf8')).map((x) => x.text)
    assert.deepEqual([out('a'), out('b'), out('c')], [['entry x y'], [''], ['entry default cmd']])
  })

  it('reports exit codes from inspect, restarts with back-off, and removes each ended container', async () => {
    const t = setup({
      containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'echo run; exit 3'] }],
    })
    await until('a second restart', () => status(t)?.restartCount >= 2 && status(t).state.waiting)
    const s = status(t)
    assert.equal(s.state.waiting.reason, 'CrashLoopBackOff')
    assert.equal(s.lastState.terminated.exitCode, 3)
    assert.equal(s.lastState.terminated.reason, 'Error')
    const r = t.worker.record('main')
    const id = cid(r, r.attempts - 1)
    assert.equal(s.lastState.terminated.containerID, `docker://${id}`)
    const names = callsOf('run')
      .map((c) => c.argv[2])
      .filter((n) => n.startsWith(`kubeflare_${t.uid}_`))
    assert.deepEqual(
      names.slice(0, 3),
      [0, 1, 2].map((a) => `kubeflare_${t.uid}_main_${a}`),
    )
    assert.ok(
      callsOf('inspect').some((c) => c.argv.join(' ') === `inspect --type container --format {{json .State}} ${id}`),
    )
    await until('its removal', () => callsOf('rm').some((c) => c.argv.join(' ') === `rm -f ${id}`))
  })

  it('stops with stop -t <grace>: SIGTERM, then the engine kills one that ignores it (137)', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          command: ['sh', '-c', "trap '' TERM; echo ready; while true; do sleep 0.1; done"],
        },
      ],
    })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    const id = cid(r)
    await new Promise((res) => setTimeout(res, 300))
    const t0 = Date.now()
    await r.stop(1200)
    const took = Date.now() - t0
    assert.ok(took >= 1900 && took < 6000, `took ${took} ms`)
    assert.ok(callsOf('stop').some((c) => c.argv.join(' ') === `stop -t 2 ${id}`))
    assert.equal(r.current.exitCode, 137)
    assert.equal(r.current.reason, 'Error')
  })

  it('kills at once with no grace', async () => {
    const t = setup({ containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '30'] }] })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    await r.stop(0)
    assert.ok(callsOf('kill').some((c) => c.argv.join(' ') === `kill ${cid(r)}`))
    assert.equal(r.current.exitCode, 137)
  })

  it('reports OOMKilled and StartError as kube does', async () => {
    const t = setup({
      restartPolicy: 'Never',
      containers: [
        { name: 'oom', image: 'oom:1', command: ['sh', '-c', 'kill -9 $$$$'] },
        { name: 'bad', image: 'busybox:1.36', command: ['no-such-binary'] },
      ],
    })
    await until('Failed', () => t.last()?.phase === 'Failed', 15_000, t)
    const [oom, bad] = t.last().containerStatuses.map((s) => s.state.terminated)
    assert.deepEqual([oom.exitCode, oom.reason], [137, 'OOMKilled'])
    assert.deepEqual([bad.exitCode, bad.reason], [128, 'StartError'])
    assert.match(bad.message, /exec: "no-such-binary": executable file not found in \$PATH/)
    assert.equal(bad.startedAt, undefined)
  })

  it('pulls a missing image (IfNotPresent) while the container waits in ContainerCreating', async () => {
    const t = setup({
      containers: [{ name: 'main', image: 'pullme:2', imagePullPolicy: 'IfNotPresent', command: ['sleep', '30'] }],
    })
    await until('Running', () => status(t)?.state.running)
    assert.deepEqual(
      callsOf('pull').map((c) => c.argv),
      [['pull', 'pullme:2']],
    )
    assert.ok(t.statuses.some((s) => s.containerStatuses[0].state.waiting?.reason === 'ContainerCreating'))
    assert.ok(t.events.includes('Normal Pulling: Pulling image "pullme:2"'))
    assert.ok(
      t.events.some((e) =>
        /^Normal Pulled: Successfully pulled image "pullme:2" in \d.*s \(.*s including waiting\)\. Image size: 777 bytes\.$/.test(
          e,
        ),
      ),
      String(t.events),
    )
    assert.equal(status(t).imageID, 'pullme@sha256:p2d')
  })

  it('waits in ErrImageNeverPull, and in ErrImagePull then ImagePullBackOff for an image that cannot be pulled', async () => {
    const never = setup({
      containers: [{ name: 'main', image: 'absent:1', imagePullPolicy: 'Never', command: ['true'] }],
    })
    const always = setup({
      containers: [{ name: 'main', image: 'nope', imagePullPolicy: 'Always', command: ['true'] }],
    })
    await until('ErrImageNeverPull', () => status(never)?.state.waiting?.reason === 'ErrImageNeverPull')
    assert.deepEqual(status(never).state.waiting, {
      reason: 'ErrImageNeverPull',
      message: 'Container image "absent:1" is not present with pull policy of Never',
    })
    assert.ok(
      never.events.includes(
        'Warning ErrImageNeverPull: Container image "absent:1" is not present with pull policy of Never',
      ),
    )
    await until('ImagePullBackOff', () => status(always)?.state.waiting?.reason === 'ImagePullBackOff')
    const pulled = always.statuses
      .map((s) => s.containerStatuses[0].state.waiting)
      .find((w) => w?.reason === 'ErrImagePull')
    assert.deepEqual(pulled, {
      reason: 'ErrImagePull',
      message: 'Error response from daemon: manifest for nope:latest not found: manifest unknown: manifest unknown',
    })
    assert.deepEqual(status(always).state.waiting, {
      reason: 'ImagePullBackOff',
      message:
        'Back-off pulling image "nope:latest": ErrImagePull: Error response from daemon: manifest for nope:latest not found: manifest unknown: manifest unknown',
    })
    assert.ok(always.events.includes('Warning Failed: Error: ErrImagePull'))
    assert.ok(always.events.includes('Normal BackOff: Back-off pulling image "nope:latest"'))
    // After the back-off it is pulled again.
    await until('a second pull', () => callsOf('pull').filter((c) => c.argv[1] === 'nope:latest').length >= 2)
    assert.equal(status(always).restartCount, 0)
  })

  it('execs in the running container (exec -i), and attaches to its stdin and output', async () => {
    const t = setup({
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          stdin: true,
          env: [{ name: 'GREETING', value: 'hola' }],
          command: ['sh', '-c', 'while read l; do echo "echo $l"; done'],
        },
      ],
    })
    await until('Running', () => status(t)?.state.running)
    const id = cid(t.worker.record('main'))
    assert.ok(callsOf('run').some((c) => c.argv.includes(`kubeflare_${t.uid}_main_0`) && c.argv.includes('-i')))
    const e = open(
      t,
      { op: 'exec', command: ['sh', '-c', 'echo $GREETING; cat; exit 5'], stdin: true, stdout: true, stderr: true },
      serveExec,
    )
    e.deliver(dataFrame(1, 0, Buffer.from('typed\n')))
    e.deliver(eofFrame(1, 0))
    await until('the exec to end', e.closed)
    assert.equal(e.channel(1), 'hola\ntyped\n')
    assert.equal(JSON.parse(e.channel(3)).details.causes[0].message, '5')
    assert.ok(
      callsOf('exec').some((c) =>
        new RegExp(`^exec -i -e KUBEFLARE_EXEC=[0-9a-f]{24} ${id} sh -c echo \\$GREETING; cat; exit 5$`).test(
          c.argv.join(' '),
        ),
      ),
    )
    const a = open(t, { op: 'attach', stdin: true, stdout: true }, serveAttach)
    a.deliver(dataFrame(1, 0, Buffer.from('ping\n')))
    await until('the echo', () => a.channel(1) === 'echo ping\n')
  })

  it('adopts the container of a run an earlier agent started: same docker ID and start, exec, stop -t', async () => {
    // An engine that starts the container a while after its client ran: the engine's startedAt is not the client's,
    // the shim's record of its start.
    process.env.FAKE_DOCKER_START_DELAY_MS = '1500'
    let t
    try {
      t = setup({
        containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'echo up; sleep 30'] }],
      })
      await until('Running', () => status(t)?.state.running)
    } finally {
      delete process.env.FAKE_DOCKER_START_DELAY_MS
    }
    const before = status(t)
    // Reported running only with the engine's own start.
    const engineStart = (id) =>
      JSON.parse(readFileSync(join(state, 'containers', `${id}.json`), 'utf8')).State.StartedAt.replace(/\.\d+Z$/, 'Z')
    assert.equal(before.state.running.startedAt, engineStart(cid(t.worker.record('main'))))
    const id = cid(t.worker.record('main'))
    // An env file of the run's (values and all) that the first agent left, dying before the run started.
    const envFile = t.worker
      .record('main')
      .logFile(0)
      .replace(/\.log$/, '.env')
    writeFileSync(envFile, 'HOME=/left\n', { mode: 0o600 })
    // The first agent is gone without stopping anything (its worker is left alone); the next one takes over.
    const next = t.again()
    workers.push(next.worker)
    await until('the next agent to report', () => status(next)?.state.running)
    const s = status(next)
    assert.equal(s.containerID, `docker://${id}`)
    // Every report of the next agent, the first ones included (before it read the engine again), keeps that start.
    const starts = next.statuses.map((x) => x.containerStatuses?.[0]?.state.running?.startedAt).filter(Boolean)
    assert.deepEqual([...new Set(starts)], [before.state.running.startedAt])
    assert.equal(s.restartCount, 0)
    // The same container runs the same image.
    assert.equal(s.imageID, 'busybox@sha256:d1')
    await until('the env file removed', () => !existsSync(envFile))
    const r = next.worker.record('main')
    const argv = r.execIn(['true'], { stdin: false, tty: false }).argv.slice(1)
    assert.deepEqual([...argv.slice(0, 2), ...argv.slice(3)], ['exec', '-e', id, 'true'])
    assert.match(argv[2], /^KUBEFLARE_EXEC=[0-9a-f]{24}$/)
    await r.stop(3000)
    assert.ok(callsOf('stop').some((c) => c.argv.join(' ') === `stop -t 3 ${id}`))
    assert.equal(r.current.exitCode, 143)
    assert.equal(r.current.containerID, `docker://${id}`)
  })

  it('removes the container of a run whose client was lost with its shim, so its restart does not run beside it', async () => {
    const t = setup({ containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '30'] }] })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    const id = cid(r)
    const container = () => JSON.parse(readFileSync(join(state, 'containers', `${id}.json`), 'utf8'))
    const pid = container().State.Pid
    try {
      // The shim and its client die (a service manager stopping the agent's whole group); the engine's container lives.
      const shim = JSON.parse(readFileSync(r.logFile(0).replace(/\.log$/, '.run'), 'utf8'))
      process.kill(shim.shimPid, 'SIGKILL')
      process.kill(-shim.pid, 'SIGKILL')
      await until('the lost run recorded', () => existsSync(r.logFile(0).replace(/\.log$/, '.exit')))
      const next = t.again()
      workers.push(next.worker)
      await until('the restart', () => status(next)?.restartCount === 1 && status(next)?.state.running)
      assert.equal(status(next).lastState.terminated.reason, 'ContainerStatusUnknown')
      await until("the lost run's container removed", () => !existsSync(join(state, 'containers', `${id}.json`)))
      assert.ok(callsOf('rm').some((c) => c.argv.join(' ') === `rm -f ${id}`))
      assert.throws(() => process.kill(pid, 0))
    } finally {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // removed
      }
      // Nothing records that container's end (its client is gone): the first agent's wait for it ends here.
      rmSync(join(state, 'containers', `${id}.json`), { force: true })
    }
  })

  it('stops a container whose client was lost while the agent runs (a pod deleted then ends)', async () => {
    const t = setup({ containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '30'] }] })
    await until('Running', () => status(t)?.state.running)
    const r = t.worker.record('main')
    const id = cid(r)
    const pid = JSON.parse(readFileSync(join(state, 'containers', `${id}.json`), 'utf8')).State.Pid
    try {
      const shim = JSON.parse(readFileSync(r.logFile(0).replace(/\.log$/, '.run'), 'utf8'))
      process.kill(shim.shimPid, 'SIGKILL')
      process.kill(-shim.pid, 'SIGKILL')
      await until('the lost run recorded', () => existsSync(r.logFile(0).replace(/\.log$/, '.exit')))
      let stopped = false
      void r.stop(1000).then(() => (stopped = true))
      await until('the stop to end', () => stopped, 10_000)
      assert.ok(callsOf('stop').some((c) => c.argv.join(' ') === `stop -t 1 ${id}`))
      assert.throws(() => process.kill(pid, 0))
    } finally {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // stopped
      }
    }
  })

  it('removes the containers an earlier agent left: ended ones, and running ones of pods it no longer has', async () => {
    const t = setup({ containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '30'] }] })
    await until('Running', () => status(t)?.state.running)
    const id = cid(t.worker.record('main'))
    const logs = []
    await runtime.reapLeftovers(
      (uid) => uid === t.uid,
      (m) => logs.push(m),
    )
    assert.ok(!callsOf('rm').some((c) => c.argv.includes(id)), 'a kept pod lost its container')
    await runtime.reapLeftovers(
      () => false,
      (m) => logs.push(m),
    )
    assert.ok(callsOf('ps').some((c) => c.argv.join(' ') === 'ps -a -q --filter label=kubeflare.node=edge'))
    assert.ok(callsOf('rm').some((c) => c.argv[0] === 'rm' && c.argv[1] === '-f' && c.argv.includes(id)))
    assert.ok(
      logs.some((m) => m.includes(id)),
      String(logs),
    )
    await until('the container to end', () => !t.worker.record('main').running)
  })
})

/** A tunnel stream to the pod's container `main`, served by `serve`. */
function open(t, request, serve) {
  const listeners = {}
  const sent = []
  const socket = {
    binaryType: '',
    readyState: 1,
    send: (d) => sent.push(d),
    close: () => {},
    addEventListener: (type, l) => (listeners[type] ??= []).push(l),
  }
  const pods = { byName: (ns, name) => (ns === 'n' && name === 'p' ? t.worker : undefined) }
  const client = new TunnelClient(
    () => socket,
    (s) => serve(s, pods),
    () => {},
  )
  client.start()
  clients.push(client)
  listeners.open[0]({})
  const deliver = (f) => listeners.message[0]({ data: f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) })
  deliver(jsonFrame(FrameType.OPEN, 1, { namespace: 'n', pod: 'p', uid: t.uid, container: 'main', ...request }))
  const frames = () => sent.filter((d) => typeof d !== 'string').map(decodeFrame)
  return {
    deliver,
    channel: (ch) =>
      Buffer.concat(
        frames()
          .filter((f) => f.type === FrameType.DATA && f.payload[0] === ch)
          .map((f) => Buffer.from(f.payload.subarray(1))),
      ).toString(),
    closed: () => frames().some((f) => f.type === FrameType.CLOSE),
  }
}
