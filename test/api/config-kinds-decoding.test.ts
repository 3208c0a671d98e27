// ConfigMaps and Secrets through the API: []byte fields decoded as Go decodes them (base64 errors, canonical form),
// stringData merged on every write path, the `type` field selector, and what a DELETE answers.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const secretsOf = (ns: string) => `/api/v1/namespaces/${ns}/secrets`
const MERGE = { 'content-type': 'application/merge-patch+json' }

describe('Secret data decoding', () => {
  it("bad base64 is kube's 400 naming the byte offset; newlines are accepted and written back canonical", async () => {
    const ns = await makeNamespace('sd')
    const bad = await req('POST', secretsOf(ns), { metadata: { name: 'x' }, data: { k: 'aGVsbG8!' } })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7',
    )
    const wrapped = await req('POST', secretsOf(ns), { metadata: { name: 'w' }, data: { k: 'aGVs\nbG8=' } })
    expect(wrapped.status, wrapped.text).toBe(201)
    expect(wrapped.json.data).toEqual({ k: 'aGVsbG8=' })
    const number = await req('POST', secretsOf(ns), { metadata: { name: 'n' }, data: { k: 5 } })
    expect(number.json.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8',
    )
  })

  it("a merge patch with bad base64 is kube's 422 on the patched object; stringData in a patch lands in data", async () => {
    const ns = await makeNamespace('sd')
    expect((await req('POST', secretsOf(ns), { metadata: { name: 'p' }, data: { a: 'MQ==' } })).status).toBe(201)
    const bad = await req('PATCH', `${secretsOf(ns)}/p`, { data: { a: '###' } }, MERGE)
    expect(bad.status).toBe(422)
    expect(bad.json.message).toMatch(/^ "" is invalid: patch: Invalid value: .*: illegal base64 data at input byte 0$/)
    const ok = await req('PATCH', `${secretsOf(ns)}/p`, { stringData: { b: 'two' } }, MERGE)
    expect(ok.status, ok.text).toBe(200)
    expect(ok.json.data).toEqual({ a: 'MQ==', b: btoa('two') })
    expect(ok.json.stringData).toBeUndefined()
    const got = await req('GET', `${secretsOf(ns)}/p`)
    expect(got.json.stringData).toBeUndefined()
  })

  it('server-side apply with stringData stores data', async () => {
    const ns = await makeNamespace('sd')
    const r = await req(
      'PATCH',
      `${secretsOf(ns)}/applied?fieldManager=test`,
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'applied' }, stringData: { user: 'admin' } },
      { 'content-type': 'application/apply-patch+yaml' },
    )
    expect(r.status, r.text).toBe(201)
    expect(r.json.data).toEqual({ user: btoa('admin') })
    expect(r.json.type).toBe('Opaque')
  })

  it('type is a field selector; DELETE answers a Success Status', async () => {
    const ns = await makeNamespace('sd')
    await req('POST', secretsOf(ns), { metadata: { name: 'o' }, data: {} })
    await req('POST', secretsOf(ns), {
      metadata: { name: 't' },
      type: 'kubernetes.io/basic-auth',
      stringData: { username: 'u' },
    })
    const l = await req('GET', `${secretsOf(ns)}?fieldSelector=type%3Dkubernetes.io%2Fbasic-auth`)
    expect(l.json.items.map((s: any) => s.metadata.name)).toEqual(['t'])
    const d = await req('DELETE', `${secretsOf(ns)}/o`)
    expect(d.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'o', kind: 'secrets' } })
  })
})

describe('ConfigMap binaryData decoding', () => {
  it('binaryData is base64 like secret data; data is plain text', async () => {
    const ns = await makeNamespace('cd')
    const path = `/api/v1/namespaces/${ns}/configmaps`
    const bad = await req('POST', path, { metadata: { name: 'b' }, binaryData: { k: 'x' } })
    expect(bad.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0',
    )
    const ok = await req('POST', path, {
      metadata: { name: 'b' },
      data: { t: 'not base64!' },
      binaryData: { k: 'AAE=' },
    })
    expect(ok.status, ok.text).toBe(201)
    expect(ok.json).toMatchObject({ data: { t: 'not base64!' }, binaryData: { k: 'AAE=' } })
  })
})

describe('Lease times', () => {
  it('acquireTime and renewTime are MicroTimes: six fractional digits, as Go parses them', async () => {
    const ns = await makeNamespace('ld')
    const path = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`
    const bad = await req('POST', path, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { renewTime: '2026-01-01T00:00:00.123Z' },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"',
    )
    const ok = await req('POST', path, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'a', renewTime: '2026-01-01T00:00:00.123456Z', leaseDurationSeconds: 10 },
    })
    expect(ok.status, ok.text).toBe(201)
  })
})
