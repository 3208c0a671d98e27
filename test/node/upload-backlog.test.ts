// What a client sends beyond the agent's credit waits in the node object's SQLite (src/node/upload-backlog.ts): a
// client far ahead of the agent (more than the 16 MiB the object used to hold in memory before cutting the stream)
// is not cut, the agent gets every byte in order as it grants credit and the client's EOF after them, and what waits
// survives the object's hibernation.
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import {
  creditFrame,
  decodeFrame,
  eofFrame,
  type Frame,
  FrameType,
  jsonFrame,
  TUNNEL_PROTOCOL,
} from '../../src/node/tunnel-frames'
import { MAX_ROW, UploadBacklog } from '../../src/node/upload-backlog'
import { BASE, req, sleep, withToken } from '../helpers'

async function makeNode(): Promise<string> {
  const name = `backlog-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name } })).status).toBe(201)
  return name
}

/** A stand-in agent: the frames it got, and how many DATA payload bytes of a stream in order. */
async function connectAgent(node: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
    }),
  )
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  ws.binaryType = 'arraybuffer'
  const frames: Frame[] = []
  ws.addEventListener('message', (e) => {
    if (typeof e.data !== 'string') frames.push(decodeFrame(e.data as ArrayBuffer)!)
  })
  ws.accept()
  const data = (id: number) => frames.filter((f) => f.stream === id && f.type === FrameType.DATA)
  return {
    ws,
    frames,
    /** The stdin bytes stream `id` delivered, concatenated. */
    received(id: number): Uint8Array {
      const parts = data(id).map((f) => f.payload.subarray(1))
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
      let at = 0
      for (const p of parts) {
        out.set(p, at)
        at += p.length
      }
      return out
    },
  }
}

async function openExec(node: string) {
  const request = { op: 'exec', namespace: 'ns', pod: 'p', uid: 'u', container: 'c', command: ['cat'], stdin: true }
  const res = await env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/stream', {
    headers: {
      Upgrade: 'websocket',
      'x-tunnel-request': JSON.stringify(request),
      'x-tunnel-protocol': 'v5.channel.k8s.io',
    },
  })
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  let code: number | null = null
  ws.addEventListener('close', (e) => void (code = e.code))
  ws.accept()
  return {
    ws,
    get code() {
      return code
    },
  }
}

async function until<T>(what: string, check: () => T | null | undefined | false, ms = 10_000): Promise<T> {
  const t0 = Date.now()
  for (;;) {
    const v = check()
    if (v) return v
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

/** `n` stdin messages of 64 KiB whose bytes count up from `start`, as a client writes them. */
function stdin(n: number, start = 0): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => {
    const m = new Uint8Array(64 * 1024 + 1)
    for (let j = 1; j < m.length; j++) m[j] = (start + i * 64 * 1024 + j - 1) & 0xff
    return m
  })
}

const inOrder = (bytes: Uint8Array) => bytes.every((b, i) => b === (i & 0xff))
const WINDOW = 256 * 1024

it('a client far ahead of the agent waits in storage, is not cut, and arrives in order with its EOF last', async () => {
  const node = await makeNode()
  const agent = await connectAgent(node)
  const client = await openExec(node)
  const open = await until('OPEN', () => agent.frames.find((f) => f.type === FrameType.OPEN))
  const id = open.stream
  // 24 MiB at once, then the end of stdin (v5's close signal); the agent has granted nothing yet.
  for (const m of stdin(384)) client.ws.send(m)
  client.ws.send(Uint8Array.of(255, 0))
  await until('the first window', () => agent.received(id).length === WINDOW)
  await sleep(200)
  expect(agent.received(id).length).toBe(WINDOW)
  expect(client.code).toBeNull()
  expect(agent.frames.some((f) => f.type === FrameType.EOF)).toBe(false)
  // The agent grants as it consumes: everything comes, in order, and the EOF after it.
  for (let got = WINDOW; got < 24 * 1024 * 1024; ) {
    agent.ws.send(creditFrame(id, 1024 * 1024))
    got = await until('more', () => {
      const n = agent.received(id).length
      return n > got || n === 24 * 1024 * 1024 ? n : null
    })
  }
  const all = agent.received(id)
  expect(all.length).toBe(24 * 1024 * 1024)
  expect(inOrder(all)).toBe(true)
  const eof = await until(
    'the EOF',
    () => agent.frames.findIndex((f) => f.type === FrameType.EOF && f.stream === id) + 1,
  )
  expect(agent.frames.slice(eof).some((f) => f.type === FrameType.DATA)).toBe(false)
  expect(client.code).toBeNull()
  // Nothing is left waiting.
  const left = await runInDurableObject(env.NODE_TUNNELS.getByName(node), (_i, state) =>
    state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM upload_backlog').one(),
  )
  expect(left.n).toBe(0)
})

it('what waits survives the object’s hibernation', async () => {
  const node = await makeNode()
  const agent = await connectAgent(node)
  const client = await openExec(node)
  const open = await until('OPEN', () => agent.frames.find((f) => f.type === FrameType.OPEN))
  const id = open.stream
  for (const m of stdin(32)) client.ws.send(m)
  await until('the first window', () => agent.received(id).length === WINDOW)
  await sleep(100)
  await evictDurableObject(env.NODE_TUNNELS.getByName(node))
  agent.ws.send(creditFrame(id, 2 * 1024 * 1024))
  const all = await until('the rest', () => (agent.received(id).length === 2 * 1024 * 1024 ? agent.received(id) : null))
  expect(inOrder(all)).toBe(true)
})

it('the backlog goes when the stream ends', async () => {
  const node = await makeNode()
  const agent = await connectAgent(node)
  const client = await openExec(node)
  const open = await until('OPEN', () => agent.frames.find((f) => f.type === FrameType.OPEN))
  for (const m of stdin(16)) client.ws.send(m)
  await until('the first window', () => agent.received(open.stream).length === WINDOW)
  client.ws.close(1000)
  const stub = env.NODE_TUNNELS.getByName(node)
  const count = () =>
    runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM upload_backlog').one().n,
    )
  for (let i = 0; i < 100 && (await count()) > 0; i++) await sleep(20)
  expect(await count()).toBe(0)
})

it('a proxied request body past the first window goes on as the agent grants credit, its EOF last', async () => {
  const node = await makeNode()
  const agent = await connectAgent(node)
  const size = 1024 * 1024
  const body = new Uint8Array(size).map((_, i) => i & 0xff)
  const request = { op: 'proxy', namespace: 'ns', pod: 'p', uid: 'u', method: 'POST', port: 80, path: '/' }
  const pending = env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/http', {
    method: 'POST',
    headers: { 'x-tunnel-request': JSON.stringify(request) },
    body,
  })
  const open = await until('OPEN', () => agent.frames.find((f) => f.type === FrameType.OPEN))
  const id = open.stream
  await until('the first window', () => agent.received(id).length === WINDOW)
  // The agent writes what came to the pod and grants it back, as agent/tunnel/proxy-server.ts does.
  agent.ws.send(creditFrame(id, size))
  const all = await until('the whole body', () => (agent.received(id).length === size ? agent.received(id) : null))
  expect(inOrder(all)).toBe(true)
  await until('the EOF', () => agent.frames.find((f) => f.type === FrameType.EOF && f.stream === id))
  agent.ws.send(jsonFrame(FrameType.HEADERS, id, { status: 201, headers: [] }))
  agent.ws.send(eofFrame(id, 1))
  expect((await pending).status).toBe(201)
})

it('a message larger than a row waits in rows of at most 1 MiB (the platform refuses values over 2 MB)', async () => {
  const rows = await runInDurableObject(env.NODE_TUNNELS.getByName('backlog-rows'), (_i, state) => {
    const sent: Uint8Array[] = []
    const backlog = new UploadBacklog(state.storage.sql, (frame) => sent.push(frame))
    const big = new Uint8Array(3 * MAX_ROW + 5).map((_, i) => i % 251)
    backlog.data(9, 0, big)
    const stored = state.storage.sql
      .exec<{ n: number }>('SELECT length(data) AS n FROM upload_backlog WHERE stream = 9 ORDER BY seq')
      .toArray()
      .map((r) => r.n)
    state.storage.sql.exec('DELETE FROM upload_backlog WHERE stream = 9')
    return { stored, sent: sent.length }
  })
  // The first window went to the agent at once; the rest waits, no row above MAX_ROW, nothing lost.
  expect(rows.sent).toBe(1)
  expect(Math.max(...rows.stored)).toBeLessThanOrEqual(MAX_ROW)
  expect(rows.stored.reduce((a, b) => a + b, 0)).toBe(3 * MAX_ROW + 5 - WINDOW)
})
