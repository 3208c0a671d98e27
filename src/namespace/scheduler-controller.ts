// The scheduler, namespace side: binds this namespace's unbound pods (schedulerName default-scheduler) to nodes the
// cluster object picks, through pods/binding like kube's scheduler; marks unschedulable pods PodScheduled=False
// through pods/status; records Scheduled / FailedScheduling events; returns a pod's reservation when it goes.
import type { ClusterApi } from '../cluster/cluster-api'
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { bindPod } from '../registry/binding-subresource'
import { setConditions, unschedulableCondition } from '../registry/pod-lifecycle'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { PodAddressBook } from './pod-address-book'

type Obj = Record<string, any>

export const podKey = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`

/** The component name kube's scheduler writes events and status under. */
const SCHEDULER = 'default-scheduler'

const wantsScheduling = (pod: Obj) =>
  !pod.spec?.nodeName &&
  !pod.metadata?.deletionTimestamp &&
  (pod.spec?.schedulerName ?? SCHEDULER) === SCHEDULER &&
  !(pod.spec?.schedulingGates?.length > 0) &&
  pod.status?.phase !== 'Succeeded' &&
  pod.status?.phase !== 'Failed'

export class SchedulerController implements Controller {
  readonly name = 'scheduler'
  /** Pods being scheduled right now, so overlapping triggers do not ask twice. */
  private inFlight = new Set<string>()
  /** Pods this scheduler is binding: the cluster object's ledger has them already, no assumePod needed. */
  private binding = new Set<string>()

  constructor(
    private readonly cluster: () => ClusterApi,
    private readonly addresses: PodAddressBook,
  ) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    for (const e of entries) {
      if (e.resource !== 'pods') continue
      const pod = e.object as Obj
      if (e.type === 'DELETED') {
        this.addresses.forget(podKey(e.object))
        await this.cluster().releasePod(podKey(e.object))
        continue
      }
      // A pod created already bound (or bound by POST binding) still counts against its node.
      if (pod.spec?.nodeName && (e.type === 'ADDED' || !(e.prev as Obj | null)?.spec?.nodeName)) {
        const key = podKey(e.object)
        if (this.binding.delete(key)) continue
        await this.cluster().assumePod({ podKey: key, ns: host.scope, spec: pod.spec }, pod.spec.nodeName)
        continue
      }
      if (e.type === 'ADDED' && wantsScheduling(pod)) await this.schedule(host, e.object.metadata.name!)
      else if (
        e.type === 'MODIFIED' &&
        wantsScheduling(pod) &&
        (e.prev as Obj | null)?.spec?.schedulingGates?.length > 0
      ) {
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
      const result = await this.cluster().schedulePod({
        podKey: key,
        ns: host.scope,
        spec: (current.object as Obj).spec,
      })
      const uid = current.object.metadata.uid
      const samePod = (pod: KubeObject) => pod.metadata.uid === uid && wantsScheduling(pod)
      if (result.ok) {
        if (result.addresses) this.addresses.remember(key, result.addresses)
        // Marked before the write: its commit may reach onCommitted before the write answers here.
        this.binding.add(key)
        const bound = await host.update(
          'pods',
          name,
          (pod) => (samePod(pod) ? unwrapBinding(bindPod(pod, result.node, undefined, new Date())) : null),
          {
            subresource: 'binding',
          },
        )
        if (!bound.ok || !bound.value) {
          this.binding.delete(key)
          this.addresses.forget(key)
          await this.cluster().releasePod(key)
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
      const marked = await host.update(
        'pods',
        name,
        (pod) => {
          if (!samePod(pod)) return null
          const p = pod as Obj
          p.status = {
            ...(p.status ?? {}),
            conditions: setConditions(p.status?.conditions, [unschedulableCondition(new Date(), result.message)]),
          }
          return pod
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
    } finally {
      this.inFlight.delete(key)
    }
  }
}

/** A binding the mutation cannot make (the pod changed meanwhile) declines the write. */
const unwrapBinding = (r: ReturnType<typeof bindPod>) => (r.ok ? r.value : null)
