// One behaviour suite for a host's watch fan-out (src/host/watchers.ts), run over both memberships: in-memory
// recording sockets (memory-watchers.test.ts) and hibernatable WebSockets inside a Durable Object
// (hibernating-watchers.test.ts), where the assertions read what the client end of each socket received.
import { describe, expect, it, vi } from 'vitest'
import type { WatchSpec } from '../../src/host/watch-membership'
import type { Watchers } from '../../src/host/watchers'
import { resourceByPlural } from '../../src/registry/resources'
import { parseSelectors, type Selectors } from '../../src/registry/selectors'
import type { ChangeType, LogEntry } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'

export interface WatchEventSeen {
  type: string
  object: Record<string, any>
}

/** The client's view of one watch. */
export interface WatchClient {
  /** Every event the client received so far, once everything the host sent before the call has arrived. */
  received(): Promise<WatchEventSeen[]>
  /** How the host ended the watch (after everything it sent has arrived), or null while it is open. */
  closed(): Promise<{ code?: number; reason?: string } | null>
}

export interface WatchersHarness {
  watchers: Watchers
  /** Joins a new watch through `watchers.accept` and answers its client. */
  join(spec: WatchSpec): WatchClient
}

/** Runs `fn` with fresh watchers over the implementation's membership, where that membership must run. */
export type WithWatchers = (fn: (h: WatchersHarness) => Promise<void>) => Promise<void>

const pod = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})
const service = (name: string): KubeObject => ({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name, namespace: 'ns', uid: `uid-svc-${name}` },
})

const stamp = (o: KubeObject, rv: number): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, resourceVersion: String(rv) },
})

/** Committed entries as the log answers them: objects carry their resourceVersion, prev the one it had. */
function history(start = 1000) {
  let rv = start
  const last = new Map<string, LogEntry>()
  return (
    type: ChangeType,
    object: KubeObject,
    resource = object.kind === 'Service' ? 'services' : 'pods',
  ): LogEntry => {
    const key = `${resource}/${object.metadata.name}`
    const before = last.get(key) ?? null
    const at = ++rv
    const e: LogEntry = {
      rv: at,
      type,
      resource,
      namespace: 'ns',
      name: object.metadata.name!,
      object: stamp(object, at),
      prev: type === 'ADDED' ? null : before!.object,
      prevRv: type === 'ADDED' ? null : before!.rv,
    }
    last.set(key, e)
    return e
  }
}

const selectors = (label?: string, field?: string): Selectors => {
  const parsed = parseSelectors(resourceByPlural('pods')!.strategy, label, field)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.status))
  return parsed.value
}

const spec = (s: Partial<WatchSpec> = {}): WatchSpec => ({ resource: 'pods', bookmarks: false, from: 0, ...s })
/** type, name, resourceVersion of each event: what a watcher's order and content come down to. */
const brief = (events: WatchEventSeen[]) =>
  events.map((e) => [e.type, e.object.metadata?.name, e.object.metadata?.resourceVersion])
const last = (entries: LogEntry[]) => entries[entries.length - 1]!.rv

/** Pins Date.now (which spaces bookmarks) for the duration of `fn`. */
async function atTimes(fn: (set: (ms: number) => void) => Promise<void>) {
  let now = 1_700_000_000_000
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => now)
  try {
    await fn((ms) => (now = ms))
  } finally {
    spy.mockRestore()
  }
}

export function watchersCases(implementation: string, withWatchers: WithWatchers) {
  describe(`${implementation}: fan-out`, () => {
    it('sends every unfiltered watcher each entry of a batch, in resourceVersion order, as committed', () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const one = join(spec())
        const two = join(spec())
        const batch = [
          e('ADDED', pod('b')),
          e('ADDED', pod('a')),
          e('MODIFIED', pod('b', { v: '2' })),
          e('DELETED', pod('a')),
        ]
        watchers.broadcast(batch, last(batch))
        const more = [e('ADDED', pod('c'))]
        watchers.broadcast(more, last(more))
        const want = [...batch, ...more].map((x) => [x.type, x.name, String(x.rv)])
        for (const w of [one, two]) {
          const got = await w.received()
          expect(brief(got)).toEqual(want)
          // The objects arrive whole, as the log answered them.
          expect(got.map((g) => g.object)).toEqual([...batch, ...more].map((x) => x.object))
        }
      }))

    it('skips what a watcher already had from its replay: entries at or below its `from`', () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const batch = [
          e('ADDED', pod('a', { app: 'web' })),
          e('ADDED', pod('b', { app: 'web' })),
          e('ADDED', pod('c', { app: 'web' })),
          e('ADDED', pod('d', { app: 'web' })),
        ]
        const fresh = join(spec())
        const replayed = join(spec({ from: batch[1]!.rv }))
        // A filtered watcher takes the other path through the fan-out; it must skip the same way.
        const filtered = join(spec({ from: batch[2]!.rv, selectors: selectors('app=web') }))
        const past = join(spec({ from: last(batch) }))
        watchers.broadcast(batch, last(batch))
        expect((await fresh.received()).map((g) => g.object.metadata.name)).toEqual(['a', 'b', 'c', 'd'])
        expect((await replayed.received()).map((g) => g.object.metadata.name)).toEqual(['c', 'd'])
        expect((await filtered.received()).map((g) => g.object.metadata.name)).toEqual(['d'])
        expect(await past.received()).toEqual([])
      }))

    it('crosses label selectors as kube does: leaving is DELETED with the last matching state at the new rv, entering is ADDED', () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const web = join(spec({ selectors: selectors('app=web') }))
        const all = join(spec())
        const a1 = e('ADDED', pod('a', { app: 'web', v: '1' }))
        const a2 = e('MODIFIED', pod('a', { app: 'web', v: '2' }))
        const a3 = e('MODIFIED', pod('a', { app: 'db', v: '3' }))
        const b1 = e('ADDED', pod('b', { app: 'db' }))
        const a4 = e('MODIFIED', pod('a', { app: 'db', v: '4' }))
        const a5 = e('MODIFIED', pod('a', { app: 'web', v: '5' }))
        const b2 = e('DELETED', pod('b', { app: 'db' }))
        const a6 = e('DELETED', pod('a', { app: 'web', v: '5' }))
        const batch = [a1, a2, a3, b1, a4, a5, b2, a6]
        watchers.broadcast(batch, last(batch))
        const got = await web.received()
        expect(brief(got)).toEqual([
          ['ADDED', 'a', String(a1.rv)],
          ['MODIFIED', 'a', String(a2.rv)],
          ['DELETED', 'a', String(a3.rv)],
          ['ADDED', 'a', String(a5.rv)],
          ['DELETED', 'a', String(a6.rv)],
        ])
        // The DELETED of a crossing shows the state the watcher last saw (v 2, app web), stamped with the change's rv.
        expect(got[2]!.object).toEqual(stamp(pod('a', { app: 'web', v: '2' }), a3.rv))
        expect(got[3]!.object).toEqual(a5.object)
        // The unfiltered watcher beside it sees every change as it was.
        expect(brief(await all.received())).toEqual(batch.map((x) => [x.type, x.name, String(x.rv)]))
      }))

    it('filters on field selectors too', () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const named = join(spec({ selectors: selectors(undefined, 'metadata.name=b') }))
        const batch = [
          e('ADDED', pod('a')),
          e('ADDED', pod('b')),
          e('MODIFIED', pod('a', { v: '2' })),
          e('DELETED', pod('b')),
        ]
        watchers.broadcast(batch, last(batch))
        expect(brief(await named.received())).toEqual([
          ['ADDED', 'b', String(batch[1]!.rv)],
          ['DELETED', 'b', String(batch[3]!.rv)],
        ])
      }))

    it("gives watchers of one resource nothing of another's changes, and each its own in order from a mixed batch", () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const pods = join(spec())
        const services = join(spec({ resource: 'services' }))
        const nodes = join(spec({ resource: 'nodes' }))
        const batch = [
          e('ADDED', pod('a')),
          e('ADDED', service('s')),
          e('ADDED', pod('b')),
          e('MODIFIED', service('s')),
          e('DELETED', pod('a')),
        ]
        watchers.broadcast(batch, last(batch))
        const of = (r: string) => batch.filter((x) => x.resource === r).map((x) => [x.type, x.name, String(x.rv)])
        expect(brief(await pods.received())).toEqual(of('pods'))
        expect(brief(await services.received())).toEqual(of('services'))
        expect(await nodes.received()).toEqual([])
      }))

    it('an empty broadcast sends nothing, not even a bookmark', () =>
      withWatchers(async ({ watchers, join }) => {
        const w = join(spec({ bookmarks: true }))
        watchers.broadcast([], 5000)
        expect(await w.received()).toEqual([])
      }))
  })

  describe(`${implementation}: bookmarks`, () => {
    it('go, at most every 10 s, to watchers that asked for them and saw nothing of a commit', () =>
      atTimes(async (setNow) =>
        withWatchers(async ({ watchers, join }) => {
          const e = history()
          const t0 = Date.now()
          const quiet = join(spec({ bookmarks: true, selectors: selectors('app=web') }))
          const otherKind = join(spec({ resource: 'services', bookmarks: true }))
          const noBookmarks = join(spec({ selectors: selectors('app=web') }))
          const kinds = async (w: WatchClient) =>
            (await w.received()).map((g) => [
              g.type,
              g.object.kind,
              g.object.apiVersion,
              g.object.metadata.resourceVersion,
            ])

          // Nothing the watcher matches: it gets a bookmark at the commit's current resourceVersion instead.
          const c1 = [e('ADDED', pod('a', { app: 'db' }))]
          watchers.broadcast(c1, last(c1) + 7)
          expect(await kinds(quiet)).toEqual([['BOOKMARK', 'Pod', 'v1', String(last(c1) + 7)]])
          expect(await kinds(otherKind)).toEqual([['BOOKMARK', 'Service', 'v1', String(last(c1) + 7)]])
          // A bookmark carries only its resourceVersion (and Go's null creationTimestamp).
          expect((await quiet.received())[0]!.object).toEqual({
            kind: 'Pod',
            apiVersion: 'v1',
            metadata: { resourceVersion: String(last(c1) + 7), creationTimestamp: null },
          })

          // Within 10 s of the last one: nothing.
          setNow(t0 + 9_999)
          const c2 = [e('ADDED', pod('b', { app: 'db' }))]
          watchers.broadcast(c2, last(c2))
          expect(await quiet.received()).toHaveLength(1)
          expect(await otherKind.received()).toHaveLength(1)

          // 10 s on, the next commit it does not see brings the next one.
          setNow(t0 + 10_000)
          const c3 = [e('ADDED', pod('c', { app: 'db' }))]
          watchers.broadcast(c3, last(c3))
          expect((await kinds(quiet)).slice(1)).toEqual([['BOOKMARK', 'Pod', 'v1', String(last(c3))]])

          // A commit the watcher sees is its own progress report: an event, no bookmark (the services watcher, which
          // saw nothing of it and is due, gets one).
          setNow(t0 + 30_000)
          const c4 = [e('ADDED', pod('d', { app: 'web' }))]
          watchers.broadcast(c4, last(c4))
          expect((await kinds(quiet)).slice(2)).toEqual([['ADDED', 'Pod', 'v1', String(last(c4))]])
          expect((await kinds(otherKind)).slice(1)).toEqual([
            ['BOOKMARK', 'Service', 'v1', String(last(c3))],
            ['BOOKMARK', 'Service', 'v1', String(last(c4))],
          ])
          // One that did not ask never gets any.
          expect((await noBookmarks.received()).map((g) => g.type)).toEqual(['ADDED'])
        }),
      ))
  })

  describe(`${implementation}: expiry and counting`, () => {
    it('expireAll ends every watch with one ERROR 410 Expired and a close; later commits reach none of them', () =>
      withWatchers(async ({ watchers, join }) => {
        const e = history()
        const a = join(spec({ from: 40 }))
        const b = join(spec({ resource: 'services', from: 45, bookmarks: true }))
        watchers.expireAll(50)
        for (const [w, from] of [
          [a, 40],
          [b, 45],
        ] as const) {
          const got = await w.received()
          expect(got).toHaveLength(1)
          expect(got[0]!.type).toBe('ERROR')
          expect(got[0]!.object).toMatchObject({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            code: 410,
            reason: 'Expired',
            message: `too old resource version: ${from} (50)`,
          })
          expect(await w.closed()).toMatchObject({ code: 1000, reason: 'resource version too old' })
        }
        expect(watchers.count()).toBe(0)
        const later = [e('ADDED', pod('a')), e('ADDED', service('s'))]
        watchers.broadcast(later, last(later))
        expect(await a.received()).toHaveLength(1)
        expect(await b.received()).toHaveLength(1)
      }))

    it('count answers the watchers of a resource, or of every resource', () =>
      withWatchers(async ({ watchers, join }) => {
        expect(watchers.count()).toBe(0)
        join(spec())
        join(spec({ bookmarks: true }))
        join(spec({ resource: 'services', selectors: selectors('app=web') }))
        expect(watchers.count('pods')).toBe(2)
        expect(watchers.count('services')).toBe(1)
        expect(watchers.count('nodes')).toBe(0)
        expect(watchers.count()).toBe(3)
      }))
  })
}
