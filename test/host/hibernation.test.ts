// Watches across Durable Object hibernation (docs/architecture.md §4): the Worker holds the client's stream (chunked
// HTTP or WebSocket) and a hibernatable WebSocket to the namespace DO, so the DO can be evicted between events and
// its constructor runs again on the next one; the stream stays open and every later event arrives on it exactly
// once. Idle watchers never wake the DO. The DO's `stats().wakes` counts constructor runs (StoreHost.start).
//
// stats() is itself a request: on an evicted DO it wakes it (one more wake). Each test says which calls can wake.
import { env, exports } from 'cloudflare:workers'
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import {
  BASE,
  makeNamespace,
  openWatch,
  req,
  sleep,
  type WatchStream,
  leftSelector,
  staticPod,
  createStatic as create,
  removePod as remove,
  withToken,
} from '../helpers'

/** A pod no scheduler picks up, so nothing but the test changes it (and no kubelet alarm is ever set). */
const podPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const stub = (ns: string) => env.NAMESPACES.getByName(ns)
const stats = (ns: string) => stub(ns).stats()
const brief = (e: any) => [e?.type, e?.object?.metadata?.name, e?.object?.metadata?.resourceVersion]
const rv = (o: any) => Number(o.metadata.resourceVersion)

async function relabel(ns: string, name: string, labels: Record<string, string>) {
  const r = await req(
    'PATCH',
    podPath(ns, name),
    { metadata: { labels } },
    { 'content-type': 'application/merge-patch+json' },
  )
  expect(r.status, r.text).toBe(200)
  return r.json
}

/** Opens a chunked watch through the Worker and always cancels it. */
async function withWatch<T>(path: string, fn: (w: WatchStream) => Promise<T>): Promise<T> {
  const w = await openWatch(path)
  try {
    expect(w.status, JSON.stringify(w.error)).toBe(200)
    return await fn(w)
  } finally {
    await w.cancel()
  }
}

/** A WebSocket watch through the Worker: messages parsed as they arrive. */
async function openWsWatch(path: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}${path}`, { headers: withToken({ Upgrade: 'websocket' }) }),
  )
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  const messages: any[] = []
  const nonText: unknown[] = []
  const state = { closed: null as null | { code: number; reason: string } }
  ws.addEventListener('message', (e) => {
    if (typeof e.data === 'string') messages.push(JSON.parse(e.data))
    else nonText.push(e.data)
  })
  ws.addEventListener('close', (e) => {
    state.closed = { code: e.code, reason: e.reason }
  })
  ws.accept()
  let read = 0
  return {
    messages,
    nonText,
    state,
    /** The next n messages not yet taken (fewer if they do not come within ms). */
    async take(n: number, ms = 3000) {
      const deadline = Date.now() + ms
      while (messages.length < read + n && Date.now() < deadline && !state.closed) await sleep(20)
      const out = messages.slice(read, read + n)
      read += out.length
      return out
    },
    /** Messages that arrived beyond what was taken, after waiting ms for stragglers. */
    async extra(ms = 300) {
      await sleep(ms)
      return messages.slice(read)
    },
    close() {
      try {
        ws.close(1000, 'done')
      } catch {
        // already closed
      }
    },
  }
}

describe('a chunked HTTP watch across eviction of the namespace Durable Object', () => {
  it('stays open; the DO wakes (constructor again) on the next write; later events arrive once, in order', async () => {
    const ns = await makeNamespace('hib-http')
    const a = await create(ns, 'a', { app: 'web' })
    await withWatch(`${podPath(ns)}?watch=true&timeoutSeconds=30`, async (w) => {
      expect(await w.take(1)).toEqual([{ type: 'ADDED', object: a }])
      // The DO is in memory (it just served the watch): this call does not wake it.
      const s0 = await stats(ns)
      expect(s0.watchers).toBe(1)

      await evictDurableObject(stub(ns))
      const b = await create(ns, 'b') // wakes the DO: its constructor runs and catches up, then it commits
      expect(await w.next()).toEqual({ type: 'ADDED', object: b })
      const s1 = await stats(ns)
      expect(s1.wakes).toBe(s0.wakes + 1)
      expect(s1.watchers).toBe(1) // the hibernated socket is still the DO's watcher
      expect(s1.appliedRv).toBe(rv(b))

      // Several writes racing the wake-up of a freshly evicted DO: all arrive, once each, in rv order.
      await evictDurableObject(stub(ns))
      const burst = await Promise.all([
        create(ns, 'c1'),
        create(ns, 'c2'),
        create(ns, 'c3'),
        relabel(ns, 'a', { app: 'db' }),
        remove(ns, 'b'),
      ])
      const want = [...burst].sort((x, y) => rv(x) - rv(y)).map((o) => o.metadata.resourceVersion)
      const got = await w.take(5)
      expect(got.map((e) => e.object.metadata.resourceVersion)).toEqual(want)
      expect(got.map((e) => [e.type, e.object.metadata.name]).sort()).toEqual(
        [
          ['ADDED', 'c1'],
          ['ADDED', 'c2'],
          ['ADDED', 'c3'],
          ['DELETED', 'b'],
          ['MODIFIED', 'a'],
        ].sort(),
      )
      const s2 = await stats(ns)
      expect(s2.wakes).toBe(s1.wakes + 1)

      // Eviction with nothing written meanwhile, then a single change: no replay of older events, no duplicates.
      await evictDurableObject(stub(ns))
      const d = await create(ns, 'd')
      expect(await w.next()).toEqual({ type: 'ADDED', object: d })
      expect(await w.next(300)).toBeNull()
      expect(w.ended).toBe(false)
      expect((await stats(ns)).wakes).toBe(s2.wakes + 1)
    })
  })

  it('a label-selector watch keeps its filter across eviction (it lives in the socket attachment)', async () => {
    const ns = await makeNamespace('hib-sel')
    const a = await create(ns, 'a', { app: 'web' })
    await withWatch(`${podPath(ns)}?watch=true&labelSelector=app%3Dweb&timeoutSeconds=30`, async (w) => {
      expect((await w.take(1)).map(brief)).toEqual([['ADDED', 'a', expect.any(String)]])
      await evictDurableObject(stub(ns))
      await create(ns, 'other', { app: 'db' }) // not selected
      const b = await create(ns, 'b', { app: 'web' })
      expect(await w.next()).toEqual({ type: 'ADDED', object: b })
      await evictDurableObject(stub(ns))
      const out = await relabel(ns, 'a', { app: 'db' }) // stops matching: DELETED with the last matching state
      expect(await w.next()).toEqual({ type: 'DELETED', object: leftSelector(a, out) })
      const into = await relabel(ns, 'other', { app: 'web' }) // starts matching: ADDED
      expect(await w.next()).toEqual({ type: 'ADDED', object: into })
      expect(await w.next(300)).toBeNull()
    })
  })

  // workerd caps an attachment at 16 KiB; kube takes any selector. A long one's spec lives in the DO's SQLite.
  it('a watch whose selector does not fit an attachment keeps its filter across eviction too', async () => {
    const ns = await makeNamespace('hib-long')
    const terms = Array.from({ length: 500 }, (_, i) => `k${i}`)
    const labels = Object.fromEntries(terms.map((k) => [k, 'v']))
    const selector = encodeURIComponent(terms.map((k) => `${k}=v`).join(','))
    await withWatch(`${podPath(ns)}?watch=true&labelSelector=${selector}&timeoutSeconds=30`, async (w) => {
      await evictDurableObject(stub(ns))
      await create(ns, 'other', { k0: 'v' }) // matches one term of 500: not selected
      const b = await create(ns, 'b', labels)
      expect(await w.next()).toEqual({ type: 'ADDED', object: b })
      expect(await w.next(300)).toBeNull()
    })
  })
})

describe('a WebSocket watch across eviction of the namespace Durable Object', () => {
  it('stays open; events after the eviction arrive as text messages, once each, in order', async () => {
    const ns = await makeNamespace('hib-ws')
    const a = await create(ns, 'a')
    const ws = await openWsWatch(`${podPath(ns)}?watch=true&timeoutSeconds=30`)
    try {
      expect(await ws.take(1)).toEqual([{ type: 'ADDED', object: a }])
      const s0 = await stats(ns)
      expect(s0.watchers).toBe(1)

      await evictDurableObject(stub(ns))
      const b = await create(ns, 'b')
      expect(await ws.take(1)).toEqual([{ type: 'ADDED', object: b }])
      const s1 = await stats(ns)
      expect(s1.wakes).toBe(s0.wakes + 1)
      expect(s1.watchers).toBe(1)

      await evictDurableObject(stub(ns))
      const a2 = await relabel(ns, 'a', { v: '2' })
      const gone = await remove(ns, 'b')
      expect(await ws.take(2)).toEqual([
        { type: 'MODIFIED', object: a2 },
        { type: 'DELETED', object: gone },
      ])
      expect((await stats(ns)).wakes).toBe(s1.wakes + 1)
      expect(await ws.extra()).toEqual([])
      expect(ws.nonText).toEqual([])
      expect(ws.state.closed).toBeNull()
    } finally {
      ws.close()
    }
  })
})

describe('idle watchers do not wake the namespace Durable Object', () => {
  it('no wake-ups over an idle window with chunked, bookmark-enabled, selector and WebSocket watchers open', async () => {
    const ns = await makeNamespace('hib-idle')
    await create(ns, 'a', { app: 'web' })
    const streams = await Promise.all([
      openWatch(`${podPath(ns)}?watch=true&timeoutSeconds=60`),
      openWatch(`${podPath(ns)}?watch=true&allowWatchBookmarks=true&timeoutSeconds=60`),
      openWatch(`${podPath(ns)}?watch=true&labelSelector=app%3Dweb&timeoutSeconds=60`),
    ])
    const ws = await openWsWatch(`${podPath(ns)}?watch=true&allowWatchBookmarks=true&timeoutSeconds=60`)
    try {
      for (const s of streams) expect((await s.take(1)).map(brief)).toEqual([['ADDED', 'a', expect.any(String)]])
      expect((await ws.take(1)).map(brief)).toEqual([['ADDED', 'a', expect.any(String)]])

      // 1. The DO stays in memory over the window (nothing evicts it within 2 s): stats() at both ends wakes
      //    nothing, so any restart in between (a crash, a timer that re-creates it) would show.
      const s0 = await stats(ns)
      expect(s0.watchers).toBe(4)
      await sleep(2000)
      const s1 = await stats(ns)
      expect(s1.wakes).toBe(s0.wakes)
      expect(s1.watchers).toBe(4)

      // 2. Evicted, then idle: the only wake-up is the one the closing stats() call itself causes.
      await evictDurableObject(stub(ns))
      await sleep(2000)
      const s2 = await stats(ns)
      expect(s2.wakes).toBe(s1.wakes + 1)
      expect(s2.watchers).toBe(4)
      // Nothing is scheduled to wake it later either: no alarm for idle watchers (no bookmark timer, no poll).
      const alarm = await runInDurableObject(stub(ns), (_instance, state) => state.storage.getAlarm())
      expect(alarm).toBeNull()

      // No event was sent during the idle window (no bookmarks without commits), and every watcher still works.
      for (const s of streams) expect(await s.next(100)).toBeNull()
      expect(await ws.extra(0)).toEqual([])
      const b = await create(ns, 'b', { app: 'web' })
      for (const s of streams) expect(await s.next()).toEqual({ type: 'ADDED', object: b })
      expect(await ws.take(1)).toEqual([{ type: 'ADDED', object: b }])
    } finally {
      ws.close()
      await Promise.all(streams.map((s) => s.cancel()))
    }
  })
})

describe('changes the DO applies while catching up from the D1 log reach its open watchers', () => {
  // BUG (src/host/store-host.ts catchUp(), called by the write queue when a commit "failed" — src/host/write-queue.ts
  // flush() sets `suspect` — and by start() on every wake-up): catch-up applies the log entries with
  // `this.local.apply(entries)` and never calls `this.watchers.broadcast`. A D1 batch that committed but whose
  // answer was lost (a timeout: exactly the case the suspect flag exists for) is therefore applied locally — GET and
  // LIST show it — but never delivered to the watchers that are connected, which keep streaming later events: their
  // caches silently miss the object. kube delivers every committed change to every watcher from an older rv
  // (docs/architecture.md §5 invariant 7).
  it('a commit whose answer was lost (D1 timeout after commit) is still delivered once the DO catches up', async () => {
    const ns = await makeNamespace('hib-catchup')
    const base = await create(ns, 'base')
    await withWatch(
      `${podPath(ns)}?watch=true&resourceVersion=${base.metadata.resourceVersion}&timeoutSeconds=30`,
      async (w) => {
        // Fault injection: the next D1 commit of this DO goes through, then reports a failure (as a timeout would), and
        // the log read that would tell the queue it landed fails too: only a later catch-up finds the change.
        await runInDurableObject(stub(ns), (instance) => {
          const log = (
            instance as unknown as {
              host: {
                log: {
                  commit: (...args: unknown[]) => Promise<number[]>
                  changesFor: (...args: unknown[]) => Promise<unknown>
                }
              }
            }
          ).host.log
          const commit = log.commit.bind(log)
          const changesFor = log.changesFor.bind(log)
          let armed = true
          log.commit = async (...args: unknown[]) => {
            const rvs = await commit(...args)
            if (armed) {
              armed = false
              log.changesFor = async () => {
                log.changesFor = changesFor
                throw new Error('simulated D1 outage')
              }
              throw new Error('simulated D1 timeout after the batch committed')
            }
            return rvs
          }
        })
        const lost = await req('POST', podPath(ns), staticPod('lost-answer'))
        expect(lost.status, lost.text).toBe(503)
        const next = await create(ns, 'next') // the queue is suspect: it catches up (applying lost-answer), then commits
        const got = await req('GET', podPath(ns, 'lost-answer'))
        expect(got.status).toBe(200) // committed, and visible on the read path
        const events = await w.take(2, 2000)
        expect(events.map(brief)).toEqual([
          ['ADDED', 'lost-answer', got.json.metadata.resourceVersion],
          ['ADDED', 'next', next.metadata.resourceVersion],
        ])
      },
    )
  })
})
