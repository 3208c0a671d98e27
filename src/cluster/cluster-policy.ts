// What the cluster scope adds to the generic host: namespace objects learn their namespace's phase from its commits;
// a namespace being deleted is emptied by its object and then removed, retried on the alarm while finalizers hold
// objects (and a deleted system namespace comes back); node changes give unschedulable pods another try; the service
// allocators' repair pass runs on the alarm.
import type { Alarms } from '../host/alarms'
import type { HostPolicy } from '../host/host-policy'
import type { HostState } from '../host/object-store'
import type { NamespaceApi } from '../namespace/namespace-api'
import type { Status } from '../registry/status'
import type { LogEntry } from '../registry/store'
import { SYSTEM_NAMESPACES } from '../registry/strategies/namespace'
import type { ServiceAllocationHost } from './allocators/service-allocation-host'
import type { Scheduling } from './scheduling'
import type { DaemonNodes } from './daemon-nodes'
import type { ClassHolders } from './class-holders'

const TERMINATION_RETRY_MS = 1000
const TERMINATING = 'terminating'

interface ClusterPolicyParts {
  classHolders: ClassHolders
  services: ServiceAllocationHost
  scheduling: Scheduling
  daemonNodes: DaemonNodes
  namespaces(name: string): NamespaceApi
  state: HostState
  alarms: Alarms
  /** Removes a namespace object whose content is gone. */
  removeNamespace(name: string): Promise<boolean>
  ensureSystemNamespaces(): Promise<void>
}

export class ClusterPolicy implements HostPolicy {
  constructor(private readonly parts: ClusterPolicyParts) {}

  async admitCreate(): Promise<Status | null> {
    return null
  }

  admitCreateNow(): Status | null {
    return null
  }

  async afterApply(entries: readonly LogEntry[]): Promise<void> {
    // Namespaces holding the classes drop their copy before a class write is answered.
    await this.parts.classHolders.committed(entries)
    // New or changed nodes may make room for pods that could not be scheduled.
    if (entries.some((e) => e.resource === 'nodes')) this.parts.scheduling.wakeWaiting()
    // ...and DaemonSets may have nodes to run on or to leave.
    this.parts.daemonNodes.afterApply(entries)
    for (const e of entries) {
      if (e.resource !== 'namespaces') continue
      const ns = this.parts.namespaces(e.name)
      if (e.type === 'ADDED') await ns.setPhase('Active')
      else if (e.type === 'MODIFIED' && (e.object.status as { phase?: string } | undefined)?.phase === 'Terminating') {
        await ns.setPhase('Terminating')
        this.setTerminating([...new Set([...this.terminating(), e.name])])
        await this.parts.alarms.wakeAt(Date.now())
      }
    }
  }

  nextAlarmAt(): number | null {
    const terminating = this.terminating().length > 0 ? Date.now() + TERMINATION_RETRY_MS : null
    const services = this.parts.services.nextAlarmAt()
    if (terminating === null || services === null) return terminating ?? services
    return Math.min(terminating, services)
  }

  async onAlarm(now: number): Promise<void> {
    await this.parts.services.onAlarm(now)
    const pending = this.terminating()
    if (pending.length === 0) return
    const still: string[] = []
    for (const name of pending) {
      const ns = this.parts.namespaces(name)
      if ((await ns.terminate()) > 0) {
        still.push(name)
        continue
      }
      await this.parts.removeNamespace(name)
      await ns.setPhase(null)
    }
    this.setTerminating(still)
    if (pending.some((name) => (SYSTEM_NAMESPACES as readonly string[]).includes(name)))
      await this.parts.ensureSystemNamespaces()
  }

  private terminating(): string[] {
    return JSON.parse(this.parts.state.get(TERMINATING) ?? '[]') as string[]
  }

  private setTerminating(names: string[]) {
    this.parts.state.set(TERMINATING, names.length > 0 ? JSON.stringify(names) : undefined)
  }
}
