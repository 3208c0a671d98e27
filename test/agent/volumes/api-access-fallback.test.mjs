// The API access volume ServiceAccount admission adds to every pod, where the process runtime cannot mount (not
// Linux): a container mounting only that runs without it, with one Warning event saying why and where its files are;
// a container with a volume of its own besides still waits in CreateContainerConfigError, never run without it.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount'
const API_ACCESS = {
  name: 'kube-api-access-x7k2q',
  projected: {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
  },
}
const tokenMount = { name: API_ACCESS.name, readOnly: true, mountPath: TOKEN_PATH }

const until = async (what, cond, ms = 10_000) => {
  const t0 = Date.now()
  for (;;) {
    const v = await cond()
    if (v) return v
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A pod worker over a stand-in API that answers TokenRequests and kube-root-ca.crt. */
function workerFor(containers, volumes, dataDir) {
  const events = []
  const statuses = []
  let pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${containers[0].name}`, resourceVersion: '1' },
    spec: { nodeName: 'edge', serviceAccountName: 'default', containers, volumes },
  }
  const worker = new PodWorker(pod, {
    config: { dataDir, imageDefaults: new Map(), backoffInitialMs: 5000 },
    client: {
      async request(method, path, body) {
        if (method === 'POST' && path === '/api/v1/namespaces/n/serviceaccounts/default/token')
          return { status: { token: 'tok', expirationTimestamp: new Date(Date.now() + 3600_000).toISOString() } }
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
        if (path === '/api/v1/namespaces/n/configmaps/kube-root-ca.crt') return { data: { 'ca.crt': 'PEM' } }
        throw new Error('none')
      },
    },
    hostIP: '192.0.2.9',
    allocatable: {},
    backoff: new Backoff(5000, 5000),
    event: (_p, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: () => {},
    done: () => {},
  })
  return { worker, events, statuses }
}

describe('the API access volume where the process runtime cannot mount', () => {
  it('a container mounting only it runs without it, warned once; one with its own volume too waits', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')
    Object.defineProperty(process, 'platform', { value: 'darwin' })
    const dataDir = mkdtempSync(join(tmpdir(), 'api-access-'))
    const marker = join(dataDir, 'ran')
    const plain = workerFor(
      [
        {
          name: 'main',
          image: 'i',
          command: ['sh', '-c', `echo ran > ${marker}; sleep 30`],
          volumeMounts: [tokenMount],
        },
      ],
      [API_ACCESS],
      dataDir,
    )
    const own = workerFor(
      [
        {
          name: 'other',
          image: 'i',
          command: ['sleep', '30'],
          volumeMounts: [{ name: 'e', mountPath: '/data' }, tokenMount],
        },
      ],
      [{ name: 'e', emptyDir: {} }, API_ACCESS],
      dataDir,
    )
    try {
      plain.worker.sync()
      own.worker.sync()
      await until('the container ran', () => existsSync(marker))
      const why = 'the process runtime cannot mount volumes on darwin: it needs Linux mount namespaces'
      const warning = plain.events.find((e) => e.startsWith('Warning APIAccessNotMounted: '))
      assert.ok(warning, String(plain.events))
      const dir = /files are at (.*)$/.exec(warning)[1]
      assert.equal(
        warning,
        `Warning APIAccessNotMounted: container "main" runs without volume "${API_ACCESS.name}" at ${TOKEN_PATH}: ${why}; its token, ca.crt and namespace files are at ${dir}`,
      )
      // The files are there for whoever looks, as the kubelet would have written them.
      assert.equal(readFileSync(join(dir, 'token'), 'utf8'), 'tok')
      assert.equal(readFileSync(join(dir, 'namespace'), 'utf8'), 'n')
      assert.equal(readFileSync(join(dir, 'ca.crt'), 'utf8'), 'PEM')
      await until(
        'the waiting reason',
        () => own.statuses.at(-1)?.containerStatuses?.[0]?.state.waiting?.message === why,
      )
      assert.equal(own.statuses.at(-1).containerStatuses[0].state.waiting.reason, 'CreateContainerConfigError')
      assert.equal(own.worker.record('other').attempts, 0)
      assert.equal(own.events.filter((e) => e.includes('APIAccessNotMounted')).length, 0)
      // A later sync does not warn again.
      plain.worker.sync()
      await new Promise((r) => setTimeout(r, 200))
      assert.equal(plain.events.filter((e) => e.includes('APIAccessNotMounted')).length, 1)
    } finally {
      Object.defineProperty(process, 'platform', platform)
      await plain.worker.shutdown()
      await own.worker.shutdown()
    }
  })
})
