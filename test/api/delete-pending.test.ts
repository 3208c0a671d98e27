// A DELETE that cannot finish at once (finalizers) answers the object with its deletionTimestamp, as kube's
// store does for every kind; one that removes the object answers kube's Success Status (or the object, for kinds
// that return it: pods).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

describe('DELETE answers', () => {
  it('a ConfigMap held by a finalizer: the object with deletionTimestamp, again on a second DELETE', async () => {
    const ns = await makeNamespace('pending-del')
    const base = `/api/v1/namespaces/${ns}/configmaps`
    expect((await req('POST', base, { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).toBe(201)
    const first = await req('DELETE', `${base}/held`)
    expect(first.status).toBe(200)
    expect(first.json.kind).toBe('ConfigMap')
    expect(first.json.metadata.deletionTimestamp).toBeTruthy()
    expect(first.json.metadata.finalizers).toEqual(['example.com/hold'])
    const again = await req('DELETE', `${base}/held`)
    expect(again.status).toBe(200)
    expect(again.json.kind).toBe('ConfigMap')
    // Once the finalizer goes, so does the object.
    const released = await req(
      'PATCH',
      `${base}/held`,
      { metadata: { finalizers: null } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(released.status, released.text).toBe(200)
    expect((await req('GET', `${base}/held`)).status).toBe(404)
  })

  it('a ConfigMap deleted at once: the Success Status', async () => {
    const ns = await makeNamespace('done-del')
    const base = `/api/v1/namespaces/${ns}/configmaps`
    expect((await req('POST', base, { metadata: { name: 'gone' } })).status).toBe(201)
    const r = await req('DELETE', `${base}/gone`)
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'gone', kind: 'configmaps' } })
  })
})
