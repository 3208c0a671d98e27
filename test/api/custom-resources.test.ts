// Custom resources end to end through the Worker: a CRD becomes Established (names accepted), its kind is served at
// /apis/<group>/<version>/... by the generic routes, objects are pruned, defaulted and validated by its schema,
// /status and /scale work from its subresources, Tables show its printer columns, and deleting the CRD removes them.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep } from '../helpers'

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
let n = 0

function cronTabCrd(group: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `crontabs.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                  },
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.labelSelector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  }
}

async function established(name: string) {
  for (let i = 0; i < 100; i++) {
    const crd = (await req('GET', `${CRDS}/${name}`)).json
    if (crd?.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True')) return crd
    await sleep(50)
  }
  throw new Error(`${name} never became Established`)
}

async function installCronTab() {
  const group = `ct${Date.now().toString(36)}${n++}.example.com`
  const r = await req('POST', CRDS, cronTabCrd(group))
  expect(r.status, r.text).toBe(201)
  const crd = await established(`crontabs.${group}`)
  return { group, crd }
}

const cronTab = (group: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: `${group}/v1`,
  kind: 'CronTab',
  metadata: { name },
  spec,
})

describe('custom resources', () => {
  it('a CRD is Established with its accepted names', async () => {
    const { crd } = await installCronTab()
    expect(crd.status.acceptedNames).toEqual({
      plural: 'crontabs',
      singular: 'crontab',
      shortNames: ['ct'],
      kind: 'CronTab',
      listKind: 'CronTabList',
    })
    expect(crd.status.conditions.map((c: any) => [c.type, c.status, c.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ])
  })

  it('a name another CRD of the group serves is not accepted: NamesAccepted=False, not Established', async () => {
    const { group } = await installCronTab()
    const other = cronTabCrd(group)
    other.metadata.name = `crons.${group}`
    other.spec.names = { plural: 'crons', singular: 'cron', kind: 'Cron', shortNames: ['ct'] }
    expect((await req('POST', CRDS, other)).status).toBe(201)
    let crd: any
    for (let i = 0; i < 100; i++) {
      crd = (await req('GET', `${CRDS}/crons.${group}`)).json
      if (crd.status.conditions?.some((c: any) => c.type === 'NamesAccepted')) break
      await sleep(50)
    }
    expect(crd.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'False', 'ShortNamesConflict', '"ct" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ])
    expect(crd.status.acceptedNames).toEqual({ plural: 'crons', singular: 'cron', kind: 'Cron', listKind: 'CronList' })
  })

  it('serves the kind: create (pruned, defaulted), get, list, discovery', async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const root = `/apis/${group}/v1/namespaces/${ns}/crontabs`
    const created = await req('POST', root, cronTab(group, 'x', { cronSpec: '* * * * */5', image: 'img', extra: 1 }))
    expect(created.status, created.text).toBe(201)
    expect(created.json.spec).toEqual({ cronSpec: '* * * * */5', image: 'img', replicas: 1 })
    expect(created.json.metadata.generation).toBe(1)
    expect(created.headers.get('warning')).toContain('unknown field \\"spec.extra\\"')
    const got = await req('GET', `${root}/x`)
    expect(got.json.kind).toBe('CronTab')
    const list = await req('GET', root)
    expect(list.json.kind).toBe('CronTabList')
    expect(list.json.items.map((o: any) => o.metadata.name)).toEqual(['x'])
    const disco = await req('GET', `/apis/${group}/v1`)
    expect(disco.json.resources.map((r: any) => r.name)).toEqual(['crontabs', 'crontabs/scale', 'crontabs/status'])
    expect(disco.json.resources[0]).toMatchObject({ shortNames: ['ct'], singularName: 'crontab', namespaced: true })
  })

  it("a missing object is NotFound in kube's words on every verb (<plural>.<group>, the group once)", async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const path = `/apis/${group}/v1/namespaces/${ns}/crontabs/gone`
    const want = {
      reason: 'NotFound',
      message: `crontabs.${group} "gone" not found`,
      details: { name: 'gone', group, kind: 'crontabs' },
    }
    for (const [method, body, type] of [
      ['GET', undefined, undefined],
      ['PATCH', { spec: { image: 'x' } }, 'application/merge-patch+json'],
      ['PUT', cronTab(group, 'gone', { image: 'x' }), undefined],
      ['DELETE', undefined, undefined],
    ] as const) {
      const r = await req(method, path, body, type ? { 'content-type': type } : {})
      expect(r.status, `${method} ${r.text}`).toBe(404)
      expect(r.json, method).toMatchObject(want)
    }
    const status = await req('GET', `${path}/status`)
    expect(status.json).toMatchObject(want)
  })

  it('validates with the schema (422) and refuses unknown fields with fieldValidation=Strict (400)', async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const root = `/apis/${group}/v1/namespaces/${ns}/crontabs`
    const bad = await req('POST', root, cronTab(group, 'y', { cronSpec: 'nope', replicas: 'three' }))
    expect(bad.status, bad.text).toBe(422)
    expect(bad.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "nope": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
        field: 'spec.cronSpec',
      },
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        field: 'spec.replicas',
      },
      // The scale subresource reads its replicas path as kube's NestedInt64 does.
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64',
        field: '.spec.replicas',
      },
    ])
    const big = await req('POST', root, cronTab(group, 'z', { replicas: 11 }))
    expect(big.json.details.causes[0].message).toBe(
      'Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    )
    const strict = await req('POST', `${root}?fieldValidation=Strict`, cronTab(group, 'w', { extra: true }))
    expect(strict.status, strict.text).toBe(400)
    expect(strict.json.message).toBe(
      'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.extra"',
    )
  })

  it('status and scale subresources; generation moves with spec only', async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const item = `/apis/${group}/v1/namespaces/${ns}/crontabs/s`
    const created = (await req('POST', item.replace(/\/s$/, ''), cronTab(group, 's', { replicas: 2 }))).json
    const status = await req('PUT', `${item}/status`, {
      ...created,
      metadata: { ...created.metadata, labels: { ignored: 'yes' } },
      status: { replicas: 2, labelSelector: 'app=s' },
    })
    expect(status.status, status.text).toBe(200)
    expect(status.json.status).toEqual({ replicas: 2, labelSelector: 'app=s' })
    // A custom resource's status writes change nothing but status (labels included), as kube's strategy does.
    expect(status.json.metadata.labels).toBeUndefined()
    expect(status.json.metadata.generation).toBe(1)
    const specWrite = await req('PUT', item, { ...status.json, spec: { replicas: 3 }, status: { replicas: 9 } })
    expect(specWrite.json.metadata.generation).toBe(2)
    expect(specWrite.json.status).toEqual({ replicas: 2, labelSelector: 'app=s' })
    const scale = await req('GET', `${item}/scale`)
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=s' },
    })
    const scaled = await req(
      'PATCH',
      `${item}/scale`,
      { spec: { replicas: 5 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(scaled.status, scaled.text).toBe(200)
    expect((await req('GET', item)).json.spec.replicas).toBe(5)
  })

  it('tables show the printer columns; strategic merge patch is refused with 415', async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const root = `/apis/${group}/v1/namespaces/${ns}/crontabs`
    await req('POST', root, cronTab(group, 't', { cronSpec: '*/5 * * * *', replicas: 3 }))
    const table = await req('GET', root, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Spec', 'Replicas', 'Age'])
    expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['t', '*/5 * * * *', 3])
    const smp = await req(
      'PATCH',
      `${root}/t`,
      { spec: {} },
      { 'content-type': 'application/strategic-merge-patch+json' },
    )
    expect(smp.status).toBe(415)
    expect(smp.json.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    )
  })

  it("while a CRD terminates, creates are refused in kube's words and its objects can still be updated", async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('crterm')
    const root = `/apis/${group}/v1/namespaces/${ns}/crontabs`
    const held = cronTab(group, 'held', {})
    expect(
      (await req('POST', root, { ...held, metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status,
    ).toBe(201)
    expect((await req('DELETE', `${CRDS}/crontabs.${group}`)).status).toBe(200)
    let refused: Awaited<ReturnType<typeof req>> | undefined
    for (let i = 0; i < 60; i++) {
      refused = await req('POST', root, cronTab(group, `late${i}`, {}))
      if (refused.status !== 201) break
      await sleep(50)
    }
    expect(refused!.status, refused!.text).toBe(405)
    expect(refused!.json).toMatchObject({
      reason: 'MethodNotAllowed',
      message: 'create not allowed while custom resource definition is terminating',
      details: { group, kind: 'crontabs' },
      code: 405,
    })
    // Updates go on (controllers must be able to take their finalizers off).
    const current = (await req('GET', `${root}/held`)).json
    current.metadata.finalizers = []
    const updated = await req('PUT', `${root}/held`, current)
    expect(updated.status, updated.text).toBe(200)
    for (let i = 0; i < 100 && (await req('GET', `${CRDS}/crontabs.${group}`)).status !== 404; i++) await sleep(50)
    expect((await req('GET', `${CRDS}/crontabs.${group}`)).status).toBe(404)
  })

  it('deleting the CRD removes its objects first, then the CRD and its routes', async () => {
    const { group } = await installCronTab()
    const ns = await makeNamespace('cr')
    const root = `/apis/${group}/v1/namespaces/${ns}/crontabs`
    expect((await req('POST', root, cronTab(group, 'd', {}))).status).toBe(201)
    const del = await req('DELETE', `${CRDS}/crontabs.${group}`)
    expect(del.status, del.text).toBe(200)
    for (let i = 0; i < 100 && (await req('GET', `${CRDS}/crontabs.${group}`)).status !== 404; i++) await sleep(50)
    expect((await req('GET', `${CRDS}/crontabs.${group}`)).status).toBe(404)
    expect((await req('GET', `${root}/d`)).status).toBe(404)
  })
})
