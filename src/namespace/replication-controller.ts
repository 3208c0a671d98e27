// The replication manager for one namespace: keeps exactly spec.replicas live pods matching each ReplicationController's
// selector (creating from the template, deleting extras unready-and-newest first), adopts matching orphans, releases
// pods that stop matching, and reports status. Driven by the namespace DO's commits and alarms, never by polling.
//
// Expectations: one sync at a time per RC (a trigger that arrives mid-sync runs it again afterwards), and every
// create or delete re-checks, when the write queue plans it, that it is still needed against the committed pods plus
// the ones this sync has already planned. A burst of spec changes (2 -> 5 -> 3) therefore never overshoots what the
// latest spec asks for by more than the writes already committed.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { LogEntry, Stored } from '../registry/store'
import type { KubeObject, ObjectMeta } from '../schema/meta'
import type { ReplicationControllerStatus } from '../schema/replication-controller'
import { clone, deepEqual } from '../registry/deep-equal'
import { generateName } from '../registry/generate-name'
import type { EventSpec } from '../registry/event-recorder'
import { selectorMatches, type RCObject } from '../registry/strategies/replication-controller'
import { rfc3339 } from '../registry/time'

const RCS = 'replicationcontrollers'
const COMPONENT = 'replication-controller'
/** The manager kube's controllers write objects under (kube-controller-manager's user agent). */
const MANAGER = 'kube-controller-manager'

type Obj = Record<string, any>
type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number]

interface ReplicationOptions {
  /** Whether new pods may be created now: a namespace being terminated gets none. */
  canCreate(): boolean
}

const controllerRef = (o: KubeObject): OwnerReference | undefined =>
  o.metadata.ownerReferences?.find((r) => r.controller)
const isTerminal = (p: Obj) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed'
/** controller.IsPodActive: not finished and not being deleted. */
const isActive = (p: KubeObject) => !p.metadata.deletionTimestamp && !isTerminal(p as Obj)
const readyCondition = (p: Obj) => (p.status?.conditions ?? []).find((c: Obj) => c.type === 'Ready')
const isReady = (p: Obj) => readyCondition(p)?.status === 'True'

/** The active pods this RC controls, by name, as committed now. */
function ownedActive(host: ControllerHost, uid: string): Stored[] {
  return host.all('pods').filter((s) => controllerRef(s.object)?.uid === uid && isActive(s.object))
}

/** controller.ActivePods ordering: the pods to delete first come first. */
function deletionRank(a: KubeObject, b: KubeObject): number {
  const pa = a as Obj
  const pb = b as Obj
  const assigned = (p: Obj) => (p.spec?.nodeName ? 1 : 0)
  if (assigned(pa) !== assigned(pb)) return assigned(pa) - assigned(pb)
  const phase = (p: Obj) => ({ Pending: 0, Unknown: 1, Running: 2 })[p.status?.phase as string] ?? 0
  if (phase(pa) !== phase(pb)) return phase(pa) - phase(pb)
  const ready = (p: Obj) => (isReady(p) ? 1 : 0)
  if (ready(pa) !== ready(pb)) return ready(pa) - ready(pb)
  // Both ready: the one ready for less time goes first.
  const readySince = (p: Obj) => Date.parse(readyCondition(p)?.lastTransitionTime ?? '') || 0
  if (isReady(pa) && readySince(pa) !== readySince(pb)) return readySince(pb) - readySince(pa)
  const restarts = (p: Obj) =>
    (p.status?.containerStatuses ?? []).reduce((n: number, c: Obj) => n + (c.restartCount ?? 0), 0)
  if (restarts(pa) !== restarts(pb)) return restarts(pb) - restarts(pa)
  // Newer pods go first.
  return (
    Date.parse(b.metadata.creationTimestamp ?? '') - Date.parse(a.metadata.creationTimestamp ?? '') ||
    (a.metadata.name! < b.metadata.name! ? 1 : -1)
  )
}

export class ReplicationManager implements Controller {
  readonly name = 'replication-manager'
  /** The sync in flight per RC, and the RCs asked to sync again once it is done. */
  private running = new Map<string, Promise<void>>()
  private again = new Set<string>()

  constructor(private readonly opts: ReplicationOptions) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = new Set<string>()
    const rcs = host.all(RCS)
    for (const e of entries) {
      if (e.resource === RCS) {
        if (e.type !== 'DELETED') names.add(e.name)
        continue
      }
      if (e.resource !== 'pods') continue
      // The RCs that own or could own the pod, before and after the change.
      for (const pod of [e.object, e.prev]) {
        if (!pod) continue
        for (const { object } of rcs) {
          const rc = object as RCObject
          if (controllerRef(pod)?.uid === rc.metadata.uid || selectorMatches(rc.spec?.selector, pod.metadata.labels))
            names.add(rc.metadata.name!)
        }
      }
    }
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost): Promise<void> {
    await Promise.all(host.all(RCS).map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  /** Syncs an RC now, or once more after the sync in flight (whose writes are then committed and counted). */
  private enqueue(host: ControllerHost, name: string): Promise<void> {
    const inFlight = this.running.get(name)
    if (inFlight) {
      this.again.add(name)
      return inFlight
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(name)
          // A failed sync is logged, not thrown: the next trigger or wake-up tries again (alarms must not fail).
          await this.sync(host, name).catch((e: unknown) =>
            console.error(`replication manager: sync of ${name} failed`, e),
          )
        } while (this.again.has(name))
      } finally {
        this.running.delete(name)
      }
    })()
    this.running.set(name, run)
    return run
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const stored = host.get(RCS, name)
    if (!stored) return
    const rc = stored.object as RCObject
    const uid = rc.metadata.uid!
    const deleting = rc.metadata.deletionTimestamp !== undefined
    // Claim: release owned pods that stopped matching, adopt matching orphans (not while the RC is being deleted).
    const claims: Promise<void>[] = []
    for (const { object: pod } of host.all('pods')) {
      if (!isActive(pod) || deleting) continue
      const ref = controllerRef(pod)
      const matches = selectorMatches(rc.spec?.selector, pod.metadata.labels)
      if (ref?.uid === uid && !matches) claims.push(this.release(host, pod.metadata.name!, uid))
      else if (!ref && matches) claims.push(this.adopt(host, pod.metadata.name!, rc))
    }
    await Promise.all(claims)
    let failure: string | null = null
    if (!deleting) {
      const diff = ownedActive(host, uid).length - (rc.spec?.replicas ?? 1)
      if (diff < 0 && this.opts.canCreate()) failure = await this.createPods(host, name, uid, -diff)
      else if (diff > 0) await this.deletePods(host, name, uid, diff)
    }
    await this.writeStatus(host, name, uid, failure)
  }

  private async adopt(host: ControllerHost, podName: string, rc: RCObject) {
    const ref: OwnerReference = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: rc.metadata.name!,
      uid: rc.metadata.uid!,
      controller: true,
      blockOwnerDeletion: true,
    }
    await host.update(
      'pods',
      podName,
      (pod) => {
        const owner = host.get(RCS, rc.metadata.name!)?.object as RCObject | undefined
        // Re-checked at plan time: the pod is still an orphan that matches, and the RC is still this one, alive.
        if (!isActive(pod) || controllerRef(pod) || !owner || owner.metadata.uid !== rc.metadata.uid) return null
        if (owner.metadata.deletionTimestamp || !selectorMatches(owner.spec?.selector, pod.metadata.labels)) return null
        pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref]
        return pod
      },
      { fieldManager: MANAGER },
    )
  }

  private async release(host: ControllerHost, podName: string, uid: string) {
    await host.update(
      'pods',
      podName,
      (pod) => {
        if (controllerRef(pod)?.uid !== uid) return null
        const owner = host.all(RCS).find((s) => s.object.metadata.uid === uid)?.object as RCObject | undefined
        if (owner && selectorMatches(owner.spec?.selector, pod.metadata.labels)) return null
        pod.metadata.ownerReferences = (pod.metadata.ownerReferences ?? []).filter((r: OwnerReference) => r.uid !== uid)
        if (pod.metadata.ownerReferences.length === 0) delete pod.metadata.ownerReferences
        return pod
      },
      { fieldManager: MANAGER },
    )
  }

  /**
   * Creates up to `count` pods in slow-start batches (1, 2, 4...), as kube does: a template that fails stops after
   * one try, and a spec that shrinks meanwhile stops the rest. Answers the failure message, if any.
   */
  private async createPods(host: ControllerHost, rcName: string, uid: string, count: number): Promise<string | null> {
    const planned = new Set<string>()
    let failure: string | null = null
    let stopped = false
    for (let batch = 1, left = count; left > 0 && !stopped && !failure; left -= batch, batch *= 2) {
      const size = Math.min(batch, left)
      const made = await Promise.all(
        Array.from({ length: size }, async () => {
          const podName = generateName(`${rcName}-`)
          const r = await host.reconcile(
            'pods',
            podName,
            (cur) => {
              const rc = host.get(RCS, rcName)?.object as RCObject | undefined
              if (cur || !rc || rc.metadata.uid !== uid || rc.metadata.deletionTimestamp || !this.opts.canCreate())
                return null
              // Still needed? The committed pods plus those this sync planned, against the spec as it is now.
              const have = new Set([...ownedActive(host, uid).map((s) => s.object.metadata.name!), ...planned])
              if (have.size >= (rc.spec?.replicas ?? 1)) return null
              planned.add(podName)
              return { create: podFromTemplate(rc, podName) }
            },
            { fieldManager: MANAGER },
          )
          if (!r.ok) {
            planned.delete(podName)
            failure = r.status.message ?? 'invalid pod'
            return null
          }
          if (!r.value) stopped = true
          return r.value?.object ?? null
        }),
      )
      const rc = host.get(RCS, rcName)?.object
      if (!rc) break
      await Promise.all(
        made
          .filter((p): p is KubeObject => p !== null)
          .map((p) => this.event(host, rc, 'Normal', 'SuccessfulCreate', `Created pod: ${p.metadata.name}`)),
      )
    }
    if (failure) {
      const rc = host.get(RCS, rcName)?.object
      if (rc) await this.event(host, rc, 'Warning', 'FailedCreate', `Error creating: ${failure}`)
    }
    return failure
  }

  /** Deletes the `count` pods kube would pick first, each re-checked at plan time against the current spec. */
  private async deletePods(host: ControllerHost, rcName: string, uid: string, count: number) {
    const victims = ownedActive(host, uid)
      .map((s) => s.object)
      .sort(deletionRank)
      .slice(0, count)
    const planned = new Set<string>()
    const done = await Promise.all(
      victims.map(async (victim) => {
        const r = await host.reconcile('pods', victim.metadata.name!, (cur) => {
          const rc = host.get(RCS, rcName)?.object as RCObject | undefined
          if (!cur || !rc || rc.metadata.uid !== uid || cur.metadata.uid !== victim.metadata.uid || !isActive(cur))
            return null
          const active = ownedActive(host, uid).filter((s) => !planned.has(s.object.metadata.name!))
          if (active.length <= (rc.spec?.replicas ?? 1)) return null
          planned.add(cur.metadata.name!)
          return { delete: {} }
        })
        return r.ok && r.value && !r.value.unchanged ? victim.metadata.name! : null
      }),
    )
    const rc = host.get(RCS, rcName)?.object
    if (!rc) return
    await Promise.all(
      done
        .filter((n): n is string => n !== null)
        .map((n) => this.event(host, rc, 'Normal', 'SuccessfulDelete', `Deleted pod: ${n}`)),
    )
  }

  /** calculateStatus over the pods as committed now, through replicationcontrollers/status; a no-op when unchanged. */
  private async writeStatus(host: ControllerHost, rcName: string, uid: string, failure: string | null) {
    const now = Date.now()
    let wake: number | null = null
    await host.update(
      RCS,
      rcName,
      (current) => {
        if (current.metadata.uid !== uid) return null
        const rc = current as RCObject
        const computed = calculateStatus(
          rc,
          ownedActive(host, uid).map((s) => s.object as Obj),
          failure,
          now,
        )
        wake = computed.wake
        if (deepEqual(rc.status, computed.status)) return null
        rc.status = computed.status
        return rc
      },
      { subresource: 'status', fieldManager: MANAGER },
    )
    // minReadySeconds: come back when the next ready pod becomes available.
    if (wake !== null) await host.wakeAt(wake)
  }

  private event(host: ControllerHost, rc: KubeObject, type: EventSpec['type'], reason: string, message: string) {
    return recordEvent(host, rc, { type, reason, message, component: COMPONENT })
  }
}

/** kube's calculateStatus over the RC's active pods, and when the next ready pod becomes available (minReadySeconds). */
function calculateStatus(
  rc: RCObject,
  pods: Obj[],
  failure: string | null,
  now: number,
): { status: ReplicationControllerStatus; wake: number | null } {
  const templateLabels = rc.spec?.template?.metadata?.labels ?? {}
  const minReady = (rc.spec?.minReadySeconds ?? 0) * 1000
  let wake: number | null = null
  let ready = 0
  let available = 0
  for (const p of pods) {
    if (!isReady(p)) continue
    ready++
    const since = Date.parse(readyCondition(p)?.lastTransitionTime ?? '') || 0
    if (minReady === 0 || since + minReady <= now) available++
    else wake = Math.min(wake ?? Infinity, since + minReady)
  }
  const fullyLabeled = pods.filter((p) =>
    Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v),
  ).length
  // Zero counts are left out, as kube's omitempty leaves them out.
  const status: ReplicationControllerStatus = { replicas: pods.length }
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled
  if (ready) status.readyReplicas = ready
  if (available) status.availableReplicas = available
  if (rc.metadata.generation !== undefined) status.observedGeneration = rc.metadata.generation
  const old = rc.status?.conditions?.find((c) => c.type === 'ReplicaFailure')
  if (failure) {
    status.conditions = [
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(new Date(now)),
        reason: 'FailedCreate',
        message: failure,
      },
    ]
  }
  return { status, wake }
}

/** getPodsFromTemplate: the template's labels, annotations and finalizers, owned by the RC, named `<rc>-xxxxx`. */
function podFromTemplate(rc: RCObject, name: string): KubeObject {
  const t = rc.spec?.template ?? {}
  const meta: ObjectMeta = {
    name,
    generateName: `${rc.metadata.name}-`,
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: rc.metadata.name!,
        uid: rc.metadata.uid!,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  }
  if (t.metadata?.labels) meta.labels = { ...t.metadata.labels }
  if (t.metadata?.annotations) meta.annotations = { ...t.metadata.annotations }
  if (t.metadata?.finalizers) meta.finalizers = [...t.metadata.finalizers]
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: clone(t.spec ?? { containers: [] }) }
}
