// Content negotiation as kube-apiserver 1.33 does it (src/api/negotiation.ts): the Accept header picks a serializer
// or gets a 406, the Content-Type picks one or gets a 415, and the chosen clause asks for Tables, watch streams,
// pretty output or aggregated discovery.
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req } from '../helpers'
import { crd, freshGroup, install } from '../support/crds'

const KUBECTL_TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'
const NOT_ACCEPTABLE = `{
  "kind": "Status",
  "apiVersion": "v1",
  "metadata": {},
  "status": "Failure",
  "message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
  "reason": "NotAcceptable",
  "code": 406
}`
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } })

describe('Accept', () => {
  it('a type no serializer writes is a 406, written indented as kube writes it (WriteRawJSON)', async () => {
    const ns = await makeNamespace('neg')
    for (const accept of [
      'application/garbage',
      'text/html;q=1',
      ';;;',
      'Application/JSON',
      'application/json;as=Table',
    ]) {
      const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, { accept })
      expect(r.status, accept).toBe(406)
      expect(r.text, accept).toBe(NOT_ACCEPTABLE)
      expect(r.headers.get('content-type')).toBe('application/json')
    }
  })

  it('a Table of a group or version that has none, or as protobuf, is skipped for the next clause', async () => {
    const ns = await makeNamespace('neg')
    const list = `/api/v1/namespaces/${ns}/configmaps`
    expect((await req('GET', list, undefined, { accept: 'application/json;as=Table;g=nope;v=v9' })).status).toBe(406)
    const fallback = await req('GET', list, undefined, {
      accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json',
    })
    expect(fallback.status).toBe(200)
    expect(fallback.json.kind).toBe('ConfigMapList')
  })

  it("kubectl's Table request gets a Table, as application/json; a v1beta1 clause a v1beta1 Table", async () => {
    const ns = await makeNamespace('neg')
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const t = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, { accept: KUBECTL_TABLE })
    expect(t.status).toBe(200)
    expect(t.headers.get('content-type')).toBe('application/json')
    expect(t.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' })
    const beta = await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`, undefined, {
      accept: 'application/yaml;as=Table;v=v1beta1;g=meta.k8s.io',
    })
    expect(beta.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1' })
    expect(beta.json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' })
  })

  it('an includeObject kube cannot read is refused in its words', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps?includeObject=Everything`, undefined, {
      accept: KUBECTL_TABLE,
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toBe(
      `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
    )
  })

  it('wildcards, q values, protobuf and browsers are answered in JSON', async () => {
    const ns = await makeNamespace('neg')
    for (const accept of [
      '*/*',
      'application/*',
      'application/json;q=0',
      'application/vnd.kubernetes.protobuf',
      'application/vnd.kubernetes.protobuf, */*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/json;stream=watch',
      'application/json;sv=v1',
    ]) {
      const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, { accept })
      expect(r.status, accept).toBe(200)
      expect(r.json.kind, accept).toBe('ConfigMapList')
    }
  })

  it('a stream other than watch, a server version other than v1: 406', async () => {
    const ns = await makeNamespace('neg')
    for (const accept of ['application/json;stream=nope', 'application/yaml;stream=watch', 'application/json;sv=v2']) {
      const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, { accept })
      expect(r.status, accept).toBe(406)
    }
  })

  it('pretty=1 in the clause indents the answer', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, {
      accept: 'application/json;pretty=1',
    })
    expect(r.text.startsWith('{\n  "kind": "ConfigMapList"')).toBe(true)
  })

  it('a write with an Accept nothing answers is refused before anything is done', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('x'), { accept: 'application/garbage' })
    expect(r.status).toBe(406)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/x`)).status).toBe(404)
  })

  it('an error raised before negotiation keeps its code, written indented (never hidden behind a 406)', async () => {
    const r = await req('GET', '/apis/nothing.example.com/v1/things', undefined, { accept: 'application/garbage' })
    expect(r.status).toBe(404)
    expect(r.text.startsWith('{\n  "kind": "Status"')).toBe(true)
  })

  it('a custom resource is never protobuf: protobuf alone is a 406 there, JSON for built-in kinds', async () => {
    const group = freshGroup('neg')
    await install(crd(group))
    const ns = await makeNamespace('neg')
    const protobuf = { accept: 'application/vnd.kubernetes.protobuf' }
    expect((await req('GET', `/apis/${group}/v1/namespaces/${ns}/widgets`, undefined, protobuf)).status).toBe(406)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, protobuf)).status).toBe(200)
  })

  it('pods/log negotiates too: text/plain is not a type kube writes objects in (406)', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/nope/log`, undefined, { accept: 'text/plain' })
    expect(r.status).toBe(406)
  })
})

describe("PartialObjectMetadata (what client-go's metadata client asks for)", () => {
  const PARTIAL = (kind: string) =>
    `application/vnd.kubernetes.protobuf;as=${kind};g=meta.k8s.io;v=v1,application/json;as=${kind};g=meta.k8s.io;v=v1,application/json`

  it('an object answers its metadata; a list a PartialObjectMetadataList', async () => {
    const ns = await makeNamespace('neg')
    const created = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const one = await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`, undefined, {
      accept: PARTIAL('PartialObjectMetadata'),
    })
    expect(one.json).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: created.json.metadata,
    })
    const list = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, {
      accept: PARTIAL('PartialObjectMetadataList'),
    })
    expect(list.json).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' })
    expect(list.json.items.map((i: any) => [i.kind, i.metadata.name]).sort()).toEqual([
      ['PartialObjectMetadata', 'a'],
      ['PartialObjectMetadata', 'kube-root-ca.crt'],
    ])
    expect(list.text.startsWith('{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{')).toBe(
      true,
    )
  })

  it('a list asked for as one object, or an object as a list: 406 in kube words', async () => {
    const ns = await makeNamespace('neg')
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const list = await req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, {
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    })
    expect(list.status).toBe(406)
    expect(list.json.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    )
    const one = await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`, undefined, {
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    })
    expect(one.status).toBe(406)
    expect(one.json.message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    )
  })

  it('a watch streams each object as its PartialObjectMetadata', async () => {
    const ns = await makeNamespace('neg')
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const w = await openWatch(`/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=5`, {
      accept: PARTIAL('PartialObjectMetadata'),
    })
    try {
      const events = await w.take(2)
      expect(events.map((e) => [e.type, e.object.kind, e.object.apiVersion]).sort()).toEqual([
        ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1'],
        ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1'],
      ])
      expect(events.every((e) => e.object.data === undefined)).toBe(true)
    } finally {
      await w.cancel()
    }
  })
})

describe('Accept on watches', () => {
  it('YAML has no stream serializer: 406 naming the stream types', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps?watch=1`, undefined, { accept: 'application/yaml' })
    expect(r.status).toBe(406)
    expect(r.json.message).toBe(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    )
  })

  it('a garbage Accept on a watch is the 406 of every request', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps?watch=1`, undefined, { accept: 'text/html' })
    expect(r.status).toBe(406)
    expect(r.text).toBe(NOT_ACCEPTABLE)
  })

  it("kubectl's Table watch streams Table events", async () => {
    const ns = await makeNamespace('neg')
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const w = await openWatch(`/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=5`, { accept: KUBECTL_TABLE })
    try {
      expect(w.status).toBe(200)
      const ev = await w.next()
      expect(ev).toMatchObject({ type: 'ADDED', object: { kind: 'Table', apiVersion: 'meta.k8s.io/v1' } })
    } finally {
      await w.cancel()
    }
  })
})

describe('discovery', () => {
  it('legacy documents negotiate: a garbage Accept is a 406', async () => {
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps', '/apis/apps/v1']) {
      const r = await req('GET', path, undefined, { accept: 'application/garbage' })
      expect(r.status, path).toBe(406)
    }
  })

  it('aggregated discovery is v2 only (1.33 removed v2beta1): a v2beta1 request gets the legacy document', async () => {
    const v2 = await req('GET', '/apis', undefined, {
      accept:
        'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    })
    expect(v2.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')
    expect(v2.json).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' })
    const beta = await req('GET', '/api', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    })
    expect(beta.headers.get('content-type')).toBe('application/json')
    expect(beta.json.kind).toBe('APIVersions')
  })
})

describe('Content-Type', () => {
  it('one Go cannot parse is a 415, not read as JSON', async () => {
    const ns = await makeNamespace('neg')
    for (const type of [';;;', 'application/json; charset', 'text/yaml', 'application/x-yaml', 'text/plain']) {
      const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify(cm('a')), {
        'content-type': type,
      })
      expect(r.status, type).toBe(415)
      expect(r.json.message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      )
    }
  })

  it('parameters and case do not matter to a create', async () => {
    const ns = await makeNamespace('neg')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify(cm('a')), {
      'content-type': 'Application/JSON; charset=utf-8',
    })
    expect(r.status, r.text).toBe(201)
  })

  it('a patch type is matched exactly, up to its first ";"', async () => {
    const ns = await makeNamespace('neg')
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
    const path = `/api/v1/namespaces/${ns}/configmaps/a`
    const upper = await req('PATCH', path, '{}', { 'content-type': 'Application/Merge-Patch+JSON' })
    expect(upper.status).toBe(415)
    const charset = await req('PATCH', path, '{}', { 'content-type': 'application/merge-patch+json; charset=utf-8' })
    expect(charset.status, charset.text).toBe(200)
  })
})
