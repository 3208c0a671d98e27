// The namespace objects holding a copy of the cluster's PriorityClasses and StorageClasses for their admission
// (src/namespace/cluster-classes.ts), told when a class changes before that change is answered, so a pod created
// after its class sees it without asking the cluster object on every create. Kept in memory: a holder told nothing
// after this object restarts still refreshes its copy within its freshness bound.
import type { LogEntry } from '../registry/store'

/** The cluster-scoped resources namespace admission reads (the Priority and DefaultStorageClass plugins). */
export const CLASS_RESOURCES = ['priorityclasses', 'storageclasses']

export class ClassHolders {
  private readonly holders = new Set<string>()

  constructor(private readonly tell: (ns: string) => Promise<void>) {}

  /** `ns` fetched the classes: it hears of the next change. */
  note(ns: string): void {
    this.holders.add(ns)
  }

  /**
   * After a commit: when it changed a class, every holder drops its copy (a holder that cannot be reached is forgotten:
   * it fetches again within its freshness bound, and asks again when it does).
   */
  async committed(entries: readonly LogEntry[]): Promise<void> {
    if (!entries.some((e) => CLASS_RESOURCES.includes(e.resource))) return
    const told = [...this.holders]
    this.holders.clear()
    const results = await Promise.allSettled(told.map((ns) => this.tell(ns)))
    results.forEach((r, i) => {
      if (r.status === 'rejected') console.error(`telling namespace ${told[i]} of a class change failed`, r.reason)
    })
  }
}
