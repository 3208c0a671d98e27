// What each node is to the simulated kubelet (virtual or not), asked of the cluster object at most every 30 s and
// at most once at a time per node: pods on nodes without the virtual-node annotation belong to a real node agent.
import type { ClusterApi, NodeFacts } from '../cluster/cluster-api'

export class KubeletNodeFacts {
  private facts = new Map<string, { at: number; facts: Promise<NodeFacts | null> }>()

  constructor(private readonly cluster: () => ClusterApi) {}

  of(node: string): Promise<NodeFacts | null> {
    const cached = this.facts.get(node)
    if (cached && Date.now() - cached.at < 30_000) return cached.facts
    // The pending answer is shared: the many pods of one node stepped at once (a wake-up) ask once.
    const facts = this.cluster().nodeFacts(node)
    const entry = { at: Date.now(), facts }
    this.facts.set(node, entry)
    facts.catch(() => {
      if (this.facts.get(node) === entry) this.facts.delete(node)
    })
    return facts
  }
}
