// The pod IPs in use on each node (the ledger's pod_bindings.pod_ip), kept in memory per node once first read, so
// finding a node's lowest free address does not read its rows again for every pod.
export class NodePodIPs {
  private readonly byNode = new Map<string, Set<string>>()

  constructor(private readonly sql: SqlStorage) {}

  private used(node: string): Set<string> {
    let used = this.byNode.get(node)
    if (!used) {
      used = new Set(
        this.sql
          .exec<{ pod_ip: string }>('SELECT pod_ip FROM pod_bindings WHERE node = ? AND pod_ip IS NOT NULL', node)
          .toArray()
          .map((r) => r.pod_ip),
      )
      this.byNode.set(node, used)
    }
    return used
  }

  /** The lowest address of a node's pod CIDR no pod there holds (skipping .0 and the .1 gateway), or null. */
  free(node: string, podCIDR: string): string | null {
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(podCIDR)
    if (!m) return null
    const prefix = Number(m[5])
    const base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0
    const size = 2 ** (32 - prefix)
    const used = this.used(node)
    for (let i = 2; i < size - 1; i++) {
      const n = (base + i) >>> 0
      const ip = `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
      if (!used.has(ip)) return ip
    }
    return null
  }

  /** A pod on the node was given `ip` (its row holds it already). */
  taken(node: string, ip: string) {
    this.used(node).add(ip)
  }

  released(node: string, ip: string) {
    this.byNode.get(node)?.delete(ip)
  }
}
