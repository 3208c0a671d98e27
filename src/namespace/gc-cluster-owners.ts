// How the garbage collectors of namespaces and of the cluster object share cluster-scoped owners. A namespaced object
// may be owned by a cluster-scoped one (a Node, a ClusterRole, a cluster-scoped custom resource); kube's collector
// looks such an owner up without a namespace. Here a namespace's collector asks the cluster object (ClusterOwnerLinks),
// which records the namespace as holding dependents of each owner it answers for; when that owner goes, or waits on
// the collector (orphan, foreground), the cluster object's collector tells those namespaces (NamespaceDependents).
import type { ClusterApi, ClusterOwnerRef, OwnerMeta } from '../cluster/cluster-api'

/** What a namespace's collector asks of the cluster object. */
export type ClusterOwnerLinks = Pick<ClusterApi, 'clusterOwners' | 'clusterOwnersUnblocked' | 'awaitOwnerKinds'>

/** What the cluster object's collector asks of the namespaces holding dependents of its objects. */
export interface NamespaceDependents {
  /**
   * Tells every namespace holding dependents of `uid` that the owner went (null) or waits on the collector. Answers
   * whether every namespace answered and whether a dependent there still blocks the owner's deletion.
   */
  ownerChanged(uid: string, owner: OwnerMeta | null): Promise<{ answered: boolean; blocking: boolean }>
  /** The owner the namespaces were told of under `uid` (resource key and name), if any namespace holds dependents. */
  ownerOf(uid: string): { resource: string; name: string } | null
  /** Owners recorded with dependents in namespaces that are gone from here (a wake-up: told nobody, or told in vain). */
  goneOwners(exists: (resource: string, name: string, uid: string) => boolean): string[]
  /** A CRD changed: the namespaces waiting for an owner kind to appear are told. */
  kindsChanged(): Promise<void>
  /** A namespace was removed (emptied first): it holds no dependents and waits for nothing. */
  namespaceGone(ns: string): void
}

/** How many recorded owners an isolate remembers before it starts over (each is a uid and two fields). */
const RECORDED_MAX = 10_000

/**
 * The cluster-scoped owners this namespace recorded itself with (found present and not being deleted), until the
 * cluster object tells it of them: a dependent made for such an owner asks nothing, since the cluster object tells
 * this namespace when that owner goes or waits (kube's graph builder asks only after owners it has not observed).
 * Per isolate; a new one asks again.
 */
export class RecordedOwners {
  private readonly owners = new Map<string, OwnerMeta>()
  /** Moves when the cluster object tells of an owner: an answer asked for before then is not remembered. */
  private told = 0

  get(uid: string): OwnerMeta | undefined {
    return this.owners.get(uid)
  }

  /** A mark to give `note` with the answer of a question asked now. */
  mark(): number {
    return this.told
  }

  note(uid: string, owner: OwnerMeta | null, mark: number): void {
    if (mark !== this.told || !owner || owner.deletionTimestamp) return
    if (this.owners.size >= RECORDED_MAX) this.owners.clear()
    this.owners.set(uid, owner)
  }

  /** The cluster object tells of `uid`: what was remembered of it, or is being asked now, no longer holds. */
  forget(uid: string): void {
    this.owners.delete(uid)
    this.told++
  }
}

/**
 * The cluster-scoped owners read during one pass of a namespace's collector: each is asked for once, many in one call,
 * and an owner the cluster object told us of, or one recorded before, is not asked for again.
 */
export class ClusterOwnerReads {
  private readonly known = new Map<string, OwnerMeta | null>()

  constructor(
    private readonly links: ClusterOwnerLinks,
    private readonly ns: string,
    private readonly recorded: RecordedOwners,
  ) {}

  /** What the cluster object said of `uid` when it called. */
  seed(uid: string, owner: OwnerMeta | null): void {
    this.known.set(uid, owner)
  }

  /** The owner `ref` names (null: gone), asked of the cluster object unless already known in this pass. */
  async read(ref: ClusterOwnerRef): Promise<OwnerMeta | null> {
    await this.readAll([ref])
    return this.known.get(ref.uid) ?? null
  }

  /** Asks for every owner of `refs` not known yet in one call (a wake-up's, over every owner named here). */
  async readAll(refs: ClusterOwnerRef[]): Promise<void> {
    for (const r of refs) {
      const owner = this.known.has(r.uid) ? undefined : this.recorded.get(r.uid)
      if (owner) this.known.set(r.uid, owner)
    }
    const missing = refs.filter((r) => !this.known.has(r.uid))
    if (missing.length === 0) return
    const mark = this.recorded.mark()
    const owners = await this.links.clusterOwners(this.ns, missing)
    missing.forEach((r, i) => {
      this.known.set(r.uid, owners[i] ?? null)
      this.recorded.note(r.uid, owners[i] ?? null, mark)
    })
  }
}
