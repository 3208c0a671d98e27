// The cluster's PriorityClasses and StorageClasses as a namespace object's admission reads them (kube's Priority and
// DefaultStorageClass plugins list their informers): a copy fetched from the cluster object before a pod or claim
// create is queued, so the plan, which cannot wait on RPC, sees every class write acknowledged before the create.
import type { ClusterApi } from '../cluster/cluster-api'
import type { KubeObject } from '../schema/meta'

const CLASS_RESOURCES = ['priorityclasses', 'storageclasses']

export class ClusterClasses {
  private version: number | undefined
  private objects: Record<string, KubeObject[]> = {}
  private inFlight: Promise<void> | null = null
  private next: Promise<void> | null = null

  constructor(private readonly cluster: () => ClusterApi) {}

  /**
   * Brings the copy up to date with the cluster as it is now. A fetch already under way may have been answered before
   * the caller's request arrived, so the caller waits for one that starts after it; callers meanwhile share it (one
   * fetch in flight and one waiting, whatever the number of creates). An "unchanged" answer carries no objects.
   */
  refresh(): Promise<void> {
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

  /** The objects of one of CLASS_RESOURCES as last fetched. */
  all(resource: string): KubeObject[] {
    return this.objects[resource] ?? []
  }

  private async fetch(): Promise<void> {
    try {
      const snap = await this.cluster().snapshot(CLASS_RESOURCES, this.version)
      if (snap.objects) this.objects = snap.objects
      this.version = snap.version
    } catch (e) {
      // Admission goes on with the copy it has, as kube's plugins read a lagging informer.
      console.error('reading the cluster classes failed', e)
    }
  }
}
