// Cluster IP and node port allocation for services, cluster-wide, inside the cluster Durable Object: reserve (all or
// nothing, dry runs only check), release (only what the owner holds), and the repair pass that frees what no stored
// service holds and re-claims what a service holds but the table lost. Synchronous SQL: no request interleaves.
import type {
  Allocated,
  AllocationFailure,
  AllocationRequest,
  AllocationRow,
  Holding,
  Pool,
  ReserveAnswer,
} from './allocation-types'
import { AllocationStore } from './allocation-store'
import {
  DEFAULT_SERVICE_CIDR,
  inRange,
  intToIPv4,
  ipv4ToInt,
  parsePortRange,
  parseServiceCIDR,
  pickFree,
  type IntRange,
  type PortRange,
  type ServiceCIDR,
} from '../../registry/ip-ranges'

const DEFAULT_NODE_PORT_RANGE = '30000-32767'

/** How long a repair pass leaves a fresh reservation alone: its service may not have committed yet. */
export const REPAIR_GRACE_MS = 60_000

export interface AllocatorConfig {
  serviceCIDR?: string
  nodePortRange?: string
}

export interface RepairResult {
  freed: { pool: Pool; value: string | number; owner: string }[]
  claimed: { pool: Pool; value: string | number; owner: string }[]
}

const ALREADY = { ip: 'provided IP is already allocated', nodeport: 'provided port is already allocated' } as const

export class ServiceAllocators {
  readonly cidr: ServiceCIDR
  readonly ports: PortRange
  private readonly store: AllocationStore
  /** Values released during this instance's life, with when: a repair pass must not re-claim them from a stale read. */
  private readonly released = new Map<string, number>()

  constructor(
    private readonly storage: DurableObjectStorage,
    config: AllocatorConfig,
    private readonly random: () => number = Math.random,
  ) {
    this.store = new AllocationStore(storage.sql)
    const cidr = parseServiceCIDR(config.serviceCIDR || DEFAULT_SERVICE_CIDR)
    if (!cidr)
      console.error(
        `SERVICE_CIDR ${JSON.stringify(config.serviceCIDR)} is not an IPv4 CIDR (/8 to /30); using ${DEFAULT_SERVICE_CIDR}`,
      )
    this.cidr = cidr ?? parseServiceCIDR(DEFAULT_SERVICE_CIDR)!
    const ports = parsePortRange(config.nodePortRange || DEFAULT_NODE_PORT_RANGE)
    if (!ports)
      console.error(
        `NODE_PORT_RANGE ${JSON.stringify(config.nodePortRange)} is not a port range; using ${DEFAULT_NODE_PORT_RANGE}`,
      )
    this.ports = ports ?? parsePortRange(DEFAULT_NODE_PORT_RANGE)!
  }

  /** Reserves every value of the request for `owner`, or none. A dry run answers what it would reserve. */
  reserve(owner: string, req: AllocationRequest, dryRun: boolean, now = Date.now()): ReserveAnswer {
    const picked: Record<Pool, number[]> = { ip: [], nodeport: [] }
    const fresh: Record<Pool, number[]> = { ip: [], nodeport: [] }
    const pools: [Pool, IntRange, (string | number)[]][] = [
      ['ip', this.cidr, req.clusterIPs],
      ['nodeport', this.ports, req.nodePorts],
    ]
    for (const [pool, range, wanted] of pools) {
      for (const [index, want] of wanted.entries()) {
        const fail = (message: string, full = false): ReserveAnswer => ({
          ok: false,
          failure: { pool, index, requested: want, full, message } satisfies AllocationFailure,
        })
        let value: number
        if (want === '' || want === 0) {
          // Values picked earlier in this request count as taken.
          const takenFrom = (a: number, b: number) =>
            [...this.store.takenBetween(pool, a, b), ...picked[pool].filter((v) => v >= a && v <= b)].sort(
              (x, y) => x - y,
            )
          const found = pickFree(range, takenFrom, this.random)
          if (found === null) return fail('range is full', true)
          value = found
        } else {
          const n = pool === 'ip' ? ipv4ToInt(String(want)) : Number(want)
          if (n === null || !inRange(range, n)) return fail(this.notInRange(pool, want))
          const holder = this.store.get(pool, n)
          if ((holder && holder.owner !== owner) || picked[pool].includes(n)) return fail(ALREADY[pool])
          value = n
          // Asking again for what one holds is not an error (a retried plan): nothing to insert.
          if (holder) {
            picked[pool].push(value)
            continue
          }
        }
        picked[pool].push(value)
        fresh[pool].push(value)
      }
    }
    if (!dryRun) {
      this.storage.transactionSync(() => {
        for (const pool of ['ip', 'nodeport'] as const)
          for (const v of fresh[pool]) this.store.insert(pool, v, owner, now)
      })
    }
    return { ok: true, clusterIPs: picked.ip.map(intToIPv4), nodePorts: picked.nodeport }
  }

  private notInRange(pool: Pool, want: string | number): string {
    if (pool === 'ip')
      return `the provided IP (${want}) is not in the valid range. The range of valid IPs is ${this.cidr.text}`
    return `provided port is not in the valid range. The range of valid ports is ${this.ports.text}`
  }

  /** Frees what `owner` holds of `what` (everything it holds when null); answers what was freed. */
  release(owner: string, what: Allocated | null, now = Date.now()): Allocated {
    const freed: Allocated = { clusterIPs: [], nodePorts: [] }
    this.storage.transactionSync(() => {
      if (what === null) {
        for (const a of this.store.removeOwner(owner)) this.noteReleased(a.pool, a.value, now, freed)
        return
      }
      for (const ip of what.clusterIPs) {
        const n = ipv4ToInt(ip)
        if (n !== null && this.store.remove('ip', n, owner)) this.noteReleased('ip', n, now, freed)
      }
      for (const port of what.nodePorts)
        if (this.store.remove('nodeport', port, owner)) this.noteReleased('nodeport', port, now, freed)
    })
    return freed
  }

  private noteReleased(pool: Pool, value: number, now: number, freed: Allocated) {
    this.released.set(`${pool}:${value}`, now)
    if (pool === 'ip') freed.clusterIPs.push(intToIPv4(value))
    else freed.nodePorts.push(value)
  }

  /**
   * The repair pass. `holdings` is what the stored services held when read, at `readAt` (taken before the read
   * started). Reservations younger than the grace period are left alone (their commit may be in flight); older
   * ones no service holds are freed; ones a service holds are confirmed (and given to that service if another owner
   * had them). A held value missing from the table is claimed for its holder unless it was released after readAt.
   */
  repair(holdings: readonly Holding[], readAt: number, graceMs = REPAIR_GRACE_MS, now = Date.now()): RepairResult {
    const held = new Map<string, string>()
    for (const h of holdings) {
      for (const ip of h.clusterIPs) {
        const n = ipv4ToInt(ip)
        if (n !== null) held.set(`ip:${n}`, h.owner)
      }
      for (const p of h.nodePorts) held.set(`nodeport:${p}`, h.owner)
    }
    const result: RepairResult = { freed: [], claimed: [] }
    const show = (pool: Pool, v: number) => (pool === 'ip' ? intToIPv4(v) : v)
    this.storage.transactionSync(() => {
      const seen = new Set<string>()
      for (const row of this.store.all()) {
        const key = `${row.pool}:${row.value}`
        seen.add(key)
        if (row.reservedAt > readAt - graceMs) continue
        const holder = held.get(key)
        if (holder === undefined) {
          this.store.remove(row.pool, row.value, row.owner)
          result.freed.push({ pool: row.pool, value: show(row.pool, row.value), owner: row.owner })
        } else if (!row.verified || holder !== row.owner) {
          this.store.markVerified(row.pool, row.value, holder)
        }
      }
      for (const [key, owner] of held) {
        if (seen.has(key)) continue
        const releasedAt = this.released.get(key)
        if (releasedAt !== undefined && releasedAt >= readAt) continue
        const [pool, raw] = key.split(':') as [Pool, string]
        const value = Number(raw)
        if (!inRange(pool === 'ip' ? this.cidr : this.ports, value)) continue
        this.store.insert(pool, value, owner, now)
        this.store.markVerified(pool, value, owner)
        result.claimed.push({ pool, value: show(pool, value), owner })
      }
    })
    // Forget releases no later pass can confuse any more.
    for (const [k, at] of this.released) if (at < now - 10 * graceMs) this.released.delete(k)
    return result
  }

  /** When the next repair pass is due: once the oldest unconfirmed reservation is past the grace period. */
  nextRepairAt(graceMs = REPAIR_GRACE_MS): number | null {
    const oldest = this.store.oldestUnverified()
    return oldest === null ? null : oldest + graceMs
  }

  rows(): AllocationRow[] {
    return this.store.all().map((a) => ({ ...a, value: a.pool === 'ip' ? intToIPv4(a.value) : a.value }))
  }
}
