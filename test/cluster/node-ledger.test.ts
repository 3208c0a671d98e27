// The node ledger's in-memory sums and used addresses agree with its table through binds, IPs and releases, and a
// ledger opened later over the same table (a restarted cluster object) starts from the same numbers.
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { NodeLedger } from '../../src/cluster/node-ledger'

/** Runs fn against the SQLite storage of a Durable Object of its own (a namespace object nobody else uses). */
async function withSql<T>(name: string, fn: (sql: SqlStorage) => T): Promise<T> {
  const stub = env.NAMESPACES.get(env.NAMESPACES.idFromName(`ledger-test-${name}`))
  return runInDurableObject(stub, (_instance, state) => fn(state.storage.sql))
}

// Each pod's NonZeroRequested memory is twice its request here, so the two sums are told apart.
const pod = (n: number, node: string, cpuMilli = 100, memBytes = 1024) => ({
  podKey: `ns/p${n}/uid-${n}`,
  ns: 'ns',
  node,
  cpuMilli,
  memBytes,
  nonZero: { cpuMilli, memBytes: 2 * memBytes },
})
const sums = (cpuMilli: number, memBytes: number, pods: number) => ({
  cpuMilli,
  memBytes,
  pods,
  nonZero: { cpuMilli, memBytes: 2 * memBytes },
})

/** pod_bindings as the first version made it (no columns added since), with these rows. */
function olderTable(sql: SqlStorage, ...rows: string[]) {
  sql.exec(`CREATE TABLE pod_bindings (
    pod_key TEXT PRIMARY KEY, ns TEXT NOT NULL, node TEXT NOT NULL,
    cpu_milli INTEGER NOT NULL, mem_bytes INTEGER NOT NULL, pod_ip TEXT
  ) WITHOUT ROWID`)
  for (const row of rows) sql.exec(`INSERT INTO pod_bindings VALUES ${row}`)
}

describe('NodeLedger', () => {
  it('keeps per-node sums as pods are bound and released, and a fresh ledger reads the same', async () => {
    await withSql('sums', (sql) => {
      const ledger = new NodeLedger(sql)
      ledger.bind(pod(1, 'a'))
      expect(ledger.usage().get('a')).toEqual(sums(100, 1024, 1))
      ledger.bind(pod(2, 'a', 250, 10))
      ledger.bind(pod(3, 'b'))
      // Binding the same pod again is no new reservation.
      ledger.bind(pod(2, 'a', 250, 10))
      expect(ledger.usage().get('a')).toEqual(sums(350, 1034, 2))
      expect(ledger.release('ns/p1/uid-1')?.node).toBe('a')
      expect(ledger.release('ns/p1/uid-1')).toBeNull()
      expect(ledger.usage().get('a')).toEqual(sums(250, 10, 1))
      ledger.release('ns/p3/uid-3')
      expect(ledger.usage().has('b')).toBe(false)
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
    })
  })

  it('keeps an ended pod on its node without counting it, until the release of its deletion', async () => {
    await withSql('ended', (sql) => {
      const ledger = new NodeLedger(sql)
      ledger.bind(pod(1, 'a'))
      ledger.bind({ ...pod(2, 'a'), podKey: 'other/p2/uid-2', ns: 'other' })
      expect(ledger.release('ns/p1/uid-1', true)?.node).toBe('a')
      // Its room is free: only the other namespace's pod counts on the node...
      expect(ledger.usage().get('a')).toEqual(sums(100, 1024, 1))
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
      expect(ledger.podKeysIn('ns')).toEqual([])
      // ...but both namespaces have pods there (the node lifecycle controller evicts ended pods too).
      expect(ledger.namespacesOn('a').sort()).toEqual(['ns', 'other'])
      // The release its deletion asks for forgets it.
      expect(ledger.release('ns/p1/uid-1')).toBeNull()
      expect(ledger.namespacesOn('a')).toEqual(['other'])
    })
  })

  it("answers a namespace's reserved pods, and none of another's", async () => {
    await withSql('by-ns', (sql) => {
      const ledger = new NodeLedger(sql)
      ledger.bind(pod(1, 'a'))
      ledger.bind({ ...pod(2, 'a'), podKey: 'other/p2/uid-2', ns: 'other' })
      expect(ledger.podKeysIn('ns')).toEqual([{ key: 'ns/p1/uid-1', described: true, terminating: false }])
      expect(ledger.podKeysIn('other')).toEqual([{ key: 'other/p2/uid-2', described: true, terminating: false }])
      ledger.release('ns/p1/uid-1')
      expect(ledger.podKeysIn('ns')).toEqual([])
    })
  })

  it('binds made before the sums are first read are counted once', async () => {
    await withSql('late-read', (sql) => {
      const ledger = new NodeLedger(sql)
      ledger.bind(pod(1, 'a'))
      ledger.bind(pod(2, 'a'))
      expect(ledger.usage().get('a')?.pods).toBe(2)
    })
  })

  it('hands out the lowest free address and reuses a released one, also after a restart', async () => {
    await withSql('ips', (sql) => {
      const ledger = new NodeLedger(sql)
      for (const n of [1, 2, 3]) ledger.bind(pod(n, 'a'))
      expect(ledger.allocateIP('ns/p1/uid-1', '10.244.1.0/24')).toBe('10.244.1.2')
      expect(ledger.allocateIP('ns/p2/uid-2', '10.244.1.0/24')).toBe('10.244.1.3')
      // Asking again answers the pod's own address.
      expect(ledger.allocateIP('ns/p1/uid-1', '10.244.1.0/24')).toBe('10.244.1.2')
      ledger.release('ns/p1/uid-1')
      expect(ledger.allocateIP('ns/p3/uid-3', '10.244.1.0/24')).toBe('10.244.1.2')
      const restarted = new NodeLedger(sql)
      restarted.bind(pod(4, 'a'))
      expect(restarted.allocateIP('ns/p4/uid-4', '10.244.1.0/24')).toBe('10.244.1.4')
      expect(restarted.allocateIP('ns/p9/uid-9', '10.244.1.0/24')).toBeNull()
    })
  })

  it('a full pod CIDR has no address to give', async () => {
    await withSql('full', (sql) => {
      const ledger = new NodeLedger(sql)
      // A /30 has .0 (network), .1 (gateway), .2 and .3 (broadcast): one address for pods.
      ledger.bind(pod(1, 'a'))
      ledger.bind(pod(2, 'a'))
      expect(ledger.allocateIP('ns/p1/uid-1', '10.0.0.0/30')).toBe('10.0.0.2')
      expect(ledger.allocateIP('ns/p2/uid-2', '10.0.0.0/30')).toBeNull()
    })
  })

  it('assuming a pod reserved on another node moves its reservation there and gives up its address', async () => {
    await withSql('assume', (sql) => {
      const ledger = new NodeLedger(sql)
      // The scheduler reserved node a (with an address from a's pod CIDR); a client bound the pod to b meanwhile.
      ledger.bind(pod(1, 'a', 300, 50), '10.244.1.0/24')
      expect(ledger.assume(pod(1, 'b', 300, 50))).toBe(true)
      expect(ledger.binding('ns/p1/uid-1')).toMatchObject({ node: 'b', podIP: null })
      expect(ledger.usage().has('a')).toBe(false)
      expect(ledger.usage().get('b')).toEqual(sums(300, 50, 1))
      // Assumed where it is already counted: nothing moves.
      expect(ledger.assume(pod(1, 'b', 300, 50))).toBe(false)
      expect(ledger.assume(pod(2, 'b'))).toBe(false)
      expect(ledger.usage().get('b')?.pods).toBe(2)
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
      // a's address is free again.
      ledger.bind(pod(3, 'a'))
      expect(ledger.allocateIP('ns/p3/uid-3', '10.244.1.0/24')).toBe('10.244.1.2')
    })
  })

  it('keeps ephemeral-storage and extended resources per node through binds, releases, admission and a restart', async () => {
    await withSql('other', (sql) => {
      const ledger = new NodeLedger(sql)
      // Read before the binds (the sums then move with each write) and after (a fresh ledger sums the table).
      expect(ledger.usage().size).toBe(0)
      ledger.bind({ ...pod(1, 'a'), other: { 'nvidia.com/gpu': 2, 'ephemeral-storage': 1000 } })
      ledger.bind({ ...pod(2, 'a'), other: { 'nvidia.com/gpu': 1 } })
      ledger.bind(pod(3, 'a'))
      expect(ledger.usage().get('a')).toEqual({
        ...sums(300, 3072, 3),
        other: { 'nvidia.com/gpu': 3, 'ephemeral-storage': 1000 },
      })
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
      expect(ledger.binding('ns/p2/uid-2')?.other).toEqual({ 'nvidia.com/gpu': 1 })
      expect(ledger.admittedOn('a').used.other).toEqual({ 'nvidia.com/gpu': 3, 'ephemeral-storage': 1000 })
      ledger.release('ns/p1/uid-1')
      expect(ledger.usage().get('a')?.other).toEqual({ 'nvidia.com/gpu': 1 })
      ledger.release('ns/p2/uid-2')
      expect(ledger.usage().get('a')).toEqual(sums(100, 1024, 1))
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
    })
  })

  it("keeps bound pods' labels and anti-affinity terms for the affinity filter, across relabels and a restart", async () => {
    await withSql('affinity', (sql) => {
      const ledger = new NodeLedger(sql)
      const anti = [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }]
      ledger.bind({
        ...pod(1, 'a'),
        labels: { app: 'web' },
        podAffinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti } },
      })
      ledger.bind({ ...pod(2, 'b'), labels: { app: 'db' } })
      ledger.bind(pod(3, 'b'))
      const view = (l: NodeLedger) => ({
        placed: [...l.affinity.placedPods()].map((p) => [p.node, p.labels]),
        anti: [...l.affinity.affinityPods()].map((p) => [
          p.node,
          p.labels,
          p.terms.requiredAnti.map((t) => t.topologyKey),
        ]),
      })
      expect(view(ledger)).toEqual({
        placed: [
          ['a', { app: 'web' }],
          ['b', { app: 'db' }],
          ['b', {}],
        ],
        anti: [['a', { app: 'web' }, ['kubernetes.io/hostname']]],
      })
      expect(ledger.describe('ns/p1/uid-1', { app: 'old' })).toBe(true)
      expect(ledger.describe('ns/p9/uid-9', { app: 'x' })).toBe(false)
      expect(view(new NodeLedger(sql))).toEqual(view(ledger))
      expect(view(ledger).anti[0]![1]).toEqual({ app: 'old' })
      ledger.release('ns/p1/uid-1')
      expect(view(ledger).anti).toEqual([])
      expect(view(new NodeLedger(sql))).toEqual(view(ledger))
    })
  })

  it('rows bound before the ledger kept labels read as undescribed until their namespace describes them', async () => {
    await withSql('migrate', (sql) => {
      // The table as an older version made it, with one pod bound.
      olderTable(sql, "('ns/old/uid-old', 'ns', 'a', 100, 1024, NULL)")
      const ledger = new NodeLedger(sql)
      ledger.bind({ ...pod(1, 'a'), labels: { app: 'web' } })
      ledger.bind(pod(2, 'a'))
      expect(ledger.podKeysIn('ns')).toEqual([
        { key: 'ns/old/uid-old', described: false, terminating: false },
        { key: 'ns/p1/uid-1', described: true, terminating: false },
        { key: 'ns/p2/uid-2', described: true, terminating: false },
      ])
      // Not yet described, it matches no label.
      expect([...ledger.affinity.placedPods()].find((p) => p.labels.app === 'db')).toBeUndefined()
      const anti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone' }] } }
      expect(ledger.describe('ns/old/uid-old', { app: 'db' }, anti)).toBe(true)
      expect(ledger.podKeysIn('ns')[0]).toEqual({ key: 'ns/old/uid-old', described: true, terminating: false })
      expect([...ledger.affinity.placedPods()].find((p) => p.labels.app === 'db')?.node).toBe('a')
      expect([...ledger.affinity.affinityPods()].map((p) => p.labels)).toEqual([{ app: 'db' }])
    })
  })

  it("rows bound before the ledger kept NonZeroRequested count their requests, or kube's defaults where 0", async () => {
    await withSql('migrate-nonzero', (sql) => {
      olderTable(sql, "('ns/sized/uid-s', 'ns', 'a', 300, 1024, NULL)", "('ns/empty/uid-e', 'ns', 'a', 0, 0, NULL)")
      const ledger = new NodeLedger(sql)
      expect(ledger.binding('ns/sized/uid-s')?.nonZero).toEqual({ cpuMilli: 300, memBytes: 1024 })
      expect(ledger.binding('ns/empty/uid-e')?.nonZero).toEqual({ cpuMilli: 100, memBytes: 200 * 1024 ** 2 })
      ledger.bind(pod(1, 'a'))
      expect(ledger.usage().get('a')).toEqual({
        cpuMilli: 400,
        memBytes: 2048,
        pods: 3,
        nonZero: { cpuMilli: 500, memBytes: 1024 + 200 * 1024 ** 2 + 2048 },
      })
      ledger.release('ns/empty/uid-e')
      expect(ledger.usage().get('a')?.nonZero).toEqual({ cpuMilli: 400, memBytes: 3072 })
      expect(new NodeLedger(sql).usage()).toEqual(ledger.usage())
    })
  })

  it('marks a bound pod terminating once, for the affinity index too, across a restart', async () => {
    await withSql('terminating', (sql) => {
      const ledger = new NodeLedger(sql)
      ledger.bind({ ...pod(1, 'a'), labels: { app: 'web' } })
      ledger.bind({ ...pod(2, 'a'), labels: { app: 'web' } })
      const placed = (l: NodeLedger) => [...l.affinity.placedPods()].map((p) => p.terminating === true)
      expect(placed(ledger)).toEqual([false, false])
      expect(ledger.terminating('ns/p1/uid-1')).toBe(true)
      // Told again, or of a pod not bound: no news.
      expect(ledger.terminating('ns/p1/uid-1')).toBe(false)
      expect(ledger.terminating('ns/p9/uid-9')).toBe(false)
      expect(placed(ledger)).toEqual([true, false])
      expect(placed(new NodeLedger(sql))).toEqual([true, false])
      expect(ledger.podKeysIn('ns').map((r) => r.terminating)).toEqual([true, false])
      // It still holds its room until it is released.
      expect(ledger.usage().get('a')?.pods).toBe(2)
    })
  })
})
