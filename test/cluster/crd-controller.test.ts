// The CRD controller's finalizer (customresourcecleanup.apiextensions.k8s.io): deleting a CRD holds it Terminating
// while its custom resources go, every write it or a client makes meanwhile is accepted (the finalizer is not a core
// "standard" one, and CRDs are validated with apimachinery's generic rule), and the CRD is gone at the end.
import { describe, expect, it } from 'vitest'
import { openWatch, req, sleep } from '../helpers'
import { CRDS, crd, freshGroup, install } from '../support/crds'

const CLEANUP = 'customresourcecleanup.apiextensions.k8s.io'
const MERGE = { 'content-type': 'application/merge-patch+json' }

const terminating = (obj: any) => obj?.status?.conditions?.find((c: any) => c.type === 'Terminating')

describe('CRD deletion (customresourcecleanup finalizer)', () => {
  it('holds the CRD Terminating while an instance stays, accepts writes to it, then removes it', async () => {
    const group = freshGroup('fin')
    const body = crd(group)
    const name = body.metadata.name
    const crdPath = `${CRDS}/${name}`
    await install(body)
    const widgets = `/apis/${group}/v1/namespaces/default/widgets`
    // An instance with a finalizer of its own keeps the CRD Terminating until it is released.
    const w = await req('POST', widgets, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    })
    expect(w.status, w.text).toBe(201)
    const rv = (await req('GET', crdPath)).json.metadata.resourceVersion
    const watch = await openWatch(`${CRDS}?watch=1&fieldSelector=metadata.name=${name}&resourceVersion=${rv}`)
    try {
      const del = await req('DELETE', crdPath)
      expect(del.status, del.text).toBe(200)
      expect(del.json.metadata.finalizers).toEqual([CLEANUP])
      expect(del.json.metadata.deletionTimestamp).toBeTruthy()

      // A client's metadata write to the Terminating CRD: refused with "name is neither a standard finalizer name
      // nor is it fully qualified" while the core rule was applied to CRDs.
      const label = await req('PATCH', crdPath, { metadata: { labels: { phase: 'going' } } }, MERGE)
      expect(label.status, label.text).toBe(200)
      expect(label.json.metadata.finalizers).toEqual([CLEANUP])

      const release = await req('PATCH', `${widgets}/held`, { metadata: { finalizers: null } }, MERGE)
      expect(release.status, release.text).toBe(200)
      let gone = false
      for (let i = 0; i < 100 && !gone; i++) {
        gone = (await req('GET', crdPath)).status === 404
        if (!gone) await sleep(50)
      }
      expect(gone).toBe(true)

      // The controller's status writes went through: the last state is Terminating=False, instances removed.
      const { events } = await watch.rest(1000)
      const deleted = events.find((e) => e.type === 'DELETED')
      expect(deleted, JSON.stringify(events.map((e) => e.type))).toBeTruthy()
      expect(terminating(deleted.object)).toMatchObject({
        status: 'False',
        reason: 'InstanceDeletionCompleted',
        message: 'removed all instances',
      })
      expect(deleted.object.metadata.labels).toEqual({ phase: 'going' })
      expect(deleted.object.metadata.finalizers ?? []).toEqual([])
      expect((await req('GET', widgets)).status).toBe(404)
    } finally {
      await watch.cancel()
    }
  })

  it('accepts an unprefixed finalizer on a CRD, as apiextensions-apiserver does', async () => {
    const body: any = crd(freshGroup('fin'))
    body.metadata.finalizers = ['cleanup.example.com']
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(201)
    const drop = await req('PATCH', `${CRDS}/${body.metadata.name}`, { metadata: { finalizers: null } }, MERGE)
    expect(drop.status, drop.text).toBe(200)
    expect((await req('DELETE', `${CRDS}/${body.metadata.name}`)).status).toBe(200)
  })
})
