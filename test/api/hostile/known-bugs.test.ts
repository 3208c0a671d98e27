// Bugs the hostile sweep found, one focused test each, asserting what kube-apiserver 1.33 answers. They are marked
// it.fails so the suite stays green while the bug is there; once fixed, the test passes, it.fails reports that,
// and the test becomes a plain `it` (and its ids leave known-bug-ids.ts).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } })
let n = 0
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${n++}`

describe('create and update options kube validates (metav1 validation.ValidateCreateOptions / ValidateUpdateOptions)', () => {
  // handlers.ts reads fieldManager(c) inside call(), which turns its StatusError into a 503.
  it.fails('a fieldManager longer than 128 bytes on create: 422 CreateOptions, not 503', async () => {
    const ns = await makeNamespace('bug')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=${'m'.repeat(129)}`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({
      reason: 'Invalid',
      code: 422,
      message: 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
      details: { group: 'meta.k8s.io', kind: 'CreateOptions' },
    })
  })

  it.fails('a fieldManager with a control character on create: 422 naming the character, not 503', async () => {
    const ns = await makeNamespace('bug')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=a%00b`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\x00b": invalid character U+0000 (at position 1)',
    )
  })

  it.fails('dryRun=Bogus on create: 422 CreateOptions invalid, not 400', async () => {
    const ns = await makeNamespace('bug')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=Bogus`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({
      reason: 'Invalid',
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
    })
  })

  it.fails('fieldValidation=Bogus on create: 422 CreateOptions invalid, not 400', async () => {
    const ns = await makeNamespace('bug')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?fieldValidation=Bogus`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({ reason: 'Invalid', details: { kind: 'CreateOptions' } })
  })
})

describe('bodies kube reads otherwise', () => {
  // negotiation.NegotiateInputSerializerForMediaType: a type mime.ParseMediaType refuses matches no serializer.
  it.fails('a Content-Type that is not a media type (";;;"): 415, not decoded as JSON', async () => {
    const ns = await makeNamespace('bug')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify(cm('a')), {
      'content-type': ';;;',
    })
    expect(r.status, r.text).toBe(415)
    expect(r.json).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 })
  })

  // create.go: rest.EnsureObjectNamespaceMatchesRequestNamespace clears the namespace of a cluster-scoped object
  // (charts often carry one); kube creates it.
  it.fails('a cluster-scoped object carrying metadata.namespace: created with the namespace cleared', async () => {
    const name = unique('bug-role')
    const r = await req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name, namespace: 'default' },
      rules: [],
    })
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.namespace).toBeUndefined()
  })
})
