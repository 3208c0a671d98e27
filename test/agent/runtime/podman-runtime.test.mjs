// The container runtime against a real podman, where one runs containers here (skipped otherwise): an image made
// from the host's static busybox (podman import, no registry), a pod run from it on the host's network, its output in
// the agent's log file, exec inside it, an httpGet readiness probe reaching its port, an exit code, a graceful stop.
// CONTAINERS_CONF points podman at runc and lower ulimits, which a sandbox without CAP_SYS_RESOURCE needs.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { parseRecords } from '../../../agent/cri-log.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'
import { PODMAN_IMAGE, podmanUnusable } from './podman-image.mjs'

const IMAGE = PODMAN_IMAGE
const root = mkdtempSync(join(tmpdir(), 'podman-runtime-'))
const savedConf = process.env.CONTAINERS_CONF

const why = podmanUnusable()
let runtime
before(async () => {
  if (why) return
  runtime = await selectRuntime('podman', {
    node: 'podman-test',
    backoffInitialMs: 500,
    backoffMaxMs: 2000,
    log: () => {},
  })
})
after(() => {
  if (savedConf === undefined) delete process.env.CONTAINERS_CONF
  else process.env.CONTAINERS_CONF = savedConf
})

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
})

function setup(spec, objects = {}) {
  let pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: { nodeName: 'podman-test', restartPolicy: 'Always', terminationGracePeriodSeconds: 5, ...spec },
  }
  const statuses = []
  const api = {
    async request(method, _path, body) {
      if (method !== 'PATCH') return {}
      statuses.push(body.status)
      pod = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 1) } }
      return { ...pod, status: body.status }
    },
    async get(path) {
      if (objects[path]) return objects[path]
      throw new Error(`no ${path} here`)
    },
  }
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(root, 'data-')), imageDefaults: new Map(), backoffInitialMs: 500 },
    client: api,
    hostIP: '127.0.0.1',
    allocatable: {},
    backoff: new Backoff(500, 2000),
    event: () => {},
    log: (m) => process.stderr.write(`${m}\n`),
    done: () => {},
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return { worker, last: () => statuses.at(-1) }
}

const until = async (what, cond, ms = 30_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('container runtime (real podman)', { skip: why ?? false }, () => {
  it('runs an image on the host network: Running, logs, exec, a ready httpGet probe, a graceful stop', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000)
    const t = setup({
      restartPolicy: 'Never',
      containers: [
        {
          name: 'web',
          image: IMAGE,
          imagePullPolicy: 'Never',
          env: [{ name: 'GREETING', value: 'hola' }],
          command: ['sh', '-c'],
          args: [
            `echo "hi $(GREETING)"; echo err >&2; mkdir -p /www; echo page > /www/index.html; exec httpd -f -p ${port} -h /www`,
          ],
          readinessProbe: { httpGet: { path: '/', port }, periodSeconds: 1 },
        },
      ],
    })
    await until('Ready', () => t.last()?.containerStatuses[0].ready === true)
    const s = t.last().containerStatuses[0]
    assert.match(s.containerID, /^podman:\/\/[0-9a-f]{64}$/)
    assert.match(s.imageID, /^localhost\/kubeflare-test-busybox@sha256:[0-9a-f]{64}$/)
    assert.equal(runtime.version.startsWith('podman://'), true)
    const r = t.worker.record('web')
    const lines = parseRecords(readFileSync(r.logFile(0), 'utf8')).map((x) => `${x.stream}:${x.text}`)
    assert.ok(lines.includes('stdout:hi hola') && lines.includes('stderr:err'), String(lines))
    const run = r.execIn(['sh', '-c', 'echo $GREETING; cat /www/index.html'], { stdin: false, tty: false })
    assert.equal(execFileSync(run.argv[0], run.argv.slice(1), { env: run.env, encoding: 'utf8' }), 'hola\npage\n')
    const t0 = Date.now()
    await r.stop(2000)
    // httpd is the container's pid 1, which SIGTERM does not end: the engine kills it once the grace period is over.
    const took = Date.now() - t0
    assert.ok(took >= 1900 && took < 10_000, `took ${took} ms`)
    assert.deepEqual([r.current.exitCode, r.current.reason], [137, 'Error'])
    assert.match(
      execFileSync('podman', ['ps', '-a', '-q', '--filter', `id=${s.containerID.slice(9)}`], { encoding: 'utf8' }),
      /^$/,
    )
  })

  it('reports an exit code and the image command under args', async () => {
    const t = setup({
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', 'exit 7'] }],
    })
    await until('Failed', () => t.last()?.phase === 'Failed')
    const term = t.last().containerStatuses[0].state.terminated
    assert.deepEqual([term.exitCode, term.reason], [7, 'Error'])
    assert.match(term.containerID, /^podman:\/\//)
  })

  it('binds volumes: a ConfigMap (read-only, updates reach it), a Secret, an emptyDir two containers share', async () => {
    const objects = {
      '/api/v1/namespaces/n/configmaps/cm': { data: { greeting: 'one' } },
      '/api/v1/namespaces/n/secrets/s': { data: { password: Buffer.from('s3cret').toString('base64') } },
    }
    const mounts = [
      { name: 'config', mountPath: '/etc/config' },
      { name: 'creds', mountPath: '/etc/creds' },
      { name: 'shared', mountPath: '/shared' },
    ]
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['sh', '-c', 'echo from-a > /shared/f; sleep 60'],
            volumeMounts: mounts,
          },
          {
            name: 'b',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['sleep', '60'],
            volumeMounts: [{ name: 'shared', mountPath: '/data' }],
          },
        ],
        volumes: [
          { name: 'config', configMap: { name: 'cm' } },
          { name: 'creds', secret: { secretName: 's', defaultMode: 0o400 } },
          { name: 'shared', emptyDir: {} },
        ],
      },
      objects,
    )
    await until('Running', () => t.last()?.containerStatuses?.every((c) => c.state.running))
    const sh = (name, script) => {
      const run = t.worker.record(name).execIn(['sh', '-c', script], { stdin: false, tty: false })
      try {
        return execFileSync(run.argv[0], run.argv.slice(1), { env: run.env, encoding: 'utf8', stdio: 'pipe' })
      } catch (e) {
        return `failed: ${e.status}`
      }
    }
    assert.equal(sh('a', 'cat /etc/config/greeting; cat /etc/creds/password'), 'ones3cret')
    await until('the shared file', () => sh('b', 'cat /data/f') === 'from-a\n')
    assert.equal(sh('a', 'echo x > /etc/config/x'), 'failed: 1')
    objects['/api/v1/namespaces/n/configmaps/cm'] = { data: { greeting: 'two' } }
    await until('the update', () => sh('a', 'cat /etc/config/greeting') === 'two', 30_000)
  })
})
