// Controllers' events go through kube's correlation before they are written: a repeat updates the count of the
// stored Event, a controller's many similar events about one object are aggregated and then cut off, and an Event
// that expired meanwhile is made again.
import { describe, expect, it } from 'vitest'
import { recordEvent } from '../../src/host/record-event'
import type { KubeObject } from '../../src/schema/meta'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>

async function withObject() {
  const { host } = memoryHost()
  const r = await host.create('pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  } as KubeObject)
  if (!r.ok) throw new Error(r.status.message)
  const view = host.controllerView
  const events = () => view.all('events').map((s) => s.object as Obj)
  return { host, view, pod: r.value.object, events }
}

describe('recordEvent', () => {
  it('a repeated event is one Event whose count grows; an expired one is made again', async () => {
    const { host, view, pod, events } = await withObject()
    const spec = {
      type: 'Warning' as const,
      reason: 'BackOff',
      message: 'Back-off pulling image',
      component: 'kubelet',
    }
    await recordEvent(view, pod, spec)
    await recordEvent(view, pod, spec)
    await recordEvent(view, pod, spec)
    expect(events().map((e) => [e.reason, e.count])).toEqual([['BackOff', 3]])
    const name = events()[0]!.metadata.name
    expect((await host.delete('events', name)).ok).toBe(true)
    await recordEvent(view, pod, spec)
    expect(events().map((e) => [e.metadata.name, e.count])).toEqual([[name, 4]])
  })

  it("a controller's thirty similar events about one object: ten Events, twenty-five writes", async () => {
    const { view, pod, events } = await withObject()
    for (let i = 1; i <= 30; i++)
      await recordEvent(view, pod, {
        type: 'Normal',
        reason: 'Pulled',
        message: `Pulled image ${i}`,
        component: 'kubelet',
      })
    const stored = events()
    expect(stored).toHaveLength(10)
    const aggregate = stored.find((e) => e.message.startsWith('(combined from similar events): '))!
    expect(aggregate.count).toBe(16)
    expect(aggregate.message).toBe('(combined from similar events): Pulled image 25')
  })
})
