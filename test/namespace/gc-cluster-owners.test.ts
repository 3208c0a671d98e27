// The namespace and cluster collectors sharing cluster-scoped owners, wired as the Durable Objects wire them (the
// cluster's table of namespaces over real SQLite, each side's host in memory): a wake-up of the cluster object tells
// the namespaces of an owner that went while nobody told them; a namespace that did not answer is told again when its
// retry falls due; a namespace's wake-up asks after every cluster-scoped owner named there in one call.
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { NamespaceDependentsTable } from '../../src/cluster/gc-namespace-dependents'
import type { ClusterOwnerRef, OwnerMeta } from '../../src/cluster/cluster-api'
import type { Controller, ControllerHost } from '../../src/host/controller'
import type { LogEntry } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'
import { GarbageCollector, waitsOnGarbageCollector } from '../../src/namespace/garbage-collector'
import { memoryHost, openPolicy } from '../support/memory-host'

/** A collector that can be kept from hearing commits (what the end of an isolate does). */
class PausableCollector extends GarbageCollector {
  paused = false
  override async onCommitted(entries: readonly LogEntry[], host: ControllerHost) {
    if (!this.paused) await super.onCommitted(entries, host)
  }
}

const policy = { ...openPolicy(), needsAttention: (_r: string, o: KubeObject) => waitsOnGarbageCollector(o) }
const T0 = 5_000_000
let n = 0

/** A cluster host and namespace hosts whose collectors call each other as the objects' RPCs do. */
async function cluster(sql: SqlStorage, namespaces: string[], opts: { failFirst?: boolean } = {}) {
  let now = T0
  const asked: ClusterOwnerRef[][] = []
  const hosts = new Map<string, ReturnType<typeof memoryHost>['host']>()
  const nsCollectors = new Map<string, GarbageCollector>()
  let failures = opts.failFirst ? 1 : 0
  const table = new NamespaceDependentsTable(sql, {
    ownerChanged: async (ns, uid, owner) => {
      if (failures-- > 0) throw new Error('namespace object unreachable')
      return nsCollectors.get(ns)!.clusterOwnerChanged(hosts.get(ns)!.controllerView, uid, owner)
    },
    kindsChanged: async (ns) => nsCollectors.get(ns)!.kindsChanged(hosts.get(ns)!.controllerView),
  })
  const clusterGc = new PausableCollector({ namespaces: table, now: () => now })
  const c = memoryHost({ scope: '', policy, controllers: [clusterGc] as Controller[] })
  const links = {
    clusterOwners: async (ns: string, refs: ClusterOwnerRef[]): Promise<(OwnerMeta | null)[]> => {
      asked.push(refs)
      return table.owners(ns, refs, (r, name) => c.host.objects.get(r, name)?.object ?? null)
    },
    clusterOwnersUnblocked: (_ns: string, uids: string[]) => clusterGc.ownersUnblocked(c.host.controllerView, uids),
    awaitOwnerKinds: async (ns: string) => table.awaitKinds(ns),
  }
  for (const ns of namespaces) {
    const gc = new GarbageCollector({ cluster: links, now: () => now })
    nsCollectors.set(ns, gc)
    hosts.set(ns, memoryHost({ scope: ns, policy, controllers: [gc] as Controller[] }).host)
  }
  const ringAt = async (at: number) => {
    now = at
    const due = await c.alarms.next()
    if (due !== null && due <= at) {
      c.alarms.ring()
      await c.host.alarm(at)
    }
  }
  return { cluster: c, clusterGc, table, hosts, nsCollectors, links, asked, ringAt }
}

/** Runs `body` inside a Durable Object of its own, whose SQLite holds the table (as the cluster object's does). */
const inObject = (body: (sql: SqlStorage) => Promise<void>) =>
  runInDurableObject(env.NAMESPACES.get(env.NAMESPACES.idFromName(`gc-table-${n++}`)), (_i, state) =>
    body(state.storage.sql),
  )

const settled = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
}

async function role(host: ReturnType<typeof memoryHost>['host'], name: string) {
  const r = await host.create('clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
  })
  if (!r.ok) throw new Error(r.status.message)
  const o = r.value.object
  return { apiVersion: o.apiVersion!, kind: o.kind!, name: o.metadata.name!, uid: o.metadata.uid! }
}

const owned = (name: string, owner: { apiVersion: string; kind: string; name: string; uid: string }): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ownerReferences: [owner] },
})

describe('cluster-scoped owners shared by the namespace and cluster collectors', () => {
  it('a wake-up of the cluster object tells the namespaces of an owner that went while nobody told them', () =>
    inObject(async (sql) => {
      const { cluster: c, clusterGc, hosts } = await cluster(sql, ['a', 'b'])
      const owner = await role(c.host, 'r')
      for (const ns of ['a', 'b'])
        expect((await hosts.get(ns)!.create('configmaps', owned('dep', owner))).ok).toBe(true)
      await new Promise((r) => setTimeout(r, 50))
      expect(hosts.get('a')!.objects.get('configmaps', 'dep')).not.toBeNull()
      clusterGc.paused = true
      expect((await c.host.delete('clusterroles', 'r')).ok).toBe(true)
      await new Promise((r) => setTimeout(r, 50))
      expect(hosts.get('a')!.objects.get('configmaps', 'dep')).not.toBeNull()
      // The collector's first resync is its wake-up: it finds the owner the table records gone.
      clusterGc.paused = false
      await clusterGc.resync(c.host.controllerView)
      const gone = () => ['a', 'b'].every((ns) => hosts.get(ns)!.objects.get('configmaps', 'dep') === null)
      await settled(gone)
      expect(gone()).toBe(true)
    }))

  it('a namespace that did not answer is told again when its retry falls due', () =>
    inObject(async (sql) => {
      const { cluster: c, hosts, ringAt } = await cluster(sql, ['a'], { failFirst: true })
      const owner = await role(c.host, 'r')
      expect((await hosts.get('a')!.create('configmaps', owned('dep', owner))).ok).toBe(true)
      await new Promise((r) => setTimeout(r, 50))
      expect((await c.host.delete('clusterroles', 'r')).ok).toBe(true)
      await new Promise((r) => setTimeout(r, 100))
      expect(hosts.get('a')!.objects.get('configmaps', 'dep')).not.toBeNull()
      expect(await c.alarms.next()).toBe(T0 + 1000)
      await ringAt(T0 + 1000)
      await settled(() => hosts.get('a')!.objects.get('configmaps', 'dep') === null)
      expect(hosts.get('a')!.objects.get('configmaps', 'dep')).toBeNull()
    }))

  it("a namespace's wake-up asks after every cluster-scoped owner named there in one call, and collects the gone", () =>
    inObject(async (sql) => {
      const { cluster: c, clusterGc, hosts, links, asked } = await cluster(sql, ['a'])
      const kept = await role(c.host, 'kept')
      const lost = await role(c.host, 'lost')
      const a = hosts.get('a')!
      for (const [name, owner] of [
        ['k1', kept],
        ['k2', kept],
        ['l1', lost],
      ] as const) {
        expect((await a.create('configmaps', owned(name, owner))).ok).toBe(true)
      }
      await new Promise((r) => setTimeout(r, 50))
      // The owner goes and the namespace is not told (the cluster object's collector does not hear it).
      clusterGc.paused = true
      expect((await c.host.delete('clusterroles', 'lost')).ok).toBe(true)
      asked.length = 0
      // The namespace object's next isolate wakes up: its collector knows nothing of the owners yet.
      await new GarbageCollector({ cluster: links }).resync(a.controllerView)
      expect(asked.map((refs) => refs.map((r) => r.name).sort())).toEqual([['kept', 'lost']])
      await settled(() => a.objects.get('configmaps', 'l1') === null)
      expect(a.objects.get('configmaps', 'l1')).toBeNull()
      expect(a.objects.get('configmaps', 'k1')).not.toBeNull()
      expect(a.objects.get('configmaps', 'k2')).not.toBeNull()
    }))

  it('dependents of an owner the namespace recorded itself with ask nothing more, until the cluster object tells of it', () =>
    inObject(async (sql) => {
      const { cluster: c, hosts, asked } = await cluster(sql, ['a'])
      const owner = await role(c.host, 'r')
      const a = hosts.get('a')!
      for (const name of ['d1', 'd2', 'd3']) expect((await a.create('configmaps', owned(name, owner))).ok).toBe(true)
      await new Promise((r) => setTimeout(r, 50))
      expect(asked.length).toBe(1)
      expect((await c.host.delete('clusterroles', 'r')).ok).toBe(true)
      const gone = () => ['d1', 'd2', 'd3'].every((name) => a.objects.get('configmaps', name) === null)
      await settled(gone)
      expect(gone()).toBe(true)
      // The namespace heard of the owner: a dependent made for it now is asked after, and collected.
      expect((await a.create('configmaps', owned('late', owner))).ok).toBe(true)
      await settled(() => a.objects.get('configmaps', 'late') === null)
      expect(a.objects.get('configmaps', 'late')).toBeNull()
      expect(asked.length).toBe(2)
    }))

  it('a namespace removed from the cluster is dropped from the table', () =>
    inObject(async (sql) => {
      const { cluster: c, hosts, table } = await cluster(sql, ['a'])
      expect(
        (await c.host.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } })).ok,
      ).toBe(true)
      const owner = await role(c.host, 'r')
      expect((await hosts.get('a')!.create('configmaps', owned('dep', owner))).ok).toBe(true)
      await settled(() => table.ownerOf(owner.uid) !== null)
      expect(table.ownerOf(owner.uid)).toEqual({ resource: 'clusterroles', name: 'r' })
      expect(await c.host.remove('namespaces', 'a')).toBe(true)
      await settled(() => table.ownerOf(owner.uid) === null)
      expect(table.ownerOf(owner.uid)).toBeNull()
    }))
})
