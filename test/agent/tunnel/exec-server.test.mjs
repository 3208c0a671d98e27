// exec and attach served by the agent against a running container, through the tunnel client: output and exit
// Status, stdin and its EOF, the process group killed when the client leaves, attach to the container's own output.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { serveAttach } from '../../../agent/tunnel/attach-server.ts'
import { serveExec } from '../../../agent/tunnel/exec-server.ts'
import { TunnelClient } from '../../../agent/tunnel/tunnel-client.ts'
import { closeFrame, dataFrame, decodeFrame, eofFrame, FrameType, jsonFrame } from '../../../src/node/tunnel-frames.ts'

const pod = {
  metadata: { name: 'p', namespace: 'n', uid: 'uid-exec', resourceVersion: '1' },
  spec: {
    containers: [
      {
        name: 'main',
        image: 'i',
        stdin: true,
        env: [{ name: 'GREETING', value: 'hola' }],
        command: ['sh', '-c', 'while read l; do echo "echo $l"; done'],
      },
    ],
  },
}
let worker
before(async () => {
  worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(tmpdir(), 'exec-')), imageDefaults: new Map(), backoffInitialMs: 1000 },
    client: { request: async (_m, _p, b) => ({ ...pod, status: b?.status }), get: async () => ({}) },
    hostIP: '127.0.0.1',
    allocatable: {},
    backoff: new Backoff(1000, 4000),
    event: () => {},
    log: () => {},
    done: () => {},
  })
  worker.sync()
  // Started: its shim has recorded the run (an exec is refused before, as the CRI refuses a created container).
  for (let i = 0; i < 100 && !worker.record('main').proc?.pid; i++) await new Promise((r) => setTimeout(r, 50))
})
after(() => worker.shutdown())
const clients = []
afterEach(() => {
  for (const c of clients.splice(0)) c.stop()
})

function open(request, serve, target = worker) {
  const listeners = {}
  const sent = []
  const socket = {
    binaryType: '',
    readyState: 1,
    send: (d) => sent.push(d),
    close: () => {},
    addEventListener: (t, l) => (listeners[t] ??= []).push(l),
  }
  const pods = { byName: (ns, name) => (ns === 'n' && name === 'p' ? target : undefined) }
  const client = new TunnelClient(
    () => socket,
    (s) => serve(s, pods),
    () => {},
  )
  client.start()
  clients.push(client)
  listeners.open[0]({})
  const deliver = (f) => listeners.message[0]({ data: f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) })
  deliver(jsonFrame(FrameType.OPEN, 1, { namespace: 'n', pod: 'p', uid: 'uid-exec', container: 'main', ...request }))
  const frames = () => sent.filter((d) => typeof d !== 'string').map(decodeFrame)
  const channel = (ch) =>
    Buffer.concat(
      frames()
        .filter((f) => f.type === FrameType.DATA && f.payload[0] === ch)
        .map((f) => Buffer.from(f.payload.subarray(1))),
    ).toString()
  return {
    deliver,
    channel,
    closed: () => frames().some((f) => f.type === FrameType.CLOSE),
    until: async (what, cond) => {
      for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25))
      assert.ok(cond(), `timed out waiting for ${what}`)
    },
  }
}

describe('exec server', () => {
  it('runs the command with the container’s environment and reports the exit as kube’s Status', async () => {
    const s = open(
      { op: 'exec', command: ['sh', '-c', 'echo $GREETING; echo oops >&2; exit 5'], stdout: true, stderr: true },
      serveExec,
    )
    await s.until('the end', s.closed)
    assert.equal(s.channel(1), 'hola\n')
    assert.equal(s.channel(2), 'oops\n')
    assert.deepEqual(JSON.parse(s.channel(3)), {
      metadata: {},
      status: 'Failure',
      message:
        'command terminated with non-zero exit code: error executing command [sh -c echo $GREETING; echo oops >&2; exit 5], exit code 5',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '5' }] },
    })
  })

  it('feeds stdin until its EOF', async () => {
    const s = open({ op: 'exec', command: ['sh', '-c', 'cat; echo end'], stdin: true, stdout: true }, serveExec)
    s.deliver(dataFrame(1, 0, Buffer.from('abc\n')))
    s.deliver(eofFrame(1, 0))
    await s.until('the end', s.closed)
    assert.equal(s.channel(1), 'abc\nend\n')
    assert.deepEqual(JSON.parse(s.channel(3)), { metadata: {}, status: 'Success' })
  })

  it('kills the process group when the client leaves', async () => {
    const marker = join(worker.record('main').cwd, 'left')
    const s = open({ op: 'exec', command: ['sh', '-c', `sleep 1; touch ${marker}`], stdout: true }, serveExec)
    await new Promise((r) => setTimeout(r, 200))
    s.deliver(closeFrame(1))
    await new Promise((r) => setTimeout(r, 1500))
    const { existsSync } = await import('node:fs')
    assert.equal(existsSync(marker), false)
  })

  it('refuses a container whose process has just ended, its status not updated yet (no command run on the host)', async () => {
    // The moment between the command's end and its shim recording the exit (which waits for the output of leftovers to
    // drain): the run still counts as running while its process is gone. A leftover's drain makes that moment last
    // only milliseconds now that the shim ends leftovers with the command, so the test holds it: the run ended, and
    // its process is made to count as running still.
    const ended = new PodWorker(
      {
        metadata: { ...pod.metadata, resourceVersion: '1' },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', command: ['sh', '-c', 'exit 0'] }] },
      },
      {
        config: { dataDir: mkdtempSync(join(tmpdir(), 'exec-')), imageDefaults: new Map(), backoffInitialMs: 1000 },
        client: { request: async (_m, _p, b) => ({ ...pod, status: b?.status }), get: async () => ({}) },
        hostIP: '127.0.0.1',
        allocatable: {},
        backoff: new Backoff(1000, 4000),
        event: () => {},
        log: () => {},
        done: () => {},
      },
    )
    try {
      ended.sync()
      const r = () => ended.record('main')
      for (let i = 0; i < 250 && !(r().proc?.pid && !r().proc.alive); i++)
        await new Promise((res) => setTimeout(res, 20))
      assert.ok(r().proc && !r().proc.alive, 'the run ended')
      Object.defineProperty(r().proc, 'running', { get: () => true })
      assert.ok(r().running && !r().proc.alive, 'a run whose process is gone while it still counts as running')
      const marker = join(mkdtempSync(join(tmpdir(), 'exec-')), 'ran')
      const s = open({ op: 'exec', command: ['sh', '-c', `touch ${marker}`], stdout: true }, serveExec, ended)
      await s.until('the end', s.closed)
      const { existsSync } = await import('node:fs')
      assert.equal(existsSync(marker), false)
      assert.deepEqual(JSON.parse(s.channel(3)), {
        metadata: {},
        status: 'Failure',
        message:
          'Internal error occurred: error executing command in container: container is in CONTAINER_EXITED state',
        reason: 'InternalError',
        details: {
          causes: [{ message: 'error executing command in container: container is in CONTAINER_EXITED state' }],
        },
        code: 500,
      })
    } finally {
      await ended.shutdown()
    }
  })
})

describe('attach server', () => {
  it('writes to the container’s stdin and shows its output', async () => {
    const s = open({ op: 'attach', stdin: true, stdout: true }, serveAttach)
    s.deliver(dataFrame(1, 0, Buffer.from('ping\n')))
    await s.until('the echo', () => s.channel(1) === 'echo ping\n')
  })
})
