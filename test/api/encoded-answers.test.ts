// Write answers the host sends already encoded (WriteOptions.encodeAnswer) are the bytes a read of the same object
// gives, and requests that want something else of the object (a Table, indentation) still get it.
import { describe, expect, it } from 'vitest'
import { makeNamespace, podPath, req, staticPod } from '../helpers'

const MERGE = { 'content-type': 'application/merge-patch+json' }

describe('write answers encoded by the host', () => {
  it('create, update and patch answer the bytes a GET of the object gives', async () => {
    const ns = await makeNamespace()
    const body = staticPod('web', { app: 'web' })
    const created = await req('POST', podPath(ns), {
      ...body,
      metadata: { ...body.metadata, annotations: { note: '<a&b>' } },
    })
    expect(created.status, created.text).toBe(201)
    const afterCreate = await req('GET', podPath(ns, 'web'))
    expect(created.text).toBe(afterCreate.text)
    // Go's escaping and the trailing newline, as encodeBody writes them.
    expect(created.text).toContain('\\u003ca\\u0026b\\u003e')
    expect(created.text.endsWith('}\n')).toBe(true)

    const put = await req('PUT', podPath(ns, 'web'), {
      ...afterCreate.json,
      metadata: { ...afterCreate.json.metadata, labels: { app: 'web', tier: 'front' } },
    })
    expect(put.status, put.text).toBe(200)
    expect(put.text).toBe((await req('GET', podPath(ns, 'web'))).text)

    const patched = await req('PATCH', podPath(ns, 'web'), { metadata: { annotations: { a: 'b' } } }, MERGE)
    expect(patched.status, patched.text).toBe(200)
    expect(patched.text).toBe((await req('GET', podPath(ns, 'web'))).text)
    expect(patched.json.metadata.annotations).toEqual({ a: 'b', note: '<a&b>' })
  })

  it('a Secret (sealed at rest) is answered as a read gives it', async () => {
    const ns = await makeNamespace()
    const path = `/api/v1/namespaces/${ns}/secrets`
    const created = await req('POST', path, { metadata: { name: 's' }, stringData: { k: 'v' }, type: 'Opaque' })
    expect(created.status, created.text).toBe(201)
    expect(created.text).toBe((await req('GET', `${path}/s`)).text)
    expect(created.json.data).toEqual({ k: 'dg==' })
  })

  it('a dry run answers the object it would have written, with no resourceVersion', async () => {
    const ns = await makeNamespace()
    const r = await req('POST', `${podPath(ns)}?dryRun=All`, staticPod('dry'))
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.name).toBe('dry')
    expect(r.json.metadata.uid).toBeTruthy()
    expect(r.json.metadata.resourceVersion).toBeUndefined()
    expect(r.json.spec.restartPolicy).toBe('Always')
    expect((await req('GET', podPath(ns, 'dry'))).status).toBe(404)
  })

  it('pretty, Table and PartialObjectMetadata answers are still rendered from the object', async () => {
    const ns = await makeNamespace()
    const pretty = await req('POST', `${podPath(ns)}?pretty=true`, staticPod('p1'))
    expect(pretty.status, pretty.text).toBe(201)
    expect(pretty.text.startsWith('{\n  "kind": "Pod",')).toBe(true)

    const table = await req('POST', podPath(ns), staticPod('p2'), {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    expect(table.status, table.text).toBe(201)
    expect(table.json.kind).toBe('Table')
    expect(table.json.rows[0].cells[0]).toBe('p2')

    const partial = await req(
      'PATCH',
      podPath(ns, 'p2'),
      { metadata: { labels: { x: 'y' } } },
      {
        ...MERGE,
        accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
      },
    )
    expect(partial.status, partial.text).toBe(200)
    expect(partial.json.kind).toBe('PartialObjectMetadata')
    expect(partial.json.spec).toBeUndefined()
    expect(partial.json.metadata.labels).toEqual({ x: 'y' })
  })
})
