// pods/log for a pod on a real node goes through the node's tunnel: validated by the Worker as kube does, then asked
// of the agent (here the test plays the agent); no agent is an unreachable kubelet's error.
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
  const ns = await makeNamespace('tlog')
  const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }] },
  })
  expect(created.status).toBe(201)
  // What the agent would report once the container runs.
  const status = {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'main',
        state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
        ready: true,
        restartCount: 0,
        image: 'busybox',
        imageID: '',
      },
    ],
  }
  const patched = await req(
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/web/status`,
    { status },
    {
      'content-type': 'application/merge-patch+json',
    },
  )
  expect(patched.status).toBe(200)
  return { node, ns, uid: created.json.metadata.uid as string }
}

async function agentFor(node: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
    }),
  )
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  ws.accept()
  // Plays a log server: answers every OPEN with its request echoed as the log text.
  ws.addEventListener('message', async (e) => {
    const data =
      e.data instanceof Blob ? new Uint8Array(await e.data.arrayBuffer()) : new Uint8Array(e.data as ArrayBuffer)
    const f = decodeFrame(data)
    if (f?.type !== FrameType.OPEN) return
    const request = readJson<Record<string, any>>(f.payload)!
    if (request.log.previous) {
      const body = {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'previous terminated container "main" in pod "web" not found',
        reason: 'BadRequest',
        code: 400,
      }
      ws.send(jsonFrame(FrameType.HEADERS, f.stream, { status: 400, headers: [] }))
      ws.send(dataFrame(f.stream, 1, new TextEncoder().encode(JSON.stringify(body))))
    } else {
      ws.send(jsonFrame(FrameType.HEADERS, f.stream, { status: 200, headers: [] }))
      ws.send(dataFrame(f.stream, 1, new TextEncoder().encode(`${JSON.stringify(request)}\n`)))
    }
    ws.send(eofFrame(f.stream, 1))
  })
  return ws
}

describe('logs of a pod on a real node', () => {
  it('are asked of the agent with the container and kube’s query', async () => {
    const { node, ns, uid } = await realPod()
    const ws = await agentFor(node)
    const r = await req(
      'GET',
      `/api/v1/namespaces/${ns}/pods/web/log?tailLines=5&timestamps=true&limitBytes=100&sinceSeconds=60`,
    )
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/plain')
    const asked = JSON.parse(r.text)
    expect(asked).toMatchObject({ op: 'log', namespace: ns, pod: 'web', uid, container: 'main' })
    expect(asked.log).toMatchObject({
      container: 'main',
      follow: false,
      query: { tailLines: 5, timestamps: true, limitBytes: 100 },
    })
    expect(Math.abs(asked.log.query.since - (Date.now() - 60_000))).toBeLessThan(10_000)
    const previous = await req('GET', `/api/v1/namespaces/${ns}/pods/web/log?previous=true`)
    expect(previous.status).toBe(400)
    expect(previous.json.message).toBe('previous terminated container "main" in pod "web" not found')
    ws.close(1000)
  })

  it('refuse a container the pod does not have before asking anyone', async () => {
    const { ns } = await realPod()
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/web/log?container=nope`)
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('container nope is not valid for pod web')
  })

  it('are an unreachable kubelet’s error when no agent is connected', async () => {
    const { node, ns } = await realPod()
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/web/log`)
    expect(r.status).toBe(500)
    expect(r.json.reason).toBe('InternalError')
    expect(r.json.message).toBe(
      `Internal error occurred: error dialing backend: no node agent is connected for node "${node}" (logs)`,
    )
  })
})
