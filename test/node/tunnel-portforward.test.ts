// portforward and proxy of pods on real nodes through the Worker, with the test playing the agent: kubectl's SPDY
// tunnel passes raw bytes both ways, the WebSocket channel protocol gets its port prefixes and the ports, a proxied
// request reaches the agent without the caller's credentials and its answer comes back as it was given.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  dataFrame,
  decodeFrame,
  eofFrame,
  FrameType,
  jsonFrame,
  readJson,
  TUNNEL_PROTOCOL,
} from '../../src/node/tunnel-frames'
import { BASE, makeNamespace, req, withToken } from '../helpers'

async function realPod() {
  const node = `real-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name: node } })).status).toBe(201)
  const ns = await makeNamespace('tpf')
  const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: {
      nodeName: node,
      containers: [{ name: 'main', image: 'python', ports: [{ name: 'http', containerPort: 8000 }] }],
    },
  })
  expect(created.status).toBe(201)
  return { node, ns }
}

const bytes = async (data: unknown) =>
  data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : new Uint8Array(data as ArrayBuffer)

/** A stand-in agent: records OPENs and DATA; answers proxies with their request, and echoes SPDY bytes reversed. */
async function agentFor(node: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
    }),
  )
  const ws = res.webSocket!
  ws.accept()
  const opened: any[] = []
  ws.addEventListener('message', async (e) => {
    const f = decodeFrame(await bytes(e.data))
    if (!f) return
    if (f.type === FrameType.OPEN) {
      const request = readJson<any>(f.payload)
      opened.push(request)
      if (request.op === 'proxy') {
        ws.send(jsonFrame(FrameType.HEADERS, f.stream, { status: 201, headers: [['x-from', 'pod']] }))
        ws.send(dataFrame(f.stream, 1, new TextEncoder().encode(JSON.stringify(request))))
        ws.send(eofFrame(f.stream, 1))
      }
    } else if (f.type === FrameType.DATA && f.payload[0] === 0 && opened.at(-1)?.spdy) {
      ws.send(dataFrame(f.stream, 1, f.payload.slice(1).reverse()))
    }
  })
  return { ws, opened }
}

async function client(path: string, protocol: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}${path}`, { headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': protocol }) }),
  )
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  const messages: Uint8Array[] = []
  ws.addEventListener('message', async (e) => messages.push(await bytes(e.data)))
  ws.accept()
  return { ws, messages, protocol: res.headers.get('Sec-WebSocket-Protocol') }
}

const until = async <T>(what: string, f: () => T | undefined | false) => {
  for (let i = 0; i < 100; i++) {
    const v = f()
    if (v) return v
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('port-forward to a pod on a real node', () => {
  it('passes kubectl’s SPDY tunnel through as raw bytes', async () => {
    const { node, ns } = await realPod()
    const agent = await agentFor(node)
    const c = await client(`/api/v1/namespaces/${ns}/pods/web/portforward`, 'SPDY/3.1+portforward.k8s.io')
    expect(c.protocol).toBe('SPDY/3.1+portforward.k8s.io')
    await until('OPEN', () => agent.opened[0])
    expect(agent.opened[0]).toMatchObject({ op: 'portforward', spdy: true, pod: 'web' })
    c.ws.send(Uint8Array.of(1, 2, 3))
    const back = await until('the answer', () => c.messages[0])
    expect([...back]).toEqual([3, 2, 1])
    c.ws.close(1000)
    agent.ws.close(1000)
  })

  it('gives the channel protocol its ports and their prefixes', async () => {
    const { node, ns } = await realPod()
    const agent = await agentFor(node)
    const c = await client(`/api/v1/namespaces/${ns}/pods/web/portforward?ports=8000&ports=9000`, 'portforward.k8s.io')
    await until('OPEN', () => agent.opened[0])
    expect(agent.opened[0]).toMatchObject({ op: 'portforward', ports: [8000, 9000] })
    expect(agent.opened[0].spdy).toBeUndefined()
    await until('prefixes', () => c.messages.length === 4)
    expect(c.messages.map((m) => [...m])).toEqual([
      [0, 0x40, 0x1f],
      [1, 0x40, 0x1f],
      [2, 0x28, 0x23],
      [3, 0x28, 0x23],
    ])
    agent.ws.close(1000)
  })

  it('needs ports for the channel protocol', async () => {
    const { node, ns } = await realPod()
    const agent = await agentFor(node)
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/web/portforward`, undefined, {
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': 'portforward.k8s.io',
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('query parameter "port" is required')
    agent.ws.close(1000)
  })
})

describe('proxy to a pod on a real node', () => {
  it('relays the request without the caller’s credentials and answers the pod’s response', async () => {
    const { node, ns } = await realPod()
    const agent = await agentFor(node)
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods/web/proxy/api/items?x=1&y=2`, 'payload', {
      'content-type': 'text/plain',
      'x-custom': 'kept',
    })
    expect(r.status).toBe(201)
    expect(r.headers.get('x-from')).toBe('pod')
    const asked = JSON.parse(r.text)
    expect(asked).toMatchObject({
      op: 'proxy',
      method: 'POST',
      port: '8000',
      scheme: 'http',
      path: '/api/items',
      query: 'x=1&y=2',
    })
    const names = (asked.headers as [string, string][]).map(([k]) => k.toLowerCase())
    expect(names).toContain('x-custom')
    expect(names).not.toContain('authorization')
    const named = await req('GET', `/api/v1/namespaces/${ns}/pods/https:web:http/proxy/`)
    expect(JSON.parse(named.text)).toMatchObject({ port: '8000', scheme: 'https', path: '/' })
    // No path at all: kube redirects a GET to the URL with a slash.
    const bare = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/pods/web/proxy?a=b`, { headers: withToken(), redirect: 'manual' }),
    )
    expect(bare.status).toBe(301)
    expect(bare.headers.get('location')).toBe(`/api/v1/namespaces/${ns}/pods/web/proxy/?a=b`)
    agent.ws.close(1000)
  })

  it('refuses a malformed pod name', async () => {
    const { ns } = await realPod()
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/ftp:web:80/proxy/`)
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('invalid pod request "ftp:web:80"')
  })
})
