// One replica manager core for ReplicationControllers and ReplicaSets (kube's ReplicaSetController, which runs both):
// keeps exactly spec.replicas live pods matching each owner's selector (creating from the template, deleting extras
// unready-and-newest first), adopts matching orphans, releases pods that stop matching, and reports status. What
// differs between the kinds (resource, owner reference, selector type, event source) is a ReplicaKind.
// Driven by the namespace DO's commits and alarms, never by polling.
//
// Expectations: one sync at a time per owner (a trigger that arrives mid-sync runs it again afterwards), and every
// create or delete re-checks, when the write queue plans it, that it is still needed against the committed pods plus
// the ones this sync has already planned. A burst of spec changes (2 -> 5 -> 3) therefore never overshoots what the
// latest spec asks for by more than the writes already committed.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { deepEqual } from '../registry/deep-equal'
import type { EventSpec } from '../registry/event-recorder'
import { generateName } from '../registry/generate-name'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import {
  CONTROLLER_MANAGER,
  claim,
  controllerRef,
  deletionRank,
  isActive,
  type LabelMatcher,
  ownedActivePods,
  ownerReference,
  podFromTemplate,
  refusalNamingPrefix,
  SyncQueue,
} from './pod-owner'
import type { CreateRetries } from './create-retries'
import { ownersNamingNewServiceAccounts } from './service-account-waiters'
import { calculateStatus, type ReplicaOwner } from './replica-status'

/** What one kind of replica owner is to the shared core. */
export interface ReplicaKind {
  /** The owners' resource: `replicationcontrollers`, `replicasets`. */
  resource: string
  apiVersion: string
  kind: string
  /** The event source (kube's controller names): `replication-controller`, `replicaset-controller`. */
  component: string
  /** The owner's selector as a matcher, or null when it selects nothing the manager may act on. */
  selector(owner: KubeObject): LabelMatcher | null
}

interface ReplicaOptions {
  /** Whether new pods may be created now: a namespace being terminated gets none. */
  canCreate(): boolean
  /** Where an owner whose create was refused waits to be synced again (kube's AddRateLimited). */
  retries: CreateRetries
}

const desiredOf = (o: ReplicaOwner) => o.spec?.replicas ?? 1

export class ReplicaManager implements Controller {
  readonly name: string
  private readonly queue: SyncQueue

  constructor(
    private readonly k: ReplicaKind,
    private readonly opts: ReplicaOptions,
  ) {
    this.name = `${k.component}-manager`
    this.queue = new SyncQueue(k.component)
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = new Set<string>()
    let owners: { name: string; uid: string; matches: LabelMatcher | null }[] | null = null
    for (const e of entries) {
      if (e.resource === this.k.resource) {
        if (e.type !== 'DELETED') names.add(e.name)
        continue
      }
      if (e.resource !== 'pods') continue
      owners ??= host.all(this.k.resource).map(({ object }) => ({
        name: object.metadata.name!,
        uid: object.metadata.uid!,
        matches: this.k.selector(object),
      }))
      // The owners that own or could own the pod, before and after the change.
      for (const pod of [e.object, e.prev]) {
        if (!pod) continue
        for (const o of owners) {
          if (controllerRef(pod)?.uid === o.uid || o.matches?.(pod.metadata.labels)) names.add(o.name)
        }
      }
    }
    for (const n of ownersNamingNewServiceAccounts(entries, host, this.k.resource)) names.add(n)
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost): Promise<void> {
    await Promise.all(host.all(this.k.resource).map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  private enqueue(host: ControllerHost, name: string): Promise<void> {
    return this.queue.enqueue(name, () => this.sync(host, name))
  }

  /** The owner as stored now, when it is still the one with `uid`. */
  private current(host: ControllerHost, name: string, uid: string): ReplicaOwner | undefined {
    const o = host.get(this.k.resource, name)?.object
    return o?.metadata.uid === uid ? (o as ReplicaOwner) : undefined
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const key = `${this.k.resource}/${name}`
    const stored = host.get(this.k.resource, name)
    if (!stored) return this.opts.retries.forget(key)
    const owner = stored.object as ReplicaOwner
    const uid = owner.metadata.uid!
    const ref = ownerReference(owner, this.k.apiVersion, this.k.kind)
    await claim(
      host,
      'pods',
      ref,
      () => {
        const now = this.current(host, name, uid)
        const matches = now && this.k.selector(now)
        return now && matches ? { owner: now, matches } : null
      },
      isActive,
    )
    let failure: string | null = null
    if (!owner.metadata.deletionTimestamp && this.k.selector(owner)) {
      const diff = ownedActivePods(host, uid).length - desiredOf(owner)
      if (diff < 0 && this.opts.canCreate()) failure = await this.createPods(host, name, uid, -diff)
      else if (diff > 0) await this.deletePods(host, name, uid, diff)
    }
    await this.writeStatus(host, name, uid, failure)
    // kube's syncReplicaSet returns manageReplicas' error, and the worker requeues the owner rate-limited.
    if (failure) await this.opts.retries.failed(key, () => this.enqueue(host, name), host)
    else this.opts.retries.forget(key)
  }

  /**
   * Creates up to `count` pods in slow-start batches (1, 2, 4...), as kube does: a template that fails stops after
   * one try, and a spec that shrinks meanwhile stops the rest. Answers the failure message, if any.
   */
  private async createPods(host: ControllerHost, name: string, uid: string, count: number): Promise<string | null> {
    const planned = new Set<string>()
    let failure: string | null = null
    let stopped = false
    for (let batch = 1, left = count; left > 0 && !stopped && !failure; left -= batch, batch *= 2) {
      const size = Math.min(batch, left)
      const made = await Promise.all(
        Array.from({ length: size }, async () => {
          const podName = generateName(`${name}-`)
          const r = await host.reconcile(
            'pods',
            podName,
            (cur) => {
              const owner = this.current(host, name, uid)
              if (cur || !owner || owner.metadata.deletionTimestamp || !this.opts.canCreate()) return null
              // Still needed? The committed pods plus those this sync planned, against the spec as it is now.
              const have = new Set([...ownedActivePods(host, uid).map((s) => s.object.metadata.name!), ...planned])
              if (have.size >= desiredOf(owner)) return null
              planned.add(podName)
              const ref = ownerReference(owner, this.k.apiVersion, this.k.kind)
              return { create: podFromTemplate(owner.spec?.template, ref, podName, `${name}-`) }
            },
            { fieldManager: CONTROLLER_MANAGER },
          )
          if (!r.ok) {
            planned.delete(podName)
            failure = refusalNamingPrefix(r.status.message ?? 'invalid pod', podName, `${name}-`)
            return null
          }
          if (!r.value) stopped = true
          return r.value?.object ?? null
        }),
      )
      const owner = this.current(host, name, uid)
      if (!owner) break
      await Promise.all(
        made
          .filter((p): p is KubeObject => p !== null)
          .map((p) => this.event(host, owner, 'Normal', 'SuccessfulCreate', `Created pod: ${p.metadata.name}`)),
      )
    }
    const owner = failure ? this.current(host, name, uid) : undefined
    if (owner) await this.event(host, owner, 'Warning', 'FailedCreate', `Error creating: ${failure}`)
    return failure
  }

  /** Deletes the `count` pods kube would pick first, each re-checked at plan time against the current spec. */
  private async deletePods(host: ControllerHost, name: string, uid: string, count: number) {
    const victims = ownedActivePods(host, uid)
      .map((s) => s.object)
      .sort(deletionRank)
      .slice(0, count)
    const planned = new Set<string>()
    const done = await Promise.all(
      victims.map(async (victim) => {
        const r = await host.reconcile('pods', victim.metadata.name!, (cur) => {
          const owner = this.current(host, name, uid)
          if (!cur || !owner || cur.metadata.uid !== victim.metadata.uid || !isActive(cur)) return null
          const active = ownedActivePods(host, uid).filter((s) => !planned.has(s.object.metadata.name!))
          if (active.length <= desiredOf(owner)) return null
          planned.add(cur.metadata.name!)
          return { delete: {} }
        })
        return r.ok && r.value && !r.value.unchanged ? victim.metadata.name! : null
      }),
    )
    const owner = this.current(host, name, uid)
    if (!owner) return
    await Promise.all(
      done
        .filter((n): n is string => n !== null)
        .map((n) => this.event(host, owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${n}`)),
    )
  }

  /** calculateStatus over the pods as committed now, through the /status subresource; a no-op when unchanged. */
  private async writeStatus(host: ControllerHost, name: string, uid: string, failure: string | null) {
    const now = Date.now()
    let wake: number | null = null
    await host.update(
      this.k.resource,
      name,
      (current) => {
        if (current.metadata.uid !== uid) return null
        const owner = current as ReplicaOwner
        const computed = calculateStatus(
          owner,
          ownedActivePods(host, uid).map((s) => s.object),
          failure,
          now,
        )
        wake = computed.wake
        if (deepEqual(owner.status, computed.status)) return null
        owner.status = computed.status
        return owner
      },
      { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
    )
    // minReadySeconds: come back when the next ready pod becomes available.
    if (wake !== null) await host.wakeAt(wake)
  }

  private event(host: ControllerHost, owner: KubeObject, type: EventSpec['type'], reason: string, message: string) {
    return recordEvent(host, owner, { type, reason, message, component: this.k.component })
  }
}
