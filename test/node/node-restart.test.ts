// The node Durable Object restarted alone (state.abort(), as a crash or a code update resets one object) under a
// connected agent: the agent here is the agent's own TunnelClient (agent/tunnel/tunnel-client.ts) dialling the
// Worker's tunnel route, with stand-in exec and log servers behind it. The streams open at the restart end with an
// error on both sides (the exec client's socket closes abnormally, the followed log's body breaks off) instead of
// hanging; the agent sees its tunnel drop, redials with its back-off and serves new exec and log streams; the pod
// and its node object are untouched (they live in the namespace and cluster objects, not the tunnel's). Evicted for
// hibernation instead, the object keeps every socket: an exec open across it goes on both ways past the first window
// (credit rebuilt from the initial window) and the agent never redials.
import { env, exports } from 'cloudflare:workers'
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { expect, it } from 'vitest'
import { TUNNEL_PROTOCOL } from '../../src/node/tunnel-frames'
import { BASE, makeNamespace, req, sleep, withToken } from '../helpers'

// The agent's tunnel client is Node code outside the Worker's type-checked tree; its contract, as this test uses it.
interface AgentStream {
  readonly request: { op: string }
  send(channel: number, bytes: Uint8Array): void
  grant(bytes: number): void
  headers(status: number, headers: [string, string][]): void
  close(error?: string): void
}
interface AgentHandler {
  data(channel: number, bytes: Uint8Array): void
  eof(channel: number): void
  closed(error?: string): void
}
interface SocketLike {
  binaryType: string
  readyState: number
  send(data: string | Uint8Array): void
  close(code?: number, reason?: string): void
  addEventListener(type: string, listener: (ev: { data: string | ArrayBuffer }) => void): void
}
type TunnelClientClass = new (
  connect: () => SocketLike,
  opener: (stream: AgentStream) => AgentHandler,
  log: (msg: string) => void,
  events: { connected?(up: boolean): void; dialFailed?(): void },
) => { start(): void; stop(): void; readonly open: number }

const AGENT_CLIENT = '../../agent/tunnel/tunnel-client.ts'
const utf8 = new TextEncoder()
const text = (b: Uint8Array) => new TextDecoder().decode(b)

/** The agent's SocketLike over a WebSocket to the Worker's tunnel route (a dial is a fetch, answered later). */
function dialWorker(node: string): SocketLike {
  const listeners: Record<string, ((ev: { data: string | ArrayBuffer }) => void)[]> = {}
  const emit = (type: string, data: string | ArrayBuffer = '') => {
    for (const l of listeners[type] ?? []) l({ data })
  }
  let ws: WebSocket | null = null
  let abandoned = false
  const socket: SocketLike = {
    binaryType: 'arraybuffer',
    readyState: 0,
    send: (data) => ws?.send(data),
    close(code, reason) {
      socket.readyState = 3
      if (!ws) abandoned = true
      try {
        ws?.close(code ?? 1000, reason)
      } catch {}
    },
    addEventListener: (type, listener) => void (listeners[type] ??= []).push(listener),
  }
  const lost = () => {
    socket.readyState = 3
    emit('close')
  }
  exports.default
    .fetch(
      new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
        headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
      }),
    )
    .then((res) => {
      if (res.status !== 101 || !res.webSocket || abandoned) return lost()
      ws = res.webSocket
      ws.binaryType = 'arraybuffer'
      ws.addEventListener('message', (e) => emit('message', e.data as string | ArrayBuffer))
      ws.addEventListener('close', lost)
      ws.accept()
      socket.readyState = 1
      emit('open')
    }, lost)
  return socket
}

/** Stand-in stream servers: exec echoes stdin to stdout and ends with Success at stdin's end; log follows forever. */
function opener(ended: string[]) {
  return (stream: AgentStream): AgentHandler => {
    if (stream.request.op === 'log') {
      stream.headers(200, [['content-type', 'text/plain']])
      stream.send(1, utf8.encode('line one\n'))
    }
    return {
      data(channel, bytes) {
        if (channel === 0) stream.send(1, bytes)
        stream.grant(bytes.length)
      },
      eof(channel) {
        // (A log's request has no body: its channel 0 ends at once.)
        if (channel !== 0 || stream.request.op !== 'exec') return
        stream.send(3, utf8.encode('{"metadata":{},"status":"Success"}'))
        stream.close()
      },
      closed: (why) => void ended.push(`${stream.request.op}: ${why ?? 'closed'}`),
    }
  }
}

/** An exec of `cat` with stdin through the Worker, as kubectl 1.30+ opens it. */
async function openExec(ns: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/namespaces/${ns}/pods/web/exec?command=cat&stdin=true&stdout=true`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' }),
    }),
  )
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  ws.binaryType = 'arraybuffer'
  const messages: Uint8Array[] = []
  let code: number | null = null
  ws.addEventListener('message', (e) => void messages.push(new Uint8Array(e.data as ArrayBuffer)))
  ws.addEventListener('close', (e) => void (code = e.code))
  ws.accept()
  return {
    ws,
    messages,
    get code() {
      return code
    },
    out: () => messages.filter((m) => m[0] === 1).map((m) => text(m.subarray(1))),
  }
}

async function until<T>(what: string, check: () => T | null | undefined | false, ms = 5000): Promise<T> {
  const t0 = Date.now()
  for (;;) {
    const v = check()
    if (v) return v
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

it('the node object restarted alone: open streams end with an error, the agent redials, new streams work', async () => {
  const { TunnelClient } = (await import(/* @vite-ignore */ AGENT_CLIENT)) as { TunnelClient: TunnelClientClass }
  const node = `restart-${Date.now().toString(36)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name: node } })).status).toBe(201)
  const ns = await makeNamespace('trestart')
  const pod = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }] },
  })
  expect(pod.status).toBe(201)
  // What the agent reports once the container runs (logs of a container not started are refused before the tunnel).
  const running = await req(
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/web/status`,
    {
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'main', state: { running: {} }, ready: true, restartCount: 0, image: 'busybox', imageID: '' },
        ],
      },
    },
    { 'content-type': 'application/merge-patch+json' },
  )
  expect(running.status).toBe(200)
  const ups: boolean[] = []
  const ended: string[] = []
  const agent = new TunnelClient(
    () => dialWorker(node),
    opener(ended),
    () => undefined,
    {
      connected: (up) => void ups.push(up),
    },
  )
  agent.start()
  try {
    await until('the tunnel', () => ups[0] === true)
    const stub = env.NODE_TUNNELS.getByName(node)
    expect(await stub.connected()).toBe(true)

    // Streams in flight: an interactive exec and a followed log.
    const exec = await openExec(ns)
    exec.ws.send(Uint8Array.of(0, ...utf8.encode('before\n')))
    await until('the echo', () => exec.out().join('') === 'before\n')
    const log = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/pods/web/log?follow=true`, { headers: withToken({}) }),
    )
    expect(log.status).toBe(200)
    const reader = log.body!.getReader()
    expect(text((await reader.read()).value!)).toBe('line one\n')
    const logEnd = reader.read().then(
      (r) => (r.done ? 'ended' : `more: ${text(r.value)}`),
      (e: Error) => `broke: ${e.message}`,
    )
    expect(ended).toEqual([])
    expect(agent.open).toBe(2)

    await runInDurableObject(stub, (_instance, state) => state.abort('restarted by the test')).catch(() => undefined)

    // Nothing hangs: the exec's client sees its socket close abnormally, the log's body breaks off, and the agent ends
    // both streams' handlers when its tunnel drops.
    expect(await until('the exec to end', () => exec.code)).not.toBe(1000)
    expect(await logEnd).toMatch(/^broke: /)
    await until('the agent to see the tunnel drop', () => ups[1] === false)
    expect(ended.sort()).toEqual(['exec: the tunnel to the server was lost', 'log: the tunnel to the server was lost'])
    expect(agent.open).toBe(0)

    // The agent dials again (its first back-off is a second) and the new object serves it.
    await until('the agent to reconnect', () => ups[2] === true, 10_000)
    expect(await env.NODE_TUNNELS.getByName(node).connected()).toBe(true)
    const again = await openExec(ns)
    again.ws.send(Uint8Array.of(0, ...utf8.encode('after\n')))
    again.ws.send(Uint8Array.of(255, 0))
    expect(await until('the exec to end', () => again.code)).toBe(1000)
    expect(again.out().join('')).toBe('after\n')
    const status = again.messages.find((m) => m[0] === 3)!
    expect(JSON.parse(text(status.subarray(1)))).toMatchObject({ status: 'Success' })
    const relog = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/pods/web/log?follow=true`, { headers: withToken({}) }),
    )
    expect(relog.status).toBe(200)
    const relogReader = relog.body!.getReader()
    expect(text((await relogReader.read()).value!)).toBe('line one\n')
    await relogReader.cancel()

    // The pod was not touched by the restart: same object, same resourceVersion.
    const after = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    expect(after.json.metadata.resourceVersion).toBe(running.json.metadata.resourceVersion)
  } finally {
    agent.stop()
  }
})

it('the node object evicted for hibernation: the tunnel and an open exec go on, nobody redials', async () => {
  const { TunnelClient } = (await import(/* @vite-ignore */ AGENT_CLIENT)) as { TunnelClient: TunnelClientClass }
  const node = `hibernate-${Date.now().toString(36)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name: node } })).status).toBe(201)
  const ns = await makeNamespace('thib')
  const pod = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }] },
  })
  expect(pod.status).toBe(201)
  const ups: boolean[] = []
  const ended: string[] = []
  const agent = new TunnelClient(
    () => dialWorker(node),
    opener(ended),
    () => undefined,
    {
      connected: (up) => void ups.push(up),
    },
  )
  agent.start()
  try {
    await until('the tunnel', () => ups[0] === true)
    const exec = await openExec(ns)
    exec.ws.send(Uint8Array.of(0, ...utf8.encode('one\n')))
    await until('the first echo', () => exec.out().join('') === 'one\n')
    // Past the first window both ways, so credit granted before the eviction matters after it.
    const big = new Uint8Array(300 * 1024 + 1).fill(120)
    big[0] = 0 // stdin
    exec.ws.send(big)
    await until('the big echo', () => exec.out().join('').length === 4 + big.length - 1)

    // A mark on the instance tells the eviction happened: the object's next event runs in a new one.
    const stub = env.NODE_TUNNELS.getByName(node)
    const mark = (instance: object) => (instance as { evictionMark?: boolean }).evictionMark
    await runInDurableObject(stub, (instance) => void ((instance as { evictionMark?: boolean }).evictionMark = true))
    await evictDurableObject(stub)
    expect(await runInDurableObject(stub, mark)).toBeUndefined()

    exec.ws.send(big)
    exec.ws.send(Uint8Array.of(0, ...utf8.encode('two\n')))
    await until('the echoes after the eviction', () => exec.out().join('').length === 8 + 2 * (big.length - 1))
    expect(exec.out().join('').endsWith('two\n')).toBe(true)
    exec.ws.send(Uint8Array.of(255, 0))
    expect(await until('the exec to end', () => exec.code)).toBe(1000)
    expect(ups).toEqual([true])
    expect(ended).toEqual([])
  } finally {
    agent.stop()
  }
})
