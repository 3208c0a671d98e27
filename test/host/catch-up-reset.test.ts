// A namespace DO that fell behind the compacted D1 log rebuilds its objects from D1's object index. The changes in
// between are gone, so its open watches cannot be continued: they end with 410 Expired and their clients re-list.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createStatic as create, makeNamespace, openWatch, podPath, req } from '../helpers'

describe('a catch-up past the compacted log', () => {
  it('ends open watches with 410 Expired and still serves the rebuilt objects', async () => {
    const ns = await makeNamespace('reset')
    const other = await makeNamespace('reset')
    const a = await create(ns, 'a')
    const w = await openWatch(`${podPath(ns)}?watch=true&resourceVersion=${a.metadata.resourceVersion}`)
    expect(w.status).toBe(200)
    try {
      // Another namespace moves the log on; the log is then compacted past everything this DO has applied.
      await create(other, 'x')
      const before = await env.DB.prepare('SELECT compacted FROM log_meta WHERE id = 1').first<{ compacted: number }>()
      await env.DB.prepare('UPDATE log_meta SET compacted = (SELECT MAX(rv) FROM changes) WHERE id = 1').run()
      try {
        await runInDurableObject(env.NAMESPACES.getByName(ns), (instance) => {
          ;(instance as unknown as { host: { queue: { markSuspect(): void } } }).host.queue.markSuspect()
        })
        const b = await req('POST', podPath(ns), {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'b' },
          spec: { schedulerName: 'kubeflare-test-none', containers: [{ name: 'c', image: 'nginx' }] },
        })
        expect(b.status, b.text).toBe(201)
      } finally {
        await env.DB.prepare('UPDATE log_meta SET compacted = ? WHERE id = 1')
          .bind(before?.compacted ?? 0)
          .run()
      }
      const { events, ended } = await w.rest(3000)
      expect(ended).toBe(true)
      const last = events[events.length - 1]
      expect(last.type).toBe('ERROR')
      expect(last.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' })
      expect(last.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/)
      const list = await req('GET', podPath(ns))
      expect(list.json.items.map((p: any) => p.metadata.name)).toEqual(['a', 'b'])
    } finally {
      await w.cancel()
    }
  })
})
