// The per-node sums the scheduler reads for every pod (the ledger's pod_bindings rows summed by node): requests,
// NonZeroRequested and the pod count. Loaded from the table on first use and moved with each bind and release; the
// ledger is the table's only writer, so they stay exact.
import { addOther, type CpuAndMemory, NON_ZERO_DEFAULTS } from '../registry/pod-requests'

export type Usage = { cpuMilli: number; memBytes: number; pods: number; other?: Record<string, number> }

/** A node's sums for the scheduler: its usage and its pods' NonZeroRequested. */
export type NodeUsage = Usage & { nonZero: CpuAndMemory }

/** What a binding adds to its node's sums. */
type Reservation = { cpuMilli: number; memBytes: number; other?: Record<string, number>; nonZero: CpuAndMemory }

/**
 * The NonZeroRequested of a row, also of one older than its columns (node-ledger-schema.ts): its requests, or the
 * defaults where those are 0.
 */
export const NON_ZERO_CPU = `COALESCE(nonzero_cpu_milli, CASE WHEN cpu_milli > 0 THEN cpu_milli ELSE ${NON_ZERO_DEFAULTS.cpuMilli} END)`
export const NON_ZERO_MEM = `COALESCE(nonzero_mem_bytes, CASE WHEN mem_bytes > 0 THEN mem_bytes ELSE ${NON_ZERO_DEFAULTS.memBytes} END)`

export class NodeSums {
  private sums: Map<string, NodeUsage> | null = null

  constructor(private readonly sql: SqlStorage) {}

  /** Resources reserved on each node, and pod counts (nodes without pods are absent). */
  usage(): ReadonlyMap<string, Readonly<NodeUsage>> {
    return this.loaded()
  }

  /** Adds (`sign` 1) or takes away (-1) a binding's reservation from its node's sums. */
  count(node: string, b: Reservation, sign: 1 | -1) {
    if (!this.sums) return // loaded from the table, with this change, when first asked
    const u = this.sums.get(node) ?? { cpuMilli: 0, memBytes: 0, pods: 0, nonZero: { cpuMilli: 0, memBytes: 0 } }
    u.cpuMilli += sign * b.cpuMilli
    u.memBytes += sign * b.memBytes
    u.nonZero.cpuMilli += sign * b.nonZero.cpuMilli
    u.nonZero.memBytes += sign * b.nonZero.memBytes
    u.pods += sign
    addOther(u, b.other, sign)
    if (u.pods > 0) this.sums.set(node, u)
    else this.sums.delete(node)
  }

  private loaded(): Map<string, NodeUsage> {
    if (this.sums) return this.sums
    const sums = new Map<string, NodeUsage>()
    for (const r of this.sql
      .exec<{ node: string; cpu: number; mem: number; n: number; nz_cpu: number; nz_mem: number }>(
        `SELECT node, SUM(cpu_milli) AS cpu, SUM(mem_bytes) AS mem, COUNT(*) AS n,
         SUM(${NON_ZERO_CPU}) AS nz_cpu, SUM(${NON_ZERO_MEM}) AS nz_mem FROM pod_bindings GROUP BY node`,
      )
      .toArray()) {
      sums.set(r.node, {
        cpuMilli: Number(r.cpu),
        memBytes: Number(r.mem),
        pods: Number(r.n),
        nonZero: { cpuMilli: Number(r.nz_cpu), memBytes: Number(r.nz_mem) },
      })
    }
    // Few pods ask for other resources: their rows are summed one by one.
    for (const r of this.sql
      .exec<{ node: string; other_requests: string }>(
        'SELECT node, other_requests FROM pod_bindings WHERE other_requests IS NOT NULL',
      )
      .toArray())
      addOther(sums.get(r.node)!, JSON.parse(r.other_requests) as Record<string, number>, 1)
    this.sums = sums
    return sums
  }
}
