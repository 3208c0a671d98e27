// The scheduler, namespace side: binds this namespace's unbound pods (schedulerName default-scheduler) to nodes the
// cluster object picks, through pods/binding like kube's scheduler; marks unschedulable pods PodScheduled=False
// through pods/status; records Scheduled / FailedScheduling events; returns a pod's reservation when it goes or
// ends (Succeeded/Failed: kube's scheduler does not watch terminal pods, so their room is free at once).
// A pod that fits nowhere waits, as in kube's unschedulable queue, until something could change that: the cluster
// wakes the namespace when capacity is freed or nodes change (retry), or the pod itself changes. Alarms and other
// resyncs leave it alone, and a retry asks for all waiting pods in one call.
import type { ClusterApi, Placement } from '../cluster/cluster-api'
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { bindPod } from '../registry/binding-subresource'
import { setConditions, unschedulableCondition } from '../registry/pod-lifecycle'
import type { LogEntry, Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { PodAddressBook } from './pod-address-book'
import { batchLookups, podKey, placementRequest, scheduleRequest } from './schedule-request'
import { sweepReservations } from './scheduler-sweep'
import { byPriority, SCHEDULER, terminal, wantsScheduling } from './scheduler-pods'

type Obj = Record<string, any>

/** Whether this change gave the pod its deletionTimestamp. */
const becameTerminating = (prev: Obj | null, pod: Obj) =>
  !!pod.metadata?.deletionTimestamp && !prev?.metadata?.deletionTimestamp

/** Whether the labels differ (as sets: their order is not a change). */
function labelsChanged(prev: Obj | null, pod: Obj): boolean {
  const before = (prev?.metadata?.labels ?? {}) as Record<string, string>
  const after = (pod.metadata?.labels ?? {}) as Record<string, string>
  const keys = Object.keys(after)
  return keys.length !== Object.keys(before).length || keys.some((k) => before[k] !== after[k])
}

export class SchedulerController implements Controller {
  readonly name = 'scheduler'
  /** Pods being scheduled right now, so overlapping triggers do not ask twice. */
  private inFlight = new Set<string>()
  /** Pods this scheduler is binding: the cluster object's ledger has them already, no assumePod needed. */
  private binding = new Set<string>()
  /** Pods that fit nowhere at their last attempt (pod key -> their spec then): only a retry or a change wakes them. */
  private waiting = new Map<string, string>()
  /** Counts the cluster's retries, so an attempt can tell that one came while it was under way. */
  private epoch = 0
  /** Whether this instance compared the cluster's reservations with its pods yet (once, on its first resync). */
  private swept = false

  constructor(
    private readonly cluster: () => ClusterApi,
    private readonly addresses: PodAddressBook,
  ) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const fresh = new Set<string>()
    /** Each pod as this commit left it (its last entry here). */
    const last = new Map<string, LogEntry>()
    // Whether this commit's handling waited on the cluster: other work (a retry that release woke) may have bound or
    // changed its pods meanwhile, so they are read again instead of taken as the commit left them.
    let waited = false
    for (const e of entries) {
      if (e.resource !== 'pods') continue
      last.set(e.name, e)
      const pod = e.object as Obj
      if (e.type === 'DELETED') {
        this.addresses.forget(podKey(e.object))
        this.waiting.delete(podKey(e.object))
        waited = true
        await this.cluster().releasePod(podKey(e.object))
        continue
      }
      // A pod turning Succeeded or Failed leaves kube's scheduler cache as if deleted (its informer's field selector
      // excludes terminal pods): its room is free at once, and pods waiting for it are woken by the release.
      if (pod.spec?.nodeName && terminal(pod)) {
        if (e.type === 'ADDED' || !terminal(e.prev as Obj | null)) {
          const key = podKey(e.object)
          this.binding.delete(key)
          this.addresses.forget(key)
          this.waiting.delete(key)
          waited = true
          await this.cluster().releasePod(key, true)
        }
        continue
      }
      // A pod created already bound (or bound by POST binding) still counts against its node.
      if (pod.spec?.nodeName && (e.type === 'ADDED' || !(e.prev as Obj | null)?.spec?.nodeName)) {
        const key = podKey(e.object)
        if (this.binding.delete(key)) continue
        waited = true
        await this.cluster().assumePod(scheduleRequest(host, e.object), pod.spec.nodeName)
        // Deleted or ended while that call was under way: the release its later commit asked for (heard concurrently)
        // may have reached the cluster first and found nothing to release.
        if (!countsWhereBound(host, e.object)) await this.cluster().releasePod(key, endedOnNode(host, e.object))
        continue
      }
      // A bound pod being deleted: PodTopologySpread counts it no more (its room stays held until it is gone).
      if (pod.spec?.nodeName && e.type === 'MODIFIED' && becameTerminating(e.prev as Obj | null, pod)) {
        waited = true
        await this.cluster().podTerminating(podKey(e.object))
      }
      // A bound pod relabelled: pod (anti-)affinity terms of other pods match its new labels.
      if (pod.spec?.nodeName && e.type === 'MODIFIED' && labelsChanged(e.prev as Obj | null, pod)) {
        waited = true
        await this.cluster().describePod(podKey(e.object), pod.metadata.labels ?? {})
        continue
      }
      if (
        (e.type === 'ADDED' && wantsScheduling(pod)) ||
        (e.type === 'MODIFIED' &&
          wantsScheduling(pod) &&
          ((e.prev as Obj | null)?.spec?.schedulingGates?.length > 0 || this.changedWhileWaiting(e.object)))
      )
        fresh.add(e.name)
    }
    // The commit's new pods are asked for together: one call for all of them, and their bindings share commits. Each
    // is taken as the commit left it (the binding is planned against the newest state, and declines for a pod that
    // changed meanwhile), not read again, unless the loop above waited: a pod bound meanwhile, asked for again, would
    // be placed where it is, its binding declined, and the reservation it holds released.
    const pods: Stored[] = []
    for (const name of fresh) {
      const e = last.get(name)!
      const current = waited ? host.get('pods', name) : e.type === 'DELETED' ? null : { rv: e.rv, object: e.object }
      if (current && current.object.metadata.uid === e.object.metadata.uid && wantsScheduling(current.object))
        pods.push(current)
    }
    await this.attempt(host, pods)
  }

  /**
   * Tries the unbound pods that are not waiting for room (on wake-up every one: a new instance has no list, and on
   * alarms the rare pod whose first attempt was missed). Waiting pods are the cluster's to wake (retry).
   */
  async resync(host: ControllerHost): Promise<void> {
    if (!this.swept) {
      this.swept = true
      await sweepReservations(host, this.cluster())
    }
    await this.attempt(
      host,
      host.attending('pods').filter(({ object }) => wantsScheduling(object) && !this.waiting.has(podKey(object))),
    )
  }

  /** The cluster freed room or nodes changed: every unbound pod, waiting or not, gets another attempt. */
  async retry(host: ControllerHost): Promise<void> {
    this.epoch++
    this.waiting.clear()
    await this.attempt(
      host,
      host.attending('pods').filter(({ object }) => wantsScheduling(object)),
    )
  }

  /** A waiting pod whose spec changed (tolerations added, say) may fit now: kube requeues it on such an update. */
  private changedWhileWaiting(pod: KubeObject): boolean {
    const was = this.waiting.get(podKey(pod))
    return was !== undefined && was !== JSON.stringify((pod as Obj).spec)
  }

  /**
   * Asks the cluster for places (one call, however many pods), then settles each: their writes share group commits.
   * Pods already being asked for are left to that attempt; if a retry arrives meanwhile, the ones it left waiting
   * are asked for again, since the room that retry announced may be theirs.
   */
  private async attempt(host: ControllerHost, pods: readonly Stored[]): Promise<void> {
    // The cluster places them in this order: kube's PrioritySort (higher spec.priority first, then the older pod).
    const todo = pods.filter(({ object }) => !this.inFlight.has(podKey(object))).sort(byPriority)
    if (todo.length === 0) return
    const started = this.epoch
    for (const { object } of todo) this.inFlight.add(podKey(object))
    try {
      const lookups = batchLookups(host)
      const reqs = todo.map(({ object }) => placementRequest(host, object, lookups))
      const results =
        reqs.length === 1 ? [await this.cluster().schedulePod(reqs[0]!)] : await this.cluster().schedulePods(reqs)
      await Promise.all(todo.map(({ object }, i) => this.settle(host, object, results[i]!)))
    } finally {
      for (const { object } of todo) this.inFlight.delete(podKey(object))
    }
    if (this.epoch === started) return
    const again: Stored[] = []
    for (const { object } of todo) {
      const current = host.get('pods', object.metadata.name!)
      if (!current || current.object.metadata.uid !== object.metadata.uid || !wantsScheduling(current.object)) continue
      this.waiting.delete(podKey(object))
      again.push(current)
    }
    await this.attempt(host, again)
  }

  /**
   * The pod's binding was declined. A pod bound meanwhile by someone else (a client's pods/binding won the race)
   * counts where it is bound: the reservation moves there, as its binding's commit, heard here before this decline or
   * mistaken for this scheduler's own (the `binding` mark), may not have asked for. Any other pod (unbound, gone,
   * Succeeded or Failed) gives its reservation back.
   */
  private async declined(host: ControllerHost, pod: KubeObject): Promise<void> {
    const key = podKey(pod)
    // Gone, unbound or ended meanwhile (Succeeded/Failed hold no room): the reservation goes.
    if (!countsWhereBound(host, pod)) {
      await this.cluster().releasePod(key, endedOnNode(host, pod))
      return
    }
    const bound = host.get('pods', pod.metadata.name!)!.object
    await this.cluster().assumePod({ ...scheduleRequest(host, bound), podKey: key }, (bound as Obj).spec.nodeName)
    // Deleted or ended while that call was under way: that commit's release may have reached the cluster first.
    if (!countsWhereBound(host, pod)) await this.cluster().releasePod(key, endedOnNode(host, pod))
  }

  /** Binds a placed pod (and records Scheduled), or marks one that fits nowhere and lets it wait. */
  private async settle(host: ControllerHost, pod: KubeObject, result: Placement): Promise<void> {
    const name = pod.metadata.name!
    const key = podKey(pod)
    const uid = pod.metadata.uid
    const samePod = (current: KubeObject) => current.metadata.uid === uid && wantsScheduling(current)
    if (result.ok) {
      if (result.addresses) this.addresses.remember(key, result.addresses)
      // Marked before the write: its commit may reach onCommitted before the write answers here.
      this.binding.add(key)
      const bound = await host.update(
        'pods',
        name,
        (current) => (samePod(current) ? unwrapBinding(bindPod(current, result.node, undefined, new Date())) : null),
        { subresource: 'binding' },
      )
      if (!bound.ok || !bound.value) {
        this.binding.delete(key)
        this.addresses.forget(key)
        await this.declined(host, pod)
        return
      }
      await recordEvent(host, bound.value.object, {
        type: 'Normal',
        reason: 'Scheduled',
        message: `Successfully assigned ${host.scope}/${name} to ${result.node}`,
        component: SCHEDULER,
      })
      return
    }
    this.waiting.set(key, JSON.stringify((pod as Obj).spec))
    // Already marked with this very reason (a retry that changed nothing): no write to plan, no second event.
    const stored = host.get('pods', name)?.object as Obj | undefined
    const already = ((stored?.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'PodScheduled')
    if (already?.status === 'False' && already.reason === 'Unschedulable' && already.message === result.message) return
    const marked = await host.update(
      'pods',
      name,
      (current) => {
        if (!samePod(current)) return null
        const p = current as Obj
        p.status = {
          ...(p.status ?? {}),
          conditions: setConditions(p.status?.conditions, [unschedulableCondition(new Date(), result.message)]),
        }
        return current
      },
      { subresource: 'status', fieldManager: SCHEDULER },
    )
    // An unchanged condition is a no-op write, and no second event.
    if (marked.ok && marked.value && !marked.value.unchanged) {
      await recordEvent(host, marked.value.object, {
        type: 'Warning',
        reason: 'FailedScheduling',
        message: result.message,
        component: SCHEDULER,
      })
    }
  }
}

/** Whether this very pod is still stored, bound and not terminal: only such a pod holds room on its node. */
function countsWhereBound(host: ControllerHost, pod: KubeObject): boolean {
  const current = host.get('pods', pod.metadata.name!)?.object as Obj | undefined
  return current?.metadata.uid === pod.metadata.uid && !!current?.spec?.nodeName && !terminal(current)
}

/** Whether this very pod is bound and Succeeded/Failed: it holds no room, but is still on its node until deleted. */
function endedOnNode(host: ControllerHost, pod: KubeObject): boolean {
  const current = host.get('pods', pod.metadata.name!)?.object as Obj | undefined
  return current?.metadata.uid === pod.metadata.uid && !!current?.spec?.nodeName && terminal(current)
}

/** A binding the mutation cannot make (the pod changed meanwhile) declines the write. */
const unwrapBinding = (r: ReturnType<typeof bindPod>) => (r.ok ? r.value : null)
