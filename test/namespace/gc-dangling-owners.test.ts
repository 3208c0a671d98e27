// A namespaced dependent committed naming a namespaced owner that is not there (absent, or its name holds another uid)
// is attempted at once, as kube's graph builder enqueues a virtual owner node (or the dependent itself when the
// coordinates differ from the owner it observed): without a solid owner it is deleted with the policy its own
// finalizers ask for; with one it stays and loses the dangling references.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

const V1 = '/api/v1'
const rsPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/replicasets${name ? `/${name}` : ''}`
const cmPath = (ns: string, name = '') => `${V1}/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`
const podPath = (ns: string, name = '') => `${V1}/namespaces/${ns}/pods${name ? `/${name}` : ''}`

type Ref = { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean }

const rsRef = (name: string, uid: string): Ref => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid })
const cmRef = (name: string, uid: string, blockOwnerDeletion?: boolean): Ref => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name,
  uid,
  ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
})

/** A ReplicaSet of no replicas whose selector matches nothing the tests create (it adopts and releases nothing). */
async function replicaSet(ns: string, name: string) {
  const r = await req('POST', rsPath(ns), {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas: 0,
      selector: { matchLabels: { rs: name } },
      template: { metadata: { labels: { rs: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
    },
  })
  expect(r.status, r.text).toBe(201)
  return r.json.metadata.uid as string
}

async function podOwnedBy(ns: string, name: string, refs: Ref[]) {
  const body = pod(name)
  const r = await req('POST', podPath(ns), { ...body, metadata: { ...body.metadata, ownerReferences: refs } })
  expect(r.status, r.text).toBe(201)
}

async function configMap(ns: string, name: string, meta: Record<string, unknown> = {}) {
  const r = await req('POST', cmPath(ns), { metadata: { name, ...meta }, data: { k: 'v' } })
  expect(r.status, r.text).toBe(201)
  return r.json.metadata.uid as string
}

const gone = (path: string) => waitFor(`${path} to be gone`, async () => (await req('GET', path)).status === 404)

describe('a dependent committed naming a namespaced owner that is not there', () => {
  it('a pod owned by a ReplicaSet that does not exist is collected; one owned by a real ReplicaSet stays', async () => {
    const ns = await makeNamespace('gcd')
    const uid = await replicaSet(ns, 'real')
    await podOwnedBy(ns, 'kept', [rsRef('real', uid)])
    await podOwnedBy(ns, 'orphan', [rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000001')])
    await gone(podPath(ns, 'orphan'))
    const kept = await req('GET', podPath(ns, 'kept'))
    expect(kept.status).toBe(200)
    expect(kept.json.metadata.deletionTimestamp).toBeUndefined()
    expect(kept.json.metadata.ownerReferences).toEqual([rsRef('real', uid)])
  })

  it('a pod naming an existing ReplicaSet under a uid it does not have is collected; the ReplicaSet stays', async () => {
    const ns = await makeNamespace('gcd')
    const uid = await replicaSet(ns, 'rs')
    await podOwnedBy(ns, 'wrong-uid', [rsRef('rs', '9a1b2c3d-0000-4000-8000-000000000002')])
    await gone(podPath(ns, 'wrong-uid'))
    const rs = await req('GET', rsPath(ns, 'rs'))
    expect(rs.status).toBe(200)
    expect(rs.json.metadata.uid).toBe(uid)
  })

  it('a pod naming the uid of an existing ReplicaSet under another name is collected', async () => {
    // kube: the uid is in the graph but the reference's coordinates differ, so the dependent is attempted, and
    // isDangling reads the owner by the reference's name (404).
    const ns = await makeNamespace('gcd')
    const uid = await replicaSet(ns, 'rs')
    await podOwnedBy(ns, 'wrong-name', [rsRef('not-rs', uid)])
    await gone(podPath(ns, 'wrong-name'))
    expect((await req('GET', rsPath(ns, 'rs'))).status).toBe(200)
  })

  it('with one solid and one dangling owner it stays and loses the dangling reference (kube patches it away)', async () => {
    const ns = await makeNamespace('gcd')
    const uid = await replicaSet(ns, 'solid')
    const solid = rsRef('solid', uid)
    await podOwnedBy(ns, 'both', [solid, rsRef('dangling', '9a1b2c3d-0000-4000-8000-000000000003')])
    const refs = await waitFor('the dangling reference to go', async () => {
      const p = await req('GET', podPath(ns, 'both'))
      expect(p.status).toBe(200)
      return p.json.metadata.ownerReferences.length === 1 && p.json.metadata.ownerReferences
    })
    expect(refs).toEqual([solid])
    const p = await req('GET', podPath(ns, 'both'))
    expect(p.json.metadata.deletionTimestamp).toBeUndefined()
  })

  it('an update that adds a reference to a missing owner collects the object', async () => {
    const ns = await makeNamespace('gcd')
    await configMap(ns, 'cm')
    const r = await req(
      'PATCH',
      cmPath(ns, 'cm'),
      {
        metadata: { ownerReferences: [rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000004')] },
      },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    await gone(cmPath(ns, 'cm'))
  })

  it('a collected dependent holding the orphan finalizer is deleted with Orphan: its own dependents are released', async () => {
    const ns = await makeNamespace('gcd')
    const parent = await configMap(ns, 'parent', { finalizers: ['orphan'] })
    await configMap(ns, 'child', { ownerReferences: [cmRef('parent', parent)] })
    const r = await req(
      'PATCH',
      cmPath(ns, 'parent'),
      {
        metadata: { ownerReferences: [rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000005')] },
      },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    await gone(cmPath(ns, 'parent'))
    const child = await waitFor('the child to be released', async () => {
      const c = await req('GET', cmPath(ns, 'child'))
      expect(c.status).toBe(200)
      return c.json.metadata.ownerReferences === undefined && c.json
    })
    expect(child.metadata.deletionTimestamp).toBeUndefined()
  })

  it('a collected dependent holding foregroundDeletion is deleted in the foreground: its blocking dependents go first', async () => {
    const ns = await makeNamespace('gcd')
    const parent = await configMap(ns, 'parent', { finalizers: ['foregroundDeletion'] })
    // The child keeps a finalizer of its own, so the parent is seen waiting on it before the child can go.
    await configMap(ns, 'child', { ownerReferences: [cmRef('parent', parent, true)], finalizers: ['example.com/hold'] })
    const r = await req(
      'PATCH',
      cmPath(ns, 'parent'),
      {
        metadata: { ownerReferences: [rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000006')] },
      },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    const child = await waitFor('the child to be deleted', async () => {
      const c = await req('GET', cmPath(ns, 'child'))
      return c.json?.metadata?.deletionTimestamp && c.json
    })
    expect(child.metadata.ownerReferences).toEqual([cmRef('parent', parent, true)])
    const waiting = await req('GET', cmPath(ns, 'parent'))
    expect(waiting.status).toBe(200)
    expect(waiting.json.metadata.deletionTimestamp).toBeDefined()
    expect(waiting.json.metadata.finalizers).toEqual(['foregroundDeletion'])
    const freed = await req(
      'PATCH',
      cmPath(ns, 'child'),
      { metadata: { finalizers: null } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(freed.status, freed.text).toBe(200)
    await gone(cmPath(ns, 'child'))
    await gone(cmPath(ns, 'parent'))
  })

  it('a dangling reference that blocks owner deletion and names a controller is collected the same', async () => {
    const ns = await makeNamespace('gcd')
    const ref = {
      ...rsRef('missing', '9a1b2c3d-0000-4000-8000-00000000000a'),
      controller: true,
      blockOwnerDeletion: true,
    }
    await podOwnedBy(ns, 'blocking', [ref])
    await gone(podPath(ns, 'blocking'))
  })

  it('with a dangling owner and one waiting in foreground deletion, one with dependents goes in the foreground', async () => {
    // kube's attemptToDeleteItem: no solid owner, an owner waits for its dependents, and the item has dependents of
    // its own: deleted with Foreground, whatever its finalizers.
    const ns = await makeNamespace('gcd')
    const hold = { finalizers: ['example.com/hold'] }
    const waiter = await configMap(ns, 'waiter')
    await configMap(ns, 'blocker', { ownerReferences: [cmRef('waiter', waiter, true)], ...hold })
    const del = await req('DELETE', cmPath(ns, 'waiter'), { propagationPolicy: 'Foreground' })
    expect(del.status, del.text).toBe(200)
    await waitFor('the blocker to be deleted', async () => {
      const b = await req('GET', cmPath(ns, 'blocker'))
      return !!b.json.metadata.deletionTimestamp
    })
    const item = await configMap(ns, 'item')
    await configMap(ns, 'below', { ownerReferences: [cmRef('item', item, true)], ...hold })
    const r = await req(
      'PATCH',
      cmPath(ns, 'item'),
      {
        metadata: {
          ownerReferences: [cmRef('waiter', waiter), rsRef('missing', '9a1b2c3d-0000-4000-8000-00000000000b')],
        },
      },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    const deleting = await waitFor('the item to be deleted in the foreground', async () => {
      const i = await req('GET', cmPath(ns, 'item'))
      return i.json.metadata.deletionTimestamp && i.json
    })
    expect(deleting.metadata.finalizers).toEqual(['foregroundDeletion'])
    await waitFor('its dependent to be deleted', async () => {
      const b = await req('GET', cmPath(ns, 'below'))
      return !!b.json.metadata.deletionTimestamp
    })
  })

  it('an owner of a kind no served group has keeps the dependent (kube retries the REST mapping)', async () => {
    const ns = await makeNamespace('gcd')
    await configMap(ns, 'unresolved', {
      ownerReferences: [
        {
          apiVersion: 'nothing.example.com/v1',
          kind: 'Nowhere',
          name: 'x',
          uid: '9a1b2c3d-0000-4000-8000-000000000007',
        },
      ],
    })
    // Collected when it also names a missing owner of a served kind: the unresolved owner keeps it all the same.
    await configMap(ns, 'both', {
      ownerReferences: [
        {
          apiVersion: 'nothing.example.com/v1',
          kind: 'Nowhere',
          name: 'x',
          uid: '9a1b2c3d-0000-4000-8000-000000000007',
        },
        rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000008'),
      ],
    })
    await configMap(ns, 'marker', { ownerReferences: [rsRef('missing', '9a1b2c3d-0000-4000-8000-000000000009')] })
    await gone(cmPath(ns, 'marker'))
    for (const name of ['unresolved', 'both']) {
      const c = await req('GET', cmPath(ns, name))
      expect(c.status).toBe(200)
      expect(c.json.metadata.deletionTimestamp).toBeUndefined()
    }
  })
})
