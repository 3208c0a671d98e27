// exec and attach of pods on real nodes through the Worker: the client's WebSocket reaches the agent (played by the
// test) as an OPEN with kube's options; SPDY and option errors are refused before; no agent is an error-channel Status.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { dataFrame, decodeFrame, encodeFrame, FrameType, readJson, TUNNEL_PROTOCOL } from '../../src/node/tunnel-frames'
import { BASE, makeNamespace, req, withToken } from '../helpers'

async function realPod() {
  const node = `real-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name: node } })).status).toBe(201)
  const ns = await makeNamespace('texec')
  const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }] },
  })
  expect(created.status).toBe(201)
  return { node, ns, uid: created.json.metadata.uid as string }
}

const bytes = async (data: unknown) =>
  data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : new Uint8Array(data as ArrayBuffer)

/** A stand-in agent that answers exec with "out" on stdout, then Success. */
async function agentFor(node: string, opened: unknown[]) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
    }),
  )
  const ws = res.webSocket!
  ws.accept()
  ws.addEventListener('message', async (e) => {
    const f = decodeFrame(await bytes(e.data))
    if (f?.type !== FrameType.OPEN) return
    opened.push(readJson(f.payload))
    ws.send(dataFrame(f.stream, 1, new TextEncoder().encode('out')))
    ws.send(dataFrame(f.stream, 3, new TextEncoder().encode('{"metadata":{},"status":"Success"}')))
    const close = new Uint8Array(5)
    close.set(encodeFrame(FrameType.CLOSE, f.stream))
    ws.send(close)
  })
  return ws
}

async function client(path: string, headers: Record<string, string>) {
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { headers: withToken(headers) }))
  if (res.status !== 101) return { status: res.status, json: await res.json<any>(), messages: [], code: 0 }
  const ws = res.webSocket!
  const messages: Uint8Array[] = []
  const closed = new Promise<number>((r) => ws.addEventListener('close', (e) => r(e.code)))
  ws.addEventListener('message', async (e) => messages.push(await bytes(e.data)))
  ws.accept()
  const code = await closed
  return { status: 101, protocol: res.headers.get('Sec-WebSocket-Protocol'), messages, code, json: null }
}

const v5 = { Upgrade: 'websocket', 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' }
const text = (b: Uint8Array) => new TextDecoder().decode(b)

describe('exec on a real node', () => {
  it('reaches the agent with the command and streams, and relays its answer', async () => {
    const { node, ns, uid } = await realPod()
    const opened: any[] = []
    const agent = await agentFor(node, opened)
    const r = await client(`/api/v1/namespaces/${ns}/pods/web/exec?command=echo&command=hi&stdout=true&stderr=true`, v5)
    expect(r.status).toBe(101)
    expect(r.protocol).toBe('v5.channel.k8s.io')
    expect(opened[0]).toMatchObject({
      op: 'exec',
      namespace: ns,
      pod: 'web',
      uid,
      container: 'main',
      command: ['echo', 'hi'],
      stdin: false,
      stdout: true,
      stderr: true,
      tty: false,
    })
    expect(r.messages.map((m) => [m[0], text(m.subarray(1))])).toEqual([
      [1, 'out'],
      [3, '{"metadata":{},"status":"Success"}'],
    ])
    expect(r.code).toBe(1000)
    const attach = await client(`/api/v1/namespaces/${ns}/pods/web/attach?stdin=true&stdout=true`, v5)
    expect(attach.status).toBe(101)
    expect(opened[1]).toMatchObject({ op: 'attach', container: 'main', stdin: true, stdout: true })
    agent.close(1000)
  })

  it('refuses SPDY naming the kubectl to use, and exec without a command or streams', async () => {
    const { node, ns } = await realPod()
    const asSpdy = () =>
      req('POST', `/api/v1/namespaces/${ns}/pods/web/exec?command=ls&stdout=true`, undefined, {
        'X-Stream-Protocol-Version': 'v4.channel.k8s.io',
      })
    // Nobody serving the node is said first, whatever the client speaks.
    expect((await asSpdy()).status).toBe(500)
    const agent = await agentFor(node, [])
    const spdy = await asSpdy()
    expect(spdy.status).toBe(400)
    expect(spdy.json.message).toBe(
      'exec of pods on real nodes needs a WebSocket client (kubectl 1.30 or newer for `kubectl exec`, or a client speaking v4.channel.k8s.io): this request asked for SPDY, which cannot cross the edge',
    )
    const none = await client(`/api/v1/namespaces/${ns}/pods/web/exec?stdout=true`, v5)
    expect(none.status).toBe(400)
    expect(none.json.message).toBe('you must specify at least 1 command')
    const quiet = await client(`/api/v1/namespaces/${ns}/pods/web/exec?command=ls`, v5)
    expect(quiet.status).toBe(400)
    expect(quiet.json.message).toBe('you must specify at least 1 of stdin, stdout, stderr')
    agent.close(1000)
  })

  it('answers an unreachable kubelet’s Status on the error channel when no agent is connected', async () => {
    const { node, ns } = await realPod()
    const r = await client(`/api/v1/namespaces/${ns}/pods/web/exec?command=ls&stdout=true`, v5)
    expect(r.status).toBe(101)
    expect(r.messages[0]![0]).toBe(3)
    expect(JSON.parse(text(r.messages[0]!.subarray(1)))).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      message: `Internal error occurred: error dialing backend: no node agent is connected for node "${node}" (exec)`,
    })
  })
})
