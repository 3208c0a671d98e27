// The node's Lease in kube-node-lease, as the kubelet's lease controller keeps it: holder the node, duration 40 s,
// renewed every quarter of that, owned by the Node (so it goes with it). Used when the server serves Leases.
import { isConflict, isNotFound, KubeError, type KubeClient } from './kube-client.ts'
import type { Obj } from './obj.ts'

/** metav1.MicroTime: RFC 3339 with microseconds. */
export const microTime = (d: Date = new Date()) => d.toISOString().replace(/Z$/, '000Z')

const NAMESPACE = 'kube-node-lease'

export class NodeLease {
  private lease: Obj | null = null
  private readonly client: KubeClient
  private readonly node: string
  private readonly durationMs: number

  constructor(client: KubeClient, node: string, durationMs: number) {
    this.client = client
    this.node = node
    this.durationMs = durationMs
  }

  private get collection() {
    return `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases`
  }

  /** Whether the server serves Leases (a missing lease is a 404 naming leases; a missing API names nothing). */
  async served(): Promise<boolean> {
    try {
      this.lease = await this.client.get(`${this.collection}/${this.node}`)
      return true
    } catch (e) {
      if (e instanceof KubeError && e.code === 404) return e.status?.details?.kind === 'leases'
      throw e
    }
  }

  /** Renews the lease (creating it when missing) with the Node as its owner; a conflict re-reads it. */
  async renew(nodeUID: string | undefined): Promise<void> {
    const owners = nodeUID ? [{ apiVersion: 'v1', kind: 'Node', name: this.node, uid: nodeUID }] : undefined
    for (let attempt = 0; attempt < 3; attempt++) {
      const spec = {
        holderIdentity: this.node,
        leaseDurationSeconds: Math.round(this.durationMs / 1000),
        renewTime: microTime(),
      }
      try {
        this.lease ??= await this.read()
        if (this.lease) {
          const metadata = { ...this.lease.metadata, ...(owners ? { ownerReferences: owners } : {}) }
          const next = { ...this.lease, metadata, spec: { ...this.lease.spec, ...spec } }
          this.lease = await this.client.request('PUT', `${this.collection}/${this.node}`, next)
        } else {
          const metadata = { name: this.node, namespace: NAMESPACE, ...(owners ? { ownerReferences: owners } : {}) }
          const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata, spec }
          this.lease = await this.client.request('POST', this.collection, body)
        }
        return
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) throw e
        this.lease = null
      }
    }
    throw new Error(`renewing lease ${NAMESPACE}/${this.node} kept conflicting`)
  }

  private async read(): Promise<Obj | null> {
    try {
      return await this.client.get(`${this.collection}/${this.node}`)
    } catch (e) {
      if (isNotFound(e)) return null
      throw e
    }
  }
}
