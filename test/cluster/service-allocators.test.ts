// The service allocators over a Durable Object's SQLite: reservations are all or nothing, requests are honoured only
// in range and free, owners release only their own values, dry runs reserve nothing, and the repair pass frees what
// no service holds and re-claims what a service holds but the table lost.
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { ServiceAllocators, type AllocatorConfig } from '../../src/cluster/allocators/service-allocators'

let n = 0
/** A fresh allocator over the storage of a throwaway Durable Object (nothing else uses its svc_alloc table). */
async function withAllocators<T>(config: AllocatorConfig, fn: (a: ServiceAllocators) => T): Promise<T> {
  const stub = env.NAMESPACES.getByName(`alloc-unit-${Date.now()}-${n++}`)
  return runInDurableObject(stub, (_instance, state) => fn(new ServiceAllocators(state.storage, config)))
}

describe('reserve', () => {
  it('honours requests in range and free, refuses others with kube messages', async () => {
    await withAllocators({}, (a) => {
      expect(a.reserve('ns/a/1', { clusterIPs: ['10.96.0.10'], nodePorts: [30080] }, false)).toEqual({
        ok: true,
        clusterIPs: ['10.96.0.10'],
        nodePorts: [30080],
      })
      expect(a.reserve('ns/b/2', { clusterIPs: ['10.96.0.10'], nodePorts: [] }, false)).toEqual({
        ok: false,
        failure: {
          pool: 'ip',
          index: 0,
          requested: '10.96.0.10',
          full: false,
          message: 'provided IP is already allocated',
        },
      })
      expect(a.reserve('ns/b/2', { clusterIPs: ['1.2.3.4'], nodePorts: [] }, false)).toMatchObject({
        ok: false,
        failure: {
          message: 'the provided IP (1.2.3.4) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
        },
      })
      // Network and broadcast addresses are outside the usable range.
      expect(a.reserve('ns/b/2', { clusterIPs: ['10.96.0.0'], nodePorts: [] }, false).ok).toBe(false)
      expect(a.reserve('ns/b/2', { clusterIPs: [], nodePorts: [30080] }, false)).toMatchObject({
        ok: false,
        failure: { pool: 'nodeport', index: 0, message: 'provided port is already allocated' },
      })
      expect(a.reserve('ns/b/2', { clusterIPs: [], nodePorts: [80] }, false)).toMatchObject({
        ok: false,
        failure: { message: 'provided port is not in the valid range. The range of valid ports is 30000-32767' },
      })
      // Asking again for what one holds is fine (a re-planned write).
      expect(a.reserve('ns/a/1', { clusterIPs: ['10.96.0.10'], nodePorts: [30080] }, false).ok).toBe(true)
      expect(a.rows().map((r) => [r.pool, r.value, r.owner])).toEqual([
        ['ip', '10.96.0.10', 'ns/a/1'],
        ['nodeport', 30080, 'ns/a/1'],
      ])
    })
  })

  it('is all or nothing, and never hands out a value twice within one request', async () => {
    await withAllocators({}, (a) => {
      const r = a.reserve('ns/a/1', { clusterIPs: [''], nodePorts: [0, 0, 30001, 30001] }, false)
      expect(r).toMatchObject({ ok: false, failure: { pool: 'nodeport', index: 3 } })
      expect(a.rows()).toEqual([])
      const ok = a.reserve('ns/a/1', { clusterIPs: [''], nodePorts: [0, 0, 30001] }, false)
      if (!ok.ok) throw new Error('refused')
      expect(new Set(ok.nodePorts).size).toBe(3)
      // Dynamic values come from the upper part of each range.
      const ip = ok.clusterIPs[0]!.split('.').map(Number)
      expect(ip[0]).toBe(10)
      expect(ip[1]! * 256 + ip[2]!).toBeGreaterThanOrEqual(96 * 256 + 1)
      for (const p of ok.nodePorts.slice(0, 2)) expect(p).toBeGreaterThanOrEqual(30086)
    })
  })

  it('a dry run checks and proposes but reserves nothing', async () => {
    await withAllocators({}, (a) => {
      const r = a.reserve('ns/a/1', { clusterIPs: ['', '10.96.0.20'], nodePorts: [0] }, true)
      expect(r.ok).toBe(true)
      expect(a.rows()).toEqual([])
      a.reserve('ns/x/9', { clusterIPs: ['10.96.0.20'], nodePorts: [] }, false)
      expect(a.reserve('ns/a/1', { clusterIPs: ['10.96.0.20'], nodePorts: [] }, true).ok).toBe(false)
    })
  })

  it('reports a full range, then reuses a released value', async () => {
    await withAllocators({ serviceCIDR: '10.0.0.0/29', nodePortRange: '30000-30001' }, (a) => {
      const ips: string[] = []
      for (let i = 0; i < 6; i++) {
        const r = a.reserve(`ns/s${i}/u`, { clusterIPs: [''], nodePorts: [] }, false)
        if (!r.ok) throw new Error(`refused at ${i}`)
        ips.push(r.clusterIPs[0]!)
      }
      expect(new Set(ips)).toEqual(new Set(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']))
      expect(a.reserve('ns/more/u', { clusterIPs: [''], nodePorts: [] }, false)).toMatchObject({
        ok: false,
        failure: { full: true, message: 'range is full' },
      })
      expect(a.release('ns/s3/u', null)).toEqual({ clusterIPs: [ips[3]], nodePorts: [] })
      expect(a.reserve('ns/more/u', { clusterIPs: [''], nodePorts: [] }, false)).toEqual({
        ok: true,
        clusterIPs: [ips[3]],
        nodePorts: [],
      })
      expect(a.reserve('ns/p/u', { clusterIPs: [], nodePorts: [0, 0, 0] }, false)).toMatchObject({
        ok: false,
        failure: { pool: 'nodeport', full: true },
      })
    })
  })
})

describe('release', () => {
  it('frees only what the owner holds', async () => {
    await withAllocators({}, (a) => {
      a.reserve('ns/a/1', { clusterIPs: ['10.96.0.30'], nodePorts: [30030, 30031] }, false)
      expect(a.release('ns/a/OTHER-UID', null)).toEqual({ clusterIPs: [], nodePorts: [] })
      expect(a.release('ns/b/2', { clusterIPs: ['10.96.0.30'], nodePorts: [30030] })).toEqual({
        clusterIPs: [],
        nodePorts: [],
      })
      expect(a.release('ns/a/1', { clusterIPs: [], nodePorts: [30030] })).toEqual({
        clusterIPs: [],
        nodePorts: [30030],
      })
      expect(a.rows().map((r) => r.value)).toEqual(['10.96.0.30', 30031])
      expect(a.release('ns/a/1', null)).toEqual({ clusterIPs: ['10.96.0.30'], nodePorts: [30031] })
      expect(a.rows()).toEqual([])
    })
  })
})

describe('repair', () => {
  it('frees old reservations no service holds, keeps fresh ones, confirms held ones, re-claims lost ones', async () => {
    await withAllocators({}, (a) => {
      const t0 = 1_000_000
      a.reserve('ns/leak/1', { clusterIPs: ['10.96.0.40'], nodePorts: [30040] }, false, t0)
      a.reserve('ns/kept/2', { clusterIPs: ['10.96.0.41'], nodePorts: [] }, false, t0)
      a.reserve('ns/fresh/3', { clusterIPs: ['10.96.0.42'], nodePorts: [] }, false, t0 + 90_000)
      const holdings = [
        { owner: 'ns/kept/2', clusterIPs: ['10.96.0.41'], nodePorts: [] },
        // Held by a service, but missing from the table (a commit that timed out, then happened).
        { owner: 'ns/lost/4', clusterIPs: ['10.96.0.43'], nodePorts: [30043] },
      ]
      const r = a.repair(holdings, t0 + 100_000, 60_000, t0 + 100_000)
      expect(r.freed).toEqual([
        { pool: 'ip', value: '10.96.0.40', owner: 'ns/leak/1' },
        { pool: 'nodeport', value: 30040, owner: 'ns/leak/1' },
      ])
      expect(r.claimed).toEqual([
        { pool: 'ip', value: '10.96.0.43', owner: 'ns/lost/4' },
        { pool: 'nodeport', value: 30043, owner: 'ns/lost/4' },
      ])
      expect(a.rows().map((row) => [row.value, row.owner, row.verified])).toEqual([
        ['10.96.0.41', 'ns/kept/2', true],
        ['10.96.0.42', 'ns/fresh/3', false],
        ['10.96.0.43', 'ns/lost/4', true],
        [30043, 'ns/lost/4', true],
      ])
      expect(a.nextRepairAt(60_000)).toBe(t0 + 150_000)
    })
  })

  it('does not re-claim what was released after the services were read', async () => {
    await withAllocators({}, (a) => {
      a.reserve('ns/gone/1', { clusterIPs: ['10.96.0.50'], nodePorts: [] }, false, 1000)
      const readAt = Date.now()
      // Deleted (and released) while the repair pass was reading the services.
      a.release('ns/gone/1', null, readAt + 5)
      const r = a.repair([{ owner: 'ns/gone/1', clusterIPs: ['10.96.0.50'], nodePorts: [] }], readAt, 0)
      expect(r.claimed).toEqual([])
      expect(a.rows()).toEqual([])
    })
  })
})
