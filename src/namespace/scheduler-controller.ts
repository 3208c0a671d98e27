// The scheduler, namespace side: binds this namespace's unbound pods (schedulerName default-scheduler) to nodes the
// cluster object picks, records Scheduled / FailedScheduling events, and returns a pod's reservation when it goes.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../log/d1-log'
import type { KubeObject } from '../schema/meta'
import type { Change, Stored } from '../registry/store'
import { setConditions, scheduledCondition, unschedulableCondition } from '../registry/pod-lifecycle'
import { clone } from '../registry/deep-equal'
import { eventChange, eventName } from '../registry/event-recorder'
import { deepEqual } from '../registry/deep-equal'

type Obj = Record<string, any>

export const podKey = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`

const wantsScheduling = (pod: Obj) =>
  !pod.spec?.nodeName &&
  !pod.metadata?.deletionTimestamp &&
  (pod.spec?.schedulerName ?? 'default-scheduler') === 'default-scheduler' &&
  !(pod.spec?.schedulingGates?.length > 0) &&
  pod.status?.phase !== 'Succeeded' &&
  pod.status?.phase !== 'Failed'

/** The change binding a pod to a node (what POST pods/binding and the scheduler both do). */
export function bindingChange(current: Stored, node: string, now: Date): Change {
  const prev = clone(current.object) as Obj
  delete prev.metadata.resourceVersion
  const next = clone(prev)
  next.spec.nodeName = node
  next.status = { ...(next.status ?? {}), conditions: setConditions(next.status?.conditions, [scheduledCondition(now)]) }
  return { type: 'MODIFIED', resource: 'pods', namespace: prev.metadata.namespace, name: prev.metadata.name, object: next as KubeObject, prev: prev as KubeObject, prevRv: current.rv }
}

export class SchedulerController implements Controller {
  readonly name = 'scheduler'
  /** Pods being scheduled right now, so overlapping triggers do not ask twice. */
  private inFlight = new Set<string>()

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const cluster = host.env.CLUSTER.getByName('cluster')
    for (const e of entries) {
      if (e.resource !== 'pods') continue
      const pod = e.object as Obj
      if (e.type === 'DELETED') {
        await cluster.releasePod(podKey(e.object))
        continue
      }
      // A pod created already bound (or bound by POST binding) still counts against its node.
      if (pod.spec?.nodeName && (e.type === 'ADDED' || !(e.prev as Obj | null)?.spec?.nodeName)) {
        await cluster.assumePod({ podKey: podKey(e.object), ns: host.scope, spec: pod.spec }, pod.spec.nodeName)
        continue
      }
      if (e.type === 'ADDED' && wantsScheduling(pod)) await this.schedule(host, e.object.metadata.name!)
      else if (e.type === 'MODIFIED' && wantsScheduling(pod) && (e.prev as Obj | null)?.spec?.schedulingGates?.length > 0) {
        await this.schedule(host, e.object.metadata.name!)
      }
    }
  }

  /** Tries every unbound pod again (on wake-up, and when the cluster says nodes or capacity changed). */
  async resync(host: ControllerHost): Promise<void> {
    for (const { object } of host.attending('pods')) {
      if (wantsScheduling(object)) await this.schedule(host, object.metadata.name!)
    }
  }

  async schedule(host: ControllerHost, name: string): Promise<void> {
    const current = host.get('pods', name)
    if (!current || !wantsScheduling(current.object)) return
    const key = podKey(current.object)
    if (this.inFlight.has(key)) return
    this.inFlight.add(key)
    try {
      const cluster = host.env.CLUSTER.getByName('cluster')
      const spec = (current.object as Obj).spec
      const result = await cluster.schedulePod({ podKey: key, ns: host.scope, spec })
      const uid = current.object.metadata.uid
      if (result.ok) {
        const bound = await host.write('pods', name, (now) =>
          now && now.object.metadata.uid === uid && wantsScheduling(now.object) ? bindingChange(now, result.node, new Date()) : null,
        )
        if (!bound) {
          await cluster.releasePod(key)
          return
        }
        await this.event(host, bound.object, 'Normal', 'Scheduled', `Successfully assigned ${host.scope}/${name} to ${result.node}`)
        return
      }
      const updated = await host.write('pods', name, (now) => {
        if (!now || now.object.metadata.uid !== uid || !wantsScheduling(now.object)) return null
        const prev = clone(now.object) as Obj
        delete prev.metadata.resourceVersion
        const next = clone(prev)
        next.status = { ...(next.status ?? {}), conditions: setConditions(next.status?.conditions, [unschedulableCondition(new Date(), result.message)]) }
        if (deepEqual(next, prev)) return null
        return { type: 'MODIFIED', resource: 'pods', namespace: host.scope, name, object: next as KubeObject, prev: prev as KubeObject, prevRv: now.rv }
      })
      if (updated) await this.event(host, updated.object, 'Warning', 'FailedScheduling', result.message)
    } finally {
      this.inFlight.delete(key)
    }
  }

  private async event(host: ControllerHost, pod: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) {
    const now = new Date()
    const name = eventName(pod.metadata.name!, now)
    await host.write('events', name, (existing) => eventChange(pod, { type, reason, message, component: 'default-scheduler' }, now, existing, name))
  }
}
