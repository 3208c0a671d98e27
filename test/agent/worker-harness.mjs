// A PodWorker with real processes against a recording API, for the pod worker tests: every request is recorded and a
// status patch answers the pod with that status, as the API would; workers are shut down after each test.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'
import { PodWorker } from '../../agent/pod-worker.ts'

function recordingApi(pod) {
  const calls = []
  return {
    calls,
    statuses: () => calls.filter((c) => c.method === 'PATCH').map((c) => c.body.status),
    async request(method, path, body) {
      calls.push({ method, path, body })
      if (method === 'PATCH') {
        pod = {
          ...pod,
          metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 1) },
          status: body.status,
        }
        return pod
      }
      return {}
    },
    async get() {
      throw new Error('no config maps here')
    },
  }
}

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
})

/** A worker for a pod of `spec` (restartPolicy Always and a 5 s grace unless given): {pod, api, events, worker, finished}. */
export function setup(spec, { backoffMs = 150, imageDefaults = new Map() } = {}) {
  const pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random()}`, resourceVersion: '1' },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: 5, ...spec },
  }
  const api = recordingApi(pod)
  const events = []
  let finished = false
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(tmpdir(), 'worker-')), imageDefaults, backoffInitialMs: backoffMs },
    client: api,
    hostIP: '192.0.2.9',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(backoffMs, backoffMs * 4),
    event: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: () => {},
    done: () => (finished = true),
  })
  workers.push(worker)
  return { pod, api, events, worker, finished: () => finished }
}

export const until = async (what, cond, ms = 20_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
export const last = (api) => api.statuses().at(-1)
export const sh = (script) => ['sh', '-c', script]

/** The pod as the API has it now, changed by `change` (a newer resourceVersion), handed to the worker. */
export function updatePod(t, change) {
  const current = t.worker.current
  const next = change(current)
  t.worker.update({
    ...next,
    metadata: { ...next.metadata, resourceVersion: String(Number(current.metadata.resourceVersion) + 100) },
  })
}
