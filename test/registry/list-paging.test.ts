// List paging (limit + continue) over a namespace's Durable Object and across namespaces (D1): every item exactly once
// in key order, consistent snapshots across pages, remainingItemCount, token and ListOptions validation, Exact lists
// at older resourceVersions, and 410 Expired once history is gone.
import { env } from 'cloudflare:workers'
import { evictDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, staticPod, createStatic as create, removePod as remove } from '../helpers'

/** A pod no scheduler picks up (schedulerName names none), so nothing but the test changes it. */
import { D1Log } from '../../src/log/d1-log'

type Page = { items: any[]; rv: string; continue?: string; remaining?: number }

const key = (o: any) => `${o.metadata.namespace}/${o.metadata.name}`
const ident = (o: any) => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`

async function page(path: string): Promise<Page> {
  const r = await req('GET', path)
  expect(r.status, r.text).toBe(200)
  return {
    items: r.json.items,
    rv: r.json.metadata.resourceVersion,
    continue: r.json.metadata.continue,
    remaining: r.json.metadata.remainingItemCount,
  }
}

/** `path` with its continue parameter set to `token`, and without resourceVersion(Match), as clients continue. */
function continued(path: string, token: string): string {
  const url = new URL(path, 'http://x')
  url.searchParams.set('continue', token)
  url.searchParams.delete('resourceVersion')
  url.searchParams.delete('resourceVersionMatch')
  return `${url.pathname}${url.search}`
}

/** Follows continue tokens from `path` (which carries limit) to the end; answers every page. */
async function allPages(path: string): Promise<Page[]> {
  const pages = [await page(path)]
  while (pages[pages.length - 1]!.continue) {
    pages.push(await page(continued(path, pages[pages.length - 1]!.continue!)))
    expect(pages.length).toBeLessThan(1000)
  }
  return pages
}

async function relabel(ns: string, name: string, labels: Record<string, string>) {
  const g = await req('GET', `/api/v1/namespaces/${ns}/pods/${name}`)
  const r = await req('PUT', `/api/v1/namespaces/${ns}/pods/${name}`, {
    ...g.json,
    metadata: { ...g.json.metadata, labels },
  })
  expect(r.status, r.text).toBe(200)
  return r.json
}

const expectStatus = (
  r: { status: number; json: any; text: string },
  code: number,
  reason: string,
  message?: string,
) => {
  expect(r.status, r.text).toBe(code)
  expect(r.json?.kind).toBe('Status')
  expect(r.json.code).toBe(code)
  expect(r.json.reason).toBe(reason)
  if (message !== undefined) expect(r.json.message).toBe(message)
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'

describe('paging within a namespace (Durable Object)', () => {
  it('every item exactly once, in name order, with remainingItemCount', async () => {
    const ns = await makeNamespace('pg')
    const names = Array.from({ length: 11 }, (_, i) => `p${String(i).padStart(2, '0')}`)
    for (const n of [...names].reverse()) await create(ns, n)
    const full = await page(`/api/v1/namespaces/${ns}/pods`)
    expect(full.items.map((o) => o.metadata.name)).toEqual(names)

    const pages = await allPages(`/api/v1/namespaces/${ns}/pods?limit=3`)
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 3, 2])
    expect(pages.flatMap((p) => p.items)).toEqual(full.items)
    expect(pages.map((p) => p.remaining)).toEqual([8, 5, 2, undefined])
    expect(pages[3]!.continue).toBeUndefined()
    // Every page reports the snapshot of the first.
    for (const p of pages) expect(p.rv).toBe(pages[0]!.rv)

    for (const limit of [1, 2, 10, 11, 12, 500]) {
      const ps = await allPages(`/api/v1/namespaces/${ns}/pods?limit=${limit}`)
      expect(ps.flatMap((p) => p.items).map(ident), `limit=${limit}`).toEqual(full.items.map(ident))
      expect(ps.length).toBe(Math.max(1, Math.ceil(11 / limit)))
      if (ps.length > 1) expect(ps[0]!.remaining).toBe(11 - limit)
    }
    // limit=0 means no limit.
    const zero = await page(`/api/v1/namespaces/${ns}/pods?limit=0`)
    expect(zero.items.length).toBe(11)
    expect(zero.continue).toBeUndefined()
  })

  it('pages with a label selector: every match exactly once, no remainingItemCount', async () => {
    const ns = await makeNamespace('pgl')
    for (let i = 0; i < 12; i++)
      await create(ns, `q${String(i).padStart(2, '0')}`, { parity: i % 2 ? 'odd' : 'even', all: 'yes' })
    for (const sel of ['parity=odd', 'parity in (odd)', 'parity!=even', 'all']) {
      const full = await page(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(sel)}`)
      const ps = await allPages(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(sel)}&limit=2`)
      expect(ps.flatMap((p) => p.items).map(ident), sel).toEqual(full.items.map(ident))
      for (const p of ps) expect(p.remaining).toBeUndefined()
    }
  })

  it('later pages show the snapshot of the first: modified shows old, deleted still shown, created not shown', async () => {
    const ns = await makeNamespace('snap')
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']
    const before = new Map<string, any>()
    for (const n of names) before.set(n, await create(ns, n, { v: '1', keep: 'yes' }))
    const base = `/api/v1/namespaces/${ns}/pods?limit=3`
    const p1 = await page(base)
    expect(p1.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c'])
    expect(p1.remaining).toBe(6)

    // Between page 1 and page 2:
    await relabel(ns, 'e', { v: '2', keep: 'yes' }) // modified, on page 2
    await remove(ns, 'f') // deleted, on page 2
    await create(ns, 'd2', { v: '1', keep: 'yes' }) // created, would sort onto page 2
    await remove(ns, 'g') // deleted and re-created: page 3 shows the old one
    const g2 = await create(ns, 'g', { v: 'new', keep: 'yes' })
    await create(ns, 'h2', { v: '1', keep: 'yes' }) // created, would sort onto page 3
    await relabel(ns, 'a', { v: '9', keep: 'yes' }) // already returned

    const p2 = await page(`${base}&continue=${encodeURIComponent(p1.continue!)}`)
    expect(p2.items.map((o) => o.metadata.name)).toEqual(['d', 'e', 'f'])
    expect(p2.items.map(ident)).toEqual(['d', 'e', 'f'].map((n) => ident(before.get(n))))
    expect(p2.items[1].metadata.labels.v).toBe('1')
    expect(p2.rv).toBe(p1.rv)
    expect(p2.remaining).toBe(3)
    const p3 = await page(`${base}&continue=${encodeURIComponent(p2.continue!)}`)
    expect(p3.items.map(ident)).toEqual(['g', 'h', 'i'].map((n) => ident(before.get(n))))
    expect(p3.items[0].metadata.uid).not.toBe(g2.metadata.uid)
    expect(p3.continue).toBeUndefined()

    // The same through the label index: e's new labels no longer match, but its snapshot state does.
    const sel = `&labelSelector=${encodeURIComponent('keep=yes')}`
    const q1 = await page(`${base}${sel}`)
    await relabel(ns, 'e', { v: '3' })
    await remove(ns, 'd')
    const q2 = await page(`${base}${sel}&continue=${encodeURIComponent(q1.continue!)}`)
    expect(q2.items.map((o) => o.metadata.name)).toEqual(['d', 'd2', 'e'])
    expect(q2.items[2].metadata.labels).toEqual({ v: '2', keep: 'yes' })

    // A fresh list shows the present.
    const now = await page(`/api/v1/namespaces/${ns}/pods`)
    expect(now.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd2', 'e', 'g', 'h', 'h2', 'i'])
  })

  it('resourceVersion with limit (no match) and resourceVersionMatch=Exact list the old state', async () => {
    const ns = await makeNamespace('exact')
    await create(ns, 'a', { v: '1' })
    const b = await create(ns, 'b', { v: '1' })
    const at = b.metadata.resourceVersion
    await relabel(ns, 'a', { v: '2' })
    await remove(ns, 'b')
    await create(ns, 'c')
    const old = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&resourceVersionMatch=Exact`)
    expect(old.rv).toBe(at)
    expect(old.items.map((o) => [o.metadata.name, o.metadata.labels?.v])).toEqual([
      ['a', '1'],
      ['b', '1'],
    ])
    for (const o of old.items) expect(Number(o.metadata.resourceVersion)).toBeLessThanOrEqual(Number(at))
    // Legacy: resourceVersion plus limit is an Exact list.
    const legacy = await allPages(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&limit=1`)
    expect(legacy.flatMap((p) => p.items).map(ident)).toEqual(old.items.map(ident))
    // NotOlderThan (and plain resourceVersion) answer the present.
    const recent = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&resourceVersionMatch=NotOlderThan`)
    expect(recent.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
    expect(Number(recent.rv)).toBeGreaterThan(Number(at))
    const plain = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}`)
    expect(plain.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
    // resourceVersion=0 ignores limit, as kube's watch cache does.
    const any = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=0&limit=1`)
    expect(any.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
    expect(any.continue).toBeUndefined()
  })
})

describe('paging across namespaces (D1)', () => {
  it('every item exactly once, in (namespace, name) order, with remainingItemCount', async () => {
    const nss = [await makeNamespace('cw'), await makeNamespace('cw'), await makeNamespace('cw')]
    for (const ns of nss) for (const n of ['z', 'm', 'a', 'k']) await create(ns, n)
    const full = await page('/api/v1/pods')
    const keys = full.items.map(key)
    expect(keys).toEqual(
      [...keys].sort((x, y) => {
        const [xa, xb] = x.split('/')
        const [ya, yb] = y.split('/')
        return xa! < ya! ? -1 : xa! > ya! ? 1 : xb! < yb! ? -1 : xb! > yb! ? 1 : 0
      }),
    )
    for (const ns of nss)
      expect(keys.filter((k) => k.startsWith(`${ns}/`))).toEqual(['a', 'k', 'm', 'z'].map((n) => `${ns}/${n}`))
    for (const o of full.items) expect(Number(o.metadata.resourceVersion)).toBeLessThanOrEqual(Number(full.rv))

    for (const limit of [1, 4, 5, 7]) {
      const ps = await allPages(`/api/v1/pods?limit=${limit}`)
      expect(ps.flatMap((p) => p.items).map(ident), `limit=${limit}`).toEqual(full.items.map(ident))
      if (ps.length > 1) {
        expect(ps[0]!.remaining).toBe(full.items.length - limit)
        expect(ps[ps.length - 2]!.remaining).toBe(ps[ps.length - 1]!.items.length)
      }
    }
  })

  it('label-selected pages across namespaces: every match exactly once', async () => {
    const run = `r${Date.now().toString(36)}`
    const nss = [await makeNamespace('cwl'), await makeNamespace('cwl')]
    for (const ns of nss) for (let i = 0; i < 5; i++) await create(ns, `x${i}`, { run, odd: String(i % 2) })
    for (const sel of [`run=${run}`, `run=${run},odd=1`, `run in (${run}),odd!=1`, `run=${run},!nothing`]) {
      const full = await page(`/api/v1/pods?labelSelector=${encodeURIComponent(sel)}`)
      expect(full.items.length).toBeGreaterThan(0)
      const ps = await allPages(`/api/v1/pods?labelSelector=${encodeURIComponent(sel)}&limit=2`)
      expect(ps.flatMap((p) => p.items).map(ident), sel).toEqual(full.items.map(ident))
    }
  })

  it('later pages show the snapshot of the first (label index and full scan)', async () => {
    const run = `s${Date.now().toString(36)}`
    const [n1, n2, n3] = [await makeNamespace('cws'), await makeNamespace('cws'), await makeNamespace('cws')]
    const before = new Map<string, any>()
    for (const ns of [n1!, n2!, n3!])
      for (const n of ['a', 'b', 'c']) before.set(`${ns}/${n}`, await create(ns, n, { run, v: '1' }))
    const snapshotAll = await page('/api/v1/pods') // the whole cluster at the first page's snapshot
    const sel = `labelSelector=${encodeURIComponent(`run=${run}`)}`
    const p1 = await page(`/api/v1/pods?${sel}&limit=3`)
    expect(p1.items.map(key)).toEqual(['a', 'b', 'c'].map((n) => `${n1}/${n}`))
    const u1 = await page(`/api/v1/pods?limit=2`)
    expect(u1.rv).toBe(snapshotAll.rv)

    await relabel(n2!, 'a', { run, v: '2' }) // modified, on page 2
    await remove(n2!, 'b') // deleted, on page 2
    await create(n2!, 'bb', { run, v: '1' }) // created, sorts onto page 2
    await relabel(n3!, 'c', { v: 'gone' }) // leaves the selector
    await create(n1!, 'zz', { run }) // created in a namespace already returned

    const rest = [p1]
    while (rest[rest.length - 1]!.continue) {
      rest.push(
        await page(`/api/v1/pods?${sel}&limit=3&continue=${encodeURIComponent(rest[rest.length - 1]!.continue!)}`),
      )
    }
    const listed = rest.flatMap((p) => p.items)
    expect(listed.map(ident)).toEqual([...before.values()].map(ident))
    expect(listed.find((o) => key(o) === `${n2}/a`).metadata.labels.v).toBe('1')
    for (const p of rest) expect(p.rv).toBe(p1.rv)

    // Without a selector (full scan), the pages after the first still add up to the first page's snapshot.
    const unsel = [u1]
    while (unsel[unsel.length - 1]!.continue) {
      unsel.push(await page(`/api/v1/pods?limit=2&continue=${encodeURIComponent(unsel[unsel.length - 1]!.continue!)}`))
    }
    expect(unsel.flatMap((p) => p.items).map(ident)).toEqual(snapshotAll.items.map(ident))
  })

  it('an Exact list at an older resourceVersion shows the old state', async () => {
    const ns = await makeNamespace('cwe')
    const run = `e${Date.now().toString(36)}`
    await create(ns, 'a', { run, v: '1' })
    const b = await create(ns, 'b', { run, v: '1' })
    const at = b.metadata.resourceVersion
    await relabel(ns, 'a', { run, v: '2' })
    await remove(ns, 'b')
    await create(ns, 'c', { run })
    const sel = `labelSelector=${encodeURIComponent(`run=${run}`)}`
    const old = await page(`/api/v1/pods?${sel}&resourceVersion=${at}&resourceVersionMatch=Exact`)
    expect(old.rv).toBe(at)
    expect(old.items.map((o) => [o.metadata.name, o.metadata.labels.v])).toEqual([
      ['a', '1'],
      ['b', '1'],
    ])
    const oldAll = await page(`/api/v1/pods?resourceVersion=${at}&resourceVersionMatch=Exact`)
    for (const o of oldAll.items) expect(Number(o.metadata.resourceVersion)).toBeLessThanOrEqual(Number(at))
    expect(oldAll.items.filter((o) => o.metadata.namespace === ns).map((o) => o.metadata.name)).toEqual(['a', 'b'])
    const legacy = await allPages(`/api/v1/pods?${sel}&resourceVersion=${at}&limit=1`)
    expect(legacy.flatMap((p) => p.items).map(ident)).toEqual(old.items.map(ident))
    const now = await page(`/api/v1/pods?${sel}`)
    expect(now.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
  })

  // BUG (src/log/d1-log.ts listSource + src/registry/list.ts listObjects): the D1 source reads its snapshot rv
  // (MAX(rv) of changes) in one query and scans the objects table in later ones, with no transaction between. An
  // update committed in between gives the object's row an rv above the snapshot, so listObjects skips it
  // (`if (it.rv > snapshot) continue`), and since changedSince is only consulted when snapshot < currentRv, its
  // state at the snapshot is not merged in either: the object is missing from the list although it existed before,
  // during and after the request. kube's list is a consistent etcd snapshot: an existing object is always listed.
  it('a cluster-wide list during concurrent updates never misses an existing object', async () => {
    const ns = await makeNamespace('race')
    const run = `race${Date.now().toString(36)}`
    for (const n of ['a', 'b', 'c', 'd']) await create(ns, n, { run, n: '0' })
    let stop = false
    const writers = ['a', 'b', 'c', 'd'].map(async (n) => {
      for (let i = 1; !stop && i < 400; i++) {
        const g = await req('GET', `/api/v1/namespaces/${ns}/pods/${n}`)
        await req('PUT', `/api/v1/namespaces/${ns}/pods/${n}`, {
          ...g.json,
          metadata: { ...g.json.metadata, labels: { run, n: String(i) } },
        })
      }
    })
    const misses: string[] = []
    try {
      for (let i = 0; i < 150 && misses.length === 0; i++) {
        const sel = i % 2 ? `&labelSelector=${encodeURIComponent(`run=${run}`)}` : ''
        const l = await page(`/api/v1/pods?limit=500${sel}`)
        const mine = l.items.filter((o) => o.metadata.namespace === ns).map((o) => o.metadata.name)
        if (mine.length !== 4) misses.push(`list at ${l.rv}${sel ? ' (selector)' : ''}: ${mine.join(',')}`)
      }
    } finally {
      stop = true
      await Promise.all(writers)
    }
    expect(misses).toEqual([])
  })
})

describe('token and ListOptions validation', () => {
  it('a tampered continue token is 400', async () => {
    const ns = await makeNamespace('tok')
    for (const n of ['a', 'b', 'c']) await create(ns, n)
    const p1 = await page(`/api/v1/namespaces/${ns}/pods?limit=1`)
    const good = p1.continue!
    const decoded = JSON.parse(
      atob(good.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (good.length % 4)) % 4)),
    )
    const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const tampered = [
      good.slice(0, -2),
      `${good}!!`,
      'not-a-token',
      'e30',
      b64({ ...decoded, v: 'meta.k8s.io/v0' }),
      b64({ ...decoded, rv: -5 }),
      b64({ ...decoded, rv: 'abc' }),
      b64({ ...decoded, rv: 1.5 }),
      b64({ ...decoded, start: '' }),
      b64({ ...decoded, start: 7 }),
      b64([1, 2]),
      b64('str'),
    ]
    for (const t of tampered) {
      for (const base of [`/api/v1/namespaces/${ns}/pods`, '/api/v1/pods']) {
        const r = await req('GET', `${base}?limit=1&continue=${encodeURIComponent(t)}`)
        expectStatus(r, 400, 'BadRequest')
        expect(r.json.message, t).toMatch(/^continue key is not valid/)
      }
    }
  })

  it('resourceVersion with continue is 400', async () => {
    const ns = await makeNamespace('tok')
    for (const n of ['a', 'b']) await create(ns, n)
    for (const base of [`/api/v1/namespaces/${ns}/pods`, '/api/v1/pods']) {
      const p1 = await page(`${base}?limit=1`)
      const r = await req(
        'GET',
        `${base}?limit=1&continue=${encodeURIComponent(p1.continue!)}&resourceVersion=${p1.rv}`,
      )
      expectStatus(r, 400, 'BadRequest', 'specifying resource version is not allowed when using continue')
    }
  })

  it('resourceVersionMatch without resourceVersion (and other bad combinations) is 422', async () => {
    const ns = await makeNamespace('rvm')
    await create(ns, 'a')
    await create(ns, 'b')
    for (const base of [`/api/v1/namespaces/${ns}/pods`, '/api/v1/pods']) {
      for (const m of ['Exact', 'NotOlderThan']) {
        const r = await req('GET', `${base}?resourceVersionMatch=${m}`)
        expectStatus(
          r,
          422,
          'Invalid',
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        )
        expect(r.json.details).toEqual({
          name: '',
          group: 'meta.k8s.io',
          kind: 'ListOptions',
          causes: [
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
              field: 'resourceVersionMatch',
            },
          ],
        })
      }
      const zeroExact = await req('GET', `${base}?resourceVersion=0&resourceVersionMatch=Exact`)
      expectStatus(zeroExact, 422, 'Invalid')
      expect(zeroExact.json.message).toContain('resourceVersionMatch "exact" is forbidden for resourceVersion "0"')
      const p1 = await page(`${base}?limit=1`)
      const withContinue = await req(
        'GET',
        `${base}?limit=1&continue=${encodeURIComponent(p1.continue!)}&resourceVersionMatch=NotOlderThan`,
      )
      expectStatus(withContinue, 422, 'Invalid')
      const unknown = await req('GET', `${base}?resourceVersion=1&resourceVersionMatch=Sometime`)
      expectStatus(unknown, 422, 'Invalid')
      expect(unknown.json.details.causes[0].reason).toBe('FieldValueNotSupported')
    }
  })

  it('a resourceVersion beyond the newest is 504 Too large resource version', async () => {
    const ns = await makeNamespace('big')
    const a = await create(ns, 'a')
    const far = Number(a.metadata.resourceVersion) + 1_000_000
    for (const base of [`/api/v1/namespaces/${ns}/pods`, '/api/v1/pods']) {
      const r = await req('GET', `${base}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`)
      expectStatus(r, 504, 'Timeout')
      expect(r.json.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`))
      expect(r.json.details.causes).toEqual([
        { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
      ])
    }
  })
})

describe('expired history (HISTORY_RETAIN=200 in the test worker)', () => {
  /** Writes `n` events into a namespace (updates of one pod), concurrently in small groups. */
  async function churn(ns: string, n: number) {
    const name = 'churn'
    let g = await req('POST', `/api/v1/namespaces/${ns}/pods`, staticPod(name))
    expect(g.status, g.text).toBe(201)
    for (let i = 1; i < n; i++) {
      const r = await req('PUT', `/api/v1/namespaces/${ns}/pods/${name}`, {
        ...g.json,
        metadata: { ...g.json.metadata, labels: { i: String(i) } },
      })
      expect(r.status, r.text).toBe(200)
      g = r
    }
  }

  it('an Exact list older than the namespace history is 410 Expired', async () => {
    const ns = await makeNamespace('old')
    const a = await create(ns, 'a')
    const at = a.metadata.resourceVersion
    const ok = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&resourceVersionMatch=Exact`)
    expect(ok.items.map((o) => o.metadata.name)).toEqual(['a'])
    await churn(ns, 210)
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&resourceVersionMatch=Exact`)
    expectStatus(r, 410, 'Expired', 'The resourceVersion for the provided list is too old.')
    const legacy = await req('GET', `/api/v1/namespaces/${ns}/pods?resourceVersion=${at}&limit=5`)
    expectStatus(legacy, 410, 'Expired', 'The resourceVersion for the provided list is too old.')
    // NotOlderThan is still fine: it answers the present.
    const recent = await page(`/api/v1/namespaces/${ns}/pods?resourceVersion=${at}`)
    expect(recent.items.map((o) => o.metadata.name)).toEqual(['a', 'churn'])
  })

  it('an expired continue token is 410 with a fresh token that continues from the same place', async () => {
    const ns = await makeNamespace('oldc')
    for (const n of ['a', 'b', 'c', 'd', 'e']) await create(ns, n)
    const p1 = await page(`/api/v1/namespaces/${ns}/pods?limit=2`)
    expect(p1.items.map((o) => o.metadata.name)).toEqual(['a', 'b'])
    await churn(ns, 210)
    await remove(ns, 'd')
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods?limit=2&continue=${encodeURIComponent(p1.continue!)}`)
    expectStatus(r, 410, 'Expired', EXPIRED_CONTINUE)
    const fresh = r.json.metadata.continue
    expect(typeof fresh).toBe('string')
    expect(fresh).not.toBe(p1.continue)
    const rest = await allPages(`/api/v1/namespaces/${ns}/pods?limit=2&continue=${encodeURIComponent(fresh)}`)
    // The remainder as of now: after b, without the deleted d, with the new churn pod.
    expect(rest.flatMap((p) => p.items).map((o) => o.metadata.name)).toEqual(['c', 'churn', 'e'])
  })

  // Runs last in this file: compacts the D1 change log, which every namespace's history depends on.
  it('across namespaces, after D1 compaction: Exact lists and continue tokens older than the log are 410', async () => {
    const quiet = await makeNamespace('cmpq')
    const q = await create(quiet, 'q')
    const ns = await makeNamespace('cmp')
    for (const n of ['a', 'b', 'c']) await create(ns, n)
    const p1 = await page('/api/v1/pods?limit=1')
    const oldRv = p1.rv
    await create(ns, 'd')
    await create(ns, 'e')
    const log = new D1Log(env.DB)
    let floor = 0
    for (let i = 0; i < 20 && floor <= Number(oldRv); i++) floor = await log.compact(1)
    expect(floor).toBeGreaterThan(Number(oldRv))
    const exact = await req('GET', `/api/v1/pods?resourceVersion=${oldRv}&resourceVersionMatch=Exact`)
    expectStatus(exact, 410, 'Expired', 'The resourceVersion for the provided list is too old.')
    const cont = await req('GET', `/api/v1/pods?limit=1&continue=${encodeURIComponent(p1.continue!)}`)
    expectStatus(cont, 410, 'Expired', EXPIRED_CONTINUE)
    expect(typeof cont.json.metadata.continue).toBe('string')
    const rest = await allPages(`/api/v1/pods?limit=2&continue=${encodeURIComponent(cont.json.metadata.continue)}`)
    const full = await page('/api/v1/pods')
    // The fresh token continues after the first page's last item, in the present.
    expect([...p1.items, ...rest.flatMap((p) => p.items)].map(key)).toEqual(full.items.map(key))
    // A namespace DO that wakes up behind the compacted log rebuilds from the objects table and still serves.
    await evictDurableObject(env.NAMESPACES.getByName(quiet))
    const l = await page(`/api/v1/namespaces/${quiet}/pods`)
    expect(l.items.map(ident)).toEqual([ident(q)])
    const old = await req(
      'GET',
      `/api/v1/namespaces/${quiet}/pods?resourceVersion=${q.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    )
    expectStatus(old, 410, 'Expired', 'The resourceVersion for the provided list is too old.')
    const q2 = await create(quiet, 'q2')
    expect(Number(q2.metadata.resourceVersion)).toBeGreaterThan(floor)
    expect((await page(`/api/v1/namespaces/${quiet}/pods`)).items.map((o) => o.metadata.name)).toEqual(['q', 'q2'])
    const l2 = await page(`/api/v1/namespaces/${ns}/pods`)
    expect(l2.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd', 'e'])
  })
})
