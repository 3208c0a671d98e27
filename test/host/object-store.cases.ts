// One behaviour suite for a host's local state (src/host/object-store.ts), run against the Durable Object SQLite
// implementation and the in-memory twin alike (sql-object-store.test.ts, memory-object-store.test.ts).
import { describe, expect, it } from 'vitest'
import type { Attend, LocalState } from '../../src/host/object-store'
import { listObjects } from '../../src/registry/list'
import { parseLabelSelector } from '../../src/registry/label-selector'
import type { ChangeType, LogEntry } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'
import { resourceByPlural } from '../../src/registry/resources'
import { encodeStored } from '../../src/registry/stored-json'

/** Opens fresh local state (historyRetain 5, the given attention rule) and runs `fn` with it where it must run. */
export type WithLocal = (fn: (open: (attend?: Attend) => LocalState) => void | Promise<void>) => Promise<void>

const pod = (
  name: string,
  labels: Record<string, string> = {},
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels, ...extra },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

let rv = 100
const entry = (
  type: ChangeType,
  object: KubeObject,
  prev: KubeObject | null = null,
  prevRv: number | null = null,
): LogEntry => ({
  rv: ++rv,
  type,
  resource: 'pods',
  namespace: 'ns',
  name: object.metadata.name!,
  object,
  prev,
  prevRv,
})
const withRv = (o: KubeObject, v: number) => ({ ...o, metadata: { ...o.metadata, resourceVersion: String(v) } })

export function objectStoreCases(implementation: string, withLocal: WithLocal) {
  describe(`${implementation}: objects`, () => {
    it('applies ADDED, MODIFIED and DELETED in order, and reads them back', () =>
      withLocal((open) => {
        const { objects } = open()
        const a = entry('ADDED', pod('a', { app: 'x' }))
        const b = entry('ADDED', pod('b'))
        objects.apply([a, b])
        expect(objects.currentRv).toBe(b.rv)
        const { text, ...read } = objects.get('pods', 'a')!
        expect(read).toEqual({ rv: a.rv, object: withRv(a.object, a.rv) })
        // A store that keeps objects as JSON hands back the JSON it holds (an update's previous state, not encoded
        // again); one that keeps objects hands back none.
        if (text !== undefined) expect(text).toBe(encodeStored(a.object, 'pods'))
        expect(objects.names('pods')).toEqual(['a', 'b'])
        expect(objects.exists('pods', 'b')).toBe(true)
        expect(objects.resources()).toEqual(['pods'])
        const a2 = entry('MODIFIED', pod('a', { app: 'y' }), a.object, a.rv)
        const gone = entry('DELETED', b.object, b.object, b.rv)
        objects.apply([a2, gone])
        expect(objects.get('pods', 'a')?.object.metadata.labels).toEqual({ app: 'y' })
        expect(objects.get('pods', 'b')).toBeNull()
        expect(objects.all('pods').map((s) => s.rv)).toEqual([a2.rv])
        expect(objects.get('services', 'a')).toBeNull()
      }))

    it('skips entries at or below the applied mark, so a replayed commit is harmless', () =>
      withLocal((open) => {
        const { objects } = open()
        const a = entry('ADDED', pod('a'))
        objects.apply([a])
        objects.apply([a, { ...a, object: pod('a', { replayed: 'yes' }) }])
        expect(objects.get('pods', 'a')?.object.metadata.labels).toEqual({})
        expect(objects.historySince(0)).toHaveLength(1)
      }))

    it('keeps its applied mark and history floor in its HostState', () =>
      withLocal((open) => {
        const first = open()
        const a = entry('ADDED', pod('a'))
        first.objects.apply([a])
        first.objects.advance(a.rv + 10)
        expect(first.objects.currentRv).toBe(a.rv + 10)
        expect(first.state.get('applied_rv')).toBe(String(a.rv + 10))
        first.objects.advance(a.rv)
        expect(first.objects.currentRv).toBe(a.rv + 10)
      }))

    it('trims history to the retained count and raises the floor', () =>
      withLocal((open) => {
        const { objects } = open()
        const entries = Array.from({ length: 8 }, (_, i) => entry('ADDED', pod(`p${i}`)))
        objects.apply(entries)
        expect(objects.historySince(0).map((e) => e.name)).toEqual(['p3', 'p4', 'p5', 'p6', 'p7'])
        expect(objects.historyFloor).toBe(entries[2]!.rv)
        const since = objects.historySince(entries[5]!.rv)
        expect(since.map((e) => e.rv)).toEqual([entries[6]!.rv, entries[7]!.rv])
        expect(since[0]!.object).toEqual(withRv(entries[6]!.object, entries[6]!.rv))
      }))

    it('history carries previous states with their resourceVersions', () =>
      withLocal((open) => {
        const { objects } = open()
        const a = entry('ADDED', pod('a'))
        const a2 = entry('MODIFIED', pod('a', { v: '2' }), a.object, a.rv)
        objects.apply([a, a2])
        const [, mod] = objects.historySince(0)
        expect(mod!.prev).toEqual(withRv(a.object, a.rv))
        expect(mod!.prevRv).toBe(a.rv)
      }))

    it('indexes owners: dependents(uid) and every named owner', () =>
      withLocal((open) => {
        const { objects } = open()
        const ref = (uid: string) => ({ apiVersion: 'v1', kind: 'ReplicationController', name: `rc-${uid}`, uid })
        const a = entry('ADDED', pod('a', {}, { ownerReferences: [ref('u1')] }))
        const b = entry('ADDED', pod('b', {}, { ownerReferences: [ref('u1'), ref('u2')] }))
        objects.apply([a, b])
        expect(
          objects
            .dependents('u1')
            .map((d) => d.name)
            .sort(),
        ).toEqual(['a', 'b'])
        expect(
          objects
            .owners()
            .map((o) => o.uid)
            .sort(),
        ).toEqual(['u1', 'u2'])
        objects.apply([entry('MODIFIED', pod('b'), b.object, b.rv)])
        expect(objects.dependents('u1')).toEqual([{ resource: 'pods', name: 'a' }])
        expect(objects.owners()).toEqual([
          { uid: 'u1', apiVersion: 'v1', kind: 'ReplicationController', name: 'rc-u1' },
        ])
      }))

    it('lists what a controller attends to, and rebuilds that list on demand', () =>
      withLocal((open) => {
        let rule: Attend = (_r, o) => o.metadata.labels?.busy === 'yes'
        const { objects } = open((r, o) => rule(r, o))
        objects.apply([
          entry('ADDED', pod('a', { busy: 'yes' })),
          entry('ADDED', pod('b')),
          entry('ADDED', pod('c', { busy: 'yes' })),
        ])
        expect(objects.attending('pods').map((s) => s.object.metadata.name)).toEqual(['a', 'c'])
        expect(objects.attendedResources()).toEqual(['pods'])
        rule = (_r, o) => o.metadata.name === 'b'
        objects.rebuildAttention()
        expect(objects.attending('pods').map((s) => s.object.metadata.name)).toEqual(['b'])
        rule = () => false
        objects.rebuildAttention()
        expect(objects.attendedResources()).toEqual([])
      }))

    it('updates that keep labels and owners keep their index rows; attention follows every state', () =>
      withLocal(async (open) => {
        const { objects } = open((_r, o) => o.metadata.annotations?.busy === 'yes')
        const ref = { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: 'u9' }
        const a = entry('ADDED', pod('a', { app: 'web' }, { ownerReferences: [ref] }))
        objects.apply([a])
        const busy = entry(
          'MODIFIED',
          pod('a', { app: 'web' }, { ownerReferences: [ref], annotations: { busy: 'yes' } }),
          a.object,
          a.rv,
        )
        objects.apply([busy])
        expect(objects.attending('pods').map((s) => s.object.metadata.name)).toEqual(['a'])
        const idle = entry('MODIFIED', pod('a', { app: 'web' }, { ownerReferences: [ref] }), busy.object, busy.rv)
        objects.apply([idle])
        expect(objects.attending('pods')).toEqual([])
        expect(objects.dependents('u9')).toEqual([{ resource: 'pods', name: 'a' }])
        const sel = parseLabelSelector('app=web')
        if (!sel.ok) throw new Error(sel.message)
        const query = { mode: { kind: 'latest' as const }, labelSelector: sel.selector }
        const web = await listObjects(objects.listSource('pods'), resourceByPlural('pods')!.strategy, query)
        expect(web.ok && web.value.items.map((o) => o.metadata.name)).toEqual(['a'])
        // A relabel moves the object in the index; a delete takes it out.
        const moved = entry('MODIFIED', pod('a', { app: 'db' }, { ownerReferences: [ref] }), idle.object, idle.rv)
        objects.apply([moved])
        const after = await listObjects(objects.listSource('pods'), resourceByPlural('pods')!.strategy, query)
        expect(after.ok && after.value.items).toEqual([])
        expect(objects.labelsOf('pods')).toEqual([{ name: 'a', labels: { app: 'db' } }])
        expect(objects.namesWithLabel('pods', 'app', 'db')).toEqual(['a'])
        expect(objects.namesWithLabel('pods', 'app', 'web')).toEqual([])
        objects.apply([entry('DELETED', moved.object, moved.object, moved.rv)])
        expect(objects.dependents('u9')).toEqual([])
        expect(objects.labelsOf('pods')).toEqual([])
      }))

    it('indexes the Node authorizer’s graph edges of bound pods, kept across status writes, gone with the pod', () =>
      withLocal((open) => {
        const { objects } = open()
        const spec = (nodeName?: string) => ({
          ...(nodeName ? { nodeName } : {}),
          serviceAccountName: 'sa',
          containers: [{ name: 'c', image: 'nginx', envFrom: [{ secretRef: { name: 'env' } }] }],
          volumes: [{ name: 'v', configMap: { name: 'cm' } }],
        })
        const unbound = entry('ADDED', { ...pod('p'), spec: spec() })
        objects.apply([unbound])
        // Not in the graph until bound.
        expect(objects.graphEdgesFrom('secret', '', 'env')).toEqual([])
        const bound = entry('MODIFIED', { ...pod('p'), spec: spec('n1') }, unbound.object, unbound.rv)
        objects.apply([bound])
        const row = [{ resource: 'pods', name: 'p', node: 'n1' }]
        expect(objects.graphEdgesFrom('secret', '', 'env')).toEqual(row)
        expect(objects.graphEdgesFrom('configmap', '', 'cm', 'n1')).toEqual(row)
        expect(objects.graphEdgesFrom('serviceAccount', '', 'sa', 'n1')).toEqual(row)
        expect(objects.graphEdgesFrom('configmap', '', 'cm', 'n2')).toEqual([])
        expect(objects.graphEdgesFrom('secret', '', 'cm')).toEqual([])
        // A status write keeps the rows (kube's graph populator skips it).
        const running = entry(
          'MODIFIED',
          { ...pod('p'), spec: spec('n1'), status: { phase: 'Running' } },
          bound.object,
          bound.rv,
        )
        objects.apply([running])
        expect(objects.graphEdgesFrom('secret', '', 'env', 'n1')).toEqual(row)
        objects.apply([entry('DELETED', running.object, running.object, running.rv)])
        expect(objects.graphEdgesFrom('secret', '', 'env')).toEqual([])
        expect(objects.graphEdgesFrom('serviceAccount', '', 'sa')).toEqual([])
        // reset rebuilds them from the objects it is given.
        objects.reset([{ resource: 'pods', name: 'q', rv: 700, object: { ...pod('q'), spec: spec('n3') } }], 800)
        expect(objects.graphEdgesFrom('configmap', '', 'cm')).toEqual([{ resource: 'pods', name: 'q', node: 'n3' }])
      }))

    it('all() of a resource read while empty sees the next apply and reset (an empty read is not kept)', () =>
      withLocal((open) => {
        const { objects } = open()
        expect(objects.all('pods')).toEqual([])
        const a = entry('ADDED', pod('a'))
        objects.apply([a])
        expect(objects.all('pods').map((s) => s.object.metadata.name)).toEqual(['a'])
        objects.apply([entry('DELETED', a.object, a.object, a.rv)])
        expect(objects.all('pods')).toEqual([])
        objects.reset([{ resource: 'pods', name: 'r', rv: 900, object: pod('r') }], 901)
        expect(objects.all('pods').map((s) => s.rv)).toEqual([900])
        objects.reset([], 902)
        expect(objects.all('pods')).toEqual([])
        objects.reset([{ resource: 'pods', name: 's', rv: 903, object: pod('s') }], 904)
        expect(objects.all('pods').map((s) => s.rv)).toEqual([903])
      }))

    it('reset replaces every object and starts history at the given resourceVersion', () =>
      withLocal((open) => {
        const { objects } = open()
        objects.apply([entry('ADDED', pod('old'))])
        objects.reset([{ resource: 'pods', name: 'n', rv: 500, object: pod('n', { k: 'v' }) }], 600)
        expect(objects.names('pods')).toEqual(['n'])
        expect(objects.get('pods', 'n')?.rv).toBe(500)
        expect(objects.currentRv).toBe(600)
        expect(objects.historyFloor).toBe(600)
        expect(objects.historySince(0)).toEqual([])
      }))
  })

  describe(`${implementation}: lists`, () => {
    const podsDef = resourceByPlural('pods')!
    it('serves label-narrowed pages and snapshots at an older resourceVersion', () =>
      withLocal(async (open) => {
        const { objects } = open()
        const a = entry('ADDED', pod('a', { app: 'web' }))
        const b = entry('ADDED', pod('b', { app: 'db' }))
        const c = entry('ADDED', pod('c', { app: 'web' }))
        objects.apply([a, b, c])
        const sel = parseLabelSelector('app=web')
        if (!sel.ok) throw new Error(sel.message)
        const web = await listObjects(objects.listSource('pods'), podsDef.strategy, {
          mode: { kind: 'latest' },
          labelSelector: sel.selector,
        })
        expect(web.ok && web.value.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
        const at = objects.currentRv
        objects.apply([
          entry('DELETED', a.object, a.object, a.rv),
          entry('MODIFIED', pod('b', { app: 'web' }), b.object, b.rv),
        ])
        const past = await listObjects(objects.listSource('pods'), podsDef.strategy, {
          mode: { kind: 'exact', rv: at },
          labelSelector: sel.selector,
        })
        expect(past.ok && past.value.items.map((o) => o.metadata.name)).toEqual(['a', 'c'])
        const now = await listObjects(objects.listSource('pods'), podsDef.strategy, {
          mode: { kind: 'latest' },
          labelSelector: sel.selector,
        })
        expect(now.ok && now.value.items.map((o) => o.metadata.name)).toEqual(['b', 'c'])
        const page = await listObjects(objects.listSource('pods'), podsDef.strategy, {
          mode: { kind: 'latest' },
          limit: 1,
        })
        expect(page.ok && page.value.remainingItemCount).toBe(1)
      }))
  })

  describe(`${implementation}: records`, () => {
    it('HostState keeps and removes keys', () =>
      withLocal((open) => {
        const { state } = open()
        state.set('k', 'v')
        expect(state.get('k')).toBe('v')
        state.set('k', 'w')
        expect(state.get('k')).toBe('w')
        state.set('k', undefined)
        expect(state.get('k')).toBeUndefined()
      }))

    it('creation tokens: the first record wins, and tokens past their time to live are forgotten', () =>
      withLocal((open) => {
        const { tokens } = open()
        tokens.record('t1', 'pods', 'a', 'u1', 1_000)
        tokens.record('t1', 'pods', 'b', 'u2', 2_000)
        expect(tokens.find('t1')).toEqual({ resource: 'pods', name: 'a', uid: 'u1' })
        expect(tokens.find('nope')).toBeNull()
        tokens.record('t2', 'pods', 'c', 'u3', 1_000 + 26 * 3600_000)
        expect(tokens.find('t1')).toBeNull()
        expect(tokens.find('t2')).not.toBeNull()
      }))

    it('expiries: due, next and clear', () =>
      withLocal((open) => {
        const { expiries } = open()
        expect(expiries.next()).toBeNull()
        expiries.set('pods', 'a', 300)
        expiries.set('pods', 'b', 100)
        expiries.set('pods', 'a', 200)
        expect(expiries.next()).toBe(100)
        expect(expiries.due(150)).toEqual([{ resource: 'pods', name: 'b' }])
        expect(expiries.due(250).length).toBe(2)
        expiries.clear('pods', 'b')
        expect(expiries.next()).toBe(200)
      }))
  })
}
