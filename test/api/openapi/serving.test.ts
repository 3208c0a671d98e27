// Serving the documents through the Worker: the v3 index and its hashed URLs, caching headers, and the v2 answers
// kubectl 1.27/1.28 depend on.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BASE, req, withToken } from '../../helpers'
import { buildDocument, hashDocument } from '../../../src/api/openapi/document'
import { kinds } from '../../../src/registry/resources'

const RESOURCES = kinds.all()

async function currentUrl() {
  const index = await req('GET', '/openapi/v3', undefined, { accept: 'application/json, */*' })
  expect(index.status).toBe(200)
  return index.json.paths['api/v1'].serverRelativeURL as string
}

describe('/openapi/v3', () => {
  it('indexes api/v1 under a hashed URL that stays the same while the document does', async () => {
    const url = await currentUrl()
    expect(url).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/)
    expect(await currentUrl()).toBe(url)
  })

  it('serves the hashed document as public, immutable, with the hash as Etag', async () => {
    const url = await currentUrl()
    const hash = url.split('hash=')[1]!
    const doc = await req('GET', `${url}&timeout=32s`, undefined, { accept: 'application/json' })
    expect(doc.status).toBe(200)
    expect(doc.headers.get('content-type')).toBe('application/json')
    expect(doc.headers.get('cache-control')).toBe('public, immutable')
    expect(doc.headers.get('etag')).toBe(`"${hash}"`)
    expect(doc.json.openapi).toBe('3.0.0')
    expect(doc.json.components.schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'Pod', version: 'v1' },
    ])
    expect(await hashDocument(doc.text)).toBe(hash)

    const again = await req('GET', url, undefined, { 'if-none-match': `"${hash}"` })
    expect(again.status).toBe(304)
  })

  it('does not let the unhashed URL be cached, and redirects a stale hash to the current one', async () => {
    const url = await currentUrl()
    const plain = await req('GET', '/openapi/v3/api/v1')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('cache-control')).toBe('no-cache, private')
    const stale = await exports.default.fetch(
      new Request(`${BASE}/openapi/v3/api/v1?hash=0123ABCD`, { redirect: 'manual', headers: withToken() }),
    )
    expect(stale.status).toBe(301)
    expect(stale.headers.get('location')).toBe(url)
  })

  it('changes the hash when the document changes', async () => {
    const all = JSON.stringify(buildDocument(RESOURCES.filter((r) => r.group === '')))
    const fewer = JSON.stringify(buildDocument(RESOURCES.filter((r) => r.kind === 'Pod')))
    expect(await hashDocument(all)).toBe(
      await hashDocument(JSON.stringify(buildDocument(RESOURCES.filter((r) => r.group === '')))),
    )
    expect(await hashDocument(all)).not.toBe(await hashDocument(fewer))
  })
})

describe('/openapi/v2', () => {
  it('answers protobuf requests with an empty document (kubectl 1.27/1.28 then go on to v3)', async () => {
    const r = await req('GET', '/openapi/v2?timeout=32s', undefined, {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    })
    expect(r.status).toBe(200)
    expect(r.text).toBe('')
    // No '@' in the media type: client-go rejects it ("mime: unexpected content after media subtype").
    expect(r.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf')
  })

  it('answers JSON requests with the v3 documents converted to Swagger 2.0', async () => {
    const r = await req('GET', '/openapi/v2', undefined, { accept: 'application/json' })
    expect(r.status).toBe(200)
    const doc = r.json
    expect(doc.swagger).toBe('2.0')
    expect(doc.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'Pod', version: 'v1' },
    ])
    expect(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      type: 'string',
      format: 'int-or-string',
    })
    expect(r.text).not.toContain('#/components/')
    // As a keyword (an array of schemas); JSONSchemaProps has a property of that name.
    expect(r.text).not.toContain('"oneOf":[')
    for (const ref of r.text.match(/"\$ref":"[^"]+"/g) ?? []) {
      expect(doc.definitions[ref.slice(8, -1).replace('#/definitions/', '')], ref).toBeDefined()
    }
    const patch = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch
    expect(patch.consumes).toContain('application/strategic-merge-patch+json')
    expect(patch.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'fieldValidation', in: 'query', type: 'string' }),
        expect.objectContaining({ name: 'body', in: 'body', required: true }),
      ]),
    )
    expect(doc.definitions['io.k8s.api.core.v1.Pod'].properties.spec).toMatchObject({
      $ref: '#/definitions/io.k8s.api.core.v1.PodSpec',
    })
  })
})
