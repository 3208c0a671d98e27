// The Node authorizer's graph as the Durable Objects hold it: kube keeps the whole graph in memory, fed by informers;
// here each edge is an index row beside the object that holds it (pods in their namespace's object, PersistentVolumes
// in the cluster's: src/registry/node-graph/graph-edges.ts), so a question about one object costs one indexed lookup
// in the object owning its namespace, never a scan: secret, configmap, pvc, serviceAccount, resourceclaim -> a pod
// bound to the node; pod -> its own spec.nodeName; pv -> its claim -> a pod; secret -> a pv -> its claim -> a pod.
// Every answer is read from the owning object as it is now, so a pod bound a moment ago grants at once and a deleted
// one stops granting at once (kube's informers lag a little; this does not).
import type { GraphEdgeRow } from '../host/object-store'
import type { Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { NodeGraph, VertexType } from './node-authorizer'

type Obj = Record<string, any>

/** What the graph reads of a host: its edges, and one object. */
interface GraphHost {
  graphEdgesFrom(type: string, namespace: string, name: string, node?: string): Promise<GraphEdgeRow[]>
  get(resource: string, name: string): Promise<Result<KubeObject>>
}

export class DurableNodeGraph implements NodeGraph {
  constructor(
    private readonly namespace: (name: string) => GraphHost,
    private readonly cluster: () => GraphHost,
  ) {}

  static of(env: Env): DurableNodeGraph {
    return new DurableNodeGraph(
      (name) => env.NAMESPACES.getByName(name),
      () => env.CLUSTER.getByName('cluster'),
    )
  }

  async reaches(node: string, type: VertexType, namespace: string, name: string): Promise<boolean> {
    switch (type) {
      case 'pod':
        return this.podOn(node, namespace, name)
      case 'pv':
        return this.volumeReaches(node, name)
      case 'secret':
        return (await this.boundEdge(node, type, namespace, name)) || this.secretThroughVolume(node, namespace, name)
      // Not served here: no object of these kinds can be in the graph.
      case 'volumeattachment':
      case 'resourceslice':
        return false
      default:
        return this.boundEdge(node, type, namespace, name)
    }
  }

  /** A pod of `namespace` bound to `node` names this object. */
  private async boundEdge(node: string, type: string, namespace: string, name: string): Promise<boolean> {
    if (namespace === '') return false
    return (await this.namespace(namespace).graphEdgesFrom(type, '', name, node)).length > 0
  }

  /** The pod is bound to the node (its spec.nodeName never changes once set). */
  private async podOn(node: string, namespace: string, name: string): Promise<boolean> {
    if (namespace === '') return false
    const got = await this.namespace(namespace).get('pods', name)
    return got.ok && (got.value as Obj).spec?.nodeName === node
  }

  /** The volume's claim is named by a pod bound to the node. */
  private async volumeReaches(node: string, name: string): Promise<boolean> {
    const got = await this.cluster().get('persistentvolumes', name)
    const claim = got.ok ? (got.value as Obj).spec?.claimRef : undefined
    if (!claim?.namespace || !claim.name) return false
    return this.boundEdge(node, 'pvc', claim.namespace, claim.name)
  }

  /** A volume the kubelet reads this secret for leads to the node. */
  private async secretThroughVolume(node: string, namespace: string, name: string): Promise<boolean> {
    for (const pv of await this.cluster().graphEdgesFrom('secret', namespace, name)) {
      if (await this.volumeReaches(node, pv.name)) return true
    }
    return false
  }
}
