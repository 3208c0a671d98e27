// What the cluster object asks of a namespace object: the one typed interface it calls them through (NamespaceObject
// implements it; the cluster side gets it from namespaceApi(env, name), no casts).
import type { NamespacePhase, OwnerMeta } from '../cluster/cluster-api'

export interface NamespaceApi {
  /** The namespace was created (Active), is being deleted (Terminating) or is gone (null). */
  setPhase(phase: NamespacePhase | null): Promise<void>
  /** Deletes everything in the namespace; answers how many objects remain (held by finalizers). */
  terminate(): Promise<number>
  /** Nodes or capacity changed: unschedulable pods get another try. */
  retryScheduling(): Promise<void>
  /** Nodes were added, removed, relabelled or retainted: DaemonSets place their pods again. */
  nodesChanged(): Promise<void>
  /** What kube keeps in this namespace exists (the `kubernetes` service in `default`). */
  bootstrap(): Promise<void>
  /** A node went unreachable at `taintedAt`: its pods here are marked not ready and evicted by their tolerations. */
  evictFromNode(node: string, taintedAt: number): Promise<number | null>
  /**
   * A cluster-scoped owner of objects here went (`owner` null) or waits on the garbage collector (orphan or foreground
   * finalizer): its dependents here are collected, released or attempted. Answers how many still name it and whether
   * one of them blocks its deletion.
   */
  clusterOwnerChanged(uid: string, owner: OwnerMeta | null): Promise<{ dependents: number; blocking: boolean }>
  /** A CRD changed: dependents kept for an owner kind nobody served are tried again. */
  ownerKindsChanged(): Promise<void>
  /** A PriorityClass or StorageClass changed: admission fetches them again (src/namespace/cluster-classes.ts). */
  classesChanged(): Promise<void>
}

export const namespaceApi = (env: Env, name: string): NamespaceApi => env.NAMESPACES.getByName(name)
