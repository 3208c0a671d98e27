// The D1 change log's append: a group commit's changes travel as few statements as possible, yet each change gets
// its own resourceVersion in order, the object index follows, and a failure anywhere leaves nothing behind.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { D1Log } from '../../src/log/d1-log'
import { encodeStored, storedText } from '../../src/registry/stored-json'
import type { Change } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'

let seq = 0
const ns = () => `log-${Date.now().toString(36)}-${seq++}`

const pod = (namespace: string, name: string, labels: Record<string, string> = {}, padding = 0): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    uid: crypto.randomUUID(),
    labels,
    annotations: padding ? { pad: 'é"'.repeat(padding) } : {},
  },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

const added = (object: KubeObject): Change => ({
  type: 'ADDED',
  resource: 'pods',
  namespace: object.metadata.namespace!,
  name: object.metadata.name!,
  object,
  prev: null,
  prevRv: null,
})

/** env.DB, recording the SQL of every statement a commit prepares. */
function recordingDb() {
  const prepared: string[] = []
  const db = {
    prepare: (q: string) => {
      prepared.push(q)
      return env.DB.prepare(q)
    },
    batch: (s: D1PreparedStatement[]) => env.DB.batch(s),
  }
  return {
    db: db as unknown as D1Database,
    prepared,
    statements: () => ({
      rows: prepared.filter((q) => q.includes('json_each')).length,
      single: prepared.filter((q) => q.includes('VALUES')).length,
    }),
  }
}

async function rows(namespace: string) {
  const { results } = await env.DB.prepare(
    'SELECT rv, name, type, object, prev, prev_rv FROM changes WHERE ns = ? ORDER BY rv',
  )
    .bind(namespace)
    .all<any>()
  return results
}

describe('D1Log.commit', () => {
  it('gives each change of a batch its own resourceVersion, in the order of the changes', async () => {
    const n = ns()
    const changes = ['c', 'a', 'e', 'b', 'd'].map((name, i) => added(pod(n, name, { i: String(i) })))
    const rec = recordingDb()
    const rvs = await new D1Log(rec.db).commit(changes, 1000)
    expect(rec.statements()).toEqual({ rows: 1, single: 0 })
    expect(rvs).toHaveLength(5)
    for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBe(rvs[i - 1]! + 1)
    const stored = await rows(n)
    expect(stored.map((r) => [r.rv, r.name])).toEqual(changes.map((c, i) => [rvs[i], c.name]))
    // The stored text is exactly what the local apply stores for the same change.
    expect(stored.map((r) => r.object)).toEqual(changes.map((c) => encodeStored(c.object)))
    expect(stored.every((r) => r.prev === null && r.prev_rv === null)).toBe(true)
    // The index trigger ran once per change.
    const objects = await env.DB.prepare('SELECT name, rv FROM objects WHERE ns = ? ORDER BY rv').bind(n).all<any>()
    expect(objects.results.map((o) => [o.name, o.rv])).toEqual(changes.map((c, i) => [c.name, rvs[i]]))
    const labels = await env.DB.prepare('SELECT name, value FROM labels WHERE ns = ? AND key = ? ORDER BY value')
      .bind(n, 'i')
      .all<any>()
    expect(labels.results.map((l) => l.name)).toEqual(['c', 'a', 'e', 'b', 'd'])
  })

  it('keeps prev and prev_rv of a modification', async () => {
    const n = ns()
    const log = new D1Log(env.DB)
    const first = pod(n, 'p', { v: '1' })
    const [rv1] = await log.commit([added(first)], 1000)
    const next = { ...first, metadata: { ...first.metadata, labels: { v: '2' } } }
    const [rv2] = await log.commit(
      [{ type: 'MODIFIED', resource: 'pods', namespace: n, name: 'p', object: next, prev: first, prevRv: rv1! }],
      1001,
    )
    const stored = await rows(n)
    expect(stored[1]).toMatchObject({
      rv: rv2,
      type: 'MODIFIED',
      object: encodeStored(next),
      prev: encodeStored(first),
      prev_rv: rv1,
    })
  })

  it('reads entries back with their stored text, which a catch-up apply stores as is', async () => {
    const n = ns()
    const log = new D1Log(env.DB)
    const first = pod(n, 'p', { v: '1' })
    const [rv1] = await log.commit([added(first)], 1000)
    const next = { ...first, metadata: { ...first.metadata, labels: { v: '2' } } }
    await log.commit(
      [{ type: 'MODIFIED', resource: 'pods', namespace: n, name: 'p', object: next, prev: first, prevRv: rv1! }],
      1001,
    )
    const entries = await log.changesFor(n, 0, 10)
    expect(entries.map((e) => e.text)).toEqual([
      { object: encodeStored(first), prev: null },
      { object: encodeStored(next), prev: encodeStored(first) },
    ])
    // The same text an encode of the read-back objects gives (they carry their resourceVersions, which it leaves out).
    for (const e of entries)
      expect(e.text).toEqual(storedText({ resource: e.resource, object: e.object, prev: e.prev }))
  })

  it('splits a batch bigger than a chunk into several statements of one transaction, and sends an oversized change alone', async () => {
    const n = ns()
    // Chunks of at most 1,500 characters: each padded pod (~700) pairs up, the 3,000-character one goes alone.
    const rec = recordingDb()
    const log = new D1Log(rec.db, 1500)
    const sizes = [150, 150, 150, 1400, 150, 150]
    const changes = sizes.map((pad, i) => added(pod(n, `p${i}`, {}, pad)))
    expect(encodeStored(changes[0]!.object).length).toBeGreaterThan(500)
    expect(encodeStored(changes[3]!.object).length).toBeGreaterThan(1500)
    const rvs = await log.commit(changes, 1000)
    // [p0 p1] [p2] | p3 alone | [p4 p5]
    expect(rec.statements()).toEqual({ rows: 3, single: 1 })
    for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBe(rvs[i - 1]! + 1)
    const stored = await rows(n)
    expect(stored.map((r) => [r.rv, r.name, r.object])).toEqual(
      changes.map((c, i) => [rvs[i], c.name, encodeStored(c.object)]),
    )
  })

  it('commits nothing when a later chunk fails', async () => {
    const n = ns()
    const rec = recordingDb()
    const log = new D1Log(rec.db, 1500)
    const before = await env.DB.prepare('SELECT COALESCE(MAX(rv), 0) AS rv FROM changes').first<{ rv: number }>()
    const good = [0, 1, 2].map((i) => added(pod(n, `ok${i}`, {}, 150)))
    // A change type the log refuses (NOT NULL) in the last chunk.
    const bad = { ...added(pod(n, 'bad', {}, 150)), type: null } as unknown as Change
    await expect(log.commit([...good, bad], 1000)).rejects.toThrow()
    expect(rec.statements().rows).toBe(2)
    expect(await rows(n)).toEqual([])
    const after = await env.DB.prepare('SELECT COALESCE(MAX(rv), 0) AS rv FROM changes').first<{ rv: number }>()
    expect(after!.rv).toBe(before!.rv)
    expect(
      (await env.DB.prepare('SELECT COUNT(*) AS n FROM objects WHERE ns = ?').bind(n).first<{ n: number }>())!.n,
    ).toBe(0)
  })
})

describe('migration 0003 (objects as a rowid table)', () => {
  it('keeps every indexed object and the index trigger when it runs over existing rows', async () => {
    const n = ns()
    const log = new D1Log(env.DB)
    const rvs = await log.commit([added(pod(n, 'x', { app: 'a' })), added(pod(n, 'y', { app: 'b' }))], 1000)
    const before = await env.DB.prepare(
      'SELECT resource, ns, name, rv, object, labels FROM objects ORDER BY resource, ns, name',
    ).all()
    // Its statements are safe to run again; running them over a populated table is the upgrade an existing database takes.
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0003'))!
    for (const q of migration.queries) await env.DB.prepare(q).run()
    const after = await env.DB.prepare(
      'SELECT resource, ns, name, rv, object, labels FROM objects ORDER BY resource, ns, name',
    ).all()
    expect(after.results).toEqual(before.results)
    const table = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'objects'").first<{ sql: string }>()
    expect(table!.sql).not.toMatch(/WITHOUT ROWID/i)
    // The trigger still maintains objects and labels, and the key is still unique (the upsert relies on it).
    const next = pod(n, 'x', { app: 'c' })
    const [rv3] = await log.commit(
      [
        {
          type: 'MODIFIED',
          resource: 'pods',
          namespace: n,
          name: 'x',
          object: next,
          prev: pod(n, 'x', { app: 'a' }),
          prevRv: rvs[0]!,
        },
      ],
      1001,
    )
    const x = await env.DB.prepare('SELECT rv, labels FROM objects WHERE ns = ? AND name = ?').bind(n, 'x').all<any>()
    expect(x.results).toEqual([{ rv: rv3, labels: '{"app":"c"}' }])
    const labels = await env.DB.prepare('SELECT name, value FROM labels WHERE ns = ? ORDER BY name').bind(n).all<any>()
    expect(labels.results).toEqual([
      { name: 'x', value: 'c' },
      { name: 'y', value: 'b' },
    ])
  })
})
