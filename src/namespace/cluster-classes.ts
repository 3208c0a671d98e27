// The cluster's PriorityClasses and StorageClasses as a namespace object's admission reads them (kube's Priority and
// DefaultStorageClass plugins list their informers): a copy fetched from the cluster object, which tells this object
// when a class changes (src/cluster/class-holders.ts) before that change is answered, so the plan, which cannot wait on
// RPC, sees every class write acknowledged before the create without a call per create. The copy is also refreshed
// when it is older than FRESH_MS, in case a word from the cluster object was lost with its isolate.
import type { ClusterApi } from '../cluster/cluster-api'
import type { KubeObject } from '../schema/meta'

/** How long a copy nobody invalidated serves (a cluster object that restarted forgot who holds copies). */
const FRESH_MS = 5000

export class ClusterClasses {
  private version: number | undefined
  private objects: Record<string, KubeObject[]> = {}
  private inFlight: Promise<void> | null = null
  private next: Promise<void> | null = null
  /** When the fetch the copy came from was sent; -Infinity when the copy must be fetched again. */
  private fetchedAt = Number.NEGATIVE_INFINITY
  /** Counts invalidations, so a fetch answered before one arrived does not count as fresh. */
  private epoch = 0

  constructor(
    private readonly cluster: () => ClusterApi,
    private readonly scope: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Brings the copy up to date unless it is fresh (fetched since the last change the cluster object told of). */
  current(): Promise<void> {
    return this.now() - this.fetchedAt < FRESH_MS ? Promise.resolve() : this.refresh()
  }

  /** A class changed (the cluster object says so): the next create fetches the classes again. */
  invalidate(): void {
    this.epoch++
    this.fetchedAt = Number.NEGATIVE_INFINITY
  }

  /**
   * Fetches the classes. A fetch already under way may have been answered before the caller's request arrived, so the
   * caller waits for one that starts after it; callers meanwhile share it (one fetch in flight and one waiting,
   * whatever the number of creates). An "unchanged" answer carries no objects.
   */
  private refresh(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.fetch().finally(() => {
        this.inFlight = null
      })
      return this.inFlight
    }
    this.next ??= this.inFlight.then(() => {
      this.next = null
      return this.refresh()
    })
    return this.next
  }

  /** The objects of one of the class resources as last fetched. */
  all(resource: string): KubeObject[] {
    return this.objects[resource] ?? []
  }

  private async fetch(): Promise<void> {
    const epoch = this.epoch
    const sentAt = this.now()
    try {
      const snap = await this.cluster().classes(this.scope, this.version)
      if (snap.objects) this.objects = snap.objects
      this.version = snap.version
      if (this.epoch === epoch) this.fetchedAt = sentAt
    } catch (e) {
      // Admission goes on with the copy it has, as kube's plugins read a lagging informer.
      console.error('reading the cluster classes failed', e)
    }
  }
}
