// One behaviour suite for the cluster's change log (src/host/change-log.ts), run against D1 and the in-memory twin
// alike (d1-change-log.test.ts, memory-change-log.test.ts).
//
// The D1 database is shared by every case of a file, so no case assumes it starts empty: each writes under scopes
// of its own (`scope()`) and reads resourceVersions and the compaction floor relative to what it committed.
import { describe, expect, it } from 'vitest'
import type { ChangeLog } from '../../src/host/change-log'
import { encodeStored } from '../../src/registry/stored-json'
import type { Change, ChangeType } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'

/**
 * A change log whose compaction step can be set: both implementations take it as compact's second argument, and
 * without it showing a bounded step would take thousands of commits per case.
 */
export type CompactingLog = ChangeLog & { compact(retain: number, step?: number): Promise<number> }

/** Runs `fn` with a change log and a maker of scope names no other case (or earlier run) has used. */
export type WithLog = (fn: (log: CompactingLog, scope: () => string) => Promise<void>) => Promise<void>

/** Metadata deliberately out of Go's order (labels first), so the read-back order is the log's doing. */
const pod = (
  ns: string,
  name: string,
  labels: Record<string, string> = {},
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { labels, name, namespace: ns, uid: `uid-${name}`, ...extra },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

const change = (
  type: ChangeType,
  object: KubeObject,
  prev: KubeObject | null = null,
  prevRv: number | null = null,
  resource = 'pods',
): Change => ({
  type,
  resource,
  namespace: object.metadata.namespace ?? '',
  name: object.metadata.name!,
  object,
  prev,
  prevRv,
})

const relabel = (o: KubeObject, labels: Record<string, string>): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, labels },
})
/** What a reader gets back: the object with its row's resourceVersion in metadata. */
const atRv = (o: KubeObject, rv: number) => ({ ...o, metadata: { ...o.metadata, resourceVersion: String(rv) } })
const increasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!)

export function changeLogCases(implementation: string, withLog: WithLog) {
  describe(`${implementation}: commit`, () => {
    it('assigns increasing resourceVersions in change order, across batches and scopes', () =>
      withLog(async (log, scope) => {
        const [s1, s2] = [scope(), scope()]
        const before = await log.currentRv()
        const first = await log.commit(
          [change('ADDED', pod(s1, 'c')), change('ADDED', pod(s2, 'a')), change('ADDED', pod(s1, 'b'))],
          1000,
        )
        const second = await log.commit([change('ADDED', pod(s2, 'z')), change('ADDED', pod(s1, 'y'))], 1001)
        expect(first).toHaveLength(3)
        expect(second).toHaveLength(2)
        const all = [...first, ...second]
        expect(increasing(all), `rvs ${all}`).toBe(true)
        expect(all[0]).toBeGreaterThan(before)
        expect(await log.currentRv()).toBe(all[4])
        // Each scope reads its own changes back under exactly those resourceVersions, in the order committed.
        expect((await log.changesFor(s1, 0, 100)).map((e) => [e.rv, e.name])).toEqual([
          [first[0], 'c'],
          [first[2], 'b'],
          [second[1], 'y'],
        ])
        expect((await log.changesFor(s2, 0, 100)).map((e) => [e.rv, e.name])).toEqual([
          [first[1], 'a'],
          [second[0], 'z'],
        ])
      }))
  })

  describe(`${implementation}: changesFor`, () => {
    it('answers one scope after a resourceVersion, in order, at most `limit`', () =>
      withLog(async (log, scope) => {
        const [s, other] = [scope(), scope()]
        const rvs: number[] = []
        for (const name of ['e', 'd', 'c', 'b', 'a']) {
          // Another scope's change between each of ours: changesFor must skip it, not stop at it.
          rvs.push(
            ...(await log.commit([change('ADDED', pod(s, name)), change('ADDED', pod(other, name))], 1000)).slice(0, 1),
          )
        }
        const names = async (after: number, limit: number) => (await log.changesFor(s, after, limit)).map((e) => e.name)
        expect(await names(0, 100)).toEqual(['e', 'd', 'c', 'b', 'a'])
        expect(await names(0, 2)).toEqual(['e', 'd'])
        expect(await names(rvs[1]!, 2)).toEqual(['c', 'b'])
        // `after` is exclusive, and a position between two of ours starts at the next one.
        expect(await names(rvs[2]!, 100)).toEqual(['b', 'a'])
        expect(await names(rvs[2]! + 1, 100)).toEqual(['b', 'a'])
        expect(await names(rvs[4]!, 100)).toEqual([])
        expect(await log.changesFor(scope(), 0, 100)).toEqual([])
      }))

    it('keeps cluster-scoped changes (scope "") apart from namespaced ones', () =>
      withLog(async (log, scope) => {
        const s = scope()
        const node: KubeObject = { kind: 'Node', apiVersion: 'v1', metadata: { name: `${s}-node`, uid: `uid-${s}` } }
        const [rvNode] = await log.commit(
          [change('ADDED', node, null, null, 'nodes'), change('ADDED', pod(s, 'p'))],
          1000,
        )
        const cluster = await log.changesFor('', rvNode! - 1, 100)
        expect(cluster.map((e) => [e.rv, e.resource, e.namespace, e.name])).toEqual([
          [rvNode, 'nodes', '', `${s}-node`],
        ])
        expect((await log.changesFor(s, 0, 100)).map((e) => e.resource)).toEqual(['pods'])
      }))

    it('materializes object, prev and prevRv, with each resourceVersion back in its place in metadata', () =>
      withLog(async (log, scope) => {
        const s = scope()
        // A planner's stale resourceVersion on the way in is not what is stored: the row's rv is.
        const v1 = pod(s, 'p', { v: '1' }, { resourceVersion: '999999999' })
        const [rv1] = await log.commit([change('ADDED', v1)], 1000)
        const stored1 = atRv(v1, rv1!)
        const v2 = relabel(stored1, { v: '2' })
        const [rv2] = await log.commit([change('MODIFIED', v2, stored1, rv1!)], 1001)
        const stored2 = atRv(v2, rv2!)
        const [rv3] = await log.commit([change('DELETED', stored2, stored2, rv2!)], 1002)

        const [added, modified, deleted] = await log.changesFor(s, 0, 100)
        expect(added).toMatchObject({
          rv: rv1,
          type: 'ADDED',
          resource: 'pods',
          namespace: s,
          name: 'p',
          prev: null,
          prevRv: null,
        })
        expect(added!.object).toEqual(stored1)
        expect(modified).toMatchObject({ rv: rv2, type: 'MODIFIED', prevRv: rv1 })
        expect(modified!.object).toEqual(stored2)
        expect(modified!.prev).toEqual(stored1)
        // DELETED carries the final state, stamped with the deletion's resourceVersion, and the state before it.
        expect(deleted).toMatchObject({ rv: rv3, type: 'DELETED', prevRv: rv2 })
        expect(deleted!.object).toEqual(atRv(v2, rv3!))
        expect(deleted!.prev).toEqual(stored2)
        // Go's ObjectMeta order (resourceVersion after uid, labels after both), whatever order the writer used.
        expect(Object.keys(modified!.object.metadata)).toEqual([
          'name',
          'namespace',
          'uid',
          'resourceVersion',
          'labels',
        ])
        expect(Object.keys(modified!.prev!.metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'labels'])
        // The stored text travels along (a catch-up apply stores it as is): it is the object without its resourceVersion.
        expect(modified!.text).toEqual({ object: encodeStored(v2), prev: encodeStored(stored1) })
        expect(JSON.parse(modified!.text!.object).metadata.resourceVersion).toBeUndefined()
      }))
  })

  describe(`${implementation}: objectsIn`, () => {
    it('reflects creates, updates and deletes, per resource, each object at its newest resourceVersion', () =>
      withLog(async (log, scope) => {
        const [s, other] = [scope(), scope()]
        const a = pod(s, 'a', { v: '1' })
        const b = pod(s, 'b')
        const svc: KubeObject = {
          kind: 'Service',
          apiVersion: 'v1',
          metadata: { name: 'a', namespace: s, uid: 'uid-svc' },
        }
        const [rvA, rvB, rvSvc] = await log.commit(
          [change('ADDED', a), change('ADDED', b), change('ADDED', svc, null, null, 'services')],
          1000,
        )
        await log.commit([change('ADDED', pod(other, 'a'))], 1000)
        const a2 = relabel(atRv(a, rvA!), { v: '2' })
        const [rvA2, rvGone] = await log.commit(
          [change('MODIFIED', a2, atRv(a, rvA!), rvA!), change('DELETED', atRv(b, rvB!), atRv(b, rvB!), rvB!)],
          1001,
        )
        expect(rvGone).toBeGreaterThan(rvA2!)

        const objects = (await log.objectsIn(s)).sort((x, y) => x.resource.localeCompare(y.resource))
        expect(objects).toEqual([
          { resource: 'pods', name: 'a', rv: rvA2, object: atRv(a2, rvA2!) },
          { resource: 'services', name: 'a', rv: rvSvc, object: atRv(svc, rvSvc!) },
        ])
        expect((await log.objectsIn(other)).map((o) => o.name)).toEqual(['a'])
        expect(await log.objectsIn(scope())).toEqual([])
      }))

    it('a deleted object created again is current again', () =>
      withLog(async (log, scope) => {
        const s = scope()
        const [rv1] = await log.commit([change('ADDED', pod(s, 'a', { life: '1' }))], 1000)
        await log.commit(
          [change('DELETED', atRv(pod(s, 'a', { life: '1' }), rv1!), atRv(pod(s, 'a', { life: '1' }), rv1!), rv1!)],
          1001,
        )
        expect(await log.objectsIn(s)).toEqual([])
        const [rv3] = await log.commit([change('ADDED', pod(s, 'a', { life: '2' }))], 1002)
        expect((await log.objectsIn(s)).map((o) => [o.name, o.rv, o.object.metadata.labels])).toEqual([
          ['a', rv3, { life: '2' }],
        ])
      }))
  })

  describe(`${implementation}: compaction`, () => {
    it('starts at or below what is committed and answers currentRv at or above its floor', () =>
      withLog(async (log, scope) => {
        const [rv] = await log.commit([change('ADDED', pod(scope(), 'a'))], 1000)
        const floor = await log.compactedRv()
        expect(floor).toBeLessThan(rv!)
        expect(await log.currentRv()).toBeGreaterThanOrEqual(floor)
      }))

    it('moves the floor in bounded steps up to `retain` behind the newest, and compacted changes are gone', () =>
      withLog(async (log, scope) => {
        const [s, other] = [scope(), scope()]
        const rvs: number[] = []
        for (let i = 0; i < 8; i++)
          rvs.push(
            ...(await log.commit([change('ADDED', pod(s, `p${i}`)), change('ADDED', pod(other, `p${i}`))], 1000)),
          )
        const ours = rvs.filter((_, i) => i % 2 === 0)
        const current = await log.currentRv()
        expect(current).toBe(rvs[rvs.length - 1])
        // Bring the floor to just below this case's changes in one step, whatever earlier cases left behind.
        const start = ours[0]! - 1
        expect(await log.compact(current - start, Number.MAX_SAFE_INTEGER)).toBe(start)
        expect(await log.compactedRv()).toBe(start)
        expect((await log.changesFor(s, 0, 100)).map((e) => e.name)).toEqual([
          'p0',
          'p1',
          'p2',
          'p3',
          'p4',
          'p5',
          'p6',
          'p7',
        ])

        // retain 5 behind the newest is a floor of current - 5, reached 3 at a time: start+3, start+6, ..., then there.
        const retain = 5
        const target = current - retain
        const floors: number[] = []
        for (let f = start; f < target; ) {
          f = await log.compact(retain, 3)
          floors.push(f)
          expect(await log.compactedRv()).toBe(f)
          expect((await log.changesFor(s, 0, 100)).every((e) => e.rv > f)).toBe(true)
          if (floors.length > 10) break
        }
        const expected: number[] = []
        for (let f = start; f < target; ) expected.push((f = Math.min(f + 3, target)))
        expect(floors).toEqual(expected)
        // Once there, more calls leave the floor where it is.
        expect(await log.compact(retain, 3)).toBe(target)
        expect(await log.compactedRv()).toBe(target)
        expect(await log.currentRv()).toBe(current)
        // What remains is exactly the changes above the floor, for each scope.
        expect((await log.changesFor(s, 0, 100)).map((e) => e.rv)).toEqual(ours.filter((rv) => rv > target))
        expect((await log.changesFor(other, 0, 100)).map((e) => e.rv)).toEqual(
          rvs.filter((rv, i) => i % 2 === 1 && rv > target),
        )
        // A reader resuming from inside the compacted range gets only what is left too.
        expect((await log.changesFor(s, ours[1]!, 100)).map((e) => e.rv)).toEqual(ours.filter((rv) => rv > target))
        // A bigger retain never lowers the floor.
        expect(await log.compact(current, 3)).toBe(target)
      }))

    it('takes at most 2000 changes per call by default', () =>
      withLog(async (log, scope) => {
        const s = scope()
        const changes = Array.from({ length: 2050 }, (_, i) => change('ADDED', pod(s, `p${i}`)))
        const rvs = await log.commit(changes, 1000)
        const current = await log.currentRv()
        const start = rvs[0]! - 1
        expect(await log.compact(current - start, Number.MAX_SAFE_INTEGER)).toBe(start)
        expect(await log.compact(0)).toBe(start + 2000)
        expect((await log.changesFor(s, 0, 10_000)).map((e) => e.rv)).toEqual(rvs.slice(2000))
        expect(await log.compact(0)).toBe(current)
        expect(await log.changesFor(s, 0, 10_000)).toEqual([])
        expect(await log.currentRv()).toBe(current)
      }))

    it('keeps the object index whole: objectsIn survives compaction of every change behind it', () =>
      withLog(async (log, scope) => {
        const s = scope()
        const a = pod(s, 'a', { v: '1' })
        const [rvA, rvB] = await log.commit([change('ADDED', a), change('ADDED', pod(s, 'b'))], 1000)
        const a2 = relabel(atRv(a, rvA!), { v: '2' })
        const [rvA2] = await log.commit([change('MODIFIED', a2, atRv(a, rvA!), rvA!)], 1001)
        const current = await log.currentRv()
        await log.compact(0, Number.MAX_SAFE_INTEGER)
        expect(await log.compactedRv()).toBe(current)
        expect(await log.changesFor(s, 0, 100)).toEqual([])
        // With nothing left in the log, its newest resourceVersion is still the one it had.
        expect(await log.currentRv()).toBe(current)
        const objects = (await log.objectsIn(s)).sort((x, y) => x.name.localeCompare(y.name))
        expect(objects).toEqual([
          { resource: 'pods', name: 'a', rv: rvA2, object: atRv(a2, rvA2!) },
          { resource: 'pods', name: 'b', rv: rvB, object: atRv(pod(s, 'b'), rvB!) },
        ])
        // And the log goes on above the floor.
        const [next] = await log.commit([change('ADDED', pod(s, 'c'))], 1002)
        expect(next).toBeGreaterThan(current)
        expect((await log.changesFor(s, 0, 100)).map((e) => [e.rv, e.name])).toEqual([[next, 'c']])
      }))
  })
}
