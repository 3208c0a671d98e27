// The RBAC kinds through the API: the bootstrap policy in place (aggregated admin/edit/view), aggregation following
// ClusterRoles labelled for it, and escalation prevention on every write path (POST, PUT, PATCH, server-side apply).
import { beforeAll, describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'
import { TEST_TOKENS, bearer } from '../support/test-tokens'

const RBAC = '/apis/rbac.authorization.k8s.io/v1'
const alice = bearer(TEST_TOKENS.alice)
const carol = bearer(TEST_TOKENS.carol)

const role = (name: string, rules: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name },
  rules,
})
const roleBinding = (name: string, roleKind: string, roleName: string, subject = { kind: 'User', name: 'carol' }) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name },
  subjects: [{ ...subject, apiGroup: 'rbac.authorization.k8s.io' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
})

describe('the bootstrap policy', () => {
  it('is in place: cluster-admin bound to system:masters, and the roles kube creates', async () => {
    const crb = await req('GET', `${RBAC}/clusterrolebindings/cluster-admin`)
    expect(crb.status).toBe(200)
    expect(crb.json.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ])
    expect(crb.json.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' })
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
    ]) {
      expect((await req('GET', `${RBAC}/clusterroles/${name}`)).status, name).toBe(200)
    }
  })

  it('view, edit and admin hold the rules aggregated into them', async () => {
    const view = await waitFor(async () => {
      const r = await req('GET', `${RBAC}/clusterroles/view`)
      return (r.json.rules ?? []).length > 0 ? r.json : null
    })
    expect(view.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }],
    })
    expect(view.rules).toContainEqual(
      expect.objectContaining({ resources: expect.arrayContaining(['pods']), verbs: ['get', 'list', 'watch'] }),
    )
    expect(view.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain(
      'clusterrole-aggregation-controller',
    )
    const admin = await waitFor(async () => {
      const r = await req('GET', `${RBAC}/clusterroles/admin`)
      return (r.json.rules ?? []).some((x: { resources?: string[] }) => x.resources?.includes('rolebindings'))
        ? r.json
        : null
    })
    // admin aggregates edit's rules, which aggregate view's: the chain settles.
    expect(admin.rules.some((x: { resources?: string[] }) => x.resources?.includes('pods'))).toBe(true)
  })

  it('a ClusterRole labelled aggregate-to-view adds its rules to view, and leaves again when deleted', async () => {
    const name = `crd-viewer-${Date.now().toString(36)}`
    const extra = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['example.com'], resources: [name], verbs: ['get'] }],
    }
    expect((await req('POST', `${RBAC}/clusterroles`, extra)).status).toBe(201)
    const has = async () =>
      ((await req('GET', `${RBAC}/clusterroles/view`)).json.rules ?? []).some((r: { resources?: string[] }) =>
        r.resources?.includes(name),
      )
    expect(await waitFor(async () => ((await has()) ? true : null))).toBe(true)
    // edit and admin aggregate view's aggregated rules too.
    await waitFor(async () => {
      const admin = await req('GET', `${RBAC}/clusterroles/admin`)
      return admin.json.rules.some((r: { resources?: string[] }) => r.resources?.includes(name)) ? true : null
    })
    expect((await req('DELETE', `${RBAC}/clusterroles/${name}`)).status).toBe(200)
    expect(await waitFor(async () => ((await has()) ? null : true))).toBe(true)
  })
})

describe('escalation prevention', () => {
  let ns = ''
  beforeAll(async () => {
    ns = await makeNamespace('esc')
    // carol may manage Roles and RoleBindings in ns, and read pods there, nothing more (`*` would include the
    // escalate and bind verbs, which lift the checks).
    const manager = role('rbac-manager', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['roles', 'rolebindings'],
        verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ])
    expect((await req('POST', `${RBAC}/namespaces/${ns}/roles`, manager)).status).toBe(201)
    expect(
      (await req('POST', `${RBAC}/namespaces/${ns}/rolebindings`, roleBinding('carol-manages', 'Role', 'rbac-manager')))
        .status,
    ).toBe(201)
  })

  it('a Role granting only what the writer holds is created; one granting more is refused with kube text', async () => {
    const fine = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/roles`,
      role('reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      carol,
    )
    expect(fine.status, fine.text).toBe(201)
    const more = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/roles`,
      role('secrets', [{ apiGroups: [''], resources: ['secrets', 'pods'], verbs: ['get', 'delete'] }]),
      carol,
    )
    expect(more.status).toBe(403)
    expect(more.json.reason).toBe('Forbidden')
    expect(more.json.details).toEqual({ name: 'secrets', group: 'rbac.authorization.k8s.io', kind: 'roles' })
    expect(more.json.message).toBe(
      `roles.rbac.authorization.k8s.io "secrets" is forbidden: user "carol" (groups=["everyone" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
        `{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n` +
        `{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}`,
    )
    expect((await req('GET', `${RBAC}/namespaces/${ns}/roles/secrets`)).status).toBe(404)
  })

  it('updates, patches and server-side apply are checked against the stored object too', async () => {
    const current = (await req('GET', `${RBAC}/namespaces/${ns}/roles/reader`)).json
    const put = await req(
      'PUT',
      `${RBAC}/namespaces/${ns}/roles/reader`,
      { ...current, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
      carol,
    )
    expect(put.status).toBe(403)
    const patch = await req(
      'PATCH',
      `${RBAC}/namespaces/${ns}/roles/reader`,
      JSON.stringify({ rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] }),
      { ...carol, 'content-type': 'application/merge-patch+json' },
    )
    expect(patch.status).toBe(403)
    const apply = await req(
      'PATCH',
      `${RBAC}/namespaces/${ns}/roles/applied?fieldManager=carol`,
      JSON.stringify(role('applied', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }])),
      { ...carol, 'content-type': 'application/apply-patch+yaml' },
    )
    expect(apply.status).toBe(403)
    // A label change touches no rules: allowed.
    const label = await req(
      'PATCH',
      `${RBAC}/namespaces/${ns}/roles/reader`,
      JSON.stringify({ metadata: { labels: { team: 'x' } } }),
      { ...carol, 'content-type': 'application/merge-patch+json' },
    )
    expect(label.status, label.text).toBe(200)
  })

  it('binding a role the writer does not hold is refused unless it may `bind` it; a missing role is 404', async () => {
    const edit = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/rolebindings`,
      roleBinding('carol-edit', 'ClusterRole', 'edit', { kind: 'User', name: 'dave' }),
      carol,
    )
    expect(edit.status).toBe(403)
    expect(edit.json.message).toContain(
      'rolebindings.rbac.authorization.k8s.io "carol-edit" is forbidden: user "carol"',
    )
    const missing = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/rolebindings`,
      roleBinding('ghost', 'Role', 'no-such-role'),
      carol,
    )
    expect(missing.status).toBe(404)
    expect(missing.json.message).toBe('roles.rbac.authorization.k8s.io "no-such-role" not found')
    // Binding a role the writer holds entirely is fine.
    const reader = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/rolebindings`,
      roleBinding('dave-reads', 'Role', 'reader', { kind: 'User', name: 'dave' }),
      carol,
    )
    expect(reader.status, reader.text).toBe(201)
    // With `bind` on the edit ClusterRole, binding it is allowed without holding it.
    const binder = role('binder', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
        verbs: ['bind'],
        resourceNames: ['edit'],
      },
    ])
    expect((await req('POST', `${RBAC}/namespaces/${ns}/roles`, binder)).status).toBe(201)
    expect(
      (await req('POST', `${RBAC}/namespaces/${ns}/rolebindings`, roleBinding('carol-binds', 'Role', 'binder'))).status,
    ).toBe(201)
    const bound = await req(
      'POST',
      `${RBAC}/namespaces/${ns}/rolebindings`,
      roleBinding('dave-edit', 'ClusterRole', 'edit', { kind: 'User', name: 'dave' }),
      carol,
    )
    expect(bound.status, bound.text).toBe(201)
  })

  it('system:masters and AlwaysAllow-free admins write anything; a dry run is checked the same', async () => {
    const wide = role('wide', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }])
    expect((await req('POST', `${RBAC}/namespaces/${ns}/roles?dryRun=All`, wide, carol)).status).toBe(403)
    expect((await req('POST', `${RBAC}/namespaces/${ns}/roles`, wide)).status).toBe(201)
  })

  it('cluster-scoped: a ClusterRole granting more than the writer holds is refused; aggregationRule needs everything', async () => {
    const crWriter = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `alice-writes-clusterroles-${ns}` },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `clusterrole-writer-${ns}` },
    }
    const writer = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `clusterrole-writer-${ns}` },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
    }
    expect((await req('POST', `${RBAC}/clusterroles`, writer)).status).toBe(201)
    expect((await req('POST', `${RBAC}/clusterrolebindings`, crWriter)).status).toBe(201)
    const more = await req(
      'POST',
      `${RBAC}/clusterroles`,
      {
        ...writer,
        metadata: { name: `grants-nodes-${ns}` },
        rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['delete'] }],
      },
      alice,
    )
    expect(more.status).toBe(403)
    expect(more.json.message).toContain(`clusterroles.rbac.authorization.k8s.io "grants-nodes-${ns}" is forbidden`)
    const aggregating = await req(
      'POST',
      `${RBAC}/clusterroles`,
      {
        ...writer,
        metadata: { name: `aggregates-${ns}` },
        rules: [],
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
      },
      alice,
    )
    expect(aggregating.status).toBe(403)
    expect(aggregating.json.message).toContain('must have cluster-admin privileges to use the aggregationRule')
  })
})
