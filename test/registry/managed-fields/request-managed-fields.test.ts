// managedFields a write carries, as kube-apiserver 1.33 takes them (fieldmanager.go decodeLiveOrNew): an update (PUT
// or non-apply PATCH) starts from the entries the request holds, so a client can rewrite ownership; an empty list (or
// one empty entry) resets them; entries that do not decode, and anything sent through a subresource, are ignored for
// the stored ones. kubectl relies on this after `apply --server-side` of an object it applied client-side before: a
// JSON patch that replaces /metadata/managedFields (kubectl-client-side-apply merged into kubectl) and
// /metadata/resourceVersion (so a concurrent write makes it a 409).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any

const JSON_PATCH = { 'content-type': 'application/json-patch+json' }
const MERGE = { 'content-type': 'application/merge-patch+json' }

const podBody = (name: string): J => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: { schedulerName: 'kubeflare-test-none', containers: [{ name: 'c', image: 'nginx:1.25' }] },
})

async function create(ns: string, name: string, manager = 'creator') {
  const r = await req('POST', `/api/v1/namespaces/${ns}/pods?fieldManager=${manager}`, podBody(name))
  expect(r.status, r.text).toBe(201)
  return r.json
}

const path = (ns: string, name: string) => `/api/v1/namespaces/${ns}/pods/${name}`
const managers = (obj: J) => (obj.metadata.managedFields ?? []).map((e: J) => `${e.manager}/${e.operation}`)

/** The creator's entry renamed into an Apply entry of `kubectl`, as kubectl's migration patch rewrites it. */
const migrated = (obj: J) =>
  obj.metadata.managedFields.map((e: J) => ({ ...e, manager: 'kubectl', operation: 'Apply' }))

describe('managedFields sent with an update', () => {
  it("a JSON patch replacing them (kubectl's migration) is what the object keeps", async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    const r = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=kubectl`,
      [
        { op: 'replace', path: '/metadata/managedFields', value: migrated(obj) },
        { op: 'replace', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
      ],
      JSON_PATCH,
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.managedFields).toEqual(migrated(obj))
    expect(r.json.metadata.resourceVersion).not.toBe(obj.metadata.resourceVersion)
    expect((await req('GET', path(ns, 'p'))).json.metadata.managedFields).toEqual(migrated(obj))
  })

  it('with a stale resourceVersion the same patch is a 409 and changes nothing', async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    const moved = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=labeler`,
      { metadata: { labels: { tier: 'x' } } },
      MERGE,
    )
    expect(moved.status, moved.text).toBe(200)
    const r = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=kubectl`,
      [
        { op: 'replace', path: '/metadata/managedFields', value: migrated(obj) },
        { op: 'replace', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
      ],
      JSON_PATCH,
    )
    expect(r.status, r.text).toBe(409)
    const cur = (await req('GET', path(ns, 'p'))).json
    expect(managers(cur)).toEqual(['creator/Update', 'labeler/Update'])
    // Read again and retried, as kubectl does, it is taken.
    const retried = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=kubectl`,
      [
        { op: 'replace', path: '/metadata/managedFields', value: migrated(cur) },
        { op: 'replace', path: '/metadata/resourceVersion', value: cur.metadata.resourceVersion },
      ],
      JSON_PATCH,
    )
    expect(retried.status, retried.text).toBe(200)
    // Two entries of one manager and operation are one: the later.
    expect(retried.json.metadata.managedFields).toEqual([migrated(cur)[1]])
  })

  it('a PUT that also changes a field: the sent entries, then the writer takes what it changed', async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    // Sending back the stored ones unchanged is no write at all.
    const same = await req('PUT', `${path(ns, 'p')}?fieldManager=editor`, obj)
    expect(same.status, same.text).toBe(200)
    expect(same.json.metadata.resourceVersion).toBe(obj.metadata.resourceVersion)
    expect(managers(same.json)).toEqual(['creator/Update'])
    const body = structuredClone(obj)
    body.metadata.managedFields = migrated(obj)
    body.metadata.labels.app = 'api'
    const r = await req('PUT', `${path(ns, 'p')}?fieldManager=editor`, body)
    expect(r.status, r.text).toBe(200)
    expect(managers(r.json)).toEqual(['kubectl/Apply', 'editor/Update'])
    const kubectl = r.json.metadata.managedFields[0]
    expect(kubectl.fieldsV1['f:metadata']['f:labels']).not.toHaveProperty('f:app')
    expect(r.json.metadata.managedFields[1].fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:app': {} } } })
  })

  it('an empty list or [{}] resets them, and the reset write is not tracked (kube strips them entirely)', async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    const reset = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=resetter`,
      { metadata: { managedFields: [] } },
      MERGE,
    )
    expect(reset.status, reset.text).toBe(200)
    expect(reset.json.metadata.managedFields).toBeUndefined()
    expect(reset.json.metadata.resourceVersion).not.toBe(obj.metadata.resourceVersion)
    const body = structuredClone(reset.json)
    body.metadata.managedFields = [{}]
    body.metadata.labels.app = 'api'
    const r = await req('PUT', `${path(ns, 'p')}?fieldManager=editor`, body)
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels.app).toBe('api')
    // skipNonAppliedManager: an object without managedFields is not tracked by updates, only by an apply.
    expect(r.json.metadata.managedFields).toBeUndefined()
    const again = await req('PATCH', `${path(ns, 'p')}?fieldManager=later`, { metadata: { labels: { x: 'y' } } }, MERGE)
    expect(again.status, again.text).toBe(200)
    expect(again.json.metadata.managedFields).toBeUndefined()
    const applied = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=applier`,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { y: 'z' } } },
      { 'content-type': 'application/apply-patch+yaml' },
    )
    expect(applied.status, applied.text).toBe(200)
    expect(managers(applied.json)).toEqual(['applier/Apply'])
  })

  it('entries that do not decode are ignored for the stored ones', async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    for (const [i, bad] of [
      { manager: 'x', operation: 'Delete', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} },
      { manager: 'x', operation: 'Update', apiVersion: '', fieldsType: 'FieldsV1', fieldsV1: {} },
      { manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsV1: {} },
    ].entries()) {
      const body = (await req('GET', path(ns, 'p'))).json
      body.metadata.managedFields = [...migrated(obj), bad]
      body.metadata.labels.tier = `t${i}`
      const r = await req('PUT', `${path(ns, 'p')}?fieldManager=editor`, body)
      expect(r.status, r.text).toBe(200)
      expect(managers(r.json)).toEqual(['creator/Update', 'editor/Update'])
    }
    // The control: the same entries without the bad one are taken.
    const body = (await req('GET', path(ns, 'p'))).json
    body.metadata.managedFields = migrated(obj)
    const r = await req('PUT', `${path(ns, 'p')}?fieldManager=editor`, body)
    expect(r.status, r.text).toBe(200)
    expect(managers(r.json)).toEqual(['kubectl/Apply'])
  })

  it('sent through /status they are ignored', async () => {
    const ns = await makeNamespace('mf')
    const obj = await create(ns, 'p')
    const r = await req(
      'PATCH',
      `${path(ns, 'p')}/status?fieldManager=kubectl`,
      [{ op: 'replace', path: '/metadata/managedFields', value: migrated(obj) }],
      JSON_PATCH,
    )
    expect(r.status, r.text).toBe(200)
    expect(managers(r.json)).toEqual(['creator/Update'])
    // The control: the same patch through the main resource is taken.
    const main = await req(
      'PATCH',
      `${path(ns, 'p')}?fieldManager=kubectl`,
      [{ op: 'replace', path: '/metadata/managedFields', value: migrated(obj) }],
      JSON_PATCH,
    )
    expect(main.status, main.text).toBe(200)
    expect(managers(main.json)).toEqual(['kubectl/Apply'])
  })
})
