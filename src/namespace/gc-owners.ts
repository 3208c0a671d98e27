// What the garbage collector knows of an ownerReference's owner, as kube's isDangling finds it: the owner's kind is
// resolved by group, version and Kind (its RESTMapper), loading a custom kind this isolate has not seen yet; an owner
// of this host's scope (a namespaced owner in a namespace, a cluster-scoped one in the cluster object) is looked up
// here and must carry the reference's uid.
import type { ControllerHost } from '../host/controller'
import { parseApiVersion } from '../registry/custom/custom-kinds'
import type { ResourceDef } from '../registry/resource'
import { resourceKey } from '../registry/resource'
import { kinds } from '../registry/resources'
import type { KubeObject } from '../schema/meta'

type OwnerState =
  /**
   * No served kind has this group, version and Kind. kube's garbage collector records the error and retries: the
   * dependent is neither deleted nor released on account of it (a kind not yet discovered, or an invalid one).
   */
  | { state: 'unresolved' }
  /** A cluster-scoped owner seen from a namespace: not visible there, so it counts as present (the dependent is kept). */
  | { state: 'elsewhere' }
  /** The owner is gone (or its name now holds another object): the reference dangles. */
  | { state: 'absent' }
  | { state: 'present'; resource: string; object: KubeObject }

type Ref = { apiVersion: string; kind: string; name: string; uid: string }

/** The kind an ownerReference names, loading it when this isolate does not know it yet. */
async function ownerKind(host: ControllerHost, ref: Ref): Promise<ResourceDef | undefined> {
  const { group, version } = parseApiVersion(ref.apiVersion)
  const known = kinds.byGroupVersionKind(group, version, ref.kind)
  if (known) return known
  await host.knowKindOf(ref.apiVersion, ref.kind)
  return kinds.byGroupVersionKind(group, version, ref.kind)
}

/** Where the owner an ownerReference names stands, seen from this namespace. */
export async function ownerState(host: ControllerHost, ref: Ref): Promise<OwnerState> {
  const def = await ownerKind(host, ref)
  if (!def) return { state: 'unresolved' }
  const clusterHost = host.scope === ''
  if (!def.namespaced && !clusterHost) return { state: 'elsewhere' }
  // A cluster-scoped object cannot be owned by a namespaced one: kube's collector leaves it alone (and forgets it).
  if (def.namespaced && clusterHost) return { state: 'unresolved' }
  const resource = resourceKey(def)
  const owner = host.get(resource, ref.name)
  if (!owner || owner.object.metadata.uid !== ref.uid) return { state: 'absent' }
  return { state: 'present', resource, object: owner.object }
}
