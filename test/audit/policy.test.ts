// kube's audit policy: reading (YAML or JSON, strict, validated as kube validates it), the first matching rule's
// level and stages (users, groups, verbs, namespaces, resources with subresource and name rules, non-resource URLs),
// and the cap that keeps Secrets and token requests at Metadata whatever the policy says.
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY, evaluatePolicy, parsePolicy } from '../../src/audit/policy'
import type { Attributes } from '../../src/registry/rbac/attributes'

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user: { name: 'alice', groups: ['devs', 'system:authenticated'] },
  verb: 'get',
  namespace: 'team',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: 'p',
  resourceRequest: true,
  path: '/api/v1/namespaces/team/pods/p',
  ...over,
})

function policy(text: string) {
  const r = parsePolicy(text)
  if (!r.ok) throw new Error(r.error)
  return r.policy
}

const YAML = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:kube-proxy"]
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["pods/log", "*/status"]
  - level: Request
    verbs: ["create", "update"]
    namespaces: ["team"]
    resources:
      - group: ""
        resources: ["configmaps", "secrets"]
      - group: "apps"
        resources: ["deployments/*"]
        resourceNames: ["web"]
  - level: Metadata
    userGroups: ["devs"]
    omitStages: [ResponseStarted]
    omitManagedFields: true
`

describe('audit policy', () => {
  it('the first matching rule decides, with its stages joined to the policy-wide ones', () => {
    const p = policy(YAML)
    expect(evaluatePolicy(p, attrs({ user: { name: 'system:kube-proxy', groups: [] } })).level).toBe('None')
    expect(evaluatePolicy(p, attrs({ resourceRequest: false, path: '/healthz/ping', resource: '' })).level).toBe('None')
    expect(evaluatePolicy(p, attrs({ subresource: 'log' })).level).toBe('RequestResponse')
    expect(evaluatePolicy(p, attrs({ subresource: 'status', resource: 'services' })).level).toBe('RequestResponse')
    expect(evaluatePolicy(p, attrs({ verb: 'create', resource: 'configmaps' })).level).toBe('Request')
    expect(evaluatePolicy(p, attrs({ verb: 'create', resource: 'configmaps', namespace: 'other' })).level).toBe(
      'Metadata',
    )
    expect(
      evaluatePolicy(
        p,
        attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web' }),
      ).level,
    ).toBe('Request')
    expect(
      evaluatePolicy(
        p,
        attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'db' }),
      ).level,
    ).toBe('Metadata')
    const devs = evaluatePolicy(p, attrs())
    expect(devs.level).toBe('Metadata')
    expect([...devs.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted'])
    expect(devs.omitManagedFields).toBe(true)
    // No rule matches: None, with the policy's stages.
    expect(evaluatePolicy(p, attrs({ user: { name: 'bob', groups: [] } })).level).toBe('None')
  })

  it('Secrets, TokenReviews and TokenRequests are never recorded above Metadata', () => {
    const p = policy('{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"RequestResponse"}]}')
    expect(evaluatePolicy(p, attrs({ resource: 'secrets' })).level).toBe('Metadata')
    expect(evaluatePolicy(p, attrs({ resource: 'tokenreviews', apiGroup: 'authentication.k8s.io' })).level).toBe(
      'Metadata',
    )
    expect(evaluatePolicy(p, attrs({ resource: 'serviceaccounts', subresource: 'token' })).level).toBe('Metadata')
    expect(evaluatePolicy(p, attrs({ resource: 'serviceaccounts' })).level).toBe('RequestResponse')
    // A secret policy at None stays None.
    const none = policy('{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None"}]}')
    expect(evaluatePolicy(none, attrs({ resource: 'secrets' })).level).toBe('None')
  })

  it('without a policy: Metadata for everything, ResponseComplete only', () => {
    const c = evaluatePolicy(DEFAULT_POLICY, attrs({ resourceRequest: false, resource: '', path: '/metrics' }))
    expect(c.level).toBe('Metadata')
    expect(c.omitStages).toEqual(['RequestReceived'])
  })

  it.each([
    ['not: [valid', /^failed decoding/],
    [
      '{"apiVersion":"audit.k8s.io/v1beta1","kind":"Policy","rules":[{"level":"None"}]}',
      /expected apiVersion audit.k8s.io\/v1/,
    ],
    ['{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[]}', /^loaded illegal policy with 0 rules$/],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Everything"}]}',
      /rules\[0\]\.level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"/,
    ],
    ['{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{}]}', /rules\[0\]\.level: Required value/],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","nonResourceURLs":["healthz"]}]}',
      /non-resource URL rules must begin with a '\/' character/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","nonResourceURLs":["/a*b"]}]}',
      /wildcards '\*' must be the final character/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","nonResourceURLs":["/a"],"namespaces":["x"]}]}',
      /rules cannot apply to both regular resources and non-resource URLs/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","resources":[{"resourceNames":["x"]}]}]}',
      /using resourceNames requires at least one resource/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","resources":[{"group":"apps/v1"}]}]}',
      /rules\[0\]\.resources\.group: Invalid value: "apps\/v1"/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","omitStages":["Later"],"rules":[{"level":"None"}]}',
      /omitStages\[0\]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic/,
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","verb":["get"]}]}',
      /unknown field "rules\[0\]\.verb"/,
    ],
  ])('refuses %s', (text, error) => {
    const r = parsePolicy(text)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(error)
  })
})
