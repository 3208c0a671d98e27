// /scale's resourceVersion as the object's: a PUT's Scale carries one parsed as any update's (400 with strconv's
// text when it does not parse, 409 when stale, none when 0), and GET takes the object GET's options.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

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
  return `/apis/apps/v1/namespaces/${ns}/deployments/d`
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
