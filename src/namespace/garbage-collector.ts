// The garbage collector for objects in one namespace: dependents go with their owners (Background), are kept and
// released (Orphan, the `orphan` finalizer), or go first (Foreground, the `foregroundDeletion` finalizer). It writes
// through the verbs, as kube's garbage collector writes through the API.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { ownerState } from './gc-owners'

/** An owner being deleted that waits on the garbage collector (orphan or foreground). */
const waitsOnUs = (obj: KubeObject) => {
  const fin = obj.metadata.finalizers ?? []
  return !!obj.metadata.deletionTimestamp && (fin.includes('orphan') || fin.includes('foregroundDeletion'))
}

const ownedBy = (obj: KubeObject, uid: string) => (obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid)

/** The manager kube's garbage collector writes under (kube-controller-manager's user agent). */
const MANAGER = 'kube-controller-manager'

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    for (const e of entries) {
      if (e.type === 'DELETED') {
        await this.collectDependents(host, e.object.metadata.uid ?? '')
        await this.checkForegroundOwners(host, e.object)
      } else if (waitsOnUs(e.object)) {
        await this.process(host, e.resource, e.name)
      }
    }
  }

  async resync(host: ControllerHost): Promise<void> {
    // Owners waiting on us (the attention list holds objects with orphan/foregroundDeletion finalizers). The list
    // names stored resource keys, so a custom kind this isolate has not loaded (a wake-up in a new isolate) is found
    // too: the writes that release its dependents and its finalizer load it (ObjectHost.rowFor).
    for (const resource of host.attendedResources()) {
      for (const { object } of host.attending(resource)) {
        if (waitsOnUs(object)) await this.process(host, resource, object.metadata.name!)
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
      if (!(await this.keptByOthers(host, plural, dep.object, uid))) await this.remove(host, plural, name)
    }
  }

  /**
   * Whether owners besides `uid` keep a dependent: those elsewhere (cluster-scoped) always, those here while they
   * exist, and one whose kind cannot be resolved too (kube's garbage collector records the error and does not
   * collect the dependent).
   */
  private async keptByOthers(host: ControllerHost, resource: string, dep: KubeObject, uid: string) {
    for (const ref of dep.metadata.ownerReferences ?? []) {
      if (ref.uid === uid) continue
      const owner = await ownerState(host, ref)
      if (owner.state === 'absent') continue
      if (owner.state === 'unresolved') {
        console.warn(
          `garbage collector: ${resource}/${dep.metadata.name}: owner ${ref.apiVersion} ${ref.kind} ${ref.name} cannot be resolved; kept`,
        )
      }
      return true
    }
    return false
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
