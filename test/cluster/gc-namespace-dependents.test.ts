// Namespaced dependents of cluster-scoped owners, through the Worker: a ClusterRole owning ConfigMaps in two namespaces
// takes them along (Background), waits for them (Foreground, held by a blocking dependent's finalizer) or releases
// them (Orphan), as kube's collector does; a ConfigMap naming a cluster-scoped owner that does not exist is collected;
// one with another owner that exists only loses the reference.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep, waitFor } from '../helpers'

const ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles'
let n = 0
const unique = (p: string) => `gcns-${p}-${Date.now().toString(36)}-${n++}`
const cms = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`

type Owner = { apiVersion: string; kind: string; name: string; uid: string }

async function role(name: string): Promise<Owner> {
  const r = await req('POST', ROLES, { metadata: { name }, rules: [] })
  expect(r.status, r.text).toBe(201)
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name, uid: r.json.metadata.uid }
}

async function configMap(ns: string, name: string, owners: Owner[], extra: Record<string, unknown> = {}) {
  const metadata = { name, ownerReferences: owners, ...extra }
  const r = await req('POST', cms(ns), { metadata })
  expect(r.status, r.text).toBe(201)
  return r.json
}

const blocking = (o: Owner) => ({ ...o, blockOwnerDeletion: true })
const status = async (path: string) => (await req('GET', path)).status
const gone = (path: string, ms = 10_000) => waitFor(`${path} gone`, async () => (await status(path)) === 404, ms)

describe('namespaced dependents of a cluster-scoped owner', () => {
  it('Background: the dependents in every namespace go with the owner', async () => {
    const [a, b] = [await makeNamespace('gcns'), await makeNamespace('gcns')]
    const owner = await role(unique('bg'))
    await configMap(a, 'dep', [owner])
    await configMap(b, 'dep', [owner])
    await configMap(b, 'unrelated', [])
    expect((await req('DELETE', `${ROLES}/${owner.name}`)).status).toBe(200)
    await gone(cms(a, 'dep'))
    await gone(cms(b, 'dep'))
    expect(await status(cms(b, 'unrelated'))).toBe(200)
  })

  it('Foreground: the owner waits with foregroundDeletion until its blocking dependents are gone', async () => {
    const [a, b] = [await makeNamespace('gcfg'), await makeNamespace('gcfg')]
    const owner = await role(unique('fg'))
    await configMap(a, 'free', [blocking(owner)])
    await configMap(b, 'held', [blocking(owner)], { finalizers: ['example.com/hold'] })
    const r = await req('DELETE', `${ROLES}/${owner.name}`, { propagationPolicy: 'Foreground' })
    expect(r.status, r.text).toBe(200)
    await gone(cms(a, 'free'))
    // The held dependent is being deleted; its finalizer holds it, and it holds its owner.
    await waitFor('held deleting', async () => (await req('GET', cms(b, 'held'))).json.metadata?.deletionTimestamp)
    await sleep(200)
    const waiting = await req('GET', `${ROLES}/${owner.name}`)
    expect(waiting.status).toBe(200)
    expect(waiting.json.metadata.finalizers).toEqual(['foregroundDeletion'])
    const release = await req(
      'PATCH',
      cms(b, 'held'),
      { metadata: { finalizers: null } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(release.status, release.text).toBe(200)
    await gone(cms(b, 'held'))
    await gone(`${ROLES}/${owner.name}`)
  })

  it('Orphan: the dependents in every namespace lose their reference and stay', async () => {
    const [a, b] = [await makeNamespace('gcor'), await makeNamespace('gcor')]
    const owner = await role(unique('or'))
    const other = await role(unique('or-other'))
    await configMap(a, 'dep', [owner])
    await configMap(b, 'dep', [owner, other])
    const r = await req('DELETE', `${ROLES}/${owner.name}`, { propagationPolicy: 'Orphan' })
    expect(r.status, r.text).toBe(200)
    await gone(`${ROLES}/${owner.name}`)
    expect((await req('GET', cms(a, 'dep'))).json.metadata.ownerReferences).toBeUndefined()
    expect((await req('GET', cms(b, 'dep'))).json.metadata.ownerReferences).toEqual([other])
  })

  it('a dependent with another existing owner only loses the deleted owner’s reference', async () => {
    const ns = await makeNamespace('gcco')
    const owner = await role(unique('co'))
    const local = (await req('POST', cms(ns), { metadata: { name: 'local' } })).json
    const localRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'local', uid: local.metadata.uid }
    await configMap(ns, 'dep', [owner, localRef])
    expect((await req('DELETE', `${ROLES}/${owner.name}`)).status).toBe(200)
    await waitFor('reference dropped', async () => {
      const refs = (await req('GET', cms(ns, 'dep'))).json.metadata.ownerReferences
      return refs?.length === 1 && refs[0].uid === local.metadata.uid
    })
    expect(await status(cms(ns, 'dep'))).toBe(200)
  })

  it('a dependent naming a cluster-scoped owner that does not exist (or under another uid) is collected', async () => {
    const ns = await makeNamespace('gcab')
    const owner = await role(unique('ab'))
    await configMap(ns, 'no-such', [{ ...owner, name: unique('missing') }])
    await configMap(ns, 'other-uid', [{ ...owner, uid: '00000000-0000-0000-0000-0000000000ab' }])
    await configMap(ns, 'kept', [owner])
    await gone(cms(ns, 'no-such'))
    await gone(cms(ns, 'other-uid'))
    expect(await status(cms(ns, 'kept'))).toBe(200)
  })

  it('a dependent made after its cluster-scoped owner went is collected, and a later owner with the name is not its owner', async () => {
    const ns = await makeNamespace('gcre')
    const name = unique('re')
    const first = await role(name)
    expect((await req('DELETE', `${ROLES}/${name}`)).status).toBe(200)
    await gone(`${ROLES}/${name}`)
    await role(name)
    await configMap(ns, 'stale', [first])
    await gone(cms(ns, 'stale'))
  })
})
