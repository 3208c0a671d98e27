// The container runtime against the stand-in CLI (fake-docker.mjs) for the tests of pulls with credentials and of
// securityContext flags: a bin directory with the stand-in under the CLI's name first on PATH, its images and
// registry, every call it recorded, and pod workers whose API serves the Secrets a test gives (others are not found).
import assert from 'node:assert/strict'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'

const savedPath = process.env.PATH
const env = [`PATH=${savedPath}`]
/** An image of the stand-in engine running `sh` (User: its configured user). */
export const image = (id, more = {}) => ({ Id: id, Size: 10, RepoDigests: [], Cmd: ['sh'], Env: env, ...more })

/** A stand-in `cli` (docker or podman) with these images present and in its registry; answers the runtime and calls. */
export async function standIn(cli, { images = {}, registry = {} } = {}) {
  const root = mkdtempSync(join(tmpdir(), `${cli}-standin-`))
  const state = join(root, 'state')
  const bin = join(root, 'bin')
  mkdirSync(state, { recursive: true })
  mkdirSync(bin)
  copyFileSync(join(import.meta.dirname, 'fake-docker.mjs'), join(bin, cli))
  chmodSync(join(bin, cli), 0o755)
  writeFileSync(join(state, 'images.json'), JSON.stringify(images))
  writeFileSync(join(state, 'registry.json'), JSON.stringify(registry))
  process.env.FAKE_DOCKER_DIR = state
  process.env.PATH = `${bin}:${savedPath}`
  const dataDir = join(root, 'agent')
  const runtime = await selectRuntime(cli, {
    node: 'edge',
    backoffInitialMs: 300,
    backoffMaxMs: 1200,
    dataDir,
    log: () => {},
  })
  const calls = () =>
    readFileSync(join(state, 'calls.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  return { runtime, root, dataDir, calls, callsOf: (sub) => calls().filter((c) => c.argv.includes(sub)) }
}

after(() => {
  process.env.PATH = savedPath
})

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
})

/**
 * A pod worker for `spec` under `runtime`; the API serves `secrets` (by name) and records status patches. Events are
 * `<type> <reason>: <message>`, pod-level ones (no container) prefixed `pod `.
 */
export function setup(runtime, spec, { secrets = {}, metadata = {} } = {}) {
  let pod = {
    metadata: {
      name: 'p',
      namespace: 'n',
      uid: `uid-${Math.random().toString(36).slice(2)}`,
      resourceVersion: '1',
      ...metadata,
    },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: 5, ...spec },
  }
  const statuses = []
  const events = []
  const reads = []
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
      reads.push(path)
      const m = /^\/api\/v1\/namespaces\/n\/secrets\/(.+)$/.exec(path)
      if (m && secrets[m[1]]) return secrets[m[1]]
      throw Object.assign(new Error(`secrets "${m?.[1]}" not found`), { code: 404 })
    },
  }
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(tmpdir(), 'cli-worker-')), imageDefaults: new Map(), backoffInitialMs: 200 },
    client: api,
    hostIP: '192.0.2.9',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(200, 800),
    event: (_pod, type, reason, message, fieldPath) =>
      events.push(`${fieldPath ? '' : 'pod '}${type} ${reason}: ${message}`),
    log: (m) => assert.fail(`pod worker: ${m}`),
    done: () => {},
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return { uid: pod.metadata.uid, worker, events, reads, last: () => statuses.at(-1) }
}

export const until = async (what, cond, ms = 15_000, t) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}${t ? `: ${JSON.stringify(t.last())}` : ''}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
export const status = (t) => t.last()?.containerStatuses?.[0]

/** A kubernetes.io/dockerconfigjson Secret holding these registry entries (user:password each). */
export function dockerConfigJson(entries) {
  const auths = Object.fromEntries(
    Object.entries(entries).map(([k, up]) => [k, { auth: Buffer.from(up).toString('base64') }]),
  )
  return {
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64') },
  }
}
