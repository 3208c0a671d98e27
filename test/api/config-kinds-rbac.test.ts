// kube's bootstrap roles cover the configuration and storage kinds as kube's do: view reads ConfigMaps, claims and
// ingresses but not Secrets; edit writes Secrets, ConfigMaps, claims and ingresses too.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'

async function bind(ns: string, user: string, role: string) {
  const r = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
    metadata: { name: `${user}-${role}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
  })
  expect(r.status, r.text).toBe(201)
}

describe('bootstrap roles over the configuration and storage kinds', () => {
  it('view reads configmaps, claims and ingresses, not secrets; edit writes them all', async () => {
    const ns = await makeNamespace('cfgrbac')
    await bind(ns, 'bob', 'view')
    await bind(ns, 'carol', 'edit')
    const asBob = bearer(TEST_TOKENS.bob)
    const asCarol = bearer(TEST_TOKENS.carol)
    for (const path of [
      `/api/v1/namespaces/${ns}/configmaps`,
      `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`,
    ])
      expect((await req('GET', path, undefined, asBob)).status, path).toBe(200)
    const secrets = await req('GET', `/api/v1/namespaces/${ns}/secrets`, undefined, asBob)
    expect(secrets.status).toBe(403)
    expect(secrets.json.message).toBe(
      `secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "${ns}"`,
    )
    const writes: [string, unknown][] = [
      [`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's' }, stringData: { k: 'v' } }],
      [`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' }, data: { k: 'v' } }],
      [
        `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
        {
          metadata: { name: 'p' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      [
        `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`,
        { metadata: { name: 'i' }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
      ],
    ]
    for (const [path, body] of writes) {
      expect((await req('POST', path, body, asBob)).status, path).toBe(403)
      const r = await req('POST', path, body, asCarol)
      expect(r.status, `${path} ${r.text}`).toBe(201)
    }
  })
})
