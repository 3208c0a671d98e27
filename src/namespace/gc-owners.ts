// What the garbage collector knows of an ownerReference's owner, as kube's isDangling finds it: the owner's kind is
// resolved by group, version and Kind (its RESTMapper), loading a custom kind this isolate has not seen yet; an owner
// of this host's scope (a namespaced owner in a namespace, a cluster-scoped one in the cluster object) is looked up
// here, a cluster-scoped owner of a namespaced object is asked of the cluster object, and either must carry the
// reference's uid. Also which references a commit adds that kube's graph builder would have checked at once.
import type { OwnerMeta } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import { parseApiVersion } from '../registry/custom/custom-kinds'
import type { ResourceDef } from '../registry/resource'
import { resourceKey } from '../registry/resource'
import { kinds } from '../registry/resources'
import type { KubeObject } from '../schema/meta'
import type { ClusterOwnerReads } from './gc-cluster-owners'

type OwnerState =
  /**
   * No served kind has this group, version and Kind. kube's garbage collector records the error and retries: the
   * dependent is neither deleted nor released on account of it (a kind not yet discovered, or an invalid one).
   */
  | { state: 'unresolved' }
  /**
   * A cluster-scoped object naming a namespaced owner: kube's collector leaves it alone for good
   * (namespacedOwnerOfClusterScopedObjectErr, not retried).
   */
  | { state: 'invalid' }
  /** A cluster-scoped owner seen from a namespace with no way to ask the cluster object: counted present. */
  | { state: 'elsewhere' }
  /** The owner is gone (or its name now holds another object): the reference dangles. */
  | { state: 'absent' }
  /** The owner; `resource` is set when it lives in this host (a cluster-scoped owner of a namespaced object: not). */
  | { state: 'present'; resource: string | null; owner: OwnerMeta }

type Ref = { apiVersion: string; kind: string; name: string; uid: string }

/** The kind an ownerReference names, loading it when this isolate does not know it yet. */
export async function ownerKind(host: ControllerHost, ref: Ref): Promise<ResourceDef | undefined> {
  const { group, version } = parseApiVersion(ref.apiVersion)
  const known = kinds.byGroupVersionKind(group, version, ref.kind)
  if (known) return known
  await host.knowKindOf(ref.apiVersion, ref.kind)
  return kinds.byGroupVersionKind(group, version, ref.kind)
}

/** Where the owner an ownerReference names stands, seen from this host (`cluster`: its reads of the cluster object). */
export async function ownerState(host: ControllerHost, ref: Ref, cluster?: ClusterOwnerReads): Promise<OwnerState> {
  const def = await ownerKind(host, ref)
  if (!def) return { state: 'unresolved' }
  const clusterHost = host.scope === ''
  const resource = resourceKey(def)
  if (!def.namespaced && !clusterHost) {
    if (!cluster) return { state: 'elsewhere' }
    const owner = await cluster.read({ resource, name: ref.name, uid: ref.uid })
    return owner ? { state: 'present', resource: null, owner } : { state: 'absent' }
  }
  if (def.namespaced && clusterHost) return { state: 'invalid' }
  const owner = host.get(resource, ref.name)
  if (!owner || owner.object.metadata.uid !== ref.uid) return { state: 'absent' }
  return { state: 'present', resource, owner: owner.object.metadata }
}

/**
 * Whether `next` names an owner `prev` did not (kube's referencesDiffs, by uid) that kube's graph builder would
 * check at once (addDependentToOwners): of a kind not served, cluster-scoped (the cluster object records the
 * namespace beside it as it answers), or namespaced and not here under that name and uid (a virtual node, or an
 * observed uid whose coordinates differ). A namespaced owner named by a cluster-scoped object is left alone, as
 * kube's collector forgets it (namespacedOwnerOfClusterScopedObjectErr).
 */
export async function namesUnseenOwner(
  host: ControllerHost,
  prev: KubeObject | null,
  next: KubeObject,
  reads?: ClusterOwnerReads,
): Promise<boolean> {
  const before = new Set((prev?.metadata.ownerReferences ?? []).map((r) => r.uid))
  for (const ref of next.metadata.ownerReferences ?? []) {
    if (before.has(ref.uid)) continue
    const def = await ownerKind(host, ref)
    if (!def?.namespaced) return true
    if (host.scope !== '' && (await ownerState(host, ref, reads)).state === 'absent') return true
  }
  return false
}

/** The owners of `refs` that are cluster-scoped, as the cluster object is asked after them. */
export async function clusterScoped(host: ControllerHost, refs: Ref[]) {
  const out: { resource: string; name: string; uid: string }[] = []
  for (const ref of refs) {
    const def = await ownerKind(host, ref)
    if (def && !def.namespaced) out.push({ resource: resourceKey(def), name: ref.name, uid: ref.uid })
  }
  return out
}

/** An owner in foreground deletion, waiting for its dependents to go. */
export const deletingDependents = (owner: OwnerMeta) =>
  !!owner.deletionTimestamp && (owner.finalizers ?? []).includes('foregroundDeletion')

/** Whether a dependent here still blocks the deletion of owner `uid` (kube's blockingDependents). */
export const blockedBy = (host: ControllerHost, uid: string): boolean =>
  host
    .dependents(uid)
    .some(({ resource, name }) =>
      (host.get(resource, name)?.object.metadata.ownerReferences ?? []).some(
        (r) => r.uid === uid && r.blockOwnerDeletion === true,
      ),
    )

/** Whether `next` dropped, or stopped blocking with, a reference that blocked its owner's deletion in `prev`. */
export const stoppedBlocking = (prev: KubeObject, next: KubeObject) =>
  (prev.metadata.ownerReferences ?? []).some(
    (r) =>
      r.blockOwnerDeletion === true &&
      !(next.metadata.ownerReferences ?? []).some((n) => n.uid === r.uid && n.blockOwnerDeletion === true),
  )
