// services/{name}/proxy through the Worker, with the test playing a node's agent: kube's ServiceREST ResourceLocation
// (the id's scheme and port, a service port's number mapped to its name, a ready endpoint whose pod has the address),
// its errors and words, the path as kube builds it, RBAC on services/proxy, and endpoints on virtual nodes refused as
// pods/proxy refuses them.
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
import { bearer, TEST_TOKENS } from '../support/test-tokens'

const IP = '10.20.30.40'

/** A real node (no virtual annotation) and a stand-in agent that answers each proxy with the request it was given. */
async function agentNode() {
  const node = `svc-real-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  expect((await req('POST', '/api/v1/nodes', { metadata: { name: node } })).status).toBe(201)
  const res = await exports.default.fetch(
    new Request(`${BASE}/api/v1/nodes/${node}/tunnel`, {
      headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': TUNNEL_PROTOCOL }),
    }),
  )
  const ws = res.webSocket!
  ws.accept()
  const bodies = new Map<number, string>()
  const opens = new Map<number, Uint8Array>()
  ws.addEventListener('message', async (e) => {
    const data = e.data instanceof Blob ? await e.data.arrayBuffer() : (e.data as ArrayBuffer)
    const f = decodeFrame(new Uint8Array(data))
    if (!f) return
    const answer = (stream: number) => {
      const request = readJson<Record<string, unknown>>(opens.get(stream)!)!
      ws.send(jsonFrame(FrameType.HEADERS, stream, { status: 200, headers: [['x-from', 'pod']] }))
      const echo = { ...request, body: bodies.get(stream) ?? '' }
      ws.send(dataFrame(stream, 1, new TextEncoder().encode(JSON.stringify(echo))))
      ws.send(eofFrame(stream, 1))
    }
    if (f.type === FrameType.OPEN) {
      opens.set(f.stream, f.payload.slice())
      const request = readJson<{ method: string }>(f.payload)!
      if (request.method === 'GET' || request.method === 'HEAD') answer(f.stream)
    } else if (f.type === FrameType.DATA && f.payload[0] === 0)
      bodies.set(f.stream, (bodies.get(f.stream) ?? '') + new TextDecoder().decode(f.payload.slice(1)))
    else if (f.type === FrameType.EOF) answer(f.stream)
  })
  return { node, ws }
}

/** Namespace with pod `web` on `node` at IP, a selector-less service `web` (80 → http) and its Endpoints. */
async function webService(node: string) {
  const ns = await makeNamespace('svcp')
  const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'web' },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'python' }] },
  })
  expect(created.status, created.text).toBe(201)
  const status = await req(
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/web/status`,
    { status: { podIP: IP, podIPs: [{ ip: IP }] } },
    { 'content-type': 'application/merge-patch+json' },
  )
  expect(status.status, status.text).toBe(200)
  const svc = await req('POST', `/api/v1/namespaces/${ns}/services`, {
    metadata: { name: 'web' },
    spec: {
      ports: [
        { name: 'http', port: 80, targetPort: 8000 },
        { name: 'admin', port: 81, targetPort: 9000 },
      ],
    },
  })
  expect(svc.status, svc.text).toBe(201)
  const eps = await req('POST', `/api/v1/namespaces/${ns}/endpoints`, {
    metadata: { name: 'web' },
    subsets: [
      {
        addresses: [{ ip: IP, targetRef: { kind: 'Pod', namespace: ns, name: 'web' } }],
        ports: [
          { name: 'http', port: 8000 },
          { name: 'admin', port: 9000 },
        ],
      },
    ],
  })
  expect(eps.status, eps.text).toBe(201)
  return ns
}

describe('services/{name}/proxy to an endpoint on a real node', () => {
  it('picks the endpoint’s pod and port by the service port’s number or name', async () => {
    const { node, ws } = await agentNode()
    const ns = await webService(node)
    const byNumber = await req('GET', `/api/v1/namespaces/${ns}/services/web:80/proxy/api/items?x=1&y=2`, undefined, {
      'x-custom': 'kept',
    })
    expect(byNumber.status, byNumber.text).toBe(200)
    expect(byNumber.headers.get('x-from')).toBe('pod')
    const asked = JSON.parse(byNumber.text)
    expect(asked).toMatchObject({
      op: 'proxy',
      namespace: ns,
      pod: 'web',
      method: 'GET',
      port: '8000',
      scheme: 'http',
      path: '/api/items',
      query: 'x=1&y=2',
    })
    const names = (asked.headers as [string, string][]).map(([k]) => k.toLowerCase())
    expect(names).toContain('x-custom')
    expect(names).not.toContain('authorization')
    const byName = await req('GET', `/api/v1/namespaces/${ns}/services/https:web:admin/proxy/a//b/../c/`)
    expect(JSON.parse(byName.text)).toMatchObject({ port: '9000', scheme: 'https', path: '/a/c/' })
    ws.close(1000)
  })

  it('relays any method with its body', async () => {
    const { node, ws } = await agentNode()
    const ns = await webService(node)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const r = await req(method, `/api/v1/namespaces/${ns}/services/web:http/proxy/things`, `a ${method} body`, {
        'content-type': 'text/plain',
      })
      expect(r.status, r.text).toBe(200)
      expect(JSON.parse(r.text)).toMatchObject({ method, path: '/things', body: `a ${method} body` })
    }
    // No path: POST goes to /, GET is redirected to the URL with a slash (kube's proxyRedirectsforRootPath).
    const root = await req('POST', `/api/v1/namespaces/${ns}/services/web:80/proxy`, 'x')
    expect(JSON.parse(root.text)).toMatchObject({ method: 'POST', path: '/' })
    const redirect = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/services/web:80/proxy?q=1`, {
        headers: withToken(),
        redirect: 'manual',
      }),
    )
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe(`/api/v1/namespaces/${ns}/services/web:80/proxy/?q=1`)
    ws.close(1000)
  })

  it('answers kube’s errors: bad id, unknown service or port, no ready endpoint', async () => {
    const { node, ws } = await agentNode()
    const ns = await webService(node)
    const bad = await req('GET', `/api/v1/namespaces/${ns}/services/ftp:web:80/proxy/`)
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe('invalid service request "ftp:web:80"')
    const noPort = await req('GET', `/api/v1/namespaces/${ns}/services/web:82/proxy/`)
    expect(noPort.status).toBe(503)
    expect(noPort.json).toMatchObject({
      reason: 'ServiceUnavailable',
      message: 'no service port 82 found for service "web"',
    })
    // The service has no unnamed port: no endpoint port matches, and the message names the id as it was given.
    const unnamed = await req('GET', `/api/v1/namespaces/${ns}/services/web/proxy/`)
    expect(unnamed.status).toBe(503)
    expect(unnamed.json.message).toBe('no endpoints available for service "web"')
    const named = await req('GET', `/api/v1/namespaces/${ns}/services/http:web:nope/proxy/`)
    expect(named.json.message).toBe('no endpoints available for service "http:web:nope"')
    const missing = await req('GET', `/api/v1/namespaces/${ns}/services/nope:80/proxy/`)
    expect(missing.status).toBe(404)
    expect(missing.json.message).toBe('services "nope" not found')
    // Without a port number the service is not read: the Endpoints are.
    const noEndpoints = await req('GET', `/api/v1/namespaces/${ns}/services/nope/proxy/`)
    expect(noEndpoints.status).toBe(404)
    expect(noEndpoints.json.message).toBe('endpoints "nope" not found')
    ws.close(1000)
  })

  it('skips endpoints that are not ready or whose pod does not have the address', async () => {
    const { node, ws } = await agentNode()
    const ns = await webService(node)
    await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'empty' },
      spec: { ports: [{ port: 80 }] },
    })
    await req('POST', `/api/v1/namespaces/${ns}/endpoints`, { metadata: { name: 'empty' }, subsets: [] })
    const empty = await req('GET', `/api/v1/namespaces/${ns}/services/empty/proxy/`)
    expect(empty.status).toBe(503)
    expect(empty.json.message).toBe('no endpoints available for service "empty"')
    await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'odd' },
      spec: { ports: [{ port: 80 }] },
    })
    const subset = (ip: string, ready: boolean) => ({
      [ready ? 'addresses' : 'notReadyAddresses']: [{ ip, targetRef: { kind: 'Pod', namespace: ns, name: 'web' } }],
      ports: [{ port: 8000 }],
    })
    const odd = await req('POST', `/api/v1/namespaces/${ns}/endpoints`, {
      metadata: { name: 'odd' },
      subsets: [subset('10.99.99.99', true), subset(IP, false)],
    })
    expect(odd.status, odd.text).toBe(201)
    const r = await req('GET', `/api/v1/namespaces/${ns}/services/odd:80/proxy/`)
    expect(r.status).toBe(503)
    expect(r.json.message).toBe('no endpoints available for service "odd:80"')
    // The unnamed port of an endpoint whose pod has the address is reached.
    await req('PUT', `/api/v1/namespaces/${ns}/endpoints/odd`, {
      metadata: { name: 'odd' },
      subsets: [subset(IP, true)],
    })
    const ok = await req('GET', `/api/v1/namespaces/${ns}/services/odd:80/proxy/`)
    expect(JSON.parse(ok.text)).toMatchObject({ pod: 'web', port: '8000', path: '/' })
    ws.close(1000)
  })

  it('needs get on services/proxy (RBAC)', async () => {
    const { node, ws } = await agentNode()
    const ns = await webService(node)
    const path = `/api/v1/namespaces/${ns}/services/web:80/proxy/`
    const refused = await req('GET', path, undefined, bearer(TEST_TOKENS.bob))
    expect(refused.status).toBe(403)
    expect(refused.json.message).toBe(
      `services "web:80" is forbidden: User "bob" cannot get resource "services/proxy" in API group "" in the namespace "${ns}"`,
    )
    const role = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: { name: 'proxy' },
      rules: [{ apiGroups: [''], resources: ['services/proxy'], verbs: ['get'] }],
    })
    expect(role.status, role.text).toBe(201)
    const binding = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'bob-proxy' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'proxy' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
    })
    expect(binding.status, binding.text).toBe(201)
    const allowed = await req('GET', path, undefined, bearer(TEST_TOKENS.bob))
    expect(allowed.status, allowed.text).toBe(200)
    const post = await req('POST', path, 'x', bearer(TEST_TOKENS.bob))
    expect(post.status).toBe(403)
    expect(post.json.message).toContain('cannot create resource "services/proxy"')
    ws.close(1000)
  })
})

describe('services/{name}/proxy to an endpoint on a virtual node', () => {
  it('is refused as pods/proxy refuses the pod', async () => {
    const ns = await makeNamespace('svcv')
    await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'sim', labels: { app: 'sim' } },
      spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    })
    await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'sim' },
      spec: { selector: { app: 'sim' }, ports: [{ port: 80 }] },
    })
    // The simulated kubelet runs the pod; the endpoints controller lists it ready.
    let r: Awaited<ReturnType<typeof req>> | undefined
    for (let i = 0; i < 200; i++) {
      r = await req('GET', `/api/v1/namespaces/${ns}/services/sim/proxy/`)
      if (r.status !== 503 && r.status !== 404) break
      await new Promise((done) => setTimeout(done, 25))
    }
    const pod = await req('GET', `/api/v1/namespaces/${ns}/pods/sim`)
    expect(r!.status, r!.text).toBe(400)
    expect(r!.json.message).toBe(
      `proxy is not available: pod sim runs on virtual node "${pod.json.spec.nodeName}", which the control plane simulates: it has no processes (a node agent serves proxy)`,
    )
    const direct = await req('GET', `/api/v1/namespaces/${ns}/pods/sim/proxy/`)
    expect(direct.json.message).toBe(r!.json.message)
  })
})

describe('discovery', () => {
  it('lists services/proxy as kube does', async () => {
    const r = await req('GET', '/api/v1')
    expect(r.json.resources.find((x: { name: string }) => x.name === 'services/proxy')).toEqual({
      name: 'services/proxy',
      singularName: '',
      namespaced: true,
      kind: 'ServiceProxyOptions',
      verbs: ['create', 'delete', 'get', 'patch', 'update'],
    })
  })
})
