// Which namespaces hold dependents of the cluster object's own objects (a ClusterRole, a Node or a cluster-scoped custom
// resource owning ConfigMaps in several namespaces), recorded when a namespace's garbage collector asks after such an
// owner (ClusterApi.clusterOwners), and the namespaces waiting for an owner kind to be served. kube's collector holds
// one graph for the whole cluster; here each namespace holds its part, and the cluster object's collector tells the
// namespaces of an owner when it goes or waits on them (orphan, foreground), through this table: a deletion costs one
// call per namespace that holds its dependents, never a walk of every namespace.
import type { ClusterOwnerRef, OwnerMeta } from './cluster-api'
import type { NamespaceDependents } from '../namespace/gc-cluster-owners'
import type { KubeObject } from '../schema/meta'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gc_namespace_dependents (
  owner_uid TEXT NOT NULL, namespace TEXT NOT NULL, resource TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (owner_uid, namespace)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gc_namespace_dependents_by_namespace ON gc_namespace_dependents (namespace);
CREATE TABLE IF NOT EXISTS gc_kind_waiters (namespace TEXT PRIMARY KEY) WITHOUT ROWID;
`

/** What a namespace answers when told of an owner (NamespaceApi.clusterOwnerChanged). */
type Answer = { dependents: number; blocking: boolean }

/** How the table reaches a namespace's collector. */
interface NamespaceGcCalls {
  ownerChanged(ns: string, uid: string, owner: OwnerMeta | null): Promise<Answer>
  kindsChanged(ns: string): Promise<void>
}

export class NamespaceDependentsTable implements NamespaceDependents {
  constructor(
    private readonly sql: SqlStorage,
    private readonly calls: NamespaceGcCalls,
  ) {
    sql.exec(SCHEMA)
  }

  /**
   * ClusterApi.clusterOwners: the owners `refs` name as `get` finds them here (null: gone, or another uid), `ns` recorded
   * as holding dependents of each one present.
   */
  owners(ns: string, refs: ClusterOwnerRef[], get: (resource: string, name: string) => KubeObject | null) {
    return refs.map((ref): OwnerMeta | null => {
      const owner = get(ref.resource, ref.name)?.metadata
      if (!owner || owner.uid !== ref.uid) return null
      this.record(ns, ref)
      return { deletionTimestamp: owner.deletionTimestamp, finalizers: owner.finalizers }
    })
  }

  /** `ns` holds dependents of the owner `ref` names (which exists here). */
  private record(ns: string, ref: ClusterOwnerRef): void {
    this.sql.exec(
      'INSERT INTO gc_namespace_dependents (owner_uid, namespace, resource, name) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ref.uid,
      ns,
      ref.resource,
      ref.name,
    )
  }

  ownerOf(uid: string): { resource: string; name: string } | null {
    const row = this.sql
      .exec<{ resource: string; name: string }>(
        'SELECT resource, name FROM gc_namespace_dependents WHERE owner_uid = ? LIMIT 1',
        uid,
      )
      .toArray()[0]
    return row ?? null
  }

  async ownerChanged(uid: string, owner: OwnerMeta | null): Promise<{ answered: boolean; blocking: boolean }> {
    const namespaces = this.sql
      .exec<{ namespace: string }>('SELECT namespace FROM gc_namespace_dependents WHERE owner_uid = ?', uid)
      .toArray()
      .map((r) => r.namespace)
    const answers = await Promise.all(
      namespaces.map((ns) =>
        this.calls.ownerChanged(ns, uid, owner).then(
          (a) => ({ ns, a }),
          (e: unknown) => {
            console.error(`garbage collector: telling namespace ${ns} of owner ${uid} failed`, e)
            return { ns, a: null }
          },
        ),
      ),
    )
    let answered = true
    let blocking = false
    for (const { ns, a } of answers) {
      if (!a) answered = false
      else if (a.blocking) blocking = true
      // A namespace that answered for a gone owner, or holds no dependents any more, need not be told again: one that
      // gets a new dependent of a present owner records itself again when it asks after it.
      if (a && (owner === null || a.dependents === 0 || releasing(owner))) this.forget(uid, ns)
    }
    return { answered, blocking }
  }

  goneOwners(exists: (resource: string, name: string, uid: string) => boolean): string[] {
    const rows = this.sql
      .exec<{ owner_uid: string; resource: string; name: string }>(
        'SELECT DISTINCT owner_uid, resource, name FROM gc_namespace_dependents',
      )
      .toArray()
    return rows.filter((r) => !exists(r.resource, r.name, r.owner_uid)).map((r) => r.owner_uid)
  }

  namespaceGone(ns: string): void {
    this.sql.exec('DELETE FROM gc_namespace_dependents WHERE namespace = ?', ns)
    this.sql.exec('DELETE FROM gc_kind_waiters WHERE namespace = ?', ns)
  }

  /** `ns` keeps dependents for an owner kind nobody serves yet. */
  awaitKinds(ns: string): void {
    this.sql.exec('INSERT INTO gc_kind_waiters (namespace) VALUES (?) ON CONFLICT DO NOTHING', ns)
  }

  async kindsChanged(): Promise<void> {
    const waiting = this.sql
      .exec<{ namespace: string }>('SELECT namespace FROM gc_kind_waiters')
      .toArray()
      .map((r) => r.namespace)
    if (waiting.length === 0) return
    // Each namespace registers again if its owners' kinds are still not served.
    this.sql.exec('DELETE FROM gc_kind_waiters')
    await Promise.all(
      waiting.map((ns) =>
        this.calls.kindsChanged(ns).catch((e: unknown) => {
          console.error(`garbage collector: telling namespace ${ns} of new kinds failed`, e)
          this.awaitKinds(ns)
        }),
      ),
    )
  }

  private forget(uid: string, ns: string) {
    this.sql.exec('DELETE FROM gc_namespace_dependents WHERE owner_uid = ? AND namespace = ?', uid, ns)
  }
}

/** An owner deleted with the orphan finalizer: its dependents lose their references to it. */
const releasing = (owner: OwnerMeta) => !!owner.deletionTimestamp && (owner.finalizers ?? []).includes('orphan')
