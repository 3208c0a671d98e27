// Events expire an hour after their last write (kube's default --event-ttl): the host's alarm removes them.
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const event = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p', namespace },
  reason: 'Testing',
  message: 'hello',
  type: 'Normal',
})

describe('event time to live', () => {
  it('an event is scheduled to go an hour after its write, and goes when that time has come', async () => {
    const ns = await makeNamespace('ttl')
    const before = Date.now()
    expect((await req('POST', `/api/v1/namespaces/${ns}/events`, event('e1', ns))).status).toBe(201)
    const stub = env.NAMESPACES.getByName(ns)
    const at = await runInDurableObject(
      stub,
      (_, state) =>
        state.storage.sql
          .exec<{ at: number }>("SELECT at FROM expiries WHERE resource = 'events' AND name = 'e1'")
          .one().at,
    )
    expect(at).toBeGreaterThanOrEqual(before + 3600_000)
    expect(at).toBeLessThan(Date.now() + 3600_000 + 1000)
    // Time passes: make it due, and let the alarm run.
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec("UPDATE expiries SET at = 0 WHERE resource = 'events'")
    })
    await runDurableObjectAlarm(stub)
    expect((await req('GET', `/api/v1/namespaces/${ns}/events/e1`)).status).toBe(404)
  })
})
