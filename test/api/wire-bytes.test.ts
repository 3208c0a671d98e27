// Response bodies byte for byte as kube-apiserver writes them: Go's field order whatever order the client sent,
// map keys sorted as Go sorts them, a newline after every compact body and every watch event, pretty printing as
// kube decides it (the `pretty` parameter through strconv.ParseBool, else curl/Wget/browser user agents).
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BASE, makeNamespace, sleep, withToken } from '../helpers'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any

async function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'user-agent': 'wire-test', ...headers } }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const res = await exports.default.fetch(
    new Request(BASE + path, { ...init, headers: withToken(init.headers as Record<string, string>) }),
  )
  return { status: res.status, text: await res.text() }
}

/** An Endpoints body with every object's keys out of Go's order and labels kube sorts as "10" < "9" < "a". */
const endpointsBody = (name: string, tag: string, port = 8080) => ({
  subsets: [{ ports: [{ protocol: 'TCP', port, name: 'http' }], addresses: [{ ip: '10.0.0.1' }] }],
  metadata: { labels: { wire: tag, b: '1', a: '2', '10': '3', '9': '4' }, name },
  apiVersion: 'v1',
  kind: 'Endpoints',
})

/** The bytes kube writes for that object (without the trailing newline); server-set values come from the answer. */
function endpointsWire(o: J, tag: string, port = 8080): string {
  const m = o.metadata
  const mf = m.managedFields[0]
  return (
    `{"kind":"Endpoints","apiVersion":"v1","metadata":{"name":"${m.name}","namespace":"${m.namespace}","uid":"${m.uid}",` +
    `"resourceVersion":"${m.resourceVersion}","creationTimestamp":"${m.creationTimestamp}",` +
    `"labels":{"10":"3","9":"4","a":"2","b":"1","wire":"${tag}"},` +
    `"managedFields":[{"manager":"wire-test","operation":"Update","apiVersion":"v1","time":"${mf.time}",` +
    `"fieldsType":"FieldsV1","fieldsV1":${JSON.stringify(mf.fieldsV1)}}]},` +
    `"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"name":"http","port":${port},"protocol":"TCP"}]}]}`
  )
}

const NOT_FOUND =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"endpoints \\"nope\\" not found",' +
  '"reason":"NotFound","details":{"name":"nope","kind":"endpoints"},"code":404}'

const NOT_FOUND_PRETTY = [
  '{',
  '  "kind": "Status",',
  '  "apiVersion": "v1",',
  '  "metadata": {},',
  '  "status": "Failure",',
  '  "message": "endpoints \\"nope\\" not found",',
  '  "reason": "NotFound",',
  '  "details": {',
  '    "name": "nope",',
  '    "kind": "endpoints"',
  '  },',
  '  "code": 404',
  '}',
].join('\n')

describe('response bytes', () => {
  it('a created object, its GET, its list (namespace DO) and the cluster-wide list (D1) are in Go order with a newline', async () => {
    const ns = await makeNamespace('wire')
    const tag = ns
    const c = await raw('POST', `/api/v1/namespaces/${ns}/endpoints?fieldManager=wire-test`, endpointsBody('ep', tag))
    expect(c.status, c.text).toBe(201)
    const created = JSON.parse(c.text)
    const wire = endpointsWire(created, tag)
    expect(c.text).toBe(wire + '\n')

    const g = await raw('GET', `/api/v1/namespaces/${ns}/endpoints/ep`)
    expect(g.text).toBe(wire + '\n')

    const l = await raw('GET', `/api/v1/namespaces/${ns}/endpoints`)
    const rv = JSON.parse(l.text).metadata.resourceVersion
    expect(l.text).toBe(
      `{"kind":"EndpointsList","apiVersion":"v1","metadata":{"resourceVersion":"${rv}"},"items":[${wire}]}\n`,
    )

    const all = await raw('GET', `/api/v1/endpoints?labelSelector=wire%3D${tag}`)
    const allRv = JSON.parse(all.text).metadata.resourceVersion
    expect(all.text).toBe(
      `{"kind":"EndpointsList","apiVersion":"v1","metadata":{"resourceVersion":"${allRv}"},"items":[${wire}]}\n`,
    )

    const t = await raw('GET', `/api/v1/namespaces/${ns}/endpoints`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    expect(t.text).toMatch(
      /^\{"kind":"Table","apiVersion":"meta\.k8s\.io\/v1","metadata":\{"resourceVersion":"\d+"\},"columnDefinitions":\[\{"name":"Name","type":"string","format":"name","description":"[^"]+","priority":0\},/,
    )
    expect(t.text).toContain(`"rows":[{"cells":["ep","10.0.0.1:8080",`)
    expect(t.text).toContain(
      `"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"ep","namespace":"${ns}","uid":"`,
    )
    expect(t.text.endsWith('}]}\n')).toBe(true)
  })

  it('Status errors: a missing object, an unknown path, an unserved method', async () => {
    const ns = await makeNamespace('wire')
    expect((await raw('GET', `/api/v1/namespaces/${ns}/endpoints/nope`)).text).toBe(NOT_FOUND + '\n')
    const unknown = await raw('GET', '/apis/nothing.example.com/v1/things')
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource",' +
        '"reason":"NotFound","details":{},"code":404}\n',
    )
    const method = await raw('PUT', `/api/v1/namespaces/${ns}/endpoints`, {})
    expect(method.status).toBe(405)
    expect(method.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource",' +
        '"reason":"MethodNotAllowed","details":{},"code":405}\n',
    )
  })

  it('pretty: curl, Wget and browsers by default; a non-empty pretty parameter decides through strconv.ParseBool', async () => {
    const ns = await makeNamespace('wire')
    const path = `/api/v1/namespaces/${ns}/endpoints/nope`
    const curl = { 'user-agent': 'curl/8.0' }
    expect((await raw('GET', path, undefined, curl)).text).toBe(NOT_FOUND_PRETTY)
    expect((await raw('GET', path, undefined, { 'user-agent': 'Wget/1.21' })).text).toBe(NOT_FOUND_PRETTY)
    expect((await raw('GET', `${path}?pretty=t`, undefined, curl)).text).toBe(NOT_FOUND_PRETTY)
    expect((await raw('GET', `${path}?pretty=`, undefined, curl)).text).toBe(NOT_FOUND_PRETTY)
    expect((await raw('GET', `${path}?pretty=false`, undefined, curl)).text).toBe(NOT_FOUND + '\n')
    expect((await raw('GET', `${path}?pretty=True`)).text).toBe(NOT_FOUND_PRETTY)
    expect((await raw('GET', `${path}?pretty=1`)).text).toBe(NOT_FOUND_PRETTY)
    // Go's ParseBool does not know "yes": an unparsable value is false, whoever asks.
    expect((await raw('GET', `${path}?pretty=yes`, undefined, curl)).text).toBe(NOT_FOUND + '\n')
    expect((await raw('GET', path)).text).toBe(NOT_FOUND + '\n')
  })

  it('discovery documents are in metav1 and apidiscovery/v2 field order', async () => {
    const legacy = await raw('GET', '/api/v1')
    expect(legacy.text).toContain(
      '{"name":"pods/eviction","singularName":"","namespaced":true,"group":"policy","version":"v1","kind":"Eviction","verbs":["create"]}',
    )
    expect(legacy.text.endsWith('}\n')).toBe(true)
    const aggregated = await raw('GET', '/api', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    })
    expect(aggregated.text).toMatch(
      /^\{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io\/v2","metadata":\{\},"items":\[\{"metadata":\{"creationTimestamp":null\},"versions":\[\{"version":"v1","resources":\[/,
    )
    expect(aggregated.text.endsWith('],"freshness":"Current"}]}]}\n')).toBe(true)
  })

  it('/version is written as WriteRawJSON does: indented, no newline', async () => {
    const v = await raw('GET', '/version')
    expect(v.text.startsWith('{\n  "major": "1",\n  "minor": "33",\n')).toBe(true)
    expect(v.text.endsWith('"platform": "linux/amd64"\n}')).toBe(true)
  })

  it('watch events: one compact line each, in Go order, never pretty (namespaced live, cluster-wide replayed)', async () => {
    const ns = await makeNamespace('wire')
    const tag = ns
    const c = await raw('POST', `/api/v1/namespaces/${ns}/endpoints?fieldManager=wire-test`, endpointsBody('ep', tag))
    const created = JSON.parse(c.text)
    const from = created.metadata.resourceVersion

    const live = await exports.default.fetch(
      new Request(
        `${BASE}/api/v1/namespaces/${ns}/endpoints?watch=1&resourceVersion=${from}&timeoutSeconds=2&pretty=true`,
        {
          headers: withToken({ 'user-agent': 'curl/8.0' }),
        },
      ),
    )
    expect(live.status).toBe(200)
    const updated = endpointsBody('ep', tag, 9090)
    ;(updated.metadata as J).resourceVersion = from
    const u = await raw('PUT', `/api/v1/namespaces/${ns}/endpoints/ep?fieldManager=wire-test`, updated)
    expect(u.status, u.text).toBe(200)
    const after = endpointsWire(JSON.parse(u.text), tag, 9090)
    expect(u.text).toBe(after + '\n')
    expect(await live.text()).toBe(`{"type":"MODIFIED","object":${after}}\n`)

    const before = String(Number(from) - 1)
    const replay = await raw(
      'GET',
      `/api/v1/endpoints?watch=1&resourceVersion=${before}&labelSelector=wire%3D${tag}&timeoutSeconds=1`,
    )
    expect(replay.text).toBe(
      `{"type":"ADDED","object":${endpointsWire(created, tag)}}\n{"type":"MODIFIED","object":${after}}\n`,
    )
  })

  it('a WebSocket watch message carries one event and its newline, as kube frames it', async () => {
    const ns = await makeNamespace('wire')
    const c = await raw('POST', `/api/v1/namespaces/${ns}/endpoints?fieldManager=wire-test`, endpointsBody('ep', ns))
    const wire = endpointsWire(JSON.parse(c.text), ns)
    const res = await exports.default.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/endpoints?watch=true`, {
        headers: withToken({ Upgrade: 'websocket' }),
      }),
    )
    const ws = res.webSocket!
    const messages: string[] = []
    ws.addEventListener('message', (e) => {
      messages.push(String(e.data))
    })
    ws.accept()
    try {
      for (let i = 0; i < 100 && messages.length < 1; i++) await sleep(30)
      expect(messages).toEqual([`{"type":"ADDED","object":${wire}}\n`])
    } finally {
      ws.close(1000, 'done')
    }
  })
})
