// SelfSubjectRulesReview on the wire: the requester's rules in a namespace (cluster bindings first, then the
// namespace's, duplicates kept), a new object as kube answers it, lookup errors in evaluationError, and kube's 400.
import { beforeAll, describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'
import { bearer, TEST_TOKENS } from '../../support/test-tokens'

const PATH = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews'
const RBAC = '/apis/rbac.authorization.k8s.io/v1'
const bob = bearer(TEST_TOKENS.bob)

let ns = ''

beforeAll(async () => {
  ns = await makeNamespace('ssrr')
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'reader' },
    rules: [{ apiGroups: [''], resources: ['pods'], resourceNames: ['one'], verbs: ['get'] }],
  }
  expect((await req('POST', `${RBAC}/namespaces/${ns}/roles`, role)).status).toBe(201)
  for (const [name, ref] of [
    ['bob-reader', 'reader'],
    ['bob-missing', 'nowhere'],
  ]) {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ref },
    }
    expect((await req('POST', `${RBAC}/namespaces/${ns}/rolebindings`, binding)).status).toBe(201)
  }
})

/** What every authenticated user holds through the bootstrap ClusterRoleBindings, in their visit order here. */
const AUTHENTICATED_RESOURCE_RULES = [
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
]

describe('SelfSubjectRulesReview', () => {
  it("lists the cluster rules then the namespace's, as kube's bytes, with the lookup errors", async () => {
    const r = await req(
      'POST',
      PATH,
      '{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"namespace":"' +
        ns +
        '"},"status":{"resourceRules":null,"nonResourceRules":null,"incomplete":false}}',
      bob,
    )
    expect(r.status, r.text).toBe(201)
    expect(r.json.status.resourceRules).toEqual([
      ...AUTHENTICATED_RESOURCE_RULES,
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['one'] },
    ])
    expect(r.json.status.evaluationError).toBe('role.rbac.authorization.k8s.io "nowhere" not found')
    expect(r.json.status.incomplete).toBe(false)
    // A new object: no spec echoed, no managedFields, metadata as a zero ObjectMeta writes.
    expect(
      r.text.startsWith(
        '{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{},"status":{"resourceRules":[{"verbs":["create"],"apiGroups":["authorization.k8s.io"],"resources":["selfsubjectaccessreviews","selfsubjectrulesreviews"]},',
      ),
    ).toBe(true)
    expect(
      r.text.endsWith(
        ',"incomplete":false,"evaluationError":"role.rbac.authorization.k8s.io \\"nowhere\\" not found"}}\n',
      ),
    ).toBe(true)
  })

  it('another namespace lists only the cluster rules; non-resource rules are listed apart', async () => {
    const r = await req('POST', PATH, { spec: { namespace: 'default' } }, bob)
    expect(r.status).toBe(201)
    expect(r.json.status.resourceRules).toEqual(AUTHENTICATED_RESOURCE_RULES)
    expect(r.json.status.evaluationError).toBeUndefined()
    expect(r.json.status.nonResourceRules).toContainEqual({
      verbs: ['get'],
      nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
    })
    for (const rule of r.json.status.nonResourceRules) expect(Object.keys(rule)).toEqual(['verbs', 'nonResourceURLs'])
  })

  it('system:masters gets cluster-admin through its binding (the privileged group lists no rules itself)', async () => {
    const r = await req('POST', PATH, { spec: { namespace: ns } })
    expect(r.json.status.resourceRules).toContainEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] })
    expect(r.json.status.nonResourceRules).toContainEqual({ verbs: ['*'], nonResourceURLs: ['*'] })
  })

  it("no namespace is kube's 400", async () => {
    const r = await req('POST', PATH, { spec: {} }, bob)
    expect(r.status).toBe(400)
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"no namespace on request","reason":"BadRequest","code":400}\n',
    )
  })
})
