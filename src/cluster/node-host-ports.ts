// The host ports the pods on each node hold (the ledger's pod_bindings.host_ports), for the NodePorts filter: loaded
// from the table on first use and kept with each bind and release, so a placement reads no rows; few pods ask for any.
import type { HostPort } from '../registry/host-ports'

export class NodeHostPorts {
  /** Per node, podKey → ports; null until first asked. */
  private byNode: Map<string, Map<string, HostPort[]>> | null = null

  constructor(private readonly sql: SqlStorage) {}

  /** The host ports the pods bound to a node hold. */
  on(node: string): HostPort[] {
    return [...(this.loaded().get(node)?.values() ?? [])].flat()
  }

  /** A pod was bound to the node holding `ports` (its row holds them already). */
  bound(node: string, podKey: string, ports: HostPort[]) {
    if (ports.length === 0 || !this.byNode) return
    let onNode = this.byNode.get(node)
    if (!onNode) this.byNode.set(node, (onNode = new Map()))
    onNode.set(podKey, ports)
  }

  released(node: string, podKey: string) {
    this.byNode?.get(node)?.delete(podKey)
  }

  private loaded(): Map<string, Map<string, HostPort[]>> {
    if (this.byNode) return this.byNode
    const byNode = new Map<string, Map<string, HostPort[]>>()
    for (const r of this.sql
      .exec<{ pod_key: string; node: string; host_ports: string }>(
        'SELECT pod_key, node, host_ports FROM pod_bindings WHERE host_ports IS NOT NULL',
      )
      .toArray()) {
      let onNode = byNode.get(r.node)
      if (!onNode) byNode.set(r.node, (onNode = new Map()))
      onNode.set(r.pod_key, JSON.parse(r.host_ports) as HostPort[])
    }
    this.byNode = byNode
    return byNode
  }
}
