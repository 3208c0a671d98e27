// The review kinds in discovery and OpenAPI as a 1.33 cluster shows them: authentication.k8s.io and
// authorization.k8s.io listed, create-only resources without a storage version hash, the token subresource of
// serviceaccounts, and OpenAPI documents with only the create operations and no List kinds.
import { describe, expect, it } from 'vitest'
import { req } from '../../helpers'

const AGGREGATED = { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' }

describe('discovery', () => {
  it('lists both groups under /apis, before the groups kube orders after them', async () => {
    const names = (await req('GET', '/apis')).json.groups.map((g: { name: string }) => g.name)
    expect(names.indexOf('authentication.k8s.io')).toBeGreaterThanOrEqual(0)
    expect(names.indexOf('authentication.k8s.io')).toBeLessThan(names.indexOf('authorization.k8s.io'))
    expect(names.indexOf('authorization.k8s.io')).toBeLessThan(names.indexOf('rbac.authorization.k8s.io'))
    const group = await req('GET', '/apis/authorization.k8s.io')
    expect(group.text).toBe(
      '{"kind":"APIGroup","apiVersion":"v1","name":"authorization.k8s.io","versions":[{"groupVersion":"authorization.k8s.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"authorization.k8s.io/v1","version":"v1"}}\n',
    )
  })

  it("answers each group-version's resources as a 1.33 cluster does, byte for byte", async () => {
    // Both bodies as kube-apiserver 1.33 answers them (kubectl -v8 of a real cluster).
    expect((await req('GET', '/apis/authentication.k8s.io/v1')).text).toBe(
      '{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"authentication.k8s.io/v1","resources":[{"name":"selfsubjectreviews","singularName":"selfsubjectreview","namespaced":false,"kind":"SelfSubjectReview","verbs":["create"]},{"name":"tokenreviews","singularName":"tokenreview","namespaced":false,"kind":"TokenReview","verbs":["create"]}]}\n',
    )
    expect((await req('GET', '/apis/authorization.k8s.io/v1')).text).toBe(
      '{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"authorization.k8s.io/v1","resources":[{"name":"localsubjectaccessreviews","singularName":"localsubjectaccessreview","namespaced":true,"kind":"LocalSubjectAccessReview","verbs":["create"]},{"name":"selfsubjectaccessreviews","singularName":"selfsubjectaccessreview","namespaced":false,"kind":"SelfSubjectAccessReview","verbs":["create"]},{"name":"selfsubjectrulesreviews","singularName":"selfsubjectrulesreview","namespaced":false,"kind":"SelfSubjectRulesReview","verbs":["create"]},{"name":"subjectaccessreviews","singularName":"subjectaccessreview","namespaced":false,"kind":"SubjectAccessReview","verbs":["create"]}]}\n',
    )
  })

  it('aggregated discovery (what kubectl api-resources reads) carries them, and serviceaccounts/token', async () => {
    const apis = (await req('GET', '/apis', undefined, AGGREGATED)).json
    const authn = apis.items.find((i: any) => i.metadata.name === 'authentication.k8s.io')
    expect(authn.versions).toEqual([
      {
        version: 'v1',
        resources: [
          {
            resource: 'selfsubjectreviews',
            responseKind: { group: '', version: '', kind: 'SelfSubjectReview' },
            scope: 'Cluster',
            singularResource: 'selfsubjectreview',
            verbs: ['create'],
          },
          {
            resource: 'tokenreviews',
            responseKind: { group: '', version: '', kind: 'TokenReview' },
            scope: 'Cluster',
            singularResource: 'tokenreview',
            verbs: ['create'],
          },
        ],
        freshness: 'Current',
      },
    ])
    const authz = apis.items.find((i: any) => i.metadata.name === 'authorization.k8s.io')
    expect(authz.versions[0].resources.map((r: any) => `${r.resource} ${r.scope} ${r.verbs}`)).toEqual([
      'localsubjectaccessreviews Namespaced create',
      'selfsubjectaccessreviews Cluster create',
      'selfsubjectrulesreviews Cluster create',
      'subjectaccessreviews Cluster create',
    ])
    const core = (await req('GET', '/api', undefined, AGGREGATED)).json
    const sa = core.items[0].versions[0].resources.find((r: any) => r.resource === 'serviceaccounts')
    expect(sa.subresources).toEqual([
      {
        subresource: 'token',
        responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
        verbs: ['create'],
      },
    ])
  })
})

async function document(key: string) {
  const index = await req('GET', '/openapi/v3')
  const url = index.json.paths[key]?.serverRelativeURL as string
  expect(url, key).toBeDefined()
  return (await req('GET', url)).json
}

describe('OpenAPI', () => {
  it('documents only the create of each review, under kube’s operation ids, and no List kinds', async () => {
    const doc = await document('apis/authorization.k8s.io/v1')
    const ops = Object.fromEntries(
      Object.entries(doc.paths as Record<string, any>).map(([path, item]) => [
        path,
        Object.keys(item)
          .filter((m) => m !== 'parameters')
          .map((m) => `${m} ${item[m].operationId}`),
      ]),
    )
    expect(ops).toEqual({
      '/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews': [
        'post createAuthorizationV1NamespacedLocalSubjectAccessReview',
      ],
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': ['post createAuthorizationV1SelfSubjectAccessReview'],
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': ['post createAuthorizationV1SelfSubjectRulesReview'],
      '/apis/authorization.k8s.io/v1/subjectaccessreviews': ['post createAuthorizationV1SubjectAccessReview'],
    })
    const schemas = Object.keys(doc.components.schemas)
    expect(schemas).toContain('io.k8s.api.authorization.v1.SelfSubjectAccessReview')
    expect(schemas).toContain('io.k8s.api.authorization.v1.ResourceAttributes')
    expect(schemas).toContain('io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement')
    expect(schemas.filter((s) => s.endsWith('List'))).toEqual([])
    const ssar = doc.components.schemas['io.k8s.api.authorization.v1.SelfSubjectAccessReview']
    expect(ssar['x-kubernetes-group-version-kind']).toEqual([
      { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', version: 'v1' },
    ])
    expect(ssar.required).toEqual(['spec'])
    expect(doc.components.schemas['io.k8s.api.authorization.v1.SubjectRulesReviewStatus'].required).toEqual([
      'resourceRules',
      'nonResourceRules',
      'incomplete',
    ])
  })

  it('documents TokenReview and SelfSubjectReview, and the token subresource with the TokenRequest schema', async () => {
    const authn = await document('apis/authentication.k8s.io/v1')
    expect(Object.keys(authn.paths).sort()).toEqual([
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      '/apis/authentication.k8s.io/v1/tokenreviews',
    ])
    const core = await document('api/v1')
    // TokenRequest lives where the path that carries it is, as upstream's api/v1 document has it.
    expect(core.components.schemas['io.k8s.api.authentication.v1.TokenRequestSpec'].required).toEqual(['audiences'])
    const token = core.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']
    expect(Object.keys(token).sort()).toEqual(['parameters', 'post'])
    expect(token.post.operationId).toBe('createCoreV1NamespacedServiceAccountToken')
    expect(token.post['x-kubernetes-group-version-kind']).toEqual({
      group: 'authentication.k8s.io',
      kind: 'TokenRequest',
      version: 'v1',
    })
    expect(token.post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/io.k8s.api.authentication.v1.TokenRequest',
    })
  })
})
