// What kubectl 1.33 sends as application/vnd.kubernetes.protobuf for `auth can-i`, `auth can-i --list`,
// `auth whoami` and `create role/clusterrole/rolebinding/clusterrolebinding` (bytes recorded from kubectl.1.33 through a
// logging proxy): each decodes to the JSON kubectl 1.27 sent for the same command, and the API answers it.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'
import { BASE, req, withToken } from '../../helpers'
import { bearer, TEST_TOKENS } from '../../support/test-tokens'

const hex = (h: string) => Uint8Array.from(h.match(/../g)!, (b) => Number.parseInt(b, 16))

/** Replaces an ASCII string by another of the same length (so every length prefix stays right). */
function swap(bytes: Uint8Array, from: string, to: string): Uint8Array {
  expect(to.length).toBe(from.length)
  const text = Array.from(bytes, (b) => String.fromCharCode(b)).join('')
  expect(text.includes(from)).toBe(true)
  return Uint8Array.from(text.split(from).join(to), (c) => c.charCodeAt(0))
}

// kubectl.1.33 -n team-a auth can-i list pods
const CAN_I = hex(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123c0a100a0012001a0022002a00320038004200121e0a1c0a067465616d2d6112046c6973741a0022002a04706f647332003a001a08080012001a0020001a002200',
)
// kubectl.1.33 -n team-a auth can-i get pods/foo --subresource=log
const CAN_I_SUB = hex(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a65637441636365737352657669657712410a100a0012001a0022002a0032003800420012230a210a067465616d2d6112036765741a0022002a04706f647332036c6f673a03666f6f1a08080012001a0020001a002200',
)
// kubectl.1.33 auth can-i get /healthz
const CAN_I_URL = hex(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577122f0a100a0012001a0022002a003200380042001211120f0a082f6865616c74687a12036765741a08080012001a0020001a002200',
)
// kubectl.1.33 auth can-i --list -n team-a
const CAN_I_LIST = hex(
  '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712220a100a0012001a0022002a0032003800420012080a067465616d2d611a04180022001a002200',
)
// kubectl.1.33 auth whoami
const WHOAMI = hex(
  '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200',
)
// kubectl.1.33 -n cap create role r-1.33 --verb=get,list --resource=pods --resource-name=a --resource-name=b
const ROLE = hex(
  '6b3873000a240a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311204526f6c6512360a190a06722d312e333312001a0363617022002a0032003800420012190a036765740a046c69737412001a04706f64732201612201621a002200',
)
// kubectl.1.33 create clusterrole cra-1.33 --aggregation-rule=a=b,c=d
const AGGREGATED = hex(
  '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c65122e0a180a086372612d312e333312001a0022002a003200380042001a120a100a060a01611201620a060a01631201641a002200',
)
// kubectl.1.33 create clusterrole cr-1.33 --verb=get --resource=pods,services --non-resource-url=/x
const CLUSTER_ROLE = hex(
  '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c65123d0a170a0763722d312e333312001a0022002a0032003800420012170a0367657412001a04706f64731a08736572766963657312090a036765742a022f781a002200',
)
// kubectl.1.33 -n cap create rolebinding rb-1.33 --role=r-1.33 --user=u --group=g --serviceaccount=cap:sa
const BINDING = hex(
  '6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b526f6c6542696e64696e6712b5010a1a0a0772622d312e333312001a0363617022002a0032003800420012260a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a0175220012270a0547726f75701219726261632e617574686f72697a6174696f6e2e6b38732e696f1a01672200121b0a0e536572766963654163636f756e7412001a02736122036361701a290a19726261632e617574686f72697a6174696f6e2e6b38732e696f1204526f6c651a06722d312e33331a002200',
)
// kubectl.1.33 create clusterrolebinding crb-1.33 --clusterrole=cr-1.33 --user=u --group=g --serviceaccount=cap:sa
const CLUSTER_BINDING = hex(
  '6b3873000a320a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311212436c7573746572526f6c6542696e64696e6712bb010a180a086372622d312e333312001a0022002a0032003800420012260a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a0175220012270a0547726f75701219726261632e617574686f72697a6174696f6e2e6b38732e696f1a01672200121b0a0e536572766963654163636f756e7412001a02736122036361701a310a19726261632e617574686f72697a6174696f6e2e6b38732e696f120b436c7573746572526f6c651a0763722d312e33331a002200',
)

const PROTOBUF = 'application/vnd.kubernetes.protobuf'
const dropNulls = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(dropNulls)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== null)
            .map(([k, x]) => [k, dropNulls(x)]),
        )
      : v
/** kubectl 1.27's JSON body for the same command, nulls dropped as Go's protobuf has no null. */
const json127 = (text: string) => dropNulls(JSON.parse(text.replaceAll('1.27', '1.33')))
const meta0 = { creationTimestamp: null }
const RBAC_V1 = 'rbac.authorization.k8s.io/v1'
const users = { apiGroup: 'rbac.authorization.k8s.io' }
const subjects = [
  { kind: 'User', ...users, name: 'u' },
  { kind: 'Group', ...users, name: 'g' },
  { kind: 'ServiceAccount', name: 'sa', namespace: 'cap' },
]

describe('kubectl 1.33 protobuf bodies decode to the JSON kubectl 1.27 sends', () => {
  const cases: [string, Uint8Array, unknown][] = [
    [
      'can-i',
      CAN_I,
      {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: meta0,
        spec: { resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'pods' } },
        status: { allowed: false },
      },
    ],
    [
      'can-i with a subresource and a name',
      CAN_I_SUB,
      {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: meta0,
        spec: {
          resourceAttributes: { namespace: 'team-a', verb: 'get', resource: 'pods', subresource: 'log', name: 'foo' },
        },
        status: { allowed: false },
      },
    ],
    [
      'can-i on a URL',
      CAN_I_URL,
      {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: meta0,
        spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
        status: { allowed: false },
      },
    ],
    [
      'can-i --list',
      CAN_I_LIST,
      {
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: meta0,
        spec: { namespace: 'team-a' },
        status: { resourceRules: null, nonResourceRules: null, incomplete: false },
      },
    ],
    [
      'whoami (1.27 sent it to v1beta1; same object)',
      WHOAMI,
      { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: meta0, status: { userInfo: {} } },
    ],
    [
      'create role',
      ROLE,
      {
        kind: 'Role',
        apiVersion: RBAC_V1,
        metadata: { name: 'r-1.33', namespace: 'cap', ...meta0 },
        rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] }],
      },
    ],
    [
      'create clusterrole --aggregation-rule',
      AGGREGATED,
      {
        kind: 'ClusterRole',
        apiVersion: RBAC_V1,
        metadata: { name: 'cra-1.33', ...meta0 },
        rules: null,
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b', c: 'd' } }] },
      },
    ],
    [
      'create clusterrole with a non-resource URL',
      CLUSTER_ROLE,
      {
        kind: 'ClusterRole',
        apiVersion: RBAC_V1,
        metadata: { name: 'cr-1.33', ...meta0 },
        rules: [
          { verbs: ['get'], apiGroups: [''], resources: ['pods', 'services'] },
          { verbs: ['get'], nonResourceURLs: ['/x'] },
        ],
      },
    ],
    [
      'create rolebinding',
      BINDING,
      {
        kind: 'RoleBinding',
        apiVersion: RBAC_V1,
        metadata: { name: 'rb-1.33', namespace: 'cap', ...meta0 },
        subjects,
        roleRef: { ...users, kind: 'Role', name: 'r-1.33' },
      },
    ],
    [
      'create clusterrolebinding',
      CLUSTER_BINDING,
      {
        kind: 'ClusterRoleBinding',
        apiVersion: RBAC_V1,
        metadata: { name: 'crb-1.33', ...meta0 },
        subjects,
        roleRef: { ...users, kind: 'ClusterRole', name: 'cr-1.33' },
      },
    ],
  ]
  for (const [name, bytes, sent127] of cases) {
    it(name, () => {
      expect(decodeKubeProtobuf(bytes).object).toEqual(json127(JSON.stringify(sent127)))
    })
  }
})

async function post(path: string, body: Uint8Array, token: string = TEST_TOKENS.admin) {
  const headers = withToken({ ...bearer(token), 'content-type': PROTOBUF, accept: `${PROTOBUF},application/json` })
  const res = await exports.default.fetch(new Request(BASE + path, { method: 'POST', headers, body }))
  const text = await res.text()
  return { status: res.status, text, json: JSON.parse(text) }
}

describe('the API answers those bodies', () => {
  const AUTHZ = '/apis/authorization.k8s.io/v1'
  const RBAC = '/apis/rbac.authorization.k8s.io/v1'

  it('auth can-i: allowed for the admin, and for alice on /healthz', async () => {
    const r = await post(`${AUTHZ}/selfsubjectaccessreviews`, CAN_I)
    expect(r.status, r.text).toBe(201)
    expect(r.json.status.allowed).toBe(true)
    const u = await post(`${AUTHZ}/selfsubjectaccessreviews`, CAN_I_URL, TEST_TOKENS.alice)
    expect(u.status, u.text).toBe(201)
    expect(u.json.status.allowed).toBe(true)
    const s = await post(`${AUTHZ}/selfsubjectaccessreviews`, CAN_I_SUB, TEST_TOKENS.bob)
    expect(s.status, s.text).toBe(201)
    expect(s.json.status.allowed).toBe(false)
    expect(s.json.spec.resourceAttributes).toEqual({
      namespace: 'team-a',
      verb: 'get',
      resource: 'pods',
      subresource: 'log',
      name: 'foo',
    })
  })

  it('auth can-i --list and auth whoami as alice', async () => {
    const list = await post(`${AUTHZ}/selfsubjectrulesreviews`, CAN_I_LIST, TEST_TOKENS.alice)
    expect(list.status, list.text).toBe(201)
    expect(list.json.status.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    })
    const who = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', WHOAMI, TEST_TOKENS.alice)
    expect(who.status, who.text).toBe(201)
    expect(who.json.status.userInfo).toEqual({
      username: 'alice',
      uid: 'uid-alice',
      groups: ['team-a-devs', 'everyone', 'system:authenticated'],
    })
  })

  it('create role, clusterroles, rolebinding, clusterrolebinding', async () => {
    const tag = Math.random().toString(36).slice(2, 6).padEnd(4, 'x')
    const ns = `c${tag.slice(0, 2)}`
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201)
    const writes: [string, Uint8Array][] = [
      [`${RBAC}/namespaces/${ns}/roles`, swap(swap(ROLE, 'cap', ns), 'r-1.33', `r-${tag}`)],
      [`${RBAC}/clusterroles`, swap(CLUSTER_ROLE, 'cr-1.33', `cr-${tag}`)],
      [`${RBAC}/clusterroles`, swap(AGGREGATED, 'cra-1.33', `cra-${tag}`)],
      [
        `${RBAC}/namespaces/${ns}/rolebindings`,
        swap(swap(swap(BINDING, 'cap', ns), 'rb-1.33', `rb-${tag}`), 'r-1.33', `r-${tag}`),
      ],
      [`${RBAC}/clusterrolebindings`, swap(swap(CLUSTER_BINDING, 'crb-1.33', `crb-${tag}`), 'cr-1.33', `cr-${tag}`)],
    ]
    for (const [path, body] of writes) {
      const r = await post(path, body)
      expect(r.status, r.text).toBe(201)
    }
    const role = await req('GET', `${RBAC}/namespaces/${ns}/roles/r-${tag}`)
    expect(role.json.rules).toEqual([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] },
    ])
    const binding = await req('GET', `${RBAC}/namespaces/${ns}/rolebindings/rb-${tag}`)
    expect(binding.json.subjects).toEqual(subjects.map((s) => (s.namespace ? { ...s, namespace: ns } : s)))
    expect(binding.json.roleRef).toEqual({ ...users, kind: 'Role', name: `r-${tag}` })
    const crb = await req('GET', `${RBAC}/clusterrolebindings/crb-${tag}`)
    expect(crb.json.roleRef).toEqual({ ...users, kind: 'ClusterRole', name: `cr-${tag}` })
    const cr = await req('GET', `${RBAC}/clusterroles/cra-${tag}`)
    expect(cr.json.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { a: 'b', c: 'd' } }] })
  })
})
