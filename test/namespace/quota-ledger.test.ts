// The quota ledger moves each quota's usage by the delta of every committed entry instead of counting the namespace's
// objects: after the first count, creates, updates, terminal transitions and deletes never list the objects, and the
// usage it keeps equals a fresh count of the same objects after every step. It counts again when the quota's hard or
// scopes change, when an entry lacks its old state, and when a pod's deletion grace period has run out.
import { describe, expect, it } from 'vitest'
import { QuotaLedger } from '../../src/namespace/quota-ledger'
import type { LogEntry } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'
import { formatQuantity } from '../../src/schema/quantity'
import type { ResourceQuota } from '../../src/schema/resource-quota'

const now = new Date('2026-01-01T00:00:00Z')

/** The namespace's objects, with a count of how often a kind was listed. */
class Objects {
  readonly byKind = new Map<string, Map<string, KubeObject>>()
  lists = 0
  readonly list = (resource: string): KubeObject[] => {
    this.lists++
    return [...(this.byKind.get(resource)?.values() ?? [])]
  }
  /** Stores a change and answers its entry, as a commit hands it to the controller. */
  change(resource: string, obj: KubeObject | null, name: string): LogEntry {
    const kind = this.byKind.get(resource) ?? new Map<string, KubeObject>()
    this.byKind.set(resource, kind)
    const prev = kind.get(name) ?? null
    if (obj) kind.set(name, obj)
    else kind.delete(name)
    const type = obj === null ? 'DELETED' : prev ? 'MODIFIED' : 'ADDED'
    return { type, resource, namespace: 'ns', name, object: obj ?? prev!, prev, prevRv: prev ? 1 : null, rv: 2 }
  }
}

const quota = (hard: Record<string, string>, extra: Record<string, unknown> = {}): ResourceQuota =>
  ({ metadata: { name: 'q', uid: 'u1' }, spec: { hard, ...extra } }) as ResourceQuota

const pod = (name: string, cpu: string, more: { phase?: string; deadline?: number; meta?: object } = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...more.meta },
    spec: {
      containers: [{ name: 'c', resources: { requests: { cpu } } }],
      ...(more.deadline !== undefined ? { activeDeadlineSeconds: more.deadline } : {}),
    },
    status: { phase: more.phase ?? 'Running' },
  }) as unknown as KubeObject

const show = (u: Map<string, Parameters<typeof formatQuantity>[0]>) =>
  Object.fromEntries([...u].map(([k, v]) => [k, formatQuantity(v)]).sort(([a], [b]) => (a! < b! ? -1 : 1)))

/** A fresh ledger's count of the same objects: what the kept usage must equal. */
const recount = (rq: ResourceQuota, objects: Objects) =>
  show(new QuotaLedger().usage(rq, (r) => [...(objects.byKind.get(r)?.values() ?? [])], now))

describe('the quota ledger', () => {
  it('counts once, then follows creates, updates, terminal pods and deletes without listing', () => {
    const objects = new Objects()
    for (let i = 0; i < 50; i++) objects.change('pods', pod(`p${i}`, '100m'), `p${i}`)
    const rq = quota({ pods: '100', 'requests.cpu': '10', 'count/pods': '100' })
    const ledger = new QuotaLedger()
    expect(show(ledger.usage(rq, objects.list, now))).toEqual({
      'count/pods': '50',
      pods: '50',
      'requests.cpu': '5',
    })
    const counted = objects.lists
    const steps: [string, KubeObject | null, string][] = [
      ['pods', pod('new', '250m'), 'new'],
      ['pods', pod('p1', '100m', { phase: 'Succeeded' }), 'p1'],
      ['pods', pod('p2', '100m', { phase: 'Failed' }), 'p2'],
      ['pods', null, 'p3'],
      ['pods', null, 'p1'],
      ['pods', pod('p4', '100m', { meta: { labels: { a: 'b' } } }), 'p4'],
    ]
    for (const [resource, obj, name] of steps) {
      ledger.committed([objects.change(resource, obj, name)], [rq], now)
      expect(show(ledger.usage(rq, objects.list, now))).toEqual(recount(rq, objects))
    }
    expect(objects.lists).toBe(counted)
    expect(show(ledger.usage(rq, objects.list, now))).toEqual({
      'count/pods': '49',
      pods: '48',
      'requests.cpu': '4950m',
    })
  })

  it('moves a scoped quota as a pod enters and leaves its scope', () => {
    const objects = new Objects()
    objects.change('pods', pod('a', '100m', { deadline: 30 }), 'a')
    const rq = quota({ pods: '10' }, { scopes: ['Terminating'] })
    const ledger = new QuotaLedger()
    expect(show(ledger.usage(rq, objects.list, now))).toEqual({ pods: '1' })
    const counted = objects.lists
    ledger.committed([objects.change('pods', pod('b', '100m'), 'b')], [rq], now)
    ledger.committed([objects.change('pods', pod('b', '100m', { deadline: 60 }), 'b')], [rq], now)
    expect(show(ledger.usage(rq, objects.list, now))).toEqual({ pods: '2' })
    ledger.committed([objects.change('pods', null, 'a')], [rq], now)
    expect(show(ledger.usage(rq, objects.list, now))).toEqual(recount(rq, objects))
    expect(objects.lists).toBe(counted)
  })

  it('counts again when the quota changes its hard, when an entry lacks its old state, and at a grace deadline', () => {
    const objects = new Objects()
    objects.change('pods', pod('a', '100m'), 'a')
    const ledger = new QuotaLedger()
    const rq = quota({ pods: '10' })
    ledger.usage(rq, objects.list, now)
    const wider = quota({ pods: '10', 'requests.cpu': '1' })
    ledger.committed([objects.change('resourcequotas', wider as KubeObject, 'q')], [wider], now)
    let before = objects.lists
    expect(show(ledger.usage(wider, objects.list, now))).toEqual({ pods: '1', 'requests.cpu': '100m' })
    expect(objects.lists).toBeGreaterThan(before)

    // A MODIFIED entry replayed without prev cannot be told apart from a new pod.
    const entry = { ...objects.change('pods', pod('a', '200m'), 'a'), prev: null }
    ledger.committed([entry], [wider], now)
    before = objects.lists
    expect(show(ledger.usage(wider, objects.list, now))).toEqual({ pods: '1', 'requests.cpu': '200m' })
    expect(objects.lists).toBeGreaterThan(before)

    // A pod deleted with a 30 s grace period counts until then; nothing commits when it stops.
    const at = now.toISOString().replace('.000', '')
    const deleting = pod('a', '200m', { meta: { deletionTimestamp: at, deletionGracePeriodSeconds: 30 } })
    ledger.committed([objects.change('pods', deleting, 'a')], [wider], now)
    expect(show(ledger.usage(wider, objects.list, now))).toEqual({ pods: '1', 'requests.cpu': '200m' })
    expect(ledger.nextDeadline(now.getTime())).toBe(now.getTime() + 30_000)
    const later = new Date(now.getTime() + 31_000)
    expect(ledger.expire(later.getTime())).toBe(true)
    expect(show(ledger.usage(wider, objects.list, later))).toEqual({ pods: '0', 'requests.cpu': '0' })
  })
})
