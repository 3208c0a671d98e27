// The garbage collector for the objects of one host, a namespace's or the cluster's own (cluster-scoped objects):
// dependents go with their owners (Background), are kept and released (Orphan, the `orphan` finalizer), or go first
// (Foreground, the `foregroundDeletion` finalizer). It writes through the verbs, as kube's garbage collector writes
// through the API.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { ownerState } from './gc-owners'

/** An owner being deleted that waits on the garbage collector (orphan or foreground): what a host attends to. */
export const waitsOnGarbageCollector = (obj: KubeObject) => {
  const fin = obj.metadata.finalizers ?? []
  return !!obj.metadata.deletionTimestamp && (fin.includes('orphan') || fin.includes('foregroundDeletion'))
}

/** An owner in foreground deletion, waiting for its dependents to go. */
const deletingDependents = (obj: KubeObject) =>
  !!obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).includes('foregroundDeletion')

/** Whether `next` dropped, or stopped blocking with, a reference that blocked its owner's deletion in `prev`. */
const stoppedBlocking = (prev: KubeObject, next: KubeObject) =>
  (prev.metadata.ownerReferences ?? []).some(
    (r) =>
      r.blockOwnerDeletion === true &&
      !(next.metadata.ownerReferences ?? []).some((n) => n.uid === r.uid && n.blockOwnerDeletion === true),
  )

/** The manager kube's garbage collector writes under (kube-controller-manager's user agent). */
const MANAGER = 'kube-controller-manager'

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    for (const e of entries) {
      if (e.type === 'DELETED') {
        await this.collectDependents(host, e.object.metadata.uid ?? '')
        await this.checkForegroundOwners(host, e.object)
      } else if (waitsOnGarbageCollector(e.object)) {
        await this.process(host, e.resource, e.name)
      } else if (e.prev && stoppedBlocking(e.prev, e.object)) {
        // A dependent no longer blocks an owner (its reference went or stopped blocking): the owner may go now.
        await this.checkForegroundOwners(host, e.prev)
      }
    }
  }

  async resync(host: ControllerHost): Promise<void> {
    // Owners waiting on us (the attention list holds objects with orphan/foregroundDeletion finalizers). The list
    // names stored resource keys, so a custom kind this isolate has not loaded (a wake-up in a new isolate) is found
    // too: the writes that release its dependents and its finalizer load it (ObjectHost.rowFor).
    for (const resource of host.attendedResources()) {
      for (const { object } of host.attending(resource)) {
        if (waitsOnGarbageCollector(object)) await this.process(host, resource, object.metadata.name!)
      }
    }
    // Owners that vanished while we were not looking (same-namespace owners only: we can see those).
    for (const owner of host.owners()) {
      if ((await ownerState(host, owner)).state === 'absent') await this.collectDependents(host, owner.uid)
    }
  }

  /** An owner with an orphan or foreground finalizer: release or delete its dependents, then let it go. */
  private async process(host: ControllerHost, resource: string, name: string) {
    const owner = host.get(resource, name)
    if (!owner?.object.metadata.deletionTimestamp) return
    const uid = owner.object.metadata.uid ?? ''
    const fin = owner.object.metadata.finalizers ?? []
    if (fin.includes('orphan')) {
      for (const { resource: plural, name: depName } of host.dependents(uid)) {
        await this.dropOwnerRefs(host, plural, depName, [uid])
      }
      await this.dropFinalizer(host, resource, name, uid, 'orphan')
      return
    }
    if (fin.includes('foregroundDeletion')) {
      // kube's processDeletingDependentsItem: every dependent is attempted (a co-owned one only loses this owner's
      // reference); the owner waits only for those whose reference to it blocks owner deletion.
      for (const { resource: plural, name: depName } of host.dependents(uid)) {
        await this.attemptToDelete(host, plural, depName)
      }
      const blocking = host
        .dependents(uid)
        .some(({ resource: plural, name: depName }) =>
          (host.get(plural, depName)?.object.metadata.ownerReferences ?? []).some(
            (r) => r.uid === uid && r.blockOwnerDeletion === true,
          ),
        )
      if (!blocking) await this.dropFinalizer(host, resource, name, uid, 'foregroundDeletion')
    }
  }

  /** Background: an owner went; each of its dependents is attempted (collected unless another owner keeps it). */
  private async collectDependents(host: ControllerHost, uid: string) {
    if (!uid) return
    for (const { resource: plural, name } of host.dependents(uid)) await this.attemptToDelete(host, plural, name)
  }

  /**
   * kube's attemptToDeleteItem for a dependent: its owners are solid (present, or cluster-scoped), dangling (gone) or
   * waiting for their dependents' deletion (foreground). With a solid owner it stays and loses the references to the
   * others; without, it is deleted (in the foreground when a waiting owner waits on it and it has dependents of its
   * own, else as its own finalizers say). An owner whose kind cannot be resolved leaves it alone: kube records the
   * error and retries.
   */
  private async attemptToDelete(host: ControllerHost, resource: string, name: string) {
    const dep = host.get(resource, name)?.object
    // "Being deleted is a one-way trip": one deleting its own dependents is processed as an owner.
    if (!dep || dep.metadata.deletionTimestamp) return
    const refs = dep.metadata.ownerReferences ?? []
    if (refs.length === 0) return
    let solid = 0
    const dangling: string[] = []
    const waiting: string[] = []
    for (const ref of refs) {
      const owner = await ownerState(host, ref)
      if (owner.state === 'unresolved') {
        console.warn(
          `garbage collector: ${resource}/${name}: owner ${ref.apiVersion} ${ref.kind} ${ref.name} cannot be resolved; kept`,
        )
        return
      }
      if (owner.state === 'absent') dangling.push(ref.uid)
      else if (owner.state === 'present' && deletingDependents(owner.object)) waiting.push(ref.uid)
      else solid++
    }
    if (solid > 0) {
      if (dangling.length + waiting.length > 0)
        await this.dropOwnerRefs(host, resource, name, [...dangling, ...waiting])
      return
    }
    const uid = dep.metadata.uid ?? ''
    const dependents = host.dependents(uid)
    if (waiting.length > 0 && dependents.length > 0) {
      // A dependent already deleting its own dependents closes a cycle: this one stops blocking its owners first.
      const cycle = dependents.some(({ resource: r, name: n }) => {
        const o = host.get(r, n)?.object
        return o !== undefined && deletingDependents(o)
      })
      if (cycle) await this.unblockOwnerRefs(host, resource, name, uid)
      await this.remove(host, resource, name, 'Foreground')
      return
    }
    const fin = dep.metadata.finalizers ?? []
    const policy = fin.includes('orphan') ? 'Orphan' : fin.includes('foregroundDeletion') ? 'Foreground' : 'Background'
    await this.remove(host, resource, name, policy)
  }

  /** A dependent went: an owner waiting in foreground deletion may now be free to go. */
  private async checkForegroundOwners(host: ControllerHost, gone: KubeObject) {
    for (const ref of gone.metadata.ownerReferences ?? []) {
      const owner = await ownerState(host, ref)
      if (owner.state === 'present' && owner.object.metadata.finalizers?.includes('foregroundDeletion')) {
        await this.process(host, owner.resource, ref.name)
      }
    }
  }

  /** Removes the references to `uids` from a dependent (kube's deleteOwnerRefJSONMergePatch). */
  private async dropOwnerRefs(host: ControllerHost, resource: string, name: string, uids: string[]) {
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
  private async unblockOwnerRefs(host: ControllerHost, resource: string, name: string, uid: string) {
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

  private async remove(
    host: ControllerHost,
    resource: string,
    name: string,
    policy: 'Background' | 'Foreground' | 'Orphan' = 'Background',
  ) {
    await host.delete(resource, name, { propagationPolicy: policy })
  }

  /** Lets the owner go: the update that clears its last finalizer completes its deletion (store.planUpdate). */
  private async dropFinalizer(host: ControllerHost, resource: string, name: string, uid: string, finalizer: string) {
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
}
