// kube's attemptToDeleteItem for one dependent: what the garbage collector (garbage-collector.ts) does with an object
// whose owners may be gone, waiting for their dependents, or still there.
import type { ControllerHost } from '../host/controller'
import type { ClusterOwnerReads } from './gc-cluster-owners'
import { deletingDependents, ownerState } from './gc-owners'
import { dropOwnerRefs, remove, unblockOwnerRefs } from './gc-writes'

/**
 * kube's attemptToDeleteItem for a dependent: its owners are solid (present), dangling (gone) or waiting for their
 * dependents' deletion (foreground). With a solid owner it stays and loses the references to the others; without,
 * it is deleted (in the foreground when a waiting owner waits on it and it has dependents of its own, else as its
 * own finalizers say). Answers true when an owner's kind cannot be resolved: the dependent is left alone for now.
 */
export async function attemptToDeleteItem(
  host: ControllerHost,
  resource: string,
  name: string,
  reads?: ClusterOwnerReads,
): Promise<boolean> {
  const dep = host.get(resource, name)?.object
  // "Being deleted is a one-way trip": one deleting its own dependents is processed as an owner.
  if (!dep || dep.metadata.deletionTimestamp) return false
  const refs = dep.metadata.ownerReferences ?? []
  if (refs.length === 0) return false
  let solid = 0
  const dangling: string[] = []
  const waiting: string[] = []
  for (const ref of refs) {
    const owner = await ownerState(host, ref, reads)
    if (owner.state === 'unresolved' || owner.state === 'invalid') {
      const why = owner.state === 'invalid' ? 'is namespaced (a cluster-scoped object cannot have it)' : 'is not served'
      console.warn(
        `garbage collector: ${resource}/${name}: owner ${ref.apiVersion} ${ref.kind} ${ref.name} ${why}; kept`,
      )
      // kube's collector forgets the invalid one (namespacedOwnerOfClusterScopedObjectErr) and retries the other.
      return owner.state === 'unresolved'
    }
    if (owner.state === 'absent') dangling.push(ref.uid)
    else if (owner.state === 'present' && deletingDependents(owner.owner)) waiting.push(ref.uid)
    else solid++
  }
  if (solid > 0) {
    if (dangling.length + waiting.length > 0) await dropOwnerRefs(host, resource, name, [...dangling, ...waiting])
    return false
  }
  const uid = dep.metadata.uid ?? ''
  const dependents = host.dependents(uid)
  if (waiting.length > 0 && dependents.length > 0) {
    // A dependent already deleting its own dependents closes a cycle: this one stops blocking its owners first.
    const cycle = dependents.some(({ resource: r, name: n }) => {
      const o = host.get(r, n)?.object
      return o !== undefined && deletingDependents(o.metadata)
    })
    if (cycle) await unblockOwnerRefs(host, resource, name, uid)
    await remove(host, resource, name, uid, 'Foreground')
    return false
  }
  const fin = dep.metadata.finalizers ?? []
  const policy = fin.includes('orphan') ? 'Orphan' : fin.includes('foregroundDeletion') ? 'Foreground' : 'Background'
  await remove(host, resource, name, uid, policy)
  return false
}
