// The node tunnel through the Worker: who may open it, and the node object splicing streams onto it: OPEN to the
// agent, DATA both ways in kube's channel messages, credit holding a fast client back, v5's close signal as EOF, the
// agent ending a stream, the agent's loss ending every stream, and HTTP streams whose credit follows the reader.
import { env, exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import {
  creditFrame,
  dataFrame,
  decodeFrame,
  eofFrame,
  type Frame,
  FrameType,
  jsonFrame,
  readJson,
  TUNNEL_PROTOCOL,
} from '../../src/node/tunnel-frames'
import { BASE, req, withToken } from '../helpers'

let counter = 0
async function makeNode(): Promise<string> {
  const name = `real-${Date.now().toString(36)}-${counter++}`
  const r = await req('POST', '/api/v1/nodes', { metadata: { name } })
  expect(r.status).toBe(201)
  return name
}

/** A socket whose messages are collected as they come. */
function collect(ws: WebSocket) {
  const messages: (string | Uint8Array)[] = []
  const waiters: (() => void)[] = []
  let closeCode: number | null = null
  ws.addEventListener('message', async (e) => {
    const data = e.data instanceof Blob ? new Uint8Array(await e.data.arrayBuffer()) : e.data
    messages.push(data instanceof ArrayBuffer ? new Uint8Array(data) : (data as string | Uint8Array))
    for (const w of waiters.splice(0)) w()
  })
  ws.addEventListener('close', (e) => {
    closeCode = e.code
    for (const w of waiters.splice(0)) w()
  })
  ws.accept()
  return {
    ws,
    messages,
    get closed() {
      return closeCode
    },
    async until<T>(what: string, check: () => T | undefined | null | false, ms = 3000): Promise<T> {
      const t0 = Date.now()
      for (;;) {
        const v = check()
        if (v) return v
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 50)
        })
      }
    },
  }
}

const sockets: WebSocket[] = []
afterEach(() => {
  for (const ws of sockets.splice(0))
    try {
      ws.close(1000)
    } catch {}
})

async function connectAgent(node: string, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL, ...headers }),
    }),
  )
  expect(res.status).toBe(101)
  expect(res.headers.get('Sec-WebSocket-Protocol')).toBe(TUNNEL_PROTOCOL)
  sockets.push(res.webSocket!)
  const agent = collect(res.webSocket!)
  const frames = () => agent.messages.filter((m) => typeof m !== 'string').map((m) => decodeFrame(m as Uint8Array)!)
  // (Object.assign, not a spread: `closed` is a getter.)
  return Object.assign(agent, { frames })
}

async function openClient(node: string, request: object, protocol: string) {
  const res = await env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/stream', {
    headers: { Upgrade: 'websocket', 'x-tunnel-request': JSON.stringify(request), 'x-tunnel-protocol': protocol },
  })
  expect(res.status).toBe(101)
  sockets.push(res.webSocket!)
  return collect(res.webSocket!)
}

const text = (b: Uint8Array) => new TextDecoder().decode(b)
const utf8 = (s: string) => new TextEncoder().encode(s)
const exec = { op: 'exec', namespace: 'ns', pod: 'p', uid: 'u', container: 'c', command: ['sh'], stdin: true }

describe('the tunnel endpoint', () => {
  it('is a WebSocket with the tunnel subprotocol', async () => {
    const node = await makeNode()
    const plain = await req('GET', `/api/v1/nodes/${node}/tunnel`)
    expect(plain.status).toBe(400)
    expect(plain.json.message).toBe(`the node tunnel is a WebSocket upgrade with the subprotocol ${TUNNEL_PROTOCOL}`)
  })

  it('refuses a missing node, a virtual node, and another node’s identity', async () => {
    const up = { Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }
    const missing = await req('GET', '/api/v1/nodes/nowhere/tunnel', undefined, up)
    expect(missing.status).toBe(404)
    const virtual = await req('GET', '/api/v1/nodes/node-1/tunnel', undefined, up)
    expect(virtual.status).toBe(400)
    expect(virtual.json.message).toBe(
      'node node-1 is a virtual node: the control plane simulates it, no agent may serve it',
    )
    const node = await makeNode()
    const asNode = (user: string, groups: string[]) =>
      req('GET', `/api/v1/nodes/${node}/tunnel`, undefined, {
        ...up,
        'Impersonate-User': user,
        'Impersonate-Group': groups.join(', '),
      })
    // The node authorizer lets a node open only its own tunnel; RBAC then refuses the rest.
    const other = await asNode('system:node:someone-else', ['system:nodes'])
    expect(other.status).toBe(403)
    expect(other.json.message).toBe(
      `nodes "${node}" is forbidden: User "system:node:someone-else" cannot get resource "nodes/tunnel" in API group "" at the cluster scope`,
    )
    // Even with RBAC that allows every tunnel, a node identity serves only its own node.
    const broad = await asNode('system:node:someone-else', ['system:nodes', 'system:masters'])
    expect(broad.status).toBe(403)
    expect(broad.json.message).toBe(
      `nodes "${node}" is forbidden: node identity "system:node:someone-else" may serve only its own node`,
    )
  })

  it('lets a node identity open its own tunnel', async () => {
    const node = await makeNode()
    const res = await exports.default.fetch(
      new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
        headers: withToken({
          Upgrade: 'websocket',
          'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL,
          'Impersonate-User': `system:node:${node}`,
          'Impersonate-Group': 'system:nodes',
        }),
      }),
    )
    expect(res.status).toBe(101)
    res.webSocket!.accept()
    res.webSocket!.close(1000)
  })

  it('refuses a user RBAC does not allow', async () => {
    const node = await makeNode()
    const r = await req('GET', `/api/v1/nodes/${node}/tunnel`, undefined, {
      authorization: 'Bearer test-bob-token',
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL,
    })
    expect(r.status).toBe(403)
  })
})

describe('the node object', () => {
  it('answers 502 when no agent is connected', async () => {
    const node = await makeNode()
    const res = await env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/stream', {
      headers: {
        Upgrade: 'websocket',
        'x-tunnel-request': JSON.stringify(exec),
        'x-tunnel-protocol': 'v5.channel.k8s.io',
      },
    })
    expect(res.status).toBe(502)
    expect(await env.NODE_TUNNELS.getByName(node).connected()).toBe(false)
  })

  it('splices a client stream onto the agent, both ways', async () => {
    const node = await makeNode()
    const agent = await connectAgent(node)
    expect(await env.NODE_TUNNELS.getByName(node).connected()).toBe(true)
    const client = await openClient(node, exec, 'v5.channel.k8s.io')
    const open = await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
    expect(readJson(open.payload)).toMatchObject({ ...exec, window: 256 * 1024 })
    const id = open.stream
    // client → agent: a stdin message becomes DATA on channel 0; v5's close signal becomes EOF.
    client.ws.send(Uint8Array.of(0, ...utf8('hi\n')))
    client.ws.send(Uint8Array.of(255, 0))
    const got = await agent.until('stdin and EOF', () => {
      const fs = agent.frames().filter((f) => f.stream === id && f.type !== FrameType.OPEN)
      return fs.length >= 2 ? fs : null
    })
    expect(got[0]!.type).toBe(FrameType.DATA)
    expect(text(got[0]!.payload)).toBe('\0hi\n')
    expect(got[1]!.type).toBe(FrameType.EOF)
    expect([...got[1]!.payload]).toEqual([0])
    // agent → client: DATA on stdout arrives as the channel message; credit goes back to the agent.
    agent.ws.send(dataFrame(id, 1, utf8('hello')))
    const out = await client.until('stdout', () => client.messages[0])
    expect([...(out as Uint8Array)]).toEqual([1, ...utf8('hello')])
    const credit = await agent.until('credit', () => agent.frames().find((f) => f.type === FrameType.CREDIT))
    expect(new DataView(credit.payload.buffer, credit.payload.byteOffset).getUint32(0)).toBe(5)
    // The agent ends the stream: the client's socket closes normally.
    agent.ws.send(encodeClose(id))
    expect(await client.until('close', () => client.closed)).toBe(1000)
  })

  it('grants the agent credit for forwarded data in batches, all of it', async () => {
    const node = await makeNode()
    const agent = await connectAgent(node)
    const client = await openClient(node, exec, 'v4.channel.k8s.io')
    const open = await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
    const chunk = new Uint8Array(40 * 1024)
    for (let i = 0; i < 8; i++) agent.ws.send(dataFrame(open.stream, 1, chunk))
    await client.until('the data', () => client.messages.length === 8)
    const credits = await agent.until('all the credit', () => {
      const cs = agent
        .frames()
        .filter((f) => f.type === FrameType.CREDIT)
        .map((c: Frame) => new DataView(c.payload.buffer, c.payload.byteOffset).getUint32(0))
      return cs.reduce((a: number, b: number) => a + b, 0) === 8 * chunk.length ? cs : null
    })
    // One grant per 128 KiB (and what is left after a moment), not one per message.
    expect(credits.length).toBeLessThanOrEqual(4)
    agent.ws.close(1000)
  })

  it('holds a fast client back until the agent grants credit', async () => {
    const node = await makeNode()
    const agent = await connectAgent(node)
    const client = await openClient(node, exec, 'v4.channel.k8s.io')
    const open = await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
    const chunk = new Uint8Array(64 * 1024 + 1)
    for (let i = 0; i < 6; i++) client.ws.send(chunk)
    const received = () =>
      agent
        .frames()
        .filter((f) => f.type === FrameType.DATA && f.stream === open.stream)
        .reduce((n, f) => n + f.payload.length - 1, 0)
    await agent.until('the window', () => received() === 256 * 1024)
    await new Promise((r) => setTimeout(r, 200))
    expect(received()).toBe(256 * 1024)
    agent.ws.send(creditFrame(open.stream, 128 * 1024))
    await agent.until('the rest', () => received() === 6 * 64 * 1024)
  })

  it('ends every stream with an error Status when the agent goes', async () => {
    const node = await makeNode()
    const agent = await connectAgent(node)
    const client = await openClient(node, exec, 'v4.channel.k8s.io')
    await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
    agent.ws.close(1000)
    expect(await client.until('close', () => client.closed)).toBe(1011)
    const status = client.messages[0] as Uint8Array
    expect(status[0]).toBe(3)
    expect(JSON.parse(text(status.subarray(1)))).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      message: 'error: the tunnel to the node was lost',
    })
  })

  it('a second agent replaces the first', async () => {
    const node = await makeNode()
    const first = await connectAgent(node)
    const client = await openClient(node, exec, 'v4.channel.k8s.io')
    await first.until('OPEN', () => first.frames().find((f) => f.type === FrameType.OPEN))
    const second = await connectAgent(node)
    expect(await first.until('the first closed', () => first.closed)).toBe(4000)
    expect(await client.until('the stream ended', () => client.closed)).toBe(1011)
    await openClient(node, exec, 'v4.channel.k8s.io')
    await second.until('OPEN on the second', () => second.frames().find((f) => f.type === FrameType.OPEN))
  })

  it('tells a portforward client each channel’s port first', async () => {
    const node = await makeNode()
    await connectAgent(node)
    const client = await openClient(node, { ...exec, op: 'portforward', ports: [8080, 443] }, 'portforward.k8s.io')
    const prefixes = await client.until('prefixes', () => (client.messages.length >= 4 ? client.messages : null))
    expect(prefixes.map((m) => [...(m as Uint8Array)])).toEqual([
      [0, 0x90, 0x1f],
      [1, 0x90, 0x1f],
      [2, 0xbb, 0x01],
      [3, 0xbb, 0x01],
    ])
  })

  it('answers an HTTP stream from the agent’s head and body, crediting as the reader reads', async () => {
    const node = await makeNode()
    const agent = await connectAgent(node)
    const pending = env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/http', {
      headers: { 'x-tunnel-request': JSON.stringify({ op: 'log', namespace: 'ns', pod: 'p', uid: 'u' }) },
    })
    const open = await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
    const id = open.stream
    agent.ws.send(jsonFrame(FrameType.HEADERS, id, { status: 200, headers: [['content-type', 'text/plain']] }))
    const res = await pending
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain')
    agent.ws.send(dataFrame(id, 1, utf8('line one\n')))
    agent.ws.send(dataFrame(id, 1, utf8('line two\n')))
    agent.ws.send(eofFrame(id, 1))
    expect(await res.text()).toBe('line one\nline two\n')
    const credits = await agent.until('credits', () => {
      const cs = agent.frames().filter((f) => f.type === FrameType.CREDIT)
      return cs.length === 2 ? cs : null
    })
    expect(credits.map((c: Frame) => new DataView(c.payload.buffer, c.payload.byteOffset).getUint32(0))).toEqual([9, 9])
  })
})

function encodeClose(id: number) {
  const f = new Uint8Array(5)
  f[0] = FrameType.CLOSE
  new DataView(f.buffer).setUint32(1, id)
  return f
}

describe('HTTP streams answered without a body', () => {
  for (const status of [204, 304]) {
    it(`a pod's ${status} comes back as ${status} (a null-body status), not a 502`, async () => {
      const node = await makeNode()
      const agent = await connectAgent(node)
      const request = { op: 'proxy', namespace: 'ns', pod: 'p', uid: 'u', method: 'GET', port: 80, path: '/' }
      const pending = env.NODE_TUNNELS.getByName(node).fetch('https://tunnel/http', {
        headers: { 'x-tunnel-request': JSON.stringify(request) },
      })
      const open = await agent.until('OPEN', () => agent.frames().find((f) => f.type === FrameType.OPEN))
      agent.ws.send(jsonFrame(FrameType.HEADERS, open.stream, { status, headers: [['etag', '"x"']] }))
      agent.ws.send(eofFrame(open.stream, 1))
      const res = await pending
      expect(res.status).toBe(status)
      expect(res.headers.get('etag')).toBe('"x"')
      expect(await res.text()).toBe('')
    })
  }
})
