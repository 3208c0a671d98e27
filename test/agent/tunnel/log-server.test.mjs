// pods/log served by the agent from a running container's log file, through the tunnel client: the run's output with
// kube's options, kube's refusals, and a reader that grants no credit holding the file reading back.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { serveLog } from '../../../agent/tunnel/log-server.ts'
import { TunnelClient } from '../../../agent/tunnel/tunnel-client.ts'
import { creditFrame, decodeFrame, FrameType, jsonFrame, readJson } from '../../../src/node/tunnel-frames.ts'

const pod = {
  metadata: { name: 'p', namespace: 'n', uid: 'uid-log', resourceVersion: '1' },
  spec: {
    restartPolicy: 'Always',
    containers: [
      { name: 'talk', image: 'i', command: ['sh', '-c', 'for i in 1 2 3; do echo line $i; done; sleep 60'] },
      { name: 'flood', image: 'i', command: ['sh', '-c', 'head -c 1000000 /dev/zero | tr "\\0" x; echo; sleep 60'] },
    ],
  },
}
let worker
const api = { request: async (_m, _p, body) => ({ ...pod, status: body?.status }), get: async () => ({}) }
before(async () => {
  worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(tmpdir(), 'logs-')), imageDefaults: new Map(), backoffInitialMs: 1000 },
    client: api,
    hostIP: '127.0.0.1',
    allocatable: {},
    backoff: new Backoff(1000, 4000),
    event: () => {},
    log: () => {},
    done: () => {},
  })
  worker.sync()
  for (let i = 0; i < 100 && !worker.record('flood').logRun('p', false).proc?.log; i++)
    await new Promise((r) => setTimeout(r, 50))
  await new Promise((r) => setTimeout(r, 500))
})
const clients = []
afterEach(() => {
  for (const c of clients.splice(0)) c.stop()
})
after(() => worker.shutdown())

/** A tunnel whose far side is the test: OPEN a log stream and collect what comes back. */
function openLog(log, window = 256 * 1024) {
  const listeners = {}
  const sent = []
  const socket = {
    binaryType: '',
    readyState: 1,
    send: (d) => sent.push(d),
    close: () => {},
    addEventListener: (t, l) => (listeners[t] ??= []).push(l),
  }
  const pods = { byName: (ns, name) => (ns === 'n' && name === 'p' ? worker : undefined) }
  const client = new TunnelClient(
    () => socket,
    (s) => serveLog(s, pods),
    () => {},
  )
  client.start()
  clients.push(client)
  listeners.open[0]({})
  const deliver = (f) => listeners.message[0]({ data: f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) })
  deliver(jsonFrame(FrameType.OPEN, 1, { op: 'log', namespace: 'n', pod: 'p', uid: 'uid-log', log, window }))
  const frames = () => sent.filter((d) => typeof d !== 'string').map(decodeFrame)
  return {
    frames,
    head: () => readJson(frames().find((f) => f.type === FrameType.HEADERS).payload),
    body: () =>
      Buffer.concat(
        frames()
          .filter((f) => f.type === FrameType.DATA)
          .map((f) => Buffer.from(f.payload.subarray(1))),
      ).toString(),
    closed: () => frames().some((f) => f.type === FrameType.CLOSE),
    grant: (n) => deliver(creditFrame(1, n)),
    stop: () => client.stop(),
  }
}

describe('log server', () => {
  it('answers the run’s output with tailLines', () => {
    const s = openLog({ container: 'talk', query: { tailLines: 2 } })
    assert.equal(s.head().status, 200)
    assert.equal(s.body(), 'line 2\nline 3\n')
    assert.equal(s.closed(), true)
  })

  it('cuts at limitBytes', () => {
    const s = openLog({ container: 'talk', query: { limitBytes: 9 } })
    assert.equal(s.body(), 'line 1\nli')
  })

  it('refuses a missing previous run as the kubelet does', () => {
    const s = openLog({ container: 'talk', previous: true, query: {} })
    assert.equal(s.head().status, 400)
    assert.equal(JSON.parse(s.body()).message, 'previous terminated container "talk" in pod "p" not found')
  })

  it('reads no further than the reader’s credit', () => {
    const s = openLog({ container: 'flood', follow: true, query: {} }, 64 * 1024)
    const sentBytes = () => s.body().length
    assert.ok(sentBytes() <= 64 * 1024, `sent ${sentBytes()} before any credit`)
    assert.equal(s.closed(), false)
    let granted = 0
    while (sentBytes() < 1_000_001 && granted < 2_000_000) {
      s.grant(64 * 1024)
      granted += 64 * 1024
      assert.ok(sentBytes() <= 64 * 1024 + granted)
    }
    assert.equal(s.body(), `${'x'.repeat(1_000_000)}\n`)
    assert.equal(s.closed(), false, 'a follow stays open while the container runs')
    s.stop()
  })
})
