// The four RBAC kinds through the generic store: kube's defaulting, validation messages, roleRef immutability,
// `rules: null`, field selectors and table cells; and their rows for the kind table.
import { describe, expect, it } from 'vitest'
import { planCreate, planUpdate, type Stored } from '../../../src/registry/store'
import { rbacResourceRows } from '../../../src/registry/rbac/rbac-kinds'
import type { ResourceDef } from '../../../src/registry/resource'
import type { KubeObject } from '../../../src/schema/meta'
import type { Result, Status } from '../../../src/registry/status'
import { buildDocument } from '../../../src/api/openapi/document'

const rows = Object.fromEntries(rbacResourceRows().map((r) => [r.kind, r])) as Record<string, ResourceDef>
const ctx = (namespace: string) => ({ now: new Date('2026-01-01T00:00:00Z'), namespace })
const GROUP = 'rbac.authorization.k8s.io'

const obj = (kind: string, name: string, rest: Record<string, unknown>, namespace?: string) =>
  ({
    kind,
    apiVersion: `${GROUP}/v1`,
    metadata: { name, ...(namespace ? { namespace } : {}) },
    ...rest,
  }) as unknown as KubeObject

function create(kind: string, body: KubeObject): Result<KubeObject> {
  const def = rows[kind]!
  const r = planCreate(def, ctx(def.namespaced ? 'team' : ''), body, () => false)
  return r.ok ? { ok: true, value: r.value.object } : r
}

function created(kind: string, body: KubeObject): KubeObject {
  const r = create(kind, body)
  if (!r.ok) throw new Error(r.status.message)
  return r.value
}

function refused(r: Result<unknown>): Status {
  if (r.ok) throw new Error('expected a refusal')
  return r.status
}

function update(kind: string, current: KubeObject, body: KubeObject) {
  const def = rows[kind]!
  const stored: Stored = { rv: 5, object: { ...current, metadata: { ...current.metadata, resourceVersion: '5' } } }
  return planUpdate(def, ctx(def.namespaced ? 'team' : ''), body.metadata.name!, body, stored)
}

describe('rows for the kind table', () => {
  it('serve rbac.authorization.k8s.io/v1 as a 1.33 cluster discovers it', () => {
    expect(
      rbacResourceRows().map((r) => [
        r.plural,
        r.singular,
        r.kind,
        r.listKind,
        r.namespaced,
        r.home,
        r.storageVersionHash,
      ]),
    ).toEqual([
      [
        'clusterrolebindings',
        'clusterrolebinding',
        'ClusterRoleBinding',
        'ClusterRoleBindingList',
        false,
        'cluster',
        '48tpQ8gZHFc=',
      ],
      ['clusterroles', 'clusterrole', 'ClusterRole', 'ClusterRoleList', false, 'cluster', 'bYE5ZWDrJ44='],
      ['rolebindings', 'rolebinding', 'RoleBinding', 'RoleBindingList', true, 'namespace', 'eGsCzGH6b1g='],
      ['roles', 'role', 'Role', 'RoleList', true, 'namespace', '7FuwZcIIItM='],
    ])
    for (const r of rbacResourceRows()) {
      expect(r.group).toBe(GROUP)
      expect(r.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'])
      expect(r.shortNames).toEqual([])
      expect(r.returnDeletedObject).toBe(false)
    }
  })
})

describe('the schemas as OpenAPI components', () => {
  const schemas = (buildDocument(rbacResourceRows()) as any).components.schemas as Record<string, any>
  const rbac = (name: string) => schemas[`io.k8s.api.rbac.v1.${name}`]

  it('are named as kube names them, with its required fields and list and map types', () => {
    for (const n of [
      'Role',
      'ClusterRole',
      'RoleBinding',
      'ClusterRoleBinding',
      'PolicyRule',
      'AggregationRule',
      'Subject',
      'RoleRef',
      'RoleList',
    ])
      expect(rbac(n), n).toBeDefined()
    expect(Object.keys(rbac('PolicyRule').properties)).toEqual([
      'verbs',
      'apiGroups',
      'resources',
      'resourceNames',
      'nonResourceURLs',
    ])
    expect(rbac('PolicyRule').required).toEqual(['verbs'])
    expect(rbac('RoleBinding').required).toEqual(['roleRef'])
    expect(rbac('Subject').required).toEqual(['kind', 'name'])
    expect(rbac('RoleRef').required).toEqual(['apiGroup', 'kind', 'name'])
    expect(rbac('RoleRef')['x-kubernetes-map-type']).toBe('atomic')
    expect(rbac('ClusterRole').properties.rules['x-kubernetes-list-type']).toBe('atomic')
    expect(rbac('AggregationRule').properties.clusterRoleSelectors.items.$ref).toBe(
      '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
    )
  })
})

describe('Role and ClusterRole validation', () => {
  type Case = [what: string, kind: string, body: KubeObject, message: string]
  const CASES: Case[] = [
    [
      'names are path segments',
      'Role',
      obj('Role', 'a/b%', { rules: [] }, 'team'),
      `Role.${GROUP} "a/b%" is invalid: [metadata.name: Invalid value: "a/b%": may not contain '/', metadata.name: Invalid value: "a/b%": may not contain '%']`,
    ],
    [
      '. and ..',
      'ClusterRole',
      obj('ClusterRole', '..', {}),
      `ClusterRole.${GROUP} ".." is invalid: metadata.name: Invalid value: "..": may not be '..'`,
    ],
    [
      'verbs, groups and resources are required',
      'Role',
      obj('Role', 'r', { rules: [{ verbs: [] }] }, 'team'),
      `Role.${GROUP} "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]`,
    ],
    [
      'a Role has no non-resource URLs',
      'Role',
      obj('Role', 'r', { rules: [{ verbs: ['get'], nonResourceURLs: ['/x', '/y'] }] }, 'team'),
      `Role.${GROUP} "r" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/x", "/y"}: namespaced rules cannot apply to non-resource URLs`,
    ],
    [
      'URLs never mix with resources (and stop the other checks)',
      'ClusterRole',
      obj('ClusterRole', 'c', { rules: [{ verbs: ['get'], resourceNames: ['n'], nonResourceURLs: ['/x'] }] }),
      `ClusterRole.${GROUP} "c" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs`,
    ],
    [
      'an aggregationRule needs a selector',
      'ClusterRole',
      obj('ClusterRole', 'c', { aggregationRule: {} }),
      `ClusterRole.${GROUP} "c" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`,
    ],
    [
      'selectors are label selectors',
      'ClusterRole',
      obj('ClusterRole', 'c', {
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] },
      }),
      `ClusterRole.${GROUP} "c" is invalid: [aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator, aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.]`,
    ],
  ]

  it.each(CASES)('%s', (_, kind, body, message) => {
    const s = refused(create(kind, body))
    expect(s.code).toBe(422)
    expect(s.message).toBe(message)
  })

  it('accepts system names and writes a role without rules as rules: null', () => {
    const r = created('ClusterRole', obj('ClusterRole', 'system:foo', {}))
    expect(r).toMatchObject({ metadata: { name: 'system:foo' }, rules: null })
    expect(JSON.stringify(r)).toContain('"rules":null')
    const agg = created(
      'ClusterRole',
      obj('ClusterRole', 'agg', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }),
    )
    expect(agg.rules).toBeNull()
    const role = created(
      'Role',
      obj('Role', 'r', { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, 'team'),
    )
    expect(role.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])
  })

  it('validates updates like creates (each error once in the message, twice in the causes, as kube)', () => {
    const current = created('Role', obj('Role', 'r', { rules: [] }, 'team'))
    const s = refused(
      update('Role', current, obj('Role', 'r', { rules: [{ verbs: ['get'], apiGroups: [''] }] }, 'team')),
    )
    expect(s.message).toBe(
      `Role.${GROUP} "r" is invalid: rules[0].resources: Required value: resource rules must supply at least one resource`,
    )
    expect(s.details?.causes).toHaveLength(2)
    // Without rules both times (null, stored and sent): a no-op. An explicit [] is another value, as in kube's bytes.
    const none = created('Role', obj('Role', 'n', {}, 'team'))
    const same = update('Role', none, obj('Role', 'n', {}, 'team'))
    expect(same.ok && same.value.change).toBeNull()
    const emptied = update('Role', none, obj('Role', 'n', { rules: [] }, 'team'))
    expect(emptied.ok && emptied.value.change?.object.rules).toEqual([])
  })

  it('shows NAME and CREATED AT, and selects by name (and namespace)', () => {
    const role = created('Role', obj('Role', 'r', {}, 'team'))
    const def = rows.Role!
    expect(def.strategy.table.columns.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ])
    expect(def.strategy.table.cells(role, new Date())).toEqual(['r', '2026-01-01T00:00:00Z'])
    expect(def.strategy.selectableFields(role)).toEqual({ 'metadata.name': 'r', 'metadata.namespace': 'team' })
    expect(rows.ClusterRole!.strategy.fieldSelectorNames).toEqual(['metadata.name'])
  })
})

describe('RoleBinding and ClusterRoleBinding', () => {
  it('default the RBAC group on roleRef and on User and Group subjects', () => {
    const b = created(
      'RoleBinding',
      obj(
        'RoleBinding',
        'b',
        {
          subjects: [
            { kind: 'User', name: 'alice' },
            { kind: 'Group', name: 'dev' },
            { kind: 'ServiceAccount', name: 'robot' },
          ],
          roleRef: { kind: 'ClusterRole', name: 'edit' },
        },
        'team',
      ),
    )
    expect(b).toMatchObject({
      subjects: [
        { kind: 'User', name: 'alice', apiGroup: GROUP },
        { kind: 'Group', name: 'dev', apiGroup: GROUP },
        { kind: 'ServiceAccount', name: 'robot' },
      ],
      roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'edit' },
    })
    expect((b.subjects as Record<string, unknown>[])[2]).not.toHaveProperty('apiGroup')
  })

  type Case = [what: string, kind: string, rest: Record<string, unknown>, errors: string[]]
  const ref = { apiGroup: GROUP, kind: 'ClusterRole', name: 'edit' }
  const CASES: Case[] = [
    [
      'roleRef group',
      'RoleBinding',
      { roleRef: { ...ref, apiGroup: 'x' } },
      ['roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"'],
    ],
    [
      'roleRef kind',
      'RoleBinding',
      { roleRef: { ...ref, kind: 'Foo' } },
      ['roleRef.kind: Unsupported value: "Foo": supported values: "Role", "ClusterRole"'],
    ],
    [
      'only ClusterRoles cluster-wide',
      'ClusterRoleBinding',
      { roleRef: { ...ref, kind: 'Role' } },
      ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ],
    [
      'a missing roleRef is defaulted, then lacks kind and name',
      'ClusterRoleBinding',
      {},
      ['roleRef.kind: Unsupported value: "": supported values: "ClusterRole"', 'roleRef.name: Required value'],
    ],
    ['roleRef name required', 'RoleBinding', { roleRef: { ...ref, name: '' } }, ['roleRef.name: Required value']],
    [
      'roleRef name a path segment',
      'ClusterRoleBinding',
      { roleRef: { ...ref, name: 'a/b' } },
      ['roleRef.name: Invalid value: "a/b": may not contain \'/\''],
    ],
    [
      'subject name required',
      'RoleBinding',
      { roleRef: ref, subjects: [{ kind: 'User', name: '' }] },
      ['subjects[0].name: Required value'],
    ],
    [
      'subject kind',
      'RoleBinding',
      { roleRef: ref, subjects: [{ kind: 'Robot', name: 'r' }] },
      ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    ],
    [
      'User group',
      'RoleBinding',
      { roleRef: ref, subjects: [{ kind: 'User', apiGroup: 'foo', name: 'a' }] },
      ['subjects[0].apiGroup: Unsupported value: "foo": supported values: "rbac.authorization.k8s.io"'],
    ],
    [
      'ServiceAccount group',
      'RoleBinding',
      { roleRef: ref, subjects: [{ kind: 'ServiceAccount', apiGroup: GROUP, name: 'a' }] },
      ['subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""'],
    ],
    [
      'ServiceAccount name a DNS subdomain',
      'RoleBinding',
      { roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'Robot_1' }] },
      [
        "subjects[0].name: Invalid value: \"Robot_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'ServiceAccount namespace, cluster-wide',
      'ClusterRoleBinding',
      { roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'a' }] },
      ['subjects[0].namespace: Required value'],
    ],
  ]

  it.each(CASES)('%s', (_, kind, rest, errors) => {
    const s = refused(create(kind, obj(kind, 'b', rest, kind === 'RoleBinding' ? 'team' : undefined)))
    expect(s.code).toBe(422)
    expect((s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual(errors)
    expect(s.message).toBe(
      `${kind}.${GROUP} "b" is invalid: ${errors.length > 1 ? `[${errors.join(', ')}]` : errors[0]}`,
    )
  })

  it('a ServiceAccount in a RoleBinding may leave its namespace out', () => {
    expect(
      create(
        'RoleBinding',
        obj('RoleBinding', 'b', { roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'a' }] }, 'team'),
      ).ok,
    ).toBe(true)
  })

  it('cannot change roleRef', () => {
    const current = created('ClusterRoleBinding', obj('ClusterRoleBinding', 'b', { roleRef: ref }))
    const s = refused(
      update(
        'ClusterRoleBinding',
        current,
        obj('ClusterRoleBinding', 'b', { roleRef: { kind: 'ClusterRole', name: 'view' } }),
      ),
    )
    expect(s.message).toBe(
      `ClusterRoleBinding.${GROUP} "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef`,
    )
    const ok = update(
      'ClusterRoleBinding',
      current,
      obj('ClusterRoleBinding', 'b', {
        roleRef: { kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'Group', name: 'g' }],
      }),
    )
    expect(ok.ok).toBe(true)
  })

  it('shows NAME, ROLE, AGE and (wide) USERS, GROUPS, SERVICEACCOUNTS', () => {
    const b = created(
      'RoleBinding',
      obj(
        'RoleBinding',
        'b',
        {
          roleRef: ref,
          subjects: [
            { kind: 'User', name: 'u1' },
            { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
            { kind: 'User', name: 'u2' },
            { kind: 'Group', name: 'g' },
            { kind: 'ServiceAccount', name: 'local' },
          ],
        },
        'team',
      ),
    )
    const table = rows.RoleBinding!.strategy.table
    expect(table.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Role', 0],
      ['Age', 0],
      ['Users', 1],
      ['Groups', 1],
      ['ServiceAccounts', 1],
    ])
    expect(table.cells(b, new Date('2026-01-01T00:05:00Z'))).toEqual([
      'b',
      'ClusterRole/edit',
      '5m',
      'u1, u2',
      'g',
      'ns/sa, /local',
    ])
    expect(rows.ClusterRoleBinding!.strategy.table.columns[3]!.description).toBe('Users in the clusterRoleBinding')
  })
})
