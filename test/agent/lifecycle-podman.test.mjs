// Lifecycle hooks against a real podman, where one runs containers here (skipped otherwise; the image is the one
// runtime/podman-runtime.test.mjs makes from the host's static busybox): a postStart exec runs inside the container
// (a file in its own root, which the container then reads), and a deletion's preStop httpGet reaches the container's
// httpd on the host network before it is stopped.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'
import { parseRecords } from '../../agent/cri-log.ts'
import { PodWorker } from '../../agent/pod-worker.ts'
import { selectRuntime } from '../../agent/runtime/select-runtime.ts'
import { PODMAN_IMAGE, podmanUnusable } from './runtime/podman-image.mjs'

const IMAGE = PODMAN_IMAGE
const root = mkdtempSync(join(tmpdir(), 'lifecycle-podman-'))
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

function setup(container) {
  let pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: {
      nodeName: 'podman-test',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 5,
      containers: [container],
    },
  }
  const statuses = []
  const events = []
  let deleted = false
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(root, 'data-')), imageDefaults: new Map(), backoffInitialMs: 500 },
    client: {
      async request(method, _path, body) {
        if (method === 'DELETE') deleted = true
        if (method !== 'PATCH') return {}
        statuses.push(body.status)
        pod = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(statuses.length + 1) } }
        return { ...pod, status: body.status }
      },
      async get(path) {
        throw new Error(`no ${path} here`)
      },
    },
    hostIP: '127.0.0.1',
    allocatable: {},
    backoff: new Backoff(500, 2000),
    event: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: (m) => process.stderr.write(`${m}\n`),
    done: () => {},
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return {
    worker,
    events,
    deleted: () => deleted,
    last: () => statuses.at(-1)?.containerStatuses?.[0],
    remove: () => {
      const deletion = { deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: 5 }
      pod = { ...pod, metadata: { ...pod.metadata, ...deletion, resourceVersion: '1000' } }
      worker.update(pod)
    },
  }
}

const until = async (what, cond, ms = 30_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const output = (t, name) => {
  const file = t.worker.record(name).logFile(0)
  if (!existsSync(file)) return []
  return parseRecords(readFileSync(file, 'utf8')).map((x) => `${x.stream}:${x.text}`)
}

describe('lifecycle hooks (real podman)', { skip: why ?? false }, () => {
  it('runs a postStart exec inside the container: a file in its own root, which it then reads', async () => {
    const t = setup({
      name: 'main',
      image: IMAGE,
      imagePullPolicy: 'Never',
      command: ['sh', '-c', 'while ! test -e /hooked; do sleep 0.1; done; echo "read $(cat /hooked)"; exec sleep 60'],
      lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo from-hook > /hooked'] } } },
    })
    await until('the read', () => output(t, 'main').includes('stdout:read from-hook'))
    assert.equal(existsSync('/hooked'), false)
  })

  it("sends a deletion's preStop httpGet to the container's httpd before stopping it", async () => {
    const port = 20000 + Math.floor(Math.random() * 20000)
    const t = setup({
      name: 'web',
      image: IMAGE,
      imagePullPolicy: 'Never',
      command: ['sh', '-c', `mkdir -p /www; echo page > /www/index.html; exec httpd -f -vv -p ${port} -h /www`],
      ports: [{ name: 'http', containerPort: port }],
      readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 1 },
      lifecycle: { preStop: { httpGet: { path: '/bye', port: 'http' } } },
    })
    await until('Ready', () => t.last()?.ready === true)
    assert.ok(!output(t, 'web').some((l) => l.includes('/bye')))
    t.remove()
    await until('the deletion confirmed', t.deleted)
    assert.ok(
      output(t, 'web').some((l) => l.includes('url:/bye')),
      output(t, 'web').join('\n'),
    )
    assert.ok(t.events.includes('Normal Killing: Stopping container web'))
  })
})
