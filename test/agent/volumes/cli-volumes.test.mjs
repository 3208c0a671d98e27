// Pod volumes under the container runtime, against the stand-in `docker` (test/agent/runtime/fake-docker.mjs, every
// command line recorded): each volume a container mounts becomes one `--mount type=bind,...` flag, in the order of its
// volumeMounts, read-only for API data and readOnly mounts, a subPath bound as the file or directory it names; the
// bound directories hold what the kubelet would have written.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'

const root = mkdtempSync(join(tmpdir(), 'cli-volumes-'))
const state = join(root, 'state')
const bin = join(root, 'bin')
const savedPath = process.env.PATH
let runtime

before(async () => {
  mkdirSync(state, { recursive: true })
  mkdirSync(bin)
  copyFileSync(join(import.meta.dirname, '..', 'runtime', 'fake-docker.mjs'), join(bin, 'docker'))
  chmodSync(join(bin, 'docker'), 0o755)
  writeFileSync(
    join(state, 'images.json'),
    JSON.stringify({
      'busybox:1.36': { Id: 'sha256:b1', Size: 1, RepoDigests: [], Cmd: ['sh'], Env: [`PATH=${savedPath}`] },
    }),
  )
  process.env.FAKE_DOCKER_DIR = state
  process.env.PATH = `${bin}:${savedPath}`
  runtime = await selectRuntime('docker', { node: 'edge', backoffInitialMs: 400, backoffMaxMs: 1600, log: () => {} })
})
after(() => {
  process.env.PATH = savedPath
})

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
  // An agent stopping leaves its pods' volumes; the tests' memory volumes go with them.
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n'))
    if (line.includes(root) && line.startsWith('tmpfs ')) spawnSync('umount', [line.split(' ')[1]])
})

function setup(spec, objects) {
  let pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: 5, ...spec },
  }
  const statuses = []
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
    async get(path) {
      if (objects[path]) return objects[path]
      throw new Error(`no ${path}`)
    },
  }
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(root, 'data-')), imageDefaults: new Map(), backoffInitialMs: 200 },
    client: api,
    hostIP: '192.0.2.9',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(200, 800),
    event: () => {},
    log: () => {},
    done: () => {},
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return { uid: pod.metadata.uid, worker, last: () => statuses.at(-1) }
}

const until = async (what, cond, ms = 15_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
const runCall = (uid) =>
  readFileSync(join(state, 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((c) => c.argv[0] === 'run' && c.argv.includes(`kubeflare_${uid}_main_0`))

describe('pod volumes (docker CLI)', () => {
  it('binds each mounted volume with --mount, read-only where kube mounts it so', async () => {
    const host = mkdtempSync(join(tmpdir(), 'hostpath-'))
    const t = setup(
      {
        containers: [
          {
            name: 'main',
            image: 'busybox:1.36',
            command: ['sleep', '30'],
            volumeMounts: [
              { name: 'config', mountPath: '/etc/config' },
              { name: 'scratch', mountPath: '/scratch' },
              { name: 'mem', mountPath: '/mem' },
              { name: 'config', mountPath: '/etc/one.conf', subPath: 'one.conf' },
              { name: 'host', mountPath: '/host', readOnly: true },
            ],
          },
        ],
        volumes: [
          { name: 'config', configMap: { name: 'cm' } },
          { name: 'scratch', emptyDir: {} },
          { name: 'mem', emptyDir: { medium: 'Memory' } },
          { name: 'host', hostPath: { path: host, type: 'Directory' } },
          { name: 'unused', configMap: { name: 'not-there' } },
        ],
      },
      { '/api/v1/namespaces/n/configmaps/cm': { data: { 'one.conf': 'one=1\n' } } },
    )
    await until('Running', () => t.last()?.containerStatuses?.[0]?.state.running)
    const vols = join(t.worker.dir, 'volumes')
    const cmDir = join(vols, 'kubernetes.io~configmap', 'config')
    const memDir = process.getuid() === 0 ? join(vols, 'kubernetes.io~empty-dir', 'mem') : undefined
    const argv = runCall(t.uid).argv
    const mounts = argv.flatMap((a, i) => (argv[i - 1] === '--mount' ? [a] : []))
    assert.deepEqual(mounts.slice(0, 2), [
      `type=bind,source=${cmDir},target=/etc/config,readonly`,
      `type=bind,source=${join(vols, 'kubernetes.io~empty-dir', 'scratch')},target=/scratch`,
    ])
    if (memDir) assert.equal(mounts[2], `type=bind,source=${memDir},target=/mem`)
    else assert.match(mounts[2], /^type=bind,source=\/dev\/shm\/kubeflare-.*-mem,target=\/mem$/)
    // A subPath of a ConfigMap key binds the file itself (it does not follow later updates, as in kube).
    const ts = readlinkSync(join(cmDir, '..data'))
    assert.deepEqual(mounts.slice(3), [
      `type=bind,source=${join(cmDir, ts, 'one.conf')},target=/etc/one.conf,readonly`,
      `type=bind,source=${host},target=/host,readonly`,
    ])
    assert.equal(readFileSync(join(cmDir, 'one.conf'), 'utf8'), 'one=1\n')
    // The flags come before the image.
    assert.ok(argv.lastIndexOf('--mount') < argv.indexOf('busybox:1.36'))
  })
})
