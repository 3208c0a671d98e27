// What a namespace adds to the generic host: admission by the namespace's phase (404 when it does not exist, 403 while
// it terminates; a pod's create waits for the `default` ServiceAccount), the service IPs and node ports a service
// change reserves from the cluster object before it commits and frees after, and which objects its controllers still
// attend to.
import type { ClusterApi, NamespacePhase } from '../cluster/cluster-api'
import type { HostPolicy } from '../host/host-policy'
import type { HostState } from '../host/object-store'
import { podNeedsAttention } from '../registry/pod-lifecycle'
import type { ResourceDef } from '../registry/resource'
import { statuses, type Status } from '../registry/status'
import type { Change, LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { ResourceQuota } from '../schema/resource-quota'
import { ClusterClasses } from './cluster-classes'
import { QuotaLedger } from './quota-ledger'
import { waitsOnGarbageCollector } from './garbage-collector'
import { beginServiceChange, releaseCommitted } from './service-allocation'
import { staleDisruptionAt } from '../registry/stale-disruption'

export class NamespacePolicy implements HostPolicy {
  /** Cached phase of this namespace; unknown (undefined) is asked of the cluster object. */
  phase: NamespacePhase | undefined
  private state: HostState | null = null
  /** The cluster's PriorityClasses and StorageClasses, brought up to date before a pod or claim create is planned. */
  private readonly classes: ClusterClasses
  /** Each quota's exact usage, moved by the quota controller after every commit and read by quota admission. */
  readonly quotas = new QuotaLedger()

  /**
   * @param defaultServiceAccount makes the namespace's `default` ServiceAccount unless it exists (the serviceaccounts
   *   controller's work, done now), for a pod about to be planned.
   */
  constructor(
    private readonly scope: string,
    private readonly cluster: () => ClusterApi,
    private readonly defaultServiceAccount: () => Promise<void>,
  ) {
    this.classes = new ClusterClasses(cluster, scope)
  }

  /** The host's durable state, where the known phase is kept across wake-ups. */
  attach(state: HostState) {
    this.state = state
    this.phase = state.get('phase') as NamespacePhase | undefined
  }

  setPhase(phase: NamespacePhase | undefined) {
    this.phase = phase
    this.state?.set('phase', phase)
  }

  /** Asks the cluster object for this namespace's phase unless it is known. */
  async learnPhase() {
    if (this.phase !== undefined) return
    const phase = await this.cluster().namespacePhase(this.scope)
    // Only a namespace that exists is remembered: the cluster object tells us when that changes.
    if (phase) this.setPhase(phase)
  }

  async admitCreate(def: ResourceDef, name: string): Promise<Status | null> {
    await this.learnPhase()
    const refused = this.admitCreateNow(def, name)
    if (refused) return refused
    // kube's ServiceAccount admission refuses a pod whose ServiceAccount is missing, but asks again for a second or two
    // when it is `default`, which its controller makes in every namespace. Here the namespace makes it before it
    // plans the pod, so no pod is refused because that controller has not run yet (a namespace made a moment ago, a
    // default ServiceAccount deleted a moment ago).
    if (def.plural === 'pods' && !def.group) await this.defaultServiceAccount()
    // The Priority and DefaultStorageClass plugins read the cluster's classes: the plan gets them as they are now.
    if (!def.group && (def.plural === 'pods' || def.plural === 'persistentvolumeclaims')) await this.classes.current()
    return null
  }

  /** The cluster object says a PriorityClass or StorageClass changed. */
  classesChanged(): void {
    this.classes.invalidate()
  }

  clusterObjects(resource: string): KubeObject[] {
    return this.classes.all(resource)
  }

  quotaUsage(quota: ResourceQuota, list: (resource: string) => KubeObject[], now: Date) {
    return this.quotas.followedUsage(quota, list, now)
  }

  admitCreateNow(def: ResourceDef, name: string): Status | null {
    if (this.phase === 'Active') return null
    if (this.phase === 'Terminating')
      return statuses.namespaceTerminating({ resource: def.plural, group: def.group || undefined }, name, this.scope)
    return statuses.notFound({ resource: 'namespaces' }, this.scope)
  }

  /** Services reserve their cluster IPs and node ports before they commit (released again if they do not). */
  async beginChange(
    def: ResourceDef,
    change: Change,
    dryRun: boolean,
  ): Promise<{ status?: Status; rollback?: () => Promise<void> }> {
    return def.plural === 'services' ? beginServiceChange(this.cluster(), change, dryRun) : {}
  }

  /** After a commit, and before the writes are answered: free what deleted or changed services gave up. */
  async afterApply(entries: readonly LogEntry[]): Promise<void> {
    if (entries.some((e) => e.resource === 'services')) await releaseCommitted(this.cluster(), entries)
  }

  needsAttention(resource: string, obj: KubeObject): boolean {
    // A pod marked DisruptionTarget waits for the disruption controller to clear a stale mark.
    if (resource === 'pods') return podNeedsAttention(obj as Record<string, any>) || staleDisruptionAt(obj) !== null
    // Owners whose deletion waits on the garbage collector.
    return waitsOnGarbageCollector(obj)
  }
}
