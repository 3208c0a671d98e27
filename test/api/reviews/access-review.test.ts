// The access reviews on the wire: verdicts from the same RBAC objects requests are judged by (a Role and RoleBinding
// in one namespace, resourceNames, subresources, non-resource URLs, groups, ServiceAccounts, impersonation), the
// bytes kube answers (request echoed with the field manager's entry, then the verdict), and kube's 400/422 texts.
import { beforeAll, describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'
import { bearer, TEST_TOKENS } from '../../support/test-tokens'

const AUTHZ = '/apis/authorization.k8s.io/v1'
const RBAC = '/apis/rbac.authorization.k8s.io/v1'
const alice = bearer(TEST_TOKENS.alice)
const KUBECTL = { 'user-agent': 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0' }

let teamA = ''
let teamB = ''

async function create(path: string, body: unknown) {
  const r = await req('POST', path, body)
  expect(r.status, r.text).toBe(201)
}

const rbac = (kind: string, name: string, rest: Record<string, unknown>) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name },
  ...rest,
})
const roleRef = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name })

beforeAll(async () => {
  teamA = await makeNamespace('sar-a')
  teamB = await makeNamespace('sar-b')
  await create(
    `${RBAC}/namespaces/${teamA}/roles`,
    rbac('Role', 'pod-reader', {
      rules: [
        { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['configmaps'], resourceNames: ['allowed-cm'], verbs: ['get'] },
      ],
    }),
  )
  await create(
    `${RBAC}/namespaces/${teamA}/rolebindings`,
    rbac('RoleBinding', 'devs-read', {
      subjects: [{ kind: 'Group', name: 'team-a-devs', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: roleRef('Role', 'pod-reader'),
    }),
  )
  await create(
    `${RBAC}/namespaces/${teamA}/rolebindings`,
    rbac('RoleBinding', 'robot-read', {
      subjects: [{ kind: 'ServiceAccount', name: 'robot' }],
      roleRef: roleRef('Role', 'pod-reader'),
    }),
  )
  await create(
    `${RBAC}/namespaces/${teamB}/rolebindings`,
    rbac('RoleBinding', 'dangling', {
      subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: roleRef('Role', 'missing'),
    }),
  )
  await create(
    `${RBAC}/clusterroles`,
    rbac('ClusterRole', `metrics-reader-${teamA}`, {
      rules: [{ nonResourceURLs: ['/metrics', '/logs/*'], verbs: ['get'] }],
    }),
  )
  await create(
    `${RBAC}/clusterrolebindings`,
    rbac('ClusterRoleBinding', `metrics-reader-${teamA}`, {
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: roleRef('ClusterRole', `metrics-reader-${teamA}`),
    }),
  )
})

const resource = (namespace: string, verb: string, res: string, extra: Record<string, string> = {}) => ({
  resourceAttributes: { namespace, verb, resource: res, ...extra },
})
const nonResource = (verb: string, path: string) => ({ nonResourceAttributes: { verb, path } })

async function selfReview(spec: unknown, headers: Record<string, string> = alice) {
  const r = await req('POST', `${AUTHZ}/selfsubjectaccessreviews`, { spec }, headers)
  expect(r.status, r.text).toBe(201)
  return r.json.status
}

describe('SelfSubjectAccessReview verdicts (alice: groups team-a-devs, everyone)', () => {
  const cases: [string, () => unknown, boolean, () => string][] = [
    [
      'get pods in the bound namespace',
      () => resource(teamA, 'get', 'pods'),
      true,
      () => `RBAC: allowed by RoleBinding "devs-read/${teamA}" of Role "pod-reader" to Group "team-a-devs"`,
    ],
    ['get pods in another namespace', () => resource(teamB, 'get', 'pods'), false, () => ''],
    ['list pods across namespaces', () => resource('', 'list', 'pods'), false, () => ''],
    ['delete pods (a verb not granted)', () => resource(teamA, 'delete', 'pods'), false, () => ''],
    [
      'get pods/log (a granted subresource)',
      () => resource(teamA, 'get', 'pods', { subresource: 'log' }),
      true,
      () => `RBAC: allowed by RoleBinding "devs-read/${teamA}" of Role "pod-reader" to Group "team-a-devs"`,
    ],
    [
      'create pods/exec (a subresource not granted)',
      () => resource(teamA, 'create', 'pods', { subresource: 'exec' }),
      false,
      () => '',
    ],
    [
      'get the one configmap the rule names',
      () => resource(teamA, 'get', 'configmaps', { name: 'allowed-cm' }),
      true,
      () => `RBAC: allowed by RoleBinding "devs-read/${teamA}" of Role "pod-reader" to Group "team-a-devs"`,
    ],
    ['get another configmap', () => resource(teamA, 'get', 'configmaps', { name: 'other' }), false, () => ''],
    ['get configmaps without a name', () => resource(teamA, 'get', 'configmaps'), false, () => ''],
    ['pods in another API group', () => resource(teamA, 'get', 'pods', { group: 'apps' }), false, () => ''],
    [
      'a non-resource URL every authenticated user may get (discovery)',
      () => nonResource('get', '/apis/apps'),
      true,
      () =>
        'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    ],
    ['a non-resource URL nobody granted', () => nonResource('get', '/metrics'), false, () => ''],
    [
      'its own reviews (system:basic-user)',
      () => resource('', 'create', 'selfsubjectaccessreviews', { group: 'authorization.k8s.io' }),
      true,
      () =>
        'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    ],
  ]
  for (const [name, spec, allowed, reason] of cases) {
    it(name, async () => {
      const status = await selfReview(spec())
      expect(status).toEqual(reason() ? { allowed, reason: reason() } : { allowed })
    })
  }

  it('system:masters is allowed everything with no reason', async () => {
    expect(await selfReview(resource(teamB, 'delete', 'secrets'), {})).toEqual({ allowed: true })
  })

  it('judges the impersonated user, not the requester', async () => {
    const status = await selfReview(resource(teamA, 'get', 'pods'), {
      'impersonate-user': 'alice',
      'impersonate-group': 'team-a-devs',
    })
    expect(status.allowed).toBe(true)
    expect(await selfReview(resource(teamA, 'get', 'pods'), { 'impersonate-user': 'alice' })).toEqual({
      allowed: false,
    })
  })

  it('anonymous may not ask (system:basic-user is bound to system:authenticated only)', async () => {
    const r = await req(
      'POST',
      `${AUTHZ}/selfsubjectaccessreviews`,
      { spec: nonResource('get', '/') },
      { authorization: '' },
    )
    expect(r.status).toBe(403)
    expect(r.json.message).toBe(
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    )
  })
})

describe('SubjectAccessReview verdicts (asked by the admin about others)', () => {
  const sar = async (spec: Record<string, unknown>) => {
    const r = await req('POST', `${AUTHZ}/subjectaccessreviews`, { spec })
    expect(r.status, r.text).toBe(201)
    return r.json.status
  }
  const cases: [string, () => Record<string, unknown>, () => unknown][] = [
    [
      'a user with the bound group',
      () => ({ ...resource(teamA, 'list', 'pods'), user: 'alice', groups: ['team-a-devs'] }),
      () => ({
        allowed: true,
        reason: `RBAC: allowed by RoleBinding "devs-read/${teamA}" of Role "pod-reader" to Group "team-a-devs"`,
      }),
    ],
    // No system:authenticated is added: the spec is the whole user.
    [
      'the same user without its groups',
      () => ({ ...resource(teamA, 'list', 'pods'), user: 'alice' }),
      () => ({ allowed: false }),
    ],
    [
      'a group alone',
      () => ({ ...resource(teamA, 'get', 'pods'), groups: ['team-a-devs'] }),
      () => ({
        allowed: true,
        reason: `RBAC: allowed by RoleBinding "devs-read/${teamA}" of Role "pod-reader" to Group "team-a-devs"`,
      }),
    ],
    [
      'system:masters',
      () => ({ ...resource(teamB, 'delete', 'nodes'), user: 'x', groups: ['system:masters'] }),
      () => ({ allowed: true }),
    ],
    [
      'a ServiceAccount named by a RoleBinding subject without namespace',
      () => ({ ...resource(teamA, 'get', 'pods'), user: `system:serviceaccount:${teamA}:robot` }),
      () => ({
        allowed: true,
        reason: `RBAC: allowed by RoleBinding "robot-read/${teamA}" of Role "pod-reader" to ServiceAccount "robot/${teamA}"`,
      }),
    ],
    [
      'a binding to a missing role explains the refusal',
      () => ({ ...resource(teamB, 'get', 'pods'), user: 'carol' }),
      () => ({ allowed: false, reason: 'RBAC: role.rbac.authorization.k8s.io "missing" not found' }),
    ],
    [
      'a non-resource URL granted by a ClusterRoleBinding, prefix rules included',
      () => ({ ...nonResource('get', '/logs/kubelet.log'), user: 'bob' }),
      () => ({
        allowed: true,
        reason: `RBAC: allowed by ClusterRoleBinding "metrics-reader-${teamA}" of ClusterRole "metrics-reader-${teamA}" to User "bob"`,
      }),
    ],
    [
      'the non-resource URL with another verb',
      () => ({ ...nonResource('post', '/metrics'), user: 'bob' }),
      () => ({ allowed: false }),
    ],
  ]
  for (const [name, spec, status] of cases) {
    it(name, async () => {
      expect(await sar(spec())).toEqual(status())
    })
  }

  it('reports selector parse errors in evaluationError without changing the verdict', async () => {
    const labels = { rawSelector: 'a in (' }
    const fields = { requirements: [{ key: 'spec.nodeName', operator: 'Exists' }] }
    const status = await sar({
      resourceAttributes: {
        namespace: teamA,
        verb: 'list',
        resource: 'pods',
        fieldSelector: fields,
        labelSelector: labels,
      },
      groups: ['team-a-devs'],
    })
    expect(status.allowed).toBe(true)
    expect(status.evaluationError).toBe(
      'spec.resourceAttributes.fieldSelector ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error',
    )
    const partly = await sar({
      resourceAttributes: {
        namespace: teamA,
        verb: 'list',
        resource: 'pods',
        labelSelector: {
          requirements: [
            { key: 'app', operator: 'In', values: ['web'] },
            { key: 'tier', operator: 'Near', values: ['x'] },
          ],
        },
      },
      user: 'bob',
    })
    expect(partly).toEqual({
      allowed: false,
      evaluationError: 'spec.resourceAttributes.labelSelector partially ignored due to parse error',
    })
  })
})

describe('LocalSubjectAccessReview', () => {
  const lsar = (ns: string, body: unknown) => req('POST', `${AUTHZ}/namespaces/${ns}/localsubjectaccessreviews`, body)

  it('judges in the path namespace and echoes it in metadata', async () => {
    const r = await lsar(teamA, { spec: { ...resource(teamA, 'get', 'pods'), groups: ['team-a-devs'] } })
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.namespace).toBe(teamA)
    expect(r.json.status.allowed).toBe(true)
  })

  it("a spec namespace other than the path's is kube's 422", async () => {
    const r = await lsar(teamA, { spec: { ...resource(teamB, 'get', 'pods'), user: 'alice' } })
    expect(r.status).toBe(422)
    expect(r.text).toBe(
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":".authorization.k8s.io \\"\\" is invalid: spec.resourceAttributes.namespace: Invalid value: \\"${teamB}\\": must match metadata.namespace","reason":"Invalid","details":{"group":"authorization.k8s.io","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \\"${teamB}\\": must match metadata.namespace","field":"spec.resourceAttributes.namespace"}]},"code":422}\n`,
    )
  })

  it('metadata.namespace other than the path is the create handler’s 400; non-resource attributes are refused', async () => {
    const r = await lsar(teamA, {
      metadata: { namespace: teamB },
      spec: { ...resource(teamB, 'get', 'pods'), user: 'a' },
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request')
    const n = await lsar(teamA, { spec: { ...nonResource('get', '/x'), user: 'a' } })
    expect(n.status).toBe(422)
    expect(n.json.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    )
  })
})

describe('bytes on the wire', () => {
  it("a SelfSubjectAccessReview from kubectl auth can-i answers kube's bytes", async () => {
    // What kubectl 1.33 sends for `kubectl auth can-i get pods -n <ns>`.
    const body = `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"${teamA}","verb":"get","resource":"pods"}},"status":{"allowed":false}}\n`
    const r = await req('POST', `${AUTHZ}/selfsubjectaccessreviews`, body, { ...alice, ...KUBECTL })
    expect(r.status).toBe(201)
    expect(r.headers.get('content-type')).toBe('application/json')
    const time = /"time":"([^"]+)"/.exec(r.text)?.[1]
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(r.text).toBe(
      `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null,"managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"authorization.k8s.io/v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:resourceAttributes":{".":{},"f:namespace":{},"f:resource":{},"f:verb":{}}}}}]},"spec":{"resourceAttributes":{"namespace":"${teamA}","verb":"get","resource":"pods"}},"status":{"allowed":true,"reason":"RBAC: allowed by RoleBinding \\"devs-read/${teamA}\\" of Role \\"pod-reader\\" to Group \\"team-a-devs\\""}}\n`,
    )
  })

  it('fields are written in Go order and empty ones left out, whatever the client sent', async () => {
    const r = await req(
      'POST',
      `${AUTHZ}/subjectaccessreviews?fieldManager=audit`,
      {
        status: { allowed: true, reason: 'ignored' },
        spec: {
          uid: 'u1',
          extra: { scopes: ['a'] },
          groups: ['team-a-devs'],
          user: 'alice',
          resourceAttributes: { name: '', resource: 'pods', verb: 'get', namespace: teamB, version: '' },
        },
      },
      KUBECTL,
    )
    expect(r.status, r.text).toBe(201)
    const time = /"time":"([^"]+)"/.exec(r.text)?.[1]
    expect(r.text).toBe(
      `{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null,"managedFields":[{"manager":"audit","operation":"Update","apiVersion":"authorization.k8s.io/v1","time":"${time}","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:extra":{".":{},"f:scopes":{}},"f:groups":{},"f:resourceAttributes":{".":{},"f:namespace":{},"f:resource":{},"f:verb":{}},"f:uid":{},"f:user":{}},"f:status":{"f:allowed":{},"f:reason":{}}}}]},"spec":{"resourceAttributes":{"namespace":"${teamB}","verb":"get","resource":"pods"},"user":"alice","groups":["team-a-devs"],"extra":{"scopes":["a"]},"uid":"u1"},"status":{"allowed":false}}\n`,
    )
  })
})

describe('validation', () => {
  const post = (kind: string, body: unknown) => req('POST', `${AUTHZ}/${kind}`, body)

  it("neither kind of attributes: kube's exact 422", async () => {
    const r = await post('selfsubjectaccessreviews', { spec: {} })
    expect(r.status).toBe(422)
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":".authorization.k8s.io \\"\\" is invalid: spec.resourceAttributes: Invalid value: \\"null\\": exactly one of nonResourceAttributes or resourceAttributes must be specified","reason":"Invalid","details":{"group":"authorization.k8s.io","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \\"null\\": exactly one of nonResourceAttributes or resourceAttributes must be specified","field":"spec.resourceAttributes"}]},"code":422}\n',
    )
  })

  it('both kinds of attributes, no subject, and selectors: every error, in kube’s order', async () => {
    const r = await post('subjectaccessreviews', {
      spec: {
        resourceAttributes: {
          verb: 'list',
          resource: 'pods',
          fieldSelector: {},
          labelSelector: {
            rawSelector: 'a=b',
            requirements: [{ key: 'bad key', operator: 'Exists', values: ['v'] }],
          },
        },
        nonResourceAttributes: { path: '/x', verb: 'get' },
      },
    })
    expect(r.status).toBe(422)
    expect(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toEqual([
      'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      'spec.user: Invalid value: "": at least one of user or group must be specified',
      'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      'spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements',
      "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      `spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ])
    expect(r.json.message.startsWith('.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: ')).toBe(true)
  })

  it('metadata must be empty: the value is the ObjectMeta as Go prints it, field manager entry included', async () => {
    const r = await post('selfsubjectaccessreviews', {
      metadata: { name: 'x', labels: { b: '2', a: '1' } },
      spec: nonResource('get', '/'),
    })
    expect(r.status).toBe(422)
    expect(r.json.details.causes).toHaveLength(1)
    expect(r.json.message).toMatch(
      /^\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: v1\.ObjectMeta\{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time\.Date\(1, time\.January, 1, 0, 0, 0, 0, time\.UTC\), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:\(\*int64\)\(nil\), Labels:map\[string\]string\{"a":"1", "b":"2"\}, Annotations:map\[string\]string\(nil\), OwnerReferences:\[\]v1\.OwnerReference\(nil\), Finalizers:\[\]string\(nil\), ManagedFields:\[\]v1\.ManagedFieldsEntry\{v1\.ManagedFieldsEntry\{Manager:"unknown", Operation:"Update", APIVersion:"authorization\.k8s\.io\/v1", Time:time\.Date\(\d+, time\.\w+, \d+, \d+, \d+, \d+, \d+, time\.UTC\), FieldsType:"FieldsV1", FieldsV1:\(\*v1\.FieldsV1\)\(0x[0-9a-f]+\), Subresource:""\}\}\}: must be empty$/,
    )
    // A namespace on a cluster-scoped review is cleared by the create handler, not refused.
    const ns = await post('selfsubjectaccessreviews', { metadata: { namespace: 'x' }, spec: nonResource('get', '/') })
    expect(ns.status).toBe(201)
    expect(ns.json.metadata.namespace).toBeUndefined()
  })

  it('bodies are decoded as every create body: type errors, unknown fields (Strict and Warn), YAML', async () => {
    const typed = await post('selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 1 } } })
    expect(typed.status).toBe(400)
    expect(typed.json.message).toBe(
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string',
    )
    const strict = await req('POST', `${AUTHZ}/selfsubjectaccessreviews?fieldValidation=Strict`, {
      spec: { nonResourceAttributes: { path: '/', verb: 'get', bogus: 1 } },
    })
    expect(strict.status).toBe(400)
    expect(strict.json.message).toBe(
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: strict decoding error: unknown field "spec.nonResourceAttributes.bogus"',
    )
    const warn = await post('selfsubjectaccessreviews', {
      spec: { nonResourceAttributes: { path: '/', verb: 'get', bogus: 1 } },
    })
    expect(warn.status).toBe(201)
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"spec.nonResourceAttributes.bogus\\""')
    const yaml = await req(
      'POST',
      `${AUTHZ}/selfsubjectaccessreviews`,
      'apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectAccessReview\nspec:\n  nonResourceAttributes:\n    path: /version\n    verb: get\n',
      { 'content-type': 'application/yaml' },
    )
    expect(yaml.status, yaml.text).toBe(201)
    expect(yaml.json.status).toEqual({ allowed: true })
    const wrong = await post('selfsubjectaccessreviews', { apiVersion: 'v1', kind: 'Pod' })
    expect(wrong.status).toBe(400)
    expect(wrong.json.message).toBe(
      'Pod in version "v1" cannot be handled as a SelfSubjectAccessReview: converting (v1.Pod) to (authorization.SelfSubjectAccessReview): unknown conversion',
    )
  })

  it('every verb but create is refused as kube refuses it', async () => {
    const r = await req('GET', `${AUTHZ}/selfsubjectaccessreviews`)
    expect(r.status).toBe(405)
    expect(r.json.reason).toBe('MethodNotAllowed')
    expect((await req('DELETE', `${AUTHZ}/subjectaccessreviews`)).status).toBe(405)
  })
})
