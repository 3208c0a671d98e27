// The storage invariants of docs/architecture.md §5, checked through the API, the D1 tables and the Durable Objects'
// own SQLite: resourceVersion order, read-your-writes, optimistic concurrency, D1 = union of the DOs, catch-up from
// the log after lost local state, and nothing applied when D1 fails.
import { env } from 'cloudflare:workers'
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, staticPod, createStatic as create } from '../helpers'

/** A pod no scheduler picks up (schedulerName names none), so nothing but the test changes it. */

const podPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`

const rvOf = (o: any) => Number(o.metadata.resourceVersion)
const stub = (ns: string) => env.NAMESPACES.getByName(ns)

/** Rows of a namespace DO's own SQLite. */
function localRows<T = Record<string, SqlStorageValue>>(
  ns: string,
  sql: string,
  ...binds: SqlStorageValue[]
): Promise<T[]> {
  return runInDurableObject(stub(ns), (_instance, state) => state.storage.sql.exec(sql, ...binds).toArray() as T[])
}

async function d1<T>(sql: string, ...binds: unknown[]): Promise<T[]> {
  const { results } = await env.DB.prepare(sql)
    .bind(...binds)
    .all<T>()
  return results
}

/** A small deterministic PRNG (mulberry32), so a failing random sequence can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('resourceVersions', () => {
  it('strictly increase in commit order across namespaces (5 namespaces writing concurrently)', async () => {
    const nss = await Promise.all([1, 2, 3, 4, 5].map(() => makeNamespace('rv')))
    const written = await Promise.all(
      nss.map(async (ns) => {
        const out: { ns: string; name: string; rv: number }[] = []
        for (let i = 0; i < 10; i++) {
          const o = await create(ns, `p${i}`)
          out.push({ ns, name: o.metadata.name, rv: rvOf(o) })
        }
        return out
      }),
    )
    const all = written.flat()
    expect(new Set(all.map((w) => w.rv)).size).toBe(all.length)
    for (const perNs of written) {
      for (let i = 1; i < perNs.length; i++) expect(perNs[i]!.rv).toBeGreaterThan(perNs[i - 1]!.rv)
    }
    // D1's log holds exactly these changes, in rv order.
    const marks = nss.map(() => '?').join(', ')
    const log = await d1<{ rv: number; ns: string; name: string; type: string }>(
      `SELECT rv, ns, name, type FROM changes WHERE resource = 'pods' AND ns IN (${marks}) ORDER BY rv`,
      ...nss,
    )
    expect(log).toEqual(
      [...all].sort((a, b) => a.rv - b.rv).map((w) => ({ rv: w.rv, ns: w.ns, name: w.name, type: 'ADDED' })),
    )
    // Each DO applied its namespace's changes in the same order.
    for (const perNs of written) {
      const hist = await localRows<{ rv: number; name: string }>(
        perNs[0]!.ns,
        "SELECT rv, name FROM history WHERE resource = 'pods' ORDER BY rv",
      )
      expect(hist).toEqual(perNs.map((w) => ({ rv: w.rv, name: w.name })))
      const [applied] = await localRows<{ value: string }>(
        perNs[0]!.ns,
        "SELECT value FROM state WHERE key = 'applied_rv'",
      )
      expect(Number(applied!.value)).toBe(perNs[perNs.length - 1]!.rv)
    }
  })

  it('a write acknowledged in one namespace orders before a later write in another', async () => {
    const nss = await Promise.all([1, 2, 3].map(() => makeNamespace('causal')))
    let last = 0
    for (let i = 0; i < 12; i++) {
      const ns = nss[i % 3]!
      const o = await create(ns, `c${i}`)
      expect(rvOf(o)).toBeGreaterThan(last)
      last = rvOf(o)
      // A read anywhere afterwards reflects at least that resourceVersion.
      const l = await req('GET', '/api/v1/pods?limit=1')
      expect(Number(l.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(last)
    }
  })

  it('concurrent creates in one namespace (group commit) get distinct rvs, applied in log order', async () => {
    const ns = await makeNamespace('group')
    const objs = await Promise.all(Array.from({ length: 30 }, (_, i) => create(ns, `g${i}`, { i: String(i) })))
    const rvs = objs.map(rvOf)
    expect(new Set(rvs).size).toBe(30)
    const log = await d1<{ rv: number; name: string }>(
      "SELECT rv, name FROM changes WHERE ns = ? AND resource = 'pods' ORDER BY rv",
      ns,
    )
    const hist = await localRows<{ rv: number; name: string }>(
      ns,
      "SELECT rv, name FROM history WHERE resource = 'pods' ORDER BY rv",
    )
    expect(hist).toEqual(log)
    expect(log.map((r) => r.rv).sort((a, b) => a - b)).toEqual([...rvs].sort((a, b) => a - b))
    // Every answer carries the rv its change was committed at.
    for (const o of objs) expect(log.find((r) => r.name === o.metadata.name)!.rv).toBe(rvOf(o))
  })
})

describe('read-your-writes', () => {
  it('a create, update and delete are visible at once in the DO and in D1 (cluster-wide)', async () => {
    const ns = await makeNamespace('ryw')
    for (let i = 0; i < 5; i++) {
      const name = `r${i}`
      const c = await create(ns, name, { k: 'v1' })
      const g = await req('GET', podPath(ns, name))
      expect(g.status).toBe(200)
      expect(g.json.metadata.resourceVersion).toBe(c.metadata.resourceVersion)
      const l = await req('GET', podPath(ns))
      expect(l.json.items.map((o: any) => o.metadata.name)).toContain(name)
      expect(Number(l.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvOf(c))
      const fs = `fieldSelector=${encodeURIComponent(`metadata.namespace=${ns},metadata.name=${name}`)}`
      const all = await req('GET', `/api/v1/pods?${fs}`)
      expect(all.json.items.map((o: any) => o.metadata.resourceVersion)).toEqual([c.metadata.resourceVersion])
      expect(Number(all.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvOf(c))
      const byLabel = await req('GET', `/api/v1/pods?labelSelector=k%3Dv1&${fs}`)
      expect(byLabel.json.items.length).toBe(1)

      const u = await req('PUT', podPath(ns, name), { ...c, metadata: { ...c.metadata, labels: { k: 'v2' } } })
      expect(u.status, u.text).toBe(200)
      expect((await req('GET', podPath(ns, name))).json.metadata.resourceVersion).toBe(u.json.metadata.resourceVersion)
      const all2 = await req('GET', `/api/v1/pods?${fs}`)
      expect(all2.json.items.map((o: any) => o.metadata.resourceVersion)).toEqual([u.json.metadata.resourceVersion])
      expect((await req('GET', `/api/v1/pods?labelSelector=k%3Dv1&${fs}`)).json.items).toEqual([])
      expect((await req('GET', `/api/v1/pods?labelSelector=k%3Dv2&${fs}`)).json.items.length).toBe(1)

      const d = await req('DELETE', podPath(ns, name))
      expect(d.status, d.text).toBe(200)
      expect((await req('GET', podPath(ns, name))).status).toBe(404)
      expect((await req('GET', `/api/v1/pods?${fs}`)).json.items).toEqual([])
      expect((await req('GET', podPath(ns))).json.items.map((o: any) => o.metadata.name)).not.toContain(name)
    }
  })

  it('namespaces (the cluster DO) too', async () => {
    const name = `ryw-ns-${Date.now().toString(36)}`
    const c = await req('POST', '/api/v1/namespaces', { metadata: { name } })
    expect(c.status, c.text).toBe(201)
    expect((await req('GET', `/api/v1/namespaces/${name}`)).json.metadata.resourceVersion).toBe(
      c.json.metadata.resourceVersion,
    )
    const l = await req('GET', `/api/v1/namespaces?fieldSelector=metadata.name%3D${name}`)
    expect(l.json.items.map((o: any) => o.metadata.name)).toEqual([name])
    // A pod can be created in it straight away.
    await create(name, 'first')
  })
})

describe('optimistic concurrency', () => {
  it('10 concurrent PUTs with the same stale resourceVersion: exactly one wins, the rest 409', async () => {
    const ns = await makeNamespace('occ')
    const base = await create(ns, 'shared', { base: 'yes' })
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        req('PUT', podPath(ns, 'shared'), {
          ...base,
          metadata: { ...base.metadata, labels: { base: 'yes', [`w${i}`]: 'x' } },
        }),
      ),
    )
    const ok = answers.filter((a) => a.status === 200)
    const conflicts = answers.filter((a) => a.status === 409)
    expect(ok.length, answers.map((a) => a.status).join(',')).toBe(1)
    expect(conflicts.length).toBe(9)
    for (const c of conflicts) {
      expect(c.json.reason).toBe('Conflict')
      expect(c.json.message).toBe(
        'Operation cannot be fulfilled on pods "shared": the object has been modified; please apply your changes to the latest version and try again',
      )
    }
    const g = await req('GET', podPath(ns, 'shared'))
    expect(g.json).toEqual(ok[0]!.json)
    expect(Object.keys(g.json.metadata.labels).filter((k) => k.startsWith('w')).length).toBe(1)
    const log = await d1<{ type: string }>("SELECT type FROM changes WHERE ns = ? AND name = 'shared' ORDER BY rv", ns)
    expect(log.map((r) => r.type)).toEqual(['ADDED', 'MODIFIED'])
  })

  it('read-modify-write loops with retries on 409 lose no update', async () => {
    const ns = await makeNamespace('occ')
    await create(ns, 'counter')
    const writer = async (i: number) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const g = await req('GET', podPath(ns, 'counter'))
        const r = await req('PUT', podPath(ns, 'counter'), {
          ...g.json,
          metadata: { ...g.json.metadata, labels: { ...g.json.metadata.labels, [`w${i}`]: 'done' } },
        })
        if (r.status === 200) return attempt
        expect(r.status, r.text).toBe(409)
      }
      throw new Error(`writer ${i} never got through`)
    }
    await Promise.all(Array.from({ length: 8 }, (_, i) => writer(i)))
    const g = await req('GET', podPath(ns, 'counter'))
    expect(Object.keys(g.json.metadata.labels).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `w${i}`).sort())
  })

  it('10 concurrent unconditional updates all apply, one after another', async () => {
    const ns = await makeNamespace('uncond')
    const base = await create(ns, 'u')
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const body = structuredClone(base)
        delete body.metadata.resourceVersion
        body.metadata.labels = { writer: String(i) }
        return req('PUT', podPath(ns, 'u'), body)
      }),
    )
    for (const a of answers) expect(a.status, a.text).toBe(200)
    const rvs = answers.map((a) => rvOf(a.json))
    expect(new Set(rvs).size).toBe(10)
    const winner = answers.reduce((a, b) => (rvOf(a.json) > rvOf(b.json) ? a : b))
    const g = await req('GET', podPath(ns, 'u'))
    expect(g.json).toEqual(winner.json)
    // The log chains them: each change's previous state is the one before it.
    const log = await d1<{ rv: number; type: string; prev_rv: number | null; object: string; prev: string | null }>(
      "SELECT rv, type, prev_rv, object, prev FROM changes WHERE ns = ? AND name = 'u' ORDER BY rv",
      ns,
    )
    expect(log.map((r) => r.type)).toEqual(['ADDED', ...Array(10).fill('MODIFIED')])
    for (let i = 1; i < log.length; i++) {
      expect(log[i]!.prev_rv).toBe(log[i - 1]!.rv)
      expect(JSON.parse(log[i]!.prev!)).toEqual(JSON.parse(log[i - 1]!.object))
    }
    expect(
      log
        .slice(1)
        .map((r) => r.rv)
        .sort((a, b) => a - b),
    ).toEqual([...rvs].sort((a, b) => a - b))
    for (const a of answers) {
      const row = log.find((r) => r.rv === rvOf(a.json))!
      expect(JSON.parse(row.object).metadata.labels).toEqual(a.json.metadata.labels)
    }
  })
})

describe('D1 equals the union of the Durable Objects', () => {
  it('after a random sequence of creates, updates and deletes across namespaces', async () => {
    const random = rng(0x5eed)
    const nss = (await Promise.all([1, 2, 3].map(() => makeNamespace('union')))).sort()
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!
    const labels = () => {
      const out: Record<string, string> = {}
      for (const k of ['app', 'tier', 'env', 'x']) if (random() < 0.5) out[k] = pick(['web', 'db', 'a', 'b', ''])
      return out
    }
    const op = async () => {
      const ns = pick(nss)
      const name = pick(names)
      const r = random()
      if (r < 0.35) {
        const c = await req('POST', podPath(ns), staticPod(name, labels()))
        expect([201, 409]).toContain(c.status)
      } else if (r < 0.75) {
        const g = await req('GET', podPath(ns, name))
        if (g.status === 404) return
        const body = { ...g.json, metadata: { ...g.json.metadata, labels: labels() } }
        if (random() < 0.3) delete body.metadata.resourceVersion
        if (random() < 0.2) body.metadata.annotations = { note: String(random()) }
        const u = await req('PUT', podPath(ns, name), body)
        expect([200, 404, 409]).toContain(u.status)
      } else {
        const d = await req('DELETE', podPath(ns, name))
        expect([200, 404]).toContain(d.status)
      }
    }
    for (let round = 0; round < 25; round++) await Promise.all(Array.from({ length: 8 }, op))

    const marks = nss.map(() => '?').join(', ')
    const d1Objects = await d1<{
      resource: string
      ns: string
      name: string
      rv: number
      object: string
      labels: string
    }>(
      `SELECT resource, ns, name, rv, object, labels FROM objects WHERE resource = 'pods' AND ns IN (${marks}) ORDER BY ns, name`,
      ...nss,
    )
    const d1Labels = await d1<{ ns: string; name: string; key: string; value: string }>(
      `SELECT ns, name, key, value FROM labels WHERE resource = 'pods' AND ns IN (${marks}) ORDER BY ns, name, key`,
      ...nss,
    )
    const apiObjects: any[] = []
    for (const ns of nss) {
      const l = await req('GET', podPath(ns))
      apiObjects.push(...l.json.items)
      // The DO's own rows agree with what it serves.
      const rows = await localRows<{ resource: string; name: string; rv: number }>(
        ns,
        "SELECT resource, name, rv FROM objects WHERE resource = 'pods' ORDER BY name",
      )
      expect(rows).toEqual(l.json.items.map((o: any) => ({ resource: 'pods', name: o.metadata.name, rv: rvOf(o) })))
      const localLabels = await localRows<{ name: string; key: string; value: string }>(
        ns,
        "SELECT name, key, value FROM labels WHERE resource = 'pods' ORDER BY name, key",
      )
      expect(localLabels).toEqual(
        l.json.items.flatMap((o: any) =>
          Object.entries(o.metadata.labels ?? {})
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([key, value]) => ({ name: o.metadata.name, key, value })),
        ),
      )
    }
    expect(apiObjects.length).toBeGreaterThan(0)
    expect(d1Objects.map((o) => ({ resource: o.resource, ns: o.ns, name: o.name, rv: o.rv }))).toEqual(
      apiObjects.map((o) => ({ resource: 'pods', ns: o.metadata.namespace, name: o.metadata.name, rv: rvOf(o) })),
    )
    // Same content: the stored JSON is the served object without its resourceVersion.
    for (let i = 0; i < d1Objects.length; i++) {
      const stored = JSON.parse(d1Objects[i]!.object)
      stored.metadata.resourceVersion = String(d1Objects[i]!.rv)
      expect(stored).toEqual(apiObjects[i])
      expect(JSON.parse(d1Objects[i]!.labels)).toEqual(apiObjects[i].metadata.labels ?? {})
    }
    expect(d1Labels).toEqual(
      apiObjects.flatMap((o) =>
        Object.entries(o.metadata.labels ?? {})
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, value]) => ({ ns: o.metadata.namespace, name: o.metadata.name, key, value })),
      ),
    )
    // The cluster-wide list (D1) shows the same.
    const all = await req('GET', '/api/v1/pods')
    expect(all.json.items.filter((o: any) => nss.includes(o.metadata.namespace))).toEqual(apiObjects)
    // And every label query answers the same from D1 as from the DOs.
    for (const sel of ['app=web', 'tier in (db,a)', 'env', '!x', 'app!=web,env', 'x=']) {
      const fromD1 = (await req('GET', `/api/v1/pods?labelSelector=${encodeURIComponent(sel)}`)).json.items.filter(
        (o: any) => nss.includes(o.metadata.namespace),
      )
      const fromDOs: any[] = []
      for (const ns of nss)
        fromDOs.push(...(await req('GET', `${podPath(ns)}?labelSelector=${encodeURIComponent(sel)}`)).json.items)
      expect(
        fromD1.map((o: any) => `${o.metadata.namespace}/${o.metadata.name}`),
        sel,
      ).toEqual(fromDOs.map((o) => `${o.metadata.namespace}/${o.metadata.name}`))
    }
  })

  it('namespaces in D1 equal what the cluster DO serves', async () => {
    await makeNamespace('u1')
    await makeNamespace('u2')
    const rows = await d1<{ name: string; rv: number }>(
      "SELECT name, rv FROM objects WHERE resource = 'namespaces' AND ns = '' ORDER BY name",
    )
    const l = await req('GET', '/api/v1/namespaces')
    expect(rows).toEqual(l.json.items.map((o: any) => ({ name: o.metadata.name, rv: rvOf(o) })))
    for (const sys of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      expect(rows.map((r) => r.name)).toContain(sys)
  })
})

describe('catch-up from the D1 log', () => {
  it('a DO whose local state lost the last commits re-applies them from the log on restart', async () => {
    const ns = await makeNamespace('catch')
    const x = await create(ns, 'x', { keep: 'yes' })
    const r0 = rvOf(x)
    // Committed to D1 and applied locally...
    const a = await create(ns, 'a', { app: 'lost' })
    const x2 = await req('PUT', podPath(ns, 'x'), { ...x, metadata: { ...x.metadata, labels: { keep: 'changed' } } })
    expect(x2.status).toBe(200)
    // ...then the local apply is undone, as if the DO had crashed between the D1 commit and its local apply.
    await runInDurableObject(stub(ns), (_instance, state) => {
      const sql = state.storage.sql
      sql.exec("DELETE FROM objects WHERE resource = 'pods' AND name = 'a'")
      sql.exec("DELETE FROM labels WHERE resource = 'pods' AND name = 'a'")
      sql.exec(
        "UPDATE objects SET rv = ?, labels = ?, object = ? WHERE resource = 'pods' AND name = 'x'",
        r0,
        JSON.stringify(x.metadata.labels),
        JSON.stringify({ ...x, metadata: { ...x.metadata, resourceVersion: undefined } }),
      )
      sql.exec("DELETE FROM labels WHERE resource = 'pods' AND name = 'x'")
      sql.exec("INSERT INTO labels (resource, key, value, name) VALUES ('pods', 'keep', 'yes', 'x')")
      sql.exec('DELETE FROM history WHERE rv > ?', r0)
      sql.exec("UPDATE state SET value = ? WHERE key = 'applied_rv'", String(r0))
    })
    await evictDurableObject(stub(ns))

    const g = await req('GET', podPath(ns, 'a'))
    expect(g.status, g.text).toBe(200)
    expect(g.json).toEqual(a)
    expect((await req('GET', podPath(ns, 'x'))).json).toEqual(x2.json)
    expect(
      (await req('GET', `${podPath(ns)}?labelSelector=app%3Dlost`)).json.items.map((o: any) => o.metadata.name),
    ).toEqual(['a'])
    expect((await req('GET', `${podPath(ns)}?labelSelector=keep%3Dyes`)).json.items).toEqual([])
    const hist = await localRows<{ rv: number }>(ns, "SELECT rv FROM history WHERE resource = 'pods' ORDER BY rv")
    expect(hist.map((h) => h.rv)).toEqual([r0, rvOf(a), rvOf(x2.json)])
    // Writes continue from there.
    const b = await create(ns, 'b')
    expect(rvOf(b)).toBeGreaterThan(rvOf(x2.json))
    const dup = await req('POST', podPath(ns), staticPod('a'))
    expect(dup.status).toBe(409)
  })

  it('a DO whose local SQLite was wiped rebuilds everything from the log', async () => {
    const ns = await makeNamespace('wipe')
    for (const n of ['a', 'b', 'c']) await create(ns, n, { n })
    const b = (await req('GET', podPath(ns, 'b'))).json
    await req('PUT', podPath(ns, 'b'), { ...b, metadata: { ...b.metadata, labels: { n: 'B' } } })
    await req('DELETE', podPath(ns, 'c'))
    const before = (await req('GET', podPath(ns))).json
    await runInDurableObject(stub(ns), (_instance, state) => {
      state.storage.sql.exec(
        "DELETE FROM objects; DELETE FROM labels; DELETE FROM history; DELETE FROM state WHERE key IN ('applied_rv', 'floor_rv')",
      )
    })
    await evictDurableObject(stub(ns))
    const after = (await req('GET', podPath(ns))).json
    expect(after.items).toEqual(before.items)
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(
      (await req('GET', `${podPath(ns)}?labelSelector=n%3DB`)).json.items.map((o: any) => o.metadata.name),
    ).toEqual(['b'])
    await create(ns, 'c')
  })
})

describe('D1 failure', () => {
  it('a write while the change log is unavailable answers 503 and applies nothing anywhere', async () => {
    const ns = await makeNamespace('d1down')
    const before = await create(ns, 'before', { v: '1' })
    const d1Before = await d1<{ rv: number }>("SELECT rv FROM objects WHERE ns = ? AND resource = 'pods'", ns)
    await env.DB.prepare('ALTER TABLE changes RENAME TO changes_unavailable').run()
    let answers: Awaited<ReturnType<typeof req>>[]
    try {
      answers = await Promise.all([
        req('POST', podPath(ns), staticPod('lost', { v: '1' })),
        req('POST', podPath(ns), staticPod('lost2')),
        req('PUT', podPath(ns, 'before'), { ...before, metadata: { ...before.metadata, labels: { v: '2' } } }),
        req('DELETE', podPath(ns, 'before')),
      ])
      // Reads served by the DO keep working.
      const g = await req('GET', podPath(ns, 'before'))
      expect(g.status).toBe(200)
      expect(g.json).toEqual(before)
    } finally {
      await env.DB.prepare('ALTER TABLE changes_unavailable RENAME TO changes').run()
    }
    for (const a of answers) {
      expect(a.status, a.text).toBe(503)
      expect(a.json.kind).toBe('Status')
      expect(a.json.reason).toBe('ServiceUnavailable')
      expect(a.json.code).toBe(503)
      expect(a.headers.get('cache-control')).toBe('no-cache, private')
    }
    expect((await req('GET', podPath(ns, 'lost'))).status).toBe(404)
    expect((await req('GET', podPath(ns, 'before'))).json).toEqual(before)
    expect((await req('GET', podPath(ns))).json.items.map((o: any) => o.metadata.name)).toEqual(['before'])
    expect(await d1<{ rv: number }>("SELECT rv FROM objects WHERE ns = ? AND resource = 'pods'", ns)).toEqual(d1Before)
    expect(await d1("SELECT rv FROM changes WHERE ns = ? AND resource = 'pods' AND rv > ?", ns, rvOf(before))).toEqual(
      [],
    )
    expect(await d1('SELECT name FROM labels WHERE ns = ? AND name = ?', ns, 'lost')).toEqual([])
    const all = await req('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent(`metadata.namespace=${ns}`)}`)
    expect(all.json.items.map((o: any) => o.metadata.name)).toEqual(['before'])
    // After a restart too (catch-up finds nothing to add).
    await evictDurableObject(stub(ns))
    expect((await req('GET', podPath(ns, 'lost'))).status).toBe(404)

    // Later writes work, and continue the rv sequence.
    const lost = await create(ns, 'lost', { v: '1' })
    expect(rvOf(lost)).toBeGreaterThan(rvOf(before))
    const u = await req('PUT', podPath(ns, 'before'), {
      ...before,
      metadata: { ...before.metadata, labels: { v: '2' } },
    })
    expect(u.status, u.text).toBe(200)
    const d1After = await d1<{ name: string; rv: number }>(
      "SELECT name, rv FROM objects WHERE ns = ? AND resource = 'pods' ORDER BY name",
      ns,
    )
    expect(d1After).toEqual([
      { name: 'before', rv: rvOf(u.json) },
      { name: 'lost', rv: rvOf(lost) },
    ])
  })
  it('a commit that fails after its change row is written (in the label index) rolls back whole: no change row, no rv used', async () => {
    const ns = await makeNamespace('d1half')
    const before = await create(ns, 'before')
    const [{ seq: seqBefore }] = await d1<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
    // The index trigger runs after the change row is in; make its last step, the label rows, fail.
    await env.DB.prepare(
      "CREATE TRIGGER labels_unavailable BEFORE INSERT ON labels BEGIN SELECT RAISE(ABORT, 'label index unavailable'); END",
    ).run()
    let r: Awaited<ReturnType<typeof req>>
    try {
      r = await req('POST', podPath(ns), staticPod('labelled', { app: 'x' }))
    } finally {
      await env.DB.prepare('DROP TRIGGER labels_unavailable').run()
    }
    expect(r.status, r.text).toBe(503)
    expect(r.json.reason).toBe('ServiceUnavailable')
    expect(await d1('SELECT rv FROM changes WHERE ns = ? AND name = ?', ns, 'labelled')).toEqual([])
    expect(await d1('SELECT rv FROM objects WHERE ns = ? AND name = ?', ns, 'labelled')).toEqual([])
    const [{ seq: seqAfter }] = await d1<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
    expect(seqAfter).toBe(seqBefore)
    expect((await req('GET', podPath(ns, 'labelled'))).status).toBe(404)
    const again = await create(ns, 'labelled', { app: 'x' })
    expect(rvOf(again)).toBeGreaterThan(rvOf(before))
    expect(await d1('SELECT key, value FROM labels WHERE ns = ? AND name = ?', ns, 'labelled')).toEqual([
      { key: 'app', value: 'x' },
    ])
  })
})
