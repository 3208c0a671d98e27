// Lifecycle hooks under the container runtime, against the stand-in `docker` first on PATH (runtime/fake-docker.mjs,
// every invocation recorded): exec hooks go through `docker exec <id>` as `kubectl exec` and exec probes do (a
// postStart's file is read by the container, a failing one kills it with `stop -t`), and a deletion's preStop runs
// before `stop -t`, whose grace it shortened.
import assert from 'node:assert/strict'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'
import { PodWorker } from '../../agent/pod-worker.ts'
import { selectRuntime } from '../../agent/runtime/select-runtime.ts'

const root = mkdtempSync(join(tmpdir(), 'lifecycle-docker-'))
const state = join(root, 'state')
const bin = join(root, 'bin')
const savedPath = process.env.PATH
let runtime

before(async () => {
  mkdirSync(state, { recursive: true })
  mkdirSync(bin)
  copyFileSync(join(import.meta.dirname, 'runtime', 'fake-docker.mjs'), join(bin, 'docker'))
  chmodSync(join(bin, 'docker'), 0o755)
  writeFileSync(
    join(state, 'images.json'),
    JSON.stringify({ 'busybox:1.36': { Id: 'sha256:b1', Size: 1, Cmd: ['sh'], Env: [`PATH=${savedPath}`] } }),
  )
  process.env.FAKE_DOCKER_DIR = state
  process.env.PATH = `${bin}:${savedPath}`
  runtime = await selectRuntime('docker', { node: 'edge', backoffInitialMs: 200, backoffMaxMs: 800, log: () => {} })
})
after(() => {
  process.env.PATH = savedPath
})

const calls = () =>
  readFileSync(join(state, 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).argv)
const cid = (worker, attempt = 0) =>
  readFileSync(
    worker
      .record('main')
      .logFile(attempt)
      .replace(/\.log$/, '.cid'),
    'utf8',
  ).trim()

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
})

function setup(container, grace = 5) {
  let pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: grace, containers: [container] },
  }
  const statuses = []
  const events = []
  const deletes = []
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(root, 'data-')), imageDefaults: new Map(), backoffInitialMs: 200 },
    client: {
      async request(method, _path, body) {
        if (method === 'DELETE') deletes.push(body)
        if (method !== 'PATCH') return {}
        statuses.push(body.status)
        pod = {
          ...pod,
          metadata: { ...pod.metadata, resourceVersion: String(statuses.length + 1) },
          status: body.status,
        }
        return pod
      },
      async get() {
        throw new Error('no config maps here')
      },
    },
    hostIP: '127.0.0.1',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(200, 800),
    event: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: () => {},
    done: () => {},
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return { worker, events, deletes, last: () => statuses.at(-1)?.containerStatuses?.[0], pod: () => pod }
}

/** A command line without the variable the runtime gives every exec (`-e KUBEFLARE_EXEC=...`, exec-marker.ts). */
const unmarked = (argv) => argv.join(' ').replace(/ -e KUBEFLARE_EXEC=[0-9a-f]+/, '')
const until = async (what, cond, ms = 15_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('lifecycle hooks under the container runtime (docker CLI)', () => {
  it('runs a postStart exec through docker exec in the container, which then reads its file', async () => {
    const t = setup({
      name: 'main',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'while ! test -e hooked; do sleep 0.05; done; echo "read $(cat hooked)"; exec sleep 30'],
      lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo from-hook > hooked'] } } },
    })
    await until('Running', () => t.last()?.state.running)
    const id = cid(t.worker)
    assert.ok(
      calls().some((argv) => unmarked(argv) === `exec ${id} sh -c echo from-hook > hooked`),
      JSON.stringify(calls().filter((a) => a[0] === 'exec')),
    )
    await until('the read', () => readFileSync(t.worker.record('main').logFile(0), 'utf8').includes('read from-hook'))
  })

  it('kills a container whose postStart exec fails in it (docker stop), then runs it again', async () => {
    const t = setup({
      name: 'main',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'exec sleep 30'],
      lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 4'] } } },
    })
    await until('a restart', () => t.last()?.restartCount >= 1)
    const id = cid(t.worker)
    const order = calls()
      .filter((argv) => argv.includes(id) && (argv[0] === 'exec' || argv[0] === 'stop'))
      .map((argv) => argv[0])
    assert.deepEqual(order.slice(0, 2), ['exec', 'stop'])
    assert.ok(t.events.includes('Warning FailedPostStartHook: PostStartHook failed'))
    assert.ok(t.events.includes('Normal Killing: FailedPostStartHook'))
  })

  it("runs a deletion's preStop exec through docker exec before docker stop, with the grace it left", async () => {
    const t = setup(
      {
        name: 'main',
        image: 'busybox:1.36',
        command: ['sh', '-c', 'exec sleep 30'],
        lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 1.2'] } } },
      },
      6,
    )
    await until('Running', () => t.last()?.state.running)
    const id = cid(t.worker)
    const p = t.pod()
    t.worker.update({
      ...p,
      metadata: {
        ...p.metadata,
        resourceVersion: '100',
        deletionTimestamp: new Date().toISOString(),
        deletionGracePeriodSeconds: 6,
      },
    })
    await until('the deletion confirmed', () => t.deletes.length > 0)
    const mine = calls().filter((argv) => argv.includes(id))
    const hook = mine.findIndex((argv) => unmarked(argv) === `exec ${id} sh -c sleep 1.2`)
    const stop = mine.findIndex((argv) => argv[0] === 'stop')
    assert.ok(hook >= 0 && stop > hook, JSON.stringify(mine))
    // 6 s less the whole second the hook took.
    assert.deepEqual(mine[stop], ['stop', '-t', '5', id])
  })
})
