// Kinds are data: a kind registered in the table while the server runs is routed, stored, listed, watched and
// discovered by the same code paths as the built-in kinds (what CustomResourceDefinitions will rely on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kinds, resourceByPlural } from '../../src/registry/resources'
import type { ResourceDef } from '../../src/registry/resource'
import { makeNamespace, openWatch, req } from '../helpers'

const events = resourceByPlural('events')!
const note: ResourceDef = {
  ...events,
  group: 'example.test',
  version: 'v1',
  kind: 'Note',
  listKind: 'NoteList',
  plural: 'notes',
  singular: 'note',
  shortNames: [],
  ttlSeconds: undefined,
}
// The Event strategy it borrows wants the involved object in the event's namespace, as kube's event validation does.
const body = (name: string, namespace: string) => ({
  apiVersion: 'example.test/v1',
  kind: 'Note',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'somebody', namespace },
  reason: 'Noted',
  message: 'hello',
  type: 'Normal',
})

describe('a kind registered at run time', () => {
  beforeAll(() => kinds.register(note))
  afterAll(() => kinds.unregister('example.test', 'notes'))

  it('is served through the generic routes, listed, watched and discovered', async () => {
    const ns = await makeNamespace('kinds')
    const root = `/apis/example.test/v1/namespaces/${ns}/notes`
    const w = await openWatch(`${root}?watch=true&timeoutSeconds=5`)
    const created = await req('POST', root, body('n1', ns))
    expect(created.status, created.text).toBe(201)
    expect(created.json).toMatchObject({
      apiVersion: 'example.test/v1',
      kind: 'Note',
      metadata: { name: 'n1', namespace: ns },
    })
    expect((await w.next())?.object.metadata.name).toBe('n1')
    const list = await req('GET', root)
    expect(list.json).toMatchObject({ kind: 'NoteList', apiVersion: 'example.test/v1' })
    expect(list.json.items.map((o: any) => o.metadata.name)).toEqual(['n1'])
    const all = await req('GET', '/apis/example.test/v1/notes')
    expect(all.json.items.map((o: any) => o.metadata.name)).toContain('n1')
    const discovery = await req('GET', '/apis/example.test/v1')
    expect(discovery.status, discovery.text).toBe(200)
    expect(discovery.json.resources.map((r: any) => r.name)).toContain('notes')
    expect((await req('GET', '/apis')).json.groups.map((g: any) => g.name)).toContain('example.test')
    const gone = await req('DELETE', `${root}/n1`)
    expect(gone.status, gone.text).toBe(200)
    await w.cancel()
  })

  it('is gone from routing and discovery once unregistered', async () => {
    kinds.unregister('example.test', 'notes')
    const r = await req('GET', '/apis/example.test/v1/notes')
    expect(r.status).toBe(404)
    expect((await req('GET', '/apis/example.test/v1')).status).toBe(404)
    kinds.register(note)
  })
})
