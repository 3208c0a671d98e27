// Decoding errors through the Worker, as kube-apiserver 1.33 words them: bodies it cannot read, bodies of another
// kind or version, type mismatches at every depth, nulls, and patches whose result has the wrong types.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req } from '../helpers'

const JSON_CT = { 'content-type': 'application/json' }
const MERGE = { 'content-type': 'application/merge-patch+json' }
const JSONP = { 'content-type': 'application/json-patch+json' }
const SMP = { 'content-type': 'application/strategic-merge-patch+json' }
const APPLY = { 'content-type': 'application/apply-patch+yaml' }

const FIND_KIND =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'
const SCHEME = 'in scheme "pkg/api/legacyscheme/scheme.go:30"'

function expectBadRequest(r: { status: number; json: any; text: string }, message: string) {
  expect(r.status, r.text).toBe(400)
  expect(r.json).toMatchObject({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: 'BadRequest',
    code: 400,
    message,
  })
}

describe('create and update bodies', () => {
  it("bodies that are not JSON objects: the object provided is unrecognized, with Go's parse error and a summary", async () => {
    const ns = await makeNamespace('dec')
    const path = `/api/v1/namespaces/${ns}/pods`
    const parse =
      "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: "
    const cases: [string, string][] = [
      ['{', `${parse}unexpected end of JSON input ({)`],
      ['', `${parse}unexpected end of JSON input (<empty>)`],
      [
        '{"metadata":{"name":"x"},}',
        `${parse}invalid character '}' looking for beginning of object key string ({"metadata":{"name":"x"},})`,
      ],
      ['{"a" 1}', `${parse}invalid character '1' after object key ({"a" 1})`],
      ['not json', `${parse}invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)`],
      [
        '[{"kind":"Pod"}]',
        `${parse}json: cannot unmarshal array into Go value of type ${FIND_KIND} (5b7b226b696e64223a22506f64227d5d)`,
      ],
      ['"pod"', `${parse}json: cannot unmarshal string into Go value of type ${FIND_KIND} (22706f6422)`],
      ['42', `${parse}json: cannot unmarshal number into Go value of type ${FIND_KIND} (3432)`],
    ]
    for (const [body, message] of cases) expectBadRequest(await req('POST', path, body, JSON_CT), message)
    await req('POST', path, pod('p'))
    expectBadRequest(
      await req('PUT', `${path}/p`, '{"metadata":', JSON_CT),
      `${parse}unexpected end of JSON input ({"metadata":)`,
    )
  })

  it('apiVersion and kind that do not match the endpoint', async () => {
    const ns = await makeNamespace('dec')
    const path = `/api/v1/namespaces/${ns}/pods`
    const cases: [Record<string, unknown>, string][] = [
      [
        { apiVersion: 'v2', kind: 'Pod' },
        `Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" ${SCHEME}`,
      ],
      [
        { apiVersion: 'v1', kind: 'Service' },
        'Service in version "v1" cannot be handled as a Pod: converting (v1.Service) to (core.Pod): unknown conversion',
      ],
      [
        { apiVersion: 'v1', kind: 'Widget' },
        `Widget in version "v1" cannot be handled as a Pod: no kind "Widget" is registered for version "v1" ${SCHEME}`,
      ],
      [
        { apiVersion: 'apps/v1', kind: 'Deployment' },
        'Deployment in version "v1" cannot be handled as a Pod: converting (v1.Deployment) to (core.Pod): unknown conversion',
      ],
    ]
    for (const [head, message] of cases) {
      const body = { ...pod('p'), ...head }
      expectBadRequest(await req('POST', path, body), message)
    }
    expect((await req('GET', `${path}/p`)).status).toBe(404)
    const slice = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [] }
    expectBadRequest(
      await req('POST', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, slice),
      'Pod in version "v1" cannot be handled as a EndpointSlice: converting (v1.Pod) to (discovery.EndpointSlice): unknown conversion',
    )
  })

  it('type mismatches name the innermost Go struct, the JSON path and the Go type', async () => {
    const ns = await makeNamespace('dec')
    const pods = `/api/v1/namespaces/${ns}/pods`
    const asPod = 'Pod in version "v1" cannot be handled as a Pod: '
    const cases: [string, unknown, string][] = [
      [
        pods,
        { metadata: 'x' },
        `${asPod}json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta`,
      ],
      [
        pods,
        { metadata: { name: 'p' }, spec: { containers: 'x' } },
        `${asPod}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
      ],
      [
        pods,
        { metadata: { name: 'p' }, spec: { containers: [{ name: 5, image: 'x' }] } },
        `${asPod}json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string`,
      ],
      [
        pods,
        {
          metadata: { name: 'p' },
          spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: 'lots' } } }] },
        },
        `${asPod}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      ],
      [
        `/api/v1/namespaces/${ns}/replicationcontrollers`,
        { metadata: { name: 'r' }, spec: { replicas: 1.5, selector: { a: 'b' } } },
        'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal number 1.5 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
      ],
      [
        `/api/v1/namespaces/${ns}/services`,
        { metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: true }] } },
        'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
      ],
    ]
    for (const [path, body, message] of cases) expectBadRequest(await req('POST', path, body), message)
  })

  it('JSON text Go reads differently from JSON.parse: 1.0 is not an int32', async () => {
    const ns = await makeNamespace('dec')
    const r = await req(
      'POST',
      `/api/v1/namespaces/${ns}/replicationcontrollers`,
      '{"metadata":{"name":"r"},"spec":{"replicas":1.0,"selector":{"a":"b"}}}',
      JSON_CT,
    )
    expectBadRequest(
      r,
      'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal number 1.0 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
    )
  })

  it('a null field is absent, as Go decodes it: a container named null is a 422 Required value, not a 400', async () => {
    const ns = await makeNamespace('dec')
    const r = await req(
      'POST',
      `/api/v1/namespaces/${ns}/pods`,
      '{"metadata":{"name":"p"},"spec":{"containers":[{"name":null,"image":"x"}]}}',
      JSON_CT,
    )
    expect(r.status, r.text).toBe(422)
    expect(r.json.reason).toBe('Invalid')
    expect(r.json.details.causes).toContainEqual({
      reason: 'FieldValueRequired',
      message: 'Required value',
      field: 'spec.containers[0].name',
    })
  })

  it('a missing required field reaches validation too: owner references without their fields are a 422', async () => {
    const ns = await makeNamespace('dec')
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      ...pod('p'),
      metadata: { name: 'p', ownerReferences: [{}] },
    })
    expect(r.status, r.text).toBe(422)
    expect(r.json.details.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "": version must not be empty',
      field: 'metadata.ownerReferences.apiVersion',
    })
  })

  it('YAML bodies decode as their JSON would', async () => {
    const ns = await makeNamespace('dec')
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, 'apiVersion: v2\nkind: Pod\nmetadata:\n  name: y\n', {
      'content-type': 'application/yaml',
    })
    expectBadRequest(
      r,
      `Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" ${SCHEME}`,
    )
  })
})

describe('patches whose result has the wrong types', () => {
  const setup = async () => {
    const ns = await makeNamespace('decp')
    const path = `/api/v1/namespaces/${ns}/pods/p`
    const created = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('p'))
    expect(created.status, created.text).toBe(201)
    return { ns, path, current: created.json }
  }
  const expectInvalidPatch = (
    r: { status: number; json: any; text: string },
    value: RegExp | string,
    detail: string,
  ) => {
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 })
    expect(r.json.details).toEqual({
      causes: [{ reason: 'FieldValueInvalid', message: expect.any(String), field: 'patch' }],
    })
    const message: string = r.json.message
    expect(message.startsWith(' "" is invalid: patch: Invalid value: "')).toBe(true)
    expect(message.endsWith(`": ${detail}`)).toBe(true)
    const quoted = message.slice(' "" is invalid: patch: Invalid value: '.length, message.length - detail.length - 2)
    const patched = JSON.parse(quoted) as string
    if (typeof value === 'string') expect(patched).toBe(value)
    else expect(patched).toMatch(value)
  }

  it("merge patch: 422 quoting the patched JSON, with the decoder's error", async () => {
    const { path } = await setup()
    const r = await req('PATCH', path, { spec: { containers: 'x' } }, MERGE)
    expectInvalidPatch(
      r,
      /^\{"apiVersion":"v1","kind":"Pod","metadata":\{.*\},"spec":\{"containers":"x",.*\},"status":\{.*\}\}$/,
      'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
    )
    const v2 = await req('PATCH', path, { apiVersion: 'v2' }, MERGE)
    expectInvalidPatch(v2, /^\{"apiVersion":"v2",/, `no kind "Pod" is registered for version "v2" ${SCHEME}`)
  })

  it('JSON patch: 422 quoting the patched JSON', async () => {
    const { path } = await setup()
    const r = await req('PATCH', path, [{ op: 'replace', path: '/spec/containers/0/name', value: 5 }], JSONP)
    expectInvalidPatch(
      r,
      /"containers":\[\{.*"name":5.*\}\]/,
      'json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string',
    )
  })

  it("strategic merge patch: 422 quoting the patch as Go prints the decoded map, with the converter's error", async () => {
    const { path } = await setup()
    expectInvalidPatch(
      await req('PATCH', path, { metadata: { labels: 'x' } }, SMP),
      'map[metadata:map[labels:x]]',
      'cannot restore map from string',
    )
    expectInvalidPatch(
      await req('PATCH', path, { spec: { containers: 'x' } }, SMP),
      'map[spec:map[containers:x]]',
      'cannot restore slice from string',
    )
    expectInvalidPatch(
      await req('PATCH', path, { spec: 'x' }, SMP),
      'map[spec:x]',
      'cannot restore struct from: string',
    )
    expectInvalidPatch(
      await req('PATCH', path, { spec: { containers: [{ name: 'c', image: 5 }] } }, SMP),
      'map[spec:map[containers:[map[image:5 name:c]]]]',
      'cannot convert int64 to string',
    )
  })

  it('nothing is stored when a patch is refused', async () => {
    const { path, current } = await setup()
    await req('PATCH', path, { spec: { containers: 'x' } }, MERGE)
    await req('PATCH', path, { metadata: { labels: 'x' } }, SMP)
    // (the scheduler and kubelet write the pod meanwhile, so its spec and labels are compared, not its version)
    const after = (await req('GET', path)).json
    expect(after.spec.containers).toEqual(current.spec.containers)
    expect(after.metadata.labels).toEqual(current.metadata.labels)
  })

  it('server-side apply: the typed conversion of the applied configuration', async () => {
    const { ns, path } = await setup()
    const r = await req(
      'PATCH',
      `${path}?fieldManager=m`,
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ${ns}\nspec:\n  containers: x\n`,
      APPLY,
    )
    expectBadRequest(
      r,
      `failed to create typed patch object (${ns}/p; /v1, Kind=Pod): .spec.containers: expected list, got &{x}`,
    )
    const labels = await req(
      'PATCH',
      `${path}?fieldManager=m`,
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {a: 1}\n`,
      APPLY,
    )
    expectBadRequest(
      labels,
      'failed to create typed patch object (/p; /v1, Kind=Pod): .metadata.labels.a: expected string, got &value.valueUnstructured{Value:1}',
    )
    const v2 = await req('PATCH', `${path}?fieldManager=m`, 'apiVersion: v2\nkind: Pod\nmetadata:\n  name: p\n', APPLY)
    expectBadRequest(v2, 'invalid object type: /v2, Kind=Pod')
  })
})
