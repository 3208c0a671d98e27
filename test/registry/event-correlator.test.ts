// kube's EventCorrelator (client-go tools/record/events_cache.go) as the recorder runs it: a repeat updates the
// count of the Event it made, ten messages of one kind about one object within ten minutes become one aggregate,
// and a source gets 25 events about an object at once, then one per five minutes.
import { describe, expect, it } from 'vitest'
import { EventCorrelator } from '../../src/registry/event-correlator'
import { eventAbout } from '../../src/registry/event-recorder'
import type { KubeObject } from '../../src/schema/meta'

type Obj = Record<string, any>
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns', uid: 'u1' } } as KubeObject
const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'ns', uid: 'u2' } }
const T0 = Date.parse('2026-11-24T10:00:00Z')

const event = (about: KubeObject, reason: string, message: string, at = T0) =>
  eventAbout(about, { type: 'Normal', reason, message, component: 'kubelet', host: 'node-1' }, new Date(at))

describe('EventCorrelator', () => {
  it('a repeat updates the first Event: same name and first time, count and last time move on', () => {
    const c = new EventCorrelator()
    const first = c.correlate(event(pod, 'BackOff', 'Back-off pulling image'), T0)
    expect(first.skip).toBe(false)
    if (first.skip || 'update' in first) throw new Error('a new Event was expected')
    c.stored(first.create)
    const again = c.correlate(event(pod, 'BackOff', 'Back-off pulling image', T0 + 5000), T0 + 5000)
    if (again.skip || !('update' in again)) throw new Error('an update was expected')
    expect(again.update).toEqual({
      name: first.create.metadata.name,
      count: 2,
      lastTimestamp: '2026-11-24T10:00:05Z',
      message: 'Back-off pulling image',
    })
    expect((again.create as Obj).firstTimestamp).toBe('2026-11-24T10:00:00Z')
    // Another message is another Event.
    const other = c.correlate(event(pod, 'BackOff', 'Back-off restarting failed container'), T0 + 6000)
    expect(!other.skip && !('update' in other)).toBe(true)
  })

  it('thirty messages about one object: nine Events, an aggregate counting sixteen, then nothing', () => {
    const c = new EventCorrelator()
    const written: { kind: 'create' | 'update'; message: string; count: number }[] = []
    for (let i = 1; i <= 30; i++) {
      const r = c.correlate(
        eventAbout(
          rs as KubeObject,
          {
            type: 'Normal',
            reason: 'SuccessfulCreate',
            message: `Created pod: web-1-${i}`,
            component: 'replicaset-controller',
          },
          new Date(T0 + i),
        ),
        T0 + i,
      )
      if (r.skip) continue
      if ('update' in r) written.push({ kind: 'update', message: r.update.message, count: r.update.count })
      else {
        written.push({ kind: 'create', message: (r.create as Obj).message, count: (r.create as Obj).count })
        c.stored(r.create)
      }
    }
    expect(written).toHaveLength(25)
    expect(written.slice(0, 9).map((w) => w.message)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Created pod: web-1-${i + 1}`),
    )
    expect(written[9]).toEqual({
      kind: 'create',
      message: '(combined from similar events): Created pod: web-1-10',
      count: 1,
    })
    expect(written[24]).toEqual({
      kind: 'update',
      message: '(combined from similar events): Created pod: web-1-25',
      count: 16,
    })
  })

  it('after the burst, one event per five minutes gets through', () => {
    const c = new EventCorrelator()
    const through = (at: number, i: number) => !c.correlate(event(pod, `Reason${i}`, 'm'), at).skip
    for (let i = 0; i < 25; i++) expect(through(T0, i)).toBe(true)
    expect(through(T0 + 1000, 25)).toBe(false)
    expect(through(T0 + 300_000, 26)).toBe(true)
    expect(through(T0 + 300_001, 27)).toBe(false)
  })
})
