// The garbage collector's writes, made through the verbs as a client's (kube's collector patches and deletes through
// the API), under kube-controller-manager's name.
import type { ControllerHost } from '../host/controller'

/** The manager kube's garbage collector writes under (kube-controller-manager's user agent). */
const MANAGER = 'kube-controller-manager'

/** Removes the references to `uids` from a dependent (kube's deleteOwnerRefJSONMergePatch). */
export async function dropOwnerRefs(host: ControllerHost, resource: string, name: string, uids: string[]) {
  await host.update(
    resource,
    name,
    (o) => {
      if (!(o.metadata.ownerReferences ?? []).some((r) => uids.includes(r.uid))) return null
      o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => !uids.includes(r.uid))
      if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences
      return o
    },
    { fieldManager: MANAGER },
  )
}

/** Sets blockOwnerDeletion false on every reference that blocks (kube's unblockOwnerReferences patch). */
export async function unblockOwnerRefs(host: ControllerHost, resource: string, name: string, uid: string) {
  await host.update(
    resource,
    name,
    (o) => {
      if (o.metadata.uid !== uid || !(o.metadata.ownerReferences ?? []).some((r) => r.blockOwnerDeletion)) return null
      o.metadata.ownerReferences = o.metadata.ownerReferences!.map((r) =>
        r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r,
      )
      return o
    },
    { fieldManager: MANAGER },
  )
}

/**
 * Deletes a dependent with the propagation policy its own state asks for, only while its name holds the object looked
 * at (kube's deleteObject: a uid precondition; a Conflict means that object is gone and a new one has its own turn).
 */
export async function remove(
  host: ControllerHost,
  resource: string,
  name: string,
  uid: string,
  policy: 'Background' | 'Foreground' | 'Orphan' = 'Background',
) {
  await host.delete(resource, name, { propagationPolicy: policy, ...(uid ? { preconditions: { uid } } : {}) })
}

/** Lets the owner go: the update that clears its last finalizer completes its deletion (store.planUpdate). */
export async function dropFinalizer(
  host: ControllerHost,
  resource: string,
  name: string,
  uid: string,
  finalizer: string,
) {
  await host.update(
    resource,
    name,
    (o) => {
      if (o.metadata.uid !== uid || !o.metadata.finalizers?.includes(finalizer)) return null
      o.metadata.finalizers = o.metadata.finalizers.filter((f) => f !== finalizer)
      if (o.metadata.finalizers.length === 0) delete o.metadata.finalizers
      return o
    },
    { fieldManager: MANAGER },
  )
}
