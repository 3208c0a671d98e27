// The garbage collector for the objects of one host, a namespace's or the cluster's own (cluster-scoped objects):
// dependents go with their owners (Background), are kept and released (Orphan, the `orphan` finalizer), or go first
// (Foreground, the `foregroundDeletion` finalizer). It writes through the verbs, as kube's garbage collector writes
// through the API. Namespaced dependents of cluster-scoped owners are shared with the cluster object's collector
// (gc-cluster-owners.ts); work that cannot be finished yet is retried (gc-retries.ts).
import type { OwnerMeta } from '../cluster/cluster-api'
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import {
  ClusterOwnerReads,
  RecordedOwners,
  type ClusterOwnerLinks,
  type NamespaceDependents,
} from './gc-cluster-owners'
import {
  blockedBy,
  clusterScoped,
  deletingDependents,
  namesUnseenOwner,
  ownerKind,
  ownerState,
  stoppedBlocking,
} from './gc-owners'
import { GcRetries, type Retry } from './gc-retries'
import { attemptToDeleteItem } from './gc-attempt'
import { dropFinalizer, dropOwnerRefs } from './gc-writes'

/** An owner being deleted that waits on the garbage collector (orphan or foreground): what a host attends to. */
export const waitsOnGarbageCollector = (obj: KubeObject) => {
  const fin = obj.metadata.finalizers ?? []
  return !!obj.metadata.deletionTimestamp && (fin.includes('orphan') || fin.includes('foregroundDeletion'))
}

interface GarbageCollectorOptions {
  /** A namespace's collector: the cluster object, asked after cluster-scoped owners. */
  cluster?: ClusterOwnerLinks
  /** The cluster object's collector: the namespaces holding dependents of its objects. */
  namespaces?: NamespaceDependents
  /** The clock retries are timed by. */
  now?: () => number
}

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector'
  private readonly retries = new GcRetries()
  /** The first resync is a wake-up (everything is looked at); later ones are alarms (what is due). */
  private awake = false
  /** The cluster object knows this namespace waits for an owner kind to be served. */
  private awaitingKinds = false
  /**
   * The view the host hands this controller (its wake-ups are its own): retries asked for from a call of another
   * object (clusterOwnerChanged, ownersUnblocked) go through it, so their alarm resyncs this controller alone.
   */
  private ownView: ControllerHost | null = null
  /** A namespace's collector: the cluster-scoped owners it recorded itself with (gc-cluster-owners.ts). */
  private readonly recorded = new RecordedOwners()

  constructor(private readonly opts: GarbageCollectorOptions = {}) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    this.ownView = host
    const reads = this.reads(host)
    for (const e of entries) {
      try {
        await this.committedEntry(host, e, reads)
      } catch (err) {
        // A call to the cluster object failed (it may be restarting): the entry's work is tried again later, as
        // kube's collector requeues an item whose attempt errored, instead of being lost with the rest of the pass.
        console.error('garbage collector: work on a commit failed; it is tried again', err)
        await this.retryLater(host, retryOf(e))
      }
    }
    if (host.scope === '' && entries.some((e) => e.resource === 'customresourcedefinitions')) {
      await this.kindsChanged(host)
      await this.opts.namespaces?.kindsChanged()
    }
  }

  private async committedEntry(host: ControllerHost, e: LogEntry, reads: ClusterOwnerReads | undefined) {
    if (e.type === 'DELETED') {
      const uid = e.object.metadata.uid ?? ''
      await this.collectDependents(host, uid, reads)
      if (uid && this.opts.namespaces) await this.tellNamespaces(host, { type: 'gone', uid }, uid, null)
      if (e.resource === 'namespaces') this.opts.namespaces?.namespaceGone(e.name)
      await this.checkForegroundOwners(host, e.object, reads)
      return
    }
    if (waitsOnGarbageCollector(e.object)) {
      await this.process(host, e.resource, e.name, reads)
    } else if (e.prev && stoppedBlocking(e.prev, e.object)) {
      // A dependent no longer blocks an owner (its reference went or stopped blocking): the owner may go now.
      await this.checkForegroundOwners(host, e.prev, reads)
    }
    // kube's graph builder checks a new owner it has not observed (a virtual node) or whose coordinates do not match
    // the one it observed: a dependent naming an owner that does not exist (or whose name holds another uid), a
    // cluster-scoped one, or one of a kind not served yet, is attempted at once.
    if (await namesUnseenOwner(host, e.prev, e.object, reads)) {
      await this.attemptToDelete(host, e.resource, e.name, reads)
    }
  }

  async resync(host: ControllerHost, now = this.clock()): Promise<void> {
    this.ownView = host
    const reads = this.reads(host)
    if (this.awake) return this.retryDue(host, now, false, reads)
    this.awake = true
    // Owners waiting on us (the attention list holds objects with orphan/foregroundDeletion finalizers). The list
    // names stored resource keys, so a custom kind this isolate has not loaded (a wake-up in a new isolate) is found
    // too: the writes that release its dependents and its finalizer load it (ObjectHost.rowFor).
    for (const resource of host.attendedResources()) {
      for (const { object } of host.attending(resource)) {
        if (waitsOnGarbageCollector(object)) await this.process(host, resource, object.metadata.name!, reads)
      }
    }
    // Owners that vanished while we were not looking, and dependents kept for an owner kind not served yet. The
    // cluster-scoped ones are asked of the cluster object in one call.
    const owners = host.owners()
    if (reads) await reads.readAll(await clusterScoped(host, owners))
    for (const owner of owners) {
      const state = (await ownerState(host, owner, reads)).state
      if (state === 'absent') await this.collectDependents(host, owner.uid, reads)
      if (state === 'unresolved') {
        for (const d of host.dependents(owner.uid)) await this.retryLater(host, { type: 'dependent', ...d })
      }
    }
    // The cluster's owners that went while the namespaces holding their dependents were not told.
    const exists = (resource: string, name: string, uid: string) =>
      host.get(resource, name)?.object.metadata.uid === uid
    for (const uid of this.opts.namespaces?.goneOwners(exists) ?? []) {
      await this.tellNamespaces(host, { type: 'gone', uid }, uid, null)
    }
  }

  /**
   * A namespace's collector: the cluster object says a cluster-scoped owner of objects here went (null) or waits on
   * us. Its dependents are released (orphan) or attempted; answers what still names it and whether that blocks it.
   */
  async clusterOwnerChanged(host: ControllerHost, uid: string, owner: OwnerMeta | null) {
    this.recorded.forget(uid)
    const reads = this.reads(host)
    reads?.seed(uid, owner)
    const releasing = !!owner?.deletionTimestamp && (owner.finalizers ?? []).includes('orphan')
    for (const { resource, name } of host.dependents(uid)) {
      if (releasing) await dropOwnerRefs(host, resource, name, [uid])
      else await this.attemptToDelete(host, resource, name, reads)
    }
    return { dependents: host.dependents(uid).length, blocking: blockedBy(host, uid) }
  }

  /** The cluster object's collector: no dependent in a namespace blocks these owners (in foreground deletion) any more. */
  async ownersUnblocked(host: ControllerHost, uids: string[]): Promise<void> {
    for (const uid of uids) {
      const at = this.opts.namespaces?.ownerOf(uid)
      const owner = at ? host.get(at.resource, at.name)?.object : undefined
      if (at && owner?.metadata.uid === uid && deletingDependents(owner.metadata))
        await this.process(host, at.resource, at.name)
    }
  }

  /** A CRD changed: dependents kept for an owner kind that was not served are tried again now. */
  async kindsChanged(host: ControllerHost): Promise<void> {
    this.awaitingKinds = false
    await this.retryDue(host, this.clock(), true, this.reads(host))
  }

  private clock(): number {
    return (this.opts.now ?? Date.now)()
  }

  /** A pass's reads of cluster-scoped owners (a namespace's collector only). */
  private reads(host: ControllerHost): ClusterOwnerReads | undefined {
    const cluster = this.opts.cluster
    return cluster && host.scope !== '' ? new ClusterOwnerReads(cluster, host.scope, this.recorded) : undefined
  }

  /** Runs the retries that fell due (all of them with `everything`), then asks to be woken for the next. */
  private async retryDue(host: ControllerHost, now: number, everything: boolean, reads?: ClusterOwnerReads) {
    for (const r of this.retries.take(now, everything)) {
      try {
        if (r.type === 'dependent') await this.attemptToDelete(host, r.resource, r.name, reads)
        else if (r.type === 'owner') await this.process(host, r.resource, r.name, reads)
        else await this.tellNamespaces(host, r, r.uid, null)
      } catch (err) {
        console.error('garbage collector: a retry failed; it is tried again', err)
        await this.retryLater(host, r)
        continue
      }
      this.retries.settle(r)
    }
    const at = this.retries.next()
    if (at !== null) await (this.ownView ?? host).wakeAt(at)
  }

  private async retryLater(host: ControllerHost, retry: Retry) {
    await (this.ownView ?? host).wakeAt(this.retries.add(retry, this.clock()))
    if (retry.type !== 'dependent' || !this.opts.cluster || this.awaitingKinds) return
    this.awaitingKinds = true
    await this.opts.cluster.awaitOwnerKinds(host.scope).catch((e: unknown) => {
      this.awaitingKinds = false
      console.error('garbage collector: registering for new kinds failed', e)
    })
  }

  /** The cluster object's collector tells the namespaces holding dependents of `uid`; one that did not answer is retried. */
  private async tellNamespaces(host: ControllerHost, retry: Retry, uid: string, owner: OwnerMeta | null) {
    if (!this.opts.namespaces) return { answered: true, blocking: false }
    const told = await this.opts.namespaces.ownerChanged(uid, owner)
    // An owner in foreground deletion whose dependents elsewhere still block asks again later too, in case their
    // namespace's word that they stopped (clusterOwnersUnblocked) is lost.
    const waits = owner !== null && deletingDependents(owner) && told.blocking
    if (told.answered && !waits) this.retries.forget(retry)
    else await this.retryLater(host, retry)
    return told
  }

  /** An owner with an orphan or foreground finalizer: release or delete its dependents, then let it go. */
  private async process(host: ControllerHost, resource: string, name: string, reads?: ClusterOwnerReads) {
    const owner = host.get(resource, name)
    if (!owner?.object.metadata.deletionTimestamp) return
    const uid = owner.object.metadata.uid ?? ''
    const fin = owner.object.metadata.finalizers ?? []
    const retry: Retry = { type: 'owner', resource, name }
    if (fin.includes('orphan')) {
      for (const { resource: plural, name: depName } of host.dependents(uid)) {
        await dropOwnerRefs(host, plural, depName, [uid])
      }
      if (!(await this.tellNamespaces(host, retry, uid, owner.object.metadata)).answered) return
      await dropFinalizer(host, resource, name, uid, 'orphan')
      return
    }
    if (fin.includes('foregroundDeletion')) {
      // kube's processDeletingDependentsItem: every dependent is attempted (a co-owned one only loses this owner's
      // reference); the owner waits only for those whose reference to it blocks owner deletion.
      for (const { resource: plural, name: depName } of host.dependents(uid)) {
        await this.attemptToDelete(host, plural, depName, reads)
      }
      const remote = await this.tellNamespaces(host, retry, uid, owner.object.metadata)
      if (!blockedBy(host, uid) && remote.answered && !remote.blocking) {
        await dropFinalizer(host, resource, name, uid, 'foregroundDeletion')
      }
    }
  }

  /** Background: an owner went; each of its dependents is attempted (collected unless another owner keeps it). */
  private async collectDependents(host: ControllerHost, uid: string, reads?: ClusterOwnerReads) {
    if (!uid) return
    for (const { resource: plural, name } of host.dependents(uid)) await this.attemptToDelete(host, plural, name, reads)
  }

  /** attemptToDelete, retried later when an owner's kind cannot be resolved (kube requeues it with backoff). */
  private async attemptToDelete(host: ControllerHost, resource: string, name: string, reads?: ClusterOwnerReads) {
    const retry: Retry = { type: 'dependent', resource, name }
    let again: boolean
    try {
      again = await attemptToDeleteItem(host, resource, name, reads)
    } catch (err) {
      // An owner could not be read (the cluster object restarting): tried again, as kube requeues an errored item.
      console.error(`garbage collector: attempting ${resource}/${name} failed; it is tried again`, err)
      again = true
    }
    if (again) await this.retryLater(host, retry)
    else this.retries.forget(retry)
  }

  /**
   * A dependent went, or stopped blocking: an owner here waiting in foreground deletion may now be free to go; the
   * cluster object hears of cluster-scoped owners nothing here blocks any more.
   */
  private async checkForegroundOwners(host: ControllerHost, gone: KubeObject, reads?: ClusterOwnerReads) {
    const unblocked: string[] = []
    for (const ref of gone.metadata.ownerReferences ?? []) {
      const def = await ownerKind(host, ref)
      if (def && !def.namespaced && host.scope !== '') {
        if (ref.blockOwnerDeletion === true && !blockedBy(host, ref.uid)) unblocked.push(ref.uid)
        continue
      }
      const owner = await ownerState(host, ref, reads)
      if (owner.state === 'present' && owner.resource && deletingDependents(owner.owner)) {
        await this.process(host, owner.resource, ref.name, reads)
      }
    }
    if (unblocked.length === 0 || !this.opts.cluster) return
    await this.opts.cluster.clusterOwnersUnblocked(host.scope, unblocked).catch((e: unknown) => {
      console.error('garbage collector: telling the cluster of unblocked owners failed', e)
    })
  }
}

/**
 * What to try again for a commit whose work failed: a deleted object's dependents and foreground owners (through the
 * uid it had, which the owner pass resolves again), or the object itself.
 */
function retryOf(e: LogEntry): Retry {
  if (e.type === 'DELETED') return { type: 'gone', uid: e.object.metadata.uid ?? '' }
  return waitsOnGarbageCollector(e.object)
    ? { type: 'owner', resource: e.resource, name: e.name }
    : { type: 'dependent', resource: e.resource, name: e.name }
}
