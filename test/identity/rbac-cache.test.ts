// The isolate's copies of the RBAC objects: used for a second, then revalidated conditionally; a second look for a
// refusal needs a copy checked after the request arrived; one fetch per scope at a time; writes through this isolate
// make the copy they touch be checked again; namespaces beyond capacity are forgotten, the cluster's never.
import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../src/host/rpc-types'
import { RbacCache } from '../../src/identity/rbac-cache'

const binding = (name: string, ns = '') => ({
  metadata: { name, ...(ns ? { namespace: ns } : {}) },
  subjects: [{ kind: 'User', name: 'u' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
})

/** A fake pair of hosts: versions per scope, every fetch recorded, each answer held until released when asked. */
function hosts() {
  const versions = new Map<string, number>([['', 1]])
  const bindings = new Map<string, string[]>([['', ['crb-1']]])
  const calls: { scope: string; since?: number }[] = []
  let hold: Promise<void> | null = null
  const fetch = async (scope: string, resources: string[], since?: number): Promise<Snapshot> => {
    calls.push({ scope, since })
    if (hold) await hold
    const version = versions.get(scope) ?? 7
    if (since === version) return { version, objects: null }
    const [roles, binds] = resources as [string, string]
    return {
      version,
      objects: {
        [roles]: [{ metadata: { name: 'r' }, rules: [] } as never],
        [binds]: (bindings.get(scope) ?? []).map((n) => binding(n, scope) as never),
      },
    }
  }
  return {
    fetch,
    calls,
    versions,
    bindings,
    holdFetches: () => {
      let release!: () => void
      hold = new Promise((r) => (release = r))
      return () => {
        hold = null
        release()
      }
    },
  }
}

describe('RbacCache', () => {
  it('reuses a copy for a second, then asks again with the version it holds', async () => {
    const h = hosts()
    let now = 1000
    const cache = new RbacCache(h.fetch, () => now)
    const a = await cache.view('')
    expect(a.source.clusterRoleBindings().map((b) => b.metadata?.name)).toEqual(['crb-1'])
    now += 500
    await cache.view('')
    expect(h.calls).toEqual([{ scope: '', since: undefined }])
    now += 600
    const b = await cache.view('')
    expect(h.calls).toEqual([
      { scope: '', since: undefined },
      { scope: '', since: 1 },
    ])
    // Unchanged: the same objects, and the same version (compiled rules stay cached).
    expect(b.version).toBe(a.version)
    expect(b.source.clusterRoleBindings()).toBe(a.source.clusterRoleBindings())
  })

  it('a changed version brings the new objects and a new view version', async () => {
    const h = hosts()
    let now = 0
    const cache = new RbacCache(h.fetch, () => now)
    const a = await cache.view('team')
    h.versions.set('', 2)
    h.bindings.set('', ['crb-1', 'crb-2'])
    now += 2000
    const b = await cache.view('team')
    expect(b.version).not.toBe(a.version)
    expect(b.source.clusterRoleBindings().map((x) => x.metadata?.name)).toEqual(['crb-1', 'crb-2'])
  })

  it("a namespace's view holds the cluster's objects and that namespace's only", async () => {
    const h = hosts()
    h.bindings.set('team', ['rb-1'])
    const cache = new RbacCache(h.fetch, () => 0)
    const v = await cache.view('team')
    expect(v.source.roleBindings('team').map((b) => b.metadata?.name)).toEqual(['rb-1'])
    expect(v.source.roleBindings('other')).toEqual([])
    expect(v.source.role('team', 'r')).not.toBeNull()
    expect(v.source.role('other', 'r')).toBeNull()
    expect(v.source.clusterRole('r')).not.toBeNull()
    expect(v.cluster.clusterRoleBindings.map((b) => b.metadata.name)).toEqual(['crb-1'])
    expect(v.version).toBe('1/7')
  })

  it('notBefore: a copy checked before that time is checked again, even when it is fresh', async () => {
    const h = hosts()
    let now = 100
    const cache = new RbacCache(h.fetch, () => now)
    const first = await cache.view('')
    expect(first.checkedAt).toBe(100)
    now = 150
    const again = await cache.view('', 120)
    expect(h.calls.length).toBe(2)
    expect(again.checkedAt).toBe(150)
    // A copy checked at or after notBefore is good enough.
    await cache.view('', 150)
    expect(h.calls.length).toBe(2)
  })

  it('concurrent requests share one fetch per scope', async () => {
    const h = hosts()
    const cache = new RbacCache(h.fetch, () => 0)
    const release = h.holdFetches()
    const views = Promise.all([cache.view(''), cache.view(''), cache.view('')])
    release()
    await views
    expect(h.calls.length).toBe(1)
  })

  it('a write through this isolate makes the next request check the copy it touched', async () => {
    const h = hosts()
    const cache = new RbacCache(h.fetch, () => 0)
    await cache.view('team')
    expect(h.calls.length).toBe(2)
    cache.noteWrite('pods', 'team')
    await cache.view('team')
    expect(h.calls.length).toBe(2)
    cache.noteWrite('rolebindings', 'team')
    await cache.view('team')
    expect(h.calls.map((c) => c.scope)).toEqual(['', 'team', 'team'])
    cache.noteWrite('clusterroles', 'ignored')
    await cache.view('team')
    expect(h.calls.map((c) => c.scope)).toEqual(['', 'team', 'team', ''])
  })

  it('a failed fetch fails the view and is not remembered', async () => {
    let fail = true
    const cache = new RbacCache(
      async (_s, resources) => {
        if (fail) throw new Error('overloaded')
        return { version: 1, objects: { [resources[0]!]: [], [resources[1]!]: [] } }
      },
      () => 0,
    )
    await expect(cache.view('')).rejects.toThrow('overloaded')
    fail = false
    expect((await cache.view('')).version).toBe('1')
  })

  it('forgets the least recently used namespaces beyond its capacity, never the cluster', async () => {
    const h = hosts()
    const cache = new RbacCache(h.fetch, () => 0)
    for (let i = 0; i < 1100; i++) await cache.view(`ns-${i}`)
    const before = h.calls.length
    await cache.view('ns-1099')
    await cache.view('')
    expect(h.calls.length).toBe(before)
    await cache.view('ns-0')
    expect(h.calls.length).toBe(before + 1)
  })
})
