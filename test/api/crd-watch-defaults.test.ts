// Custom resources are defaulted on read for watches too, as kube's decoder defaults what it reads from storage: an
// object stored before its schema gained a default shows it in the initial events of a watch, in replayed history,
// in a DELETED event, over a chunked stream, a WebSocket and a cluster-wide watch, and in Table rows.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BASE, makeNamespace, openWatch, req, sleep, withToken } from '../helpers'
import { CRDS, crd, freshGroup, install } from '../support/crds'

const sizeSchema = (withDefault: boolean) => ({
  type: 'object',
  properties: {
    size: { type: 'integer', ...(withDefault ? { default: 3 } : {}) },
    color: { type: 'string' },
  },
})

/** A CRD without defaults, a widget stored under it, then the CRD given a default for spec.size. */
async function widgetPredatingADefault(prefix: string) {
  const group = freshGroup(prefix)
  const body: any = crd(group, { spec: sizeSchema(false) })
  await install(body)
  const ns = await makeNamespace(prefix)
  const root = `/apis/${group}/v1/namespaces/${ns}/widgets`
  const made = await req('POST', root, {
    apiVersion: `${group}/v1`,
    kind: 'Widget',
    metadata: { name: 'old' },
    spec: {},
  })
  expect(made.status, made.text).toBe(201)
  expect(made.json.spec).toEqual({})
  const current = (await req('GET', `${CRDS}/${body.metadata.name}`)).json
  current.spec.versions[0].schema.openAPIV3Schema.properties.spec = sizeSchema(true)
  const updated = await req('PUT', `${CRDS}/${body.metadata.name}`, current)
  expect(updated.status, updated.text).toBe(200)
  // The schema reaches every isolate within a second: a GET shows the default once it has.
  let size: unknown
  for (let i = 0; i < 40 && size !== 3; i++) {
    size = (await req('GET', `${root}/old`)).json.spec?.size
    if (size !== 3) await sleep(100)
  }
  expect(size).toBe(3)
  return { group, ns, root, rv: made.json.metadata.resourceVersion as string }
}

describe('watch events of custom resources are defaulted', () => {
  it('initial events, replayed history and a DELETED event carry the default', async () => {
    const { root, rv } = await widgetPredatingADefault('wdef')
    const initial = await openWatch(`${root}?watch=true&timeoutSeconds=5`)
    const added = await initial.next()
    expect(added.type).toBe('ADDED')
    expect(added.object.spec).toEqual({ size: 3 })
    await initial.cancel()
    // Replayed from just before the create: the stored event predates the default.
    const replay = await openWatch(`${root}?watch=true&timeoutSeconds=5&resourceVersion=${Number(rv) - 1}`)
    expect((await replay.next()).object.spec).toEqual({ size: 3 })
    await replay.cancel()
    const live = await openWatch(`${root}?watch=true&timeoutSeconds=5&resourceVersion=${rv}`)
    const gone = await req('DELETE', `${root}/old`)
    expect(gone.status, gone.text).toBe(200)
    const deleted = await live.next()
    expect(deleted.type).toBe('DELETED')
    expect(deleted.object.spec).toEqual({ size: 3 })
    await live.cancel()
  })

  it('a cluster-wide watch and a Table watch see the default', async () => {
    const { group, root } = await widgetPredatingADefault('wdefall')
    const all = await openWatch(`/apis/${group}/v1/widgets?watch=true&timeoutSeconds=5`)
    expect((await all.next()).object.spec).toEqual({ size: 3 })
    await all.cancel()
    const table = await openWatch(`${root}?watch=true&timeoutSeconds=5&includeObject=Object`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    const row = await table.next()
    expect(row.object.kind).toBe('Table')
    expect(row.object.rows[0].object.spec).toEqual({ size: 3 })
    await table.cancel()
  })

  it('a WebSocket watch sees the default (its events are no longer passed through untouched)', async () => {
    const { root } = await widgetPredatingADefault('wdefws')
    const res = await exports.default.fetch(
      new Request(`${BASE}${root}?watch=true&timeoutSeconds=3`, { headers: withToken({ Upgrade: 'websocket' }) }),
    )
    expect(res.status).toBe(101)
    const ws = res.webSocket!
    const messages: any[] = []
    ws.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))))
    ws.accept()
    try {
      for (let i = 0; i < 100 && messages.length < 1; i++) await sleep(30)
      expect(messages[0]).toMatchObject({ type: 'ADDED', object: { spec: { size: 3 } } })
    } finally {
      ws.close(1000, 'done')
    }
  })
})
