// The generated v3 document is valid and complete: refs resolve, every served kind (and its List) has a component
// with its GVK, every zod field is described with the same list metadata, and every route has its operation.
import { describe, expect, it } from 'vitest'
import { requestInfo } from '../../../src/api/request-info'
import { makeNamespace, req } from '../../helpers'
import { REF_PREFIX } from '../../../src/api/openapi/components'
import { buildDocument, kindComponentName } from '../../../src/api/openapi/document'
import { NAME_CLASHES } from '../../../src/api/openapi/names'
import { PATCH_CONTENT_TYPES, documentKey } from '../../../src/api/openapi/operations'
import { kinds } from '../../../src/registry/resources'

const RESOURCES = kinds.all()
import { element, field, node, type Node } from '../../../src/registry/schema-walk'

type Json = Record<string, any>
const LIST_KEYS = [
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-map-type',
]

const documents = new Map<string, Json>()
for (const key of new Set(RESOURCES.map(documentKey)))
  documents.set(key, buildDocument(RESOURCES.filter((r) => documentKey(r) === key)))
const core = documents.get('api/v1')!
const schemas = core.components.schemas as Record<string, Json>

/** Resolves a property the way kubectl's strategic-merge-patch lookup does: first allOf entry, then its $ref. */
function resolve(doc: Json, s: Json): Json {
  let r = s.allOf ? s.allOf[0] : s
  if (r.$ref) r = doc.components.schemas[r.$ref.slice(REF_PREFIX.length)]
  return r
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out))
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // A property named $ref (JSONSchemaProps has one) is a field, not a reference.
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else refsIn(v, out)
    }
  }
  return out
}

describe('OpenAPI v3 document', () => {
  it('resolves every $ref', () => {
    for (const doc of documents.values()) {
      const refs = refsIn(doc)
      expect(refs.length).toBeGreaterThan(0)
      for (const r of refs) {
        expect(r.startsWith(REF_PREFIX), r).toBe(true)
        expect(doc.components.schemas[r.slice(REF_PREFIX.length)], r).toBeDefined()
      }
    }
  })

  it('has no component name claimed by two schemas', () => {
    expect(NAME_CLASHES).toEqual([])
  })

  it('has a component with its GVK for every kind in the table, and for its List (kinds that list)', () => {
    for (const def of RESOURCES) {
      const doc = documents.get(documentKey(def))!
      const gvk = (kind: string) => [{ group: def.group, kind, version: def.version }]
      const name = kindComponentName(def)
      expect(doc.components.schemas[name]?.['x-kubernetes-group-version-kind'], def.kind).toEqual(gvk(def.kind))
      const list = Object.values(doc.components.schemas as Record<string, Json>).find(
        (s) => JSON.stringify(s['x-kubernetes-group-version-kind']) === JSON.stringify(gvk(def.listKind)),
      )
      // Create-only kinds (the reviews) have no List upstream.
      if (!def.verbs.includes('list')) expect(list, def.listKind).toBeUndefined()
      else expect(list?.properties.items.items, def.listKind).toEqual({ $ref: REF_PREFIX + name })
    }
    expect(kindComponentName(RESOURCES.find((r) => r.kind === 'Pod')!)).toBe('io.k8s.api.core.v1.Pod')
  })

  it('uses kube names for the shared types', () => {
    for (const name of [
      'io.k8s.api.core.v1.PodSpec',
      'io.k8s.api.core.v1.Container',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
      'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      'io.k8s.apimachinery.pkg.api.resource.Quantity',
    ]) {
      expect(schemas[name], name).toBeDefined()
    }
  })

  // Partial schemas are worse than none: kubectl computes client-side apply patches from these and fails on any
  // field it cannot find. So every zod field must be there, with the list metadata the server's own patching uses.
  it('describes every field of every served kind, with the same list metadata as the zod schemas', () => {
    let fields = 0
    // Recursive types (JSONSchemaProps) are compared once per path: meeting one again ends that branch.
    const onPath = new Set<unknown>()
    const compare = (doc: Json, zn: Node, prop: Json, path: string, depth: number) => {
      expect(depth, path).toBeLessThan(40)
      if (onPath.has(zn.schema)) return
      const r = resolve(doc, prop)
      expect(r, path).toBeDefined()
      if (zn.kind === 'array' || zn.kind === 'record') {
        for (const k of LIST_KEYS) expect(prop[k], `${path} ${k}`).toEqual(zn.meta[k as keyof typeof zn.meta])
      }
      if (zn.kind === 'object') {
        const shape = (zn.schema as any)._zod.def.shape as Record<string, unknown>
        expect(r.type, path).toBe('object')
        expect(Object.keys(r.properties ?? {}).sort(), path).toEqual(Object.keys(shape).sort())
        onPath.add(zn.schema)
        for (const key of Object.keys(shape)) {
          fields++
          expect(r.properties[key].description, `${path}.${key} has no description`).toBeTruthy()
          compare(doc, field(zn, key)!, r.properties[key], `${path}.${key}`, depth + 1)
        }
        onPath.delete(zn.schema)
      } else if (zn.kind === 'array') {
        expect(r.type, path).toBe('array')
        compare(doc, element(zn)!, r.items, `${path}[]`, depth + 1)
      } else if (zn.kind === 'record') {
        expect(r.type, path).toBe('object')
        const value = field(zn, '*')!
        if (r.additionalProperties) compare(doc, value, r.additionalProperties, `${path}{}`, depth + 1)
        else expect(['unknown', 'any'], path).toContain((value.schema as any)._zod.def.type)
      }
    }
    for (const def of RESOURCES) {
      const doc = documents.get(documentKey(def))!
      compare(doc, node(def.schema), { $ref: REF_PREFIX + kindComponentName(def) }, def.kind, 0)
    }
    expect(fields).toBeGreaterThan(500)
  })

  it('gives every PATCH operation a GVK, the fieldValidation parameter and the four patch bodies', () => {
    let patches = 0
    for (const doc of documents.values()) {
      for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
        if (!item.patch) continue
        patches++
        const op = item.patch
        expect(op['x-kubernetes-group-version-kind'], path).toMatchObject({
          version: expect.any(String),
          kind: expect.any(String),
        })
        const names = op.parameters.filter((p: Json) => p.in === 'query').map((p: Json) => p.name)
        expect(names, path).toEqual(expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation', 'force']))
        expect(Object.keys(op.requestBody.content).sort(), path).toEqual([...PATCH_CONTENT_TYPES].sort())
      }
    }
    const subresourcePatches = RESOURCES.flatMap((r) => (r.subresources ?? []).filter((s) => s.verbs.includes('patch')))
    expect(patches).toBe(RESOURCES.filter((r) => r.verbs.includes('patch')).length + subresourcePatches.length)
  })

  it('names operations as kube does', () => {
    const ops = (path: string) =>
      Object.fromEntries(
        Object.entries(core.paths[path] as Json)
          .filter(([m]) => m !== 'parameters')
          .map(([m, op]) => [m, `${op.operationId} ${op['x-kubernetes-action']}`]),
      )
    expect(ops('/api/v1/namespaces/{namespace}/pods')).toEqual({
      get: 'listCoreV1NamespacedPod list',
      post: 'createCoreV1NamespacedPod post',
      delete: 'deleteCoreV1CollectionNamespacedPod deletecollection',
    })
    expect(ops('/api/v1/namespaces/{namespace}/pods/{name}')).toEqual({
      get: 'readCoreV1NamespacedPod get',
      put: 'replaceCoreV1NamespacedPod put',
      patch: 'patchCoreV1NamespacedPod patch',
      delete: 'deleteCoreV1NamespacedPod delete',
    })
    expect(ops('/api/v1/pods')).toEqual({ get: 'listCoreV1PodForAllNamespaces list' })
    expect(ops('/api/v1/watch/namespaces/{namespace}/pods')).toEqual({ get: 'watchCoreV1NamespacedPodList watchlist' })
    expect(ops('/api/v1/watch/namespaces/{namespace}/pods/{name}')).toEqual({ get: 'watchCoreV1NamespacedPod watch' })
    expect(ops('/api/v1/watch/pods')).toEqual({ get: 'watchCoreV1PodListForAllNamespaces watchlist' })
    expect(ops('/api/v1/namespaces/{name}').patch).toBe('patchCoreV1Namespace patch')
    expect(ops('/api/v1/watch/namespaces')).toEqual({ get: 'watchCoreV1NamespaceList watchlist' })
    const ids = [...documents.values()].flatMap((d) =>
      Object.values(d.paths as Record<string, Json>).flatMap((item) =>
        Object.values(item)
          .map((op: Json) => op.operationId)
          .filter(Boolean),
      ),
    )
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('every documented operation is served: the path resolves to a kind and the method is not refused', async () => {
    const documented = [...documents.values()].flatMap((d) =>
      Object.entries(d.paths as Record<string, Json>).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => m !== 'parameters')
          .map((m) => ({ method: m.toUpperCase(), path })),
      ),
    )
    expect(documented.length).toBeGreaterThan(50)
    const ns = await makeNamespace('doc')
    for (const { method, path } of documented) {
      const concrete = path.replace('{namespace}', ns).replace('{name}', 'nobody').replace('{path}', 'x')
      const info = requestInfo(method, concrete, () => undefined)
      expect(info?.isResourceRequest, `${method} ${path}`).toBe(true)
      expect(kinds.served(info!.apiGroup, info!.apiVersion, info!.resource), `${method} ${path}`).toBeDefined()
      // Watches stream; the rest answer at once: never "no such path" nor "method not allowed".
      if (info!.verb === 'watch' || concrete.includes('/proxy')) continue
      const r = await req(method, concrete, method === 'GET' || method === 'DELETE' ? undefined : '{}')
      expect(r.json?.message, `${method} ${path}: ${r.text.slice(0, 200)}`).not.toBe(
        'the server could not find the requested resource',
      )
      expect(r.status, `${method} ${path}`).not.toBe(405)
    }
  })
})
