// /scale's resourceVersion as the object's: a PUT's Scale carries one parsed as any update's (400 with strconv's
// text when it does not parse, 409 when stale, none when 0), and GET takes the object GET's options.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'

/**
 * The object at `path` once its controller has recorded observedGeneration (right after the create, even with zero
 * replicas): resourceVersions read before then race that status write.
 */
const settled = (path: string) =>
  waitFor(`${path} to settle`, async () => {
    const g = await req('GET', path)
    return g.json?.status?.observedGeneration === g.json?.metadata?.generation ? g.json : undefined
  })

async function deployment(): Promise<string> {
  const ns = await makeNamespace('scale')
  const created = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    metadata: { name: 'd' },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  })
  expect(created.status, created.text).toBe(201)
  const path = `/apis/apps/v1/namespaces/${ns}/deployments/d`
  await settled(path)
  return path
}

const scale = (replicas: number, resourceVersion?: string) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name: 'd', ...(resourceVersion === undefined ? {} : { resourceVersion }) },
  spec: { replicas },
})

describe('/scale and resourceVersion', () => {
  it('PUT with resourceVersion "garbage": 400 strconv.ParseUint, and the replicas stay', async () => {
    const path = await deployment()
    const r = await req('PUT', `${path}/scale`, scale(1, 'garbage'))
    expect(r.status, r.text).toBe(400)
    expect(r.json.message).toBe('strconv.ParseUint: parsing "garbage": invalid syntax')
    expect((await req('GET', path)).json.spec.replicas).toBe(0)
  })

  it('PUT with a stale resourceVersion: 409; with "0": unconditional', async () => {
    const path = await deployment()
    const stale = await req('PUT', `${path}/scale`, scale(1, '1'))
    expect(stale.status, stale.text).toBe(409)
    const zero = await req('PUT', `${path}/scale`, scale(2, '0'))
    expect(zero.status, zero.text).toBe(200)
    expect(zero.json.spec.replicas).toBe(2)
  })

  it('GET ?resourceVersion=garbage: refused as the object GET refuses it', async () => {
    const path = await deployment()
    const object = await req('GET', `${path}?resourceVersion=garbage`)
    expect(object.status).toBe(400)
    const r = await req('GET', `${path}/scale?resourceVersion=garbage`)
    expect(r.status, r.text).toBe(400)
    expect(r.json.message).toBe(object.json.message)
    expect((await req('GET', `${path}/scale?resourceVersion=0`)).status).toBe(200)
  })

  it("PUT with the Scale's own uid: taken; with a foreign uid: 409 precondition failed, and the replicas stay", async () => {
    const path = await deployment()
    const ns = path.split('/')[5]
    const uid = (await req('GET', `${path}/scale`)).json.metadata.uid
    const foreign = '6f1c3c1e-0000-4000-8000-000000000000'
    const refused = await req('PUT', `${path}/scale`, { ...scale(3), metadata: { name: 'd', uid: foreign } })
    expect(refused.status, refused.text).toBe(409)
    expect(refused.json.message).toBe(
      `Operation cannot be fulfilled on deployments.apps "d": StorageError: invalid object, Code: 4, ` +
        `Key: /registry/deployments/${ns}/d, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ` +
        `UID in precondition: ${foreign}, UID in object meta: ${uid}`,
    )
    expect((await req('GET', path)).json.spec.replicas).toBe(0)
    const taken = await req('PUT', `${path}/scale`, { ...scale(3), metadata: { name: 'd', uid } })
    expect(taken.status, taken.text).toBe(200)
    expect(taken.json.spec.replicas).toBe(3)
  })
})

describe('/scale as a Table (ScaleREST.ConvertToTable)', () => {
  const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }
  const template = (app: string) => ({
    metadata: { labels: { app } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  })

  it('answers printScale rows for every built-in kind serving /scale, on GET, PUT and PATCH', async () => {
    const ns = await makeNamespace('scale-table')
    const kinds: [string, Record<string, unknown>][] = [
      [
        `/apis/apps/v1/namespaces/${ns}/deployments`,
        { selector: { matchLabels: { app: 'a' } }, template: template('a') },
      ],
      [
        `/apis/apps/v1/namespaces/${ns}/replicasets`,
        { selector: { matchLabels: { app: 'b' } }, template: template('b') },
      ],
      [
        `/apis/apps/v1/namespaces/${ns}/statefulsets`,
        { serviceName: 's', selector: { matchLabels: { app: 'c' } }, template: template('c') },
      ],
      [`/api/v1/namespaces/${ns}/replicationcontrollers`, { selector: { app: 'd' }, template: template('d') }],
    ]
    for (const [collection, spec] of kinds) {
      const created = await req('POST', collection, { metadata: { name: 'x' }, spec: { replicas: 0, ...spec } })
      expect(created.status, created.text).toBe(201)
      const stored = await settled(`${collection}/x`)
      const got = await req('GET', `${collection}/x/scale`, undefined, TABLE)
      expect(got.status, got.text).toBe(200)
      expect(got.headers.get('content-type')).toBe('application/json')
      const t = got.json
      expect(t.kind).toBe('Table')
      expect(t.apiVersion).toBe('meta.k8s.io/v1')
      expect(t.metadata.resourceVersion).toBe(stored.metadata.resourceVersion)
      expect(t.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority])).toEqual([
        ['Name', 'string', '', 0],
        ['Desired', 'integer', '', 0],
        ['Available', 'integer', '', 0],
        ['Age', 'string', '', 0],
      ])
      expect(t.columnDefinitions[1].description).toBe(
        'replicas is the desired number of instances for the scaled object.',
      )
      expect(t.columnDefinitions[2].description).toBe(
        'replicas is the actual number of observed instances of the scaled object.',
      )
      expect(t.columnDefinitions[0].description).toMatch(/^Name must be unique within a namespace\. Is required/)
      expect(t.rows).toHaveLength(1)
      expect(t.rows[0].cells.slice(0, 3)).toEqual(['x', 0, 0])
      expect(typeof t.rows[0].cells[3]).toBe('string')
      expect(t.rows[0].object).toEqual({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: {
          name: 'x',
          namespace: ns,
          uid: stored.metadata.uid,
          resourceVersion: stored.metadata.resourceVersion,
          creationTimestamp: stored.metadata.creationTimestamp,
        },
      })
      // A write through /scale answers its Table too; includeObject=Object carries the Scale itself.
      const put = await req(
        'PUT',
        `${collection}/x/scale?includeObject=Object`,
        { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'x' }, spec: { replicas: 2 } },
        TABLE,
      )
      expect(put.status, put.text).toBe(200)
      expect(put.json.rows[0].cells[1]).toBe(2)
      expect(put.json.rows[0].object).toMatchObject({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 2 },
      })
      const patch = await req(
        'PATCH',
        `${collection}/x/scale?includeObject=None`,
        { spec: { replicas: 1 } },
        {
          ...TABLE,
          'content-type': 'application/merge-patch+json',
        },
      )
      expect(patch.status, patch.text).toBe(200)
      expect(patch.json.rows[0].cells[1]).toBe(1)
      expect(patch.json.rows[0].object).toBeUndefined()
    }
  })

  it("a custom resource's /scale answers apiextensions' scale columns (Desired, Available, Age as a date)", async () => {
    const group = `sc${Date.now().toString(36)}.example.com`
    const crd = await req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            subresources: { scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
            additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
          },
        ],
      },
    })
    expect(crd.status, crd.text).toBe(201)
    const ns = await makeNamespace('scale-table-cr')
    const collection = `/apis/${group}/v1/namespaces/${ns}/widgets`
    let created: Awaited<ReturnType<typeof req>> | undefined
    for (let i = 0; i < 100 && created?.status !== 201; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50))
      created = await req('POST', collection, {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { size: 3 },
      })
    }
    expect(created?.status, created?.text).toBe(201)
    const got = await req('GET', `${collection}/w/scale`, undefined, TABLE)
    expect(got.status, got.text).toBe(200)
    expect(got.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.description])).toEqual([
      ['Name', 'string', 'name', expect.stringMatching(/^Name must be unique within a namespace\. Is required/)],
      ['Desired', 'integer', '', 'Number of desired replicas'],
      ['Available', 'integer', '', 'Number of actual replicas'],
      ['Age', 'date', '', expect.stringMatching(/^CreationTimestamp is a timestamp/)],
    ])
    expect(got.json.rows[0].cells.slice(0, 3)).toEqual(['w', 3, 0])
  })
})

describe('/scale as PartialObjectMetadata (asPartialObjectMetadata of the Scale)', () => {
  it("answers the Scale's metadata, and a 406 naming *autoscaling.Scale for a list", async () => {
    const path = await deployment()
    const accept = (as: string) => ({ accept: `application/json;as=${as};g=meta.k8s.io;v=v1` })
    const got = await req('GET', `${path}/scale`, undefined, accept('PartialObjectMetadata'))
    expect(got.status, got.text).toBe(200)
    const scale = (await req('GET', `${path}/scale`)).json
    expect(got.json).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: scale.metadata })
    const list = await req('GET', `${path}/scale`, undefined, accept('PartialObjectMetadataList'))
    expect(list.status, list.text).toBe(406)
    expect(list.json.message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*autoscaling.Scale)',
    )
  })
})
