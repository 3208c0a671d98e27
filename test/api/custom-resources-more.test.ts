// More of custom resources through the Worker: RBAC (aggregated roles cover a CRD only when its ClusterRoles say
// so), several versions with conversion None and a deprecated one, categories, selectable fields, server-side apply
// with list-map keys, cluster scope, and bad input (deep objects, huge schemas).
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'
import { crd, freshGroup, install } from '../support/crds'

const alice = bearer(TEST_TOKENS.alice)

describe('custom resources: access, versions, selection, apply, scope, limits', () => {
  it('the edit role covers a custom resource only once a ClusterRole aggregates it into edit', async () => {
    const group = freshGroup('rbac')
    await install(crd(group))
    const ns = await makeNamespace('crrbac')
    const binding = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'alice-edits' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
    })
    expect(binding.status, binding.text).toBe(201)
    const list = `/apis/${group}/v1/namespaces/${ns}/widgets`
    const refused = await req('GET', list, undefined, alice)
    expect(refused.status).toBe(403)
    expect(refused.json.message).toBe(
      `widgets.${group} is forbidden: User "alice" cannot list resource "widgets" in API group "${group}" in the namespace "${ns}"`,
    )
    const role = await req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: `widgets-edit-${group}`, labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
      rules: [{ apiGroups: [group], resources: ['widgets'], verbs: ['get', 'list', 'watch', 'create'] }],
    })
    expect(role.status, role.text).toBe(201)
    let allowed = 0
    for (let i = 0; i < 50 && allowed !== 200; i++) {
      allowed = (await req('GET', list, undefined, alice)).status
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(allowed).toBe(200)
  })

  it('several versions: stored in the storage version, answered in the version asked, deprecated ones warn', async () => {
    const group = freshGroup('ver')
    const schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
      },
    }
    await install(
      crd(group, {
        versions: [
          { name: 'v1beta1', served: true, storage: false, deprecated: true, schema },
          { name: 'v1', served: true, storage: true, schema },
        ],
      }),
    )
    const ns = await makeNamespace('crver')
    const created = await req('POST', `/apis/${group}/v1beta1/namespaces/${ns}/widgets`, {
      apiVersion: `${group}/v1beta1`,
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1 },
    })
    expect(created.status, created.text).toBe(201)
    expect(created.json.apiVersion).toBe(`${group}/v1beta1`)
    expect(created.headers.get('warning')).toBe(`299 - "${group}/v1beta1 Widget is deprecated"`)
    const v1 = await req('GET', `/apis/${group}/v1/namespaces/${ns}/widgets/w`)
    expect(v1.json.apiVersion).toBe(`${group}/v1`)
    expect(v1.headers.get('warning')).toBeNull()
    const list = await req('GET', `/apis/${group}/v1beta1/namespaces/${ns}/widgets`)
    expect(list.json.items[0].apiVersion).toBe(`${group}/v1beta1`)
    // Discovery lists versions by kube's priority: the GA one first, and preferred.
    const disco = await req('GET', `/apis/${group}`)
    expect(disco.json.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1'])
    expect(disco.json.preferredVersion.version).toBe('v1')
    // A version's own schema validates what is written through it; it is stored in the storage version.
    const stored = await req('GET', `/apis/${group}/v1/namespaces/${ns}/widgets/w`)
    expect(stored.json.metadata.generation).toBe(1)
  })

  it("each version's own schema validates what is written through it; watches answer in the version asked", async () => {
    const group = freshGroup('ver2')
    const schema = (max: number) => ({
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: max } } } },
      },
    })
    await install(
      crd(group, {
        versions: [
          { name: 'v1beta1', served: true, storage: false, schema: schema(5) },
          { name: 'v1', served: true, storage: true, schema: schema(10) },
        ],
      }),
    )
    const ns = await makeNamespace('crver2')
    const body = (version: string, name: string) => ({
      apiVersion: `${group}/${version}`,
      kind: 'Widget',
      metadata: { name },
      spec: { size: 7 },
    })
    const beta = await req('POST', `/apis/${group}/v1beta1/namespaces/${ns}/widgets`, body('v1beta1', 'b'))
    expect(beta.status, beta.text).toBe(422)
    expect(beta.json.details.causes[0].message).toBe(
      'Invalid value: 7: spec.size in body should be less than or equal to 5',
    )
    const w = await openWatch(`/apis/${group}/v1beta1/namespaces/${ns}/widgets?watch=true&timeoutSeconds=5`)
    const ga = await req('POST', `/apis/${group}/v1/namespaces/${ns}/widgets`, body('v1', 'g'))
    expect(ga.status, ga.text).toBe(201)
    const ev = await w.next()
    expect(ev.object.apiVersion).toBe(`${group}/v1beta1`)
    await w.cancel()
  })

  it('categories list the kind for `kubectl get all`; selectable fields work in field selectors', async () => {
    const group = freshGroup('cat')
    const body: any = crd(group, {
      categories: ['all'],
      spec: { type: 'object', properties: { color: { type: 'string' } } },
    })
    body.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }]
    await install(body)
    const agg = await req('GET', '/apis', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    })
    const entry = agg.json.items.find((g: any) => g.metadata.name === group)
    expect(entry.versions[0].resources[0]).toMatchObject({
      resource: 'widgets',
      categories: ['all'],
      scope: 'Namespaced',
    })
    const ns = await makeNamespace('crsel')
    const root = `/apis/${group}/v1/namespaces/${ns}/widgets`
    for (const [name, color] of [
      ['a', 'red'],
      ['b', 'blue'],
    ])
      await req('POST', root, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec: { color } })
    const red = await req('GET', `${root}?fieldSelector=spec.color%3Dred`)
    expect(red.json.items.map((o: any) => o.metadata.name)).toEqual(['a'])
    const bad = await req('GET', `${root}?fieldSelector=spec.size%3D1`)
    expect(bad.status).toBe(400)
  })

  it('server-side apply merges map lists by their keys and records managedFields per manager', async () => {
    const group = freshGroup('ssa')
    await install(
      crd(group, {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, port: { type: 'integer' } },
              },
            },
          },
        },
      }),
    )
    const ns = await makeNamespace('crssa')
    const item = `/apis/${group}/v1/namespaces/${ns}/widgets/w`
    const apply = (manager: string, ports: object[]) =>
      req(
        'PATCH',
        `${item}?fieldManager=${manager}`,
        JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { ports } }),
        {
          'content-type': 'application/apply-patch+yaml',
        },
      )
    expect((await apply('a', [{ name: 'http', port: 80 }])).status).toBe(201)
    const second = await apply('b', [{ name: 'https', port: 443 }])
    expect(second.status, second.text).toBe(200)
    expect(second.json.spec.ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ])
    expect(second.json.metadata.managedFields.map((m: any) => m.manager)).toEqual(['a', 'b'])
    const conflict = await apply('b', [{ name: 'http', port: 8080 }])
    expect(conflict.status).toBe(409)
  })

  it('cluster-scoped custom resources live in the cluster object and are listed without a namespace', async () => {
    const group = freshGroup('cl')
    await install(crd(group, { scope: 'Cluster' }))
    const root = `/apis/${group}/v1/widgets`
    const created = await req('POST', root, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'c' },
      spec: { x: 1 },
    })
    expect(created.status, created.text).toBe(201)
    expect(created.json.metadata.namespace).toBeUndefined()
    expect((await req('GET', root)).json.items.map((o: any) => o.metadata.name)).toEqual(['c'])
    expect((await req('GET', `/apis/${group}/v1/namespaces/default/widgets`)).status).toBe(404)
  })

  // kube decodes 10000 levels; a decoded object here may nest 512 (src/registry/nesting.ts: Workers RPC, the stack).
  it('bad input: objects nested past 512 levels are a 400; a deep preserved object within it is kept', async () => {
    const group = freshGroup('deep')
    await install(crd(group))
    const ns = await makeNamespace('crdeep')
    const nest = (depth: number): any => (depth === 0 ? 'leaf' : { a: nest(depth - 1) })
    const root = `/apis/${group}/v1/namespaces/${ns}/widgets`
    const deep = await req('POST', root, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'deep' },
      spec: nest(600),
    })
    expect(deep.status).toBe(400)
    expect(deep.json.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: the object is nested deeper than 512 levels',
    )
    const ok = await req('POST', root, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'ok' },
      spec: nest(500),
    })
    expect(ok.status, ok.text).toBe(201)
  })

  it('bad input: a huge schema (2,000 properties) is served; a schema nested 90 deep validates', async () => {
    const group = freshGroup('huge')
    const properties: Record<string, unknown> = {}
    for (let i = 0; i < 2000; i++)
      properties[`field${i}`] = { type: 'string', maxLength: 64, description: `Field number ${i}` }
    await install(crd(group, { spec: { type: 'object', properties } }))
    const ns = await makeNamespace('crhuge')
    const r = await req('POST', `/apis/${group}/v1/namespaces/${ns}/widgets`, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'h' },
      spec: { field1999: 'x', field0: 5 },
    })
    expect(r.status).toBe(422)
    expect(r.json.details.causes[0].field).toBe('spec.field0')
    const deepGroup = freshGroup('deepschema')
    const schemaAt = (depth: number): any =>
      depth === 0 ? { type: 'string' } : { type: 'object', properties: { a: schemaAt(depth - 1) } }
    await install(crd(deepGroup, { spec: schemaAt(40) }))
  })
})
