// The garbage collector for objects in one namespace: dependents go with their owners (Background), are kept and
// released (Orphan, the `orphan` finalizer), or go first (Foreground, the `foregroundDeletion` finalizer). It writes
// through the verbs, as kube's garbage collector writes through the API.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { kinds } from '../registry/resources'

/** Kinds that can be owned, in this namespace. */
const dependentKinds = () =>
  kinds
    .all()
    .filter((r) => r.namespaced)
    .map((r) => r.plural)

const ownedBy = (obj: KubeObject, uid: string) => (obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid)

/** The manager kube's garbage collector writes under (kube-controller-manager's user agent). */
const MANAGER = 'kube-controller-manager'

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    for (const e of entries) {
      const fin = e.object.metadata.finalizers ?? []
      if (e.type === 'DELETED') {
        await this.collectDependents(host, e.object.metadata.uid ?? '')
        await this.checkForegroundOwners(host, e.object)
      } else if (
        e.object.metadata.deletionTimestamp &&
        (fin.includes('orphan') || fin.includes('foregroundDeletion'))
      ) {
        await this.process(host, e.resource, e.name)
      }
    }
  }

  async resync(host: ControllerHost): Promise<void> {
    // Owners waiting on us (the attention list holds objects with orphan/foregroundDeletion finalizers).
    for (const plural of dependentKinds()) {
      for (const { object } of host.attending(plural)) {
        const fin = object.metadata.finalizers ?? []
        if (object.metadata.deletionTimestamp && (fin.includes('orphan') || fin.includes('foregroundDeletion'))) {
          await this.process(host, plural, object.metadata.name!)
        }
      }
    }
    // Owners that vanished while we were not looking (same-namespace owners only: we can see those).
    for (const owner of host.owners()) {
      if (isLocalKind(owner.kind) && !ownerExists(host, owner)) await this.collectDependents(host, owner.uid)
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
        await host.update(
          plural,
          depName,
          (o) => {
            if (!ownedBy(o, uid)) return null
            o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid)
            if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences
            return o
          },
          { fieldManager: MANAGER },
        )
      }
      await this.dropFinalizer(host, resource, name, uid, 'orphan')
      return
    }
    if (fin.includes('foregroundDeletion')) {
      let remaining = 0
      for (const { resource: plural, name: depName } of host.dependents(uid)) {
        const dep = host.get(plural, depName)
        if (!dep || !ownedBy(dep.object, uid)) continue
        remaining++
        if (!dep.object.metadata.deletionTimestamp) await this.remove(host, plural, depName, 'Foreground')
      }
      if (remaining === 0) await this.dropFinalizer(host, resource, name, uid, 'foregroundDeletion')
    }
  }

  /** Background: dependents whose every owner is gone are deleted. */
  private async collectDependents(host: ControllerHost, uid: string) {
    if (!uid) return
    for (const { resource: plural, name } of host.dependents(uid)) {
      const dep = host.get(plural, name)
      if (!dep || !ownedBy(dep.object, uid)) continue
      // Other owners keep it alive: those elsewhere always, those here while they exist.
      const others = (dep.object.metadata.ownerReferences ?? []).filter(
        (r) => r.uid !== uid && (!isLocalKind(r.kind) || ownerExists(host, r)),
      )
      if (others.length === 0) await this.remove(host, plural, name)
    }
  }

  /** A dependent went: an owner waiting in foreground deletion may now be free to go. */
  private async checkForegroundOwners(host: ControllerHost, gone: KubeObject) {
    for (const ref of gone.metadata.ownerReferences ?? []) {
      const def = kinds.namespacedByKind(ref.kind)
      if (!def) continue
      const owner = host.get(def.plural, ref.name)
      if (
        owner &&
        owner.object.metadata.uid === ref.uid &&
        owner.object.metadata.finalizers?.includes('foregroundDeletion')
      ) {
        await this.process(host, def.plural, ref.name)
      }
    }
  }

  private async remove(
    host: ControllerHost,
    resource: string,
    name: string,
    policy: 'Background' | 'Foreground' = 'Background',
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

/** Whether an owner of this kind and uid lives in this namespace. */
function ownerExists(host: ControllerHost, ref: { uid: string; kind: string; name: string }): boolean {
  const def = kinds.namespacedByKind(ref.kind)
  return def !== undefined && host.get(def.plural, ref.name)?.object.metadata.uid === ref.uid
}

const isLocalKind = (kind: string) => kinds.namespacedByKind(kind) !== undefined
