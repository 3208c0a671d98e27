// Volumes of containers that outlive their agent: an agent killed (SIGKILL) leaves its container running in its own
// mount namespace; the next agent adopts it, kubectl-style exec still enters that namespace and sees the files, the
// ConfigMap is synced on (an update reaches the adopted container's file), and the pod's deletion releases the
// memory volume (its tmpfs unmounted before the pod directory goes).
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'

const CHILD = join(import.meta.dirname, '..', 'fixtures', 'agent-child.mjs')
const children = []
const workers = []
after(async () => {
  for (const c of children) c.kill('SIGKILL')
  await Promise.all(workers.map((w) => w.shutdown()))
})

const until = async (what, cond, ms = 20_000) => {
  const t0 = Date.now()
  for (;;) {
    const v = await cond()
    if (v) return v
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('volumes of adopted containers', () => {
  it('keeps the mount namespace, exec into it, syncs the ConfigMap on, and releases a memory volume on deletion', async () => {
    const root = mkdtempSync(join(tmpdir(), 'readopt-vol-'))
    const dataDir = mkdtempSync(join(tmpdir(), 'readopt-data-'))
    const cmPath = '/api/v1/namespaces/n/configmaps/cm'
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
      spec: {
        nodeName: 'edge',
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'main',
            image: 'i',
            command: ['sleep', '60'],
            volumeMounts: [
              { name: 'c', mountPath: `${root}/config` },
              { name: 'mem', mountPath: `${root}/mem` },
            ],
          },
        ],
        volumes: [
          { name: 'c', configMap: { name: 'cm' } },
          { name: 'mem', emptyDir: { medium: 'Memory' } },
        ],
      },
    }
    const child = spawn(
      process.execPath,
      [
        '--experimental-strip-types',
        '--no-warnings',
        CHILD,
        JSON.stringify({ worker: { pod, dataDir, objects: { [cmPath]: { data: { k: 'one' } } } } }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    children.push(child)
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d))
    const running = (s) => s?.containerStatuses?.[0]?.state.running
    const first = await until('the first agent to run it', () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find(running),
    )
    child.kill('SIGKILL')
    await new Promise((r) => child.on('exit', r))

    // The next agent, whose API has the ConfigMap changed meanwhile.
    const objects = { [cmPath]: { data: { k: 'two' } } }
    let current = { ...pod, status: first }
    const statuses = []
    const events = []
    const worker = new PodWorker(current, {
      config: { dataDir, imageDefaults: new Map(), backoffInitialMs: 200 },
      client: {
        async request(method, _path, body) {
          if (method !== 'PATCH') return {}
          statuses.push(body.status)
          current = {
            ...current,
            metadata: { ...current.metadata, resourceVersion: String(Number(current.metadata.resourceVersion) + 1) },
            status: body.status,
          }
          return current
        },
        async get(path) {
          if (objects[path]) return objects[path]
          throw new Error(`no ${path}`)
        },
      },
      hostIP: '192.0.2.9',
      allocatable: { cpu: '2', memory: '1Gi' },
      backoff: new Backoff(200, 800),
      event: (_p, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
      log: (m) => events.push(`log: ${m}`),
      done: () => {},
    })
    workers.push(worker)
    worker.sync()
    const r = worker.record('main')
    await until('the run adopted', () => r.running)
    assert.equal(r.proc.pid > 0, true)
    assert.equal(
      statuses.at(-1)?.containerStatuses?.[0]?.containerID ?? first.containerStatuses[0].containerID,
      first.containerStatuses[0].containerID,
    )
    // Still in a mount namespace of its own, which exec enters.
    assert.notEqual(readlinkSync(`/proc/${r.proc.pid}/ns/mnt`), readlinkSync('/proc/self/ns/mnt'))
    const sh = (script) => {
      const h = r.execIn(['sh', '-c', script], { stdin: false, tty: false })
      return spawnSync(h.argv[0], h.argv.slice(1), { env: h.env, cwd: h.cwd, encoding: 'utf8' }).stdout
    }
    assert.equal(sh(`echo kept > ${root}/mem/f; cat ${root}/mem/f`), 'kept\n')
    await until('the update', () => sh(`cat ${root}/config/k`) === 'two', 25_000)

    // Deleted: stopped, and its memory volume released before its directory goes.
    const memDir = join(worker.dir, 'volumes', 'kubernetes.io~empty-dir', 'mem')
    const tmpfsMounted = () => readFileSync('/proc/mounts', 'utf8').includes(` ${memDir} `)
    if (process.getuid() === 0) assert.equal(tmpfsMounted(), true)
    worker.removed()
    await until('the pod directory gone', () => !existsSync(worker.dir))
    assert.equal(tmpfsMounted(), false)
    assert.deepEqual(
      events.filter((e) => e.startsWith('log:')),
      [],
    )
  })
})
