// The garbage collector of the cluster object: cluster-scoped dependents go with their cluster-scoped owners, and a
// cluster-scoped object deleted with propagationPolicy Foreground or Orphan is not left holding its finalizer.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep } from '../helpers'

const ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles'
let n = 0
const unique = (p: string) => `gc-${p}-${Date.now().toString(36)}-${n++}`

async function role(name: string, owner?: { name: string; uid: string }, block = false) {
  const r = await req('POST', ROLES, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'rbac.authorization.k8s.io/v1',
                kind: 'ClusterRole',
                name: owner.name,
                uid: owner.uid,
                blockOwnerDeletion: block,
              },
            ],
          }
        : {}),
    },
    rules: [],
  })
  expect(r.status, r.text).toBe(201)
  return { name, uid: r.json.metadata.uid as string }
}

async function gone(name: string) {
  for (let i = 0; i < 100; i++) {
    if ((await req('GET', `${ROLES}/${name}`)).status === 404) return true
    await sleep(20)
  }
  return false
}

describe('cluster-scoped garbage collection', () => {
  it('a dependent goes with its owner (background)', async () => {
    const owner = await role(unique('owner'))
    const dep = await role(unique('dep'), owner)
    expect((await req('DELETE', `${ROLES}/${owner.name}`)).status).toBe(200)
    expect(await gone(dep.name)).toBe(true)
  })

  it('Foreground: the dependent goes first, then the owner', async () => {
    const owner = await role(unique('fg'))
    const dep = await role(unique('fg-dep'), owner, true)
    const r = await req('DELETE', `${ROLES}/${owner.name}`, { propagationPolicy: 'Foreground' })
    expect(r.status, r.text).toBe(200)
    expect(await gone(dep.name)).toBe(true)
    expect(await gone(owner.name)).toBe(true)
  })

  it('Orphan: the dependent is released and the owner goes', async () => {
    const owner = await role(unique('or'))
    const dep = await role(unique('or-dep'), owner)
    const r = await req('DELETE', `${ROLES}/${owner.name}`, { propagationPolicy: 'Orphan' })
    expect(r.status, r.text).toBe(200)
    expect(await gone(owner.name)).toBe(true)
    const kept = await req('GET', `${ROLES}/${dep.name}`)
    expect(kept.status).toBe(200)
    expect(kept.json.metadata.ownerReferences).toBeUndefined()
  })
})

describe('cluster-scoped dependents whose owner cannot be resolved now', () => {
  const crd = (group: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `sprockets.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural: 'sprockets', kind: 'Sprocket' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  })

  it('one owned by a kind whose CRD is not installed yet is kept, then collected once the CRD is established', async () => {
    const group = `${unique('late')}.example.com`
    const owner = {
      apiVersion: `${group}/v1`,
      kind: 'Sprocket',
      name: 's',
      uid: '00000000-0000-0000-0000-0000000000c1',
    }
    const dep = unique('late-dep')
    const r = await req('POST', ROLES, { metadata: { name: dep, ownerReferences: [owner] }, rules: [] })
    expect(r.status, r.text).toBe(201)
    await sleep(300)
    expect((await req('GET', `${ROLES}/${dep}`)).status).toBe(200)
    const c = await req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(group))
    expect(c.status, c.text).toBe(201)
    expect(await gone(dep)).toBe(true)
    await req('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.${group}`)
  })

  it('one naming a namespaced owner is left alone (kube: a cluster-scoped object cannot have one)', async () => {
    const ns = await makeNamespace('gc-inv')
    const cm = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'owner' } })
    expect(cm.status).toBe(201)
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: cm.json.metadata.uid }
    const dep = unique('inv-dep')
    const r = await req('POST', ROLES, { metadata: { name: dep, ownerReferences: [owner] }, rules: [] })
    expect(r.status, r.text).toBe(201)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/configmaps/owner`)).status).toBe(200)
    await sleep(300)
    expect((await req('GET', `${ROLES}/${dep}`)).status).toBe(200)
  })
})

describe('a namespace deleted with propagationPolicy Foreground or Orphan', () => {
  for (const propagationPolicy of ['Foreground', 'Orphan']) {
    it(`${propagationPolicy}: terminates, empties and goes`, async () => {
      const ns = unique(propagationPolicy.toLowerCase())
      expect((await req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201)
      const cm = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' } })
      expect(cm.status).toBe(201)
      const r = await req('DELETE', `/api/v1/namespaces/${ns}`, { propagationPolicy })
      expect(r.status, r.text).toBe(200)
      let last = 0
      for (let i = 0; i < 200 && last !== 404; i++) {
        last = (await req('GET', `/api/v1/namespaces/${ns}`)).status
        if (last !== 404) await sleep(25)
      }
      expect(last).toBe(404)
      expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/c`)).status).toBe(404)
    })
  }
})
