// The simulated kubelet's log store: a restarted container's runs are windows of line numbers, which stay valid when
// the runs older than the previous one are dropped (kubelet keeps the current and the previous container's logs).
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PodLogStore } from '../../src/namespace/pod-log-store'

describe('PodLogStore runs', () => {
  it('reads a run by line numbers, also after older runs were dropped', async () => {
    const stub = env.NAMESPACES.get(env.NAMESPACES.idFromName('pod-log-store-test'))
    await runInDurableObject(stub, (_instance, state) => {
      const logs = new PodLogStore(state.storage.sql)
      // Three runs of a program writing two lines each.
      for (const run of [0, 1, 2]) logs.append('u', 'c', [`a${run}`, `b${run}`], '2026-01-01T00:00:00.000000000Z')
      expect(logs.lastSeq('u', 'c')).toBe(6)
      expect(logs.read('u', 'c', {}, { from: 2, to: 4 }).text).toBe('a1\nb1\n')
      logs.dropThrough('u', 'c', 2)
      expect(logs.lines('u', 'c').map((l) => l.line)).toEqual(['a1', 'b1', 'a2', 'b2'])
      expect(logs.read('u', 'c', {}, { from: 4, to: 6 }).text).toBe('a2\nb2\n')
      expect(logs.read('u', 'c', { tailLines: 1 }, { from: 2, to: 4 }).text).toBe('b1\n')
      // Numbering goes on from the last line.
      logs.append('u', 'c', ['a3'], '2026-01-01T00:00:00.000000000Z')
      expect(logs.lastSeq('u', 'c')).toBe(7)
      expect(logs.lastSeq('u', 'other')).toBe(0)
    })
  })
})
