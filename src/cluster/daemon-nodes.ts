// The node list DaemonSets follow: namespace objects ask for it (which registers them), and when nodes come, go or
// change their labels or taints the cluster object tells every registered namespace (NamespaceApi.nodesChanged), as
// it tells namespaces with unschedulable pods that room may have appeared. A namespace without DaemonSets left
// unregisters. Node status changes (heartbeats, conditions) wake nobody: daemon placement does not read them.
import type { ObjectStore } from '../host/object-store'
import type { DaemonNode } from '../registry/daemon-placement'
import { deepEqual } from '../registry/deep-equal'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { namespaceApi } from '../namespace/namespace-api'

type Obj = Record<string, any>

const placementOf = (n: KubeObject | null) =>
  n ? { labels: n.metadata.labels ?? {}, taints: (n as Obj).spec?.taints ?? [] } : null

export class DaemonNodes {
  /** `sql`: the cluster object's, holding the registered namespaces (node_watchers, made by node-ledger-schema.ts). */
  constructor(
    private readonly sql: SqlStorage,
    private readonly local: ObjectStore,
    private readonly env: Env,
  ) {}

  /** The nodes as daemon placement sees them; `ns` is told of changes until it unregisters. */
  list(ns: string): DaemonNode[] {
    this.sql.exec('INSERT INTO node_watchers (ns) VALUES (?) ON CONFLICT (ns) DO NOTHING', ns)
    return this.local.all('nodes').map(({ object: n }) => ({
      name: n.metadata.name!,
      labels: (n.metadata.labels ?? {}) as Record<string, string>,
      taints: ((n as Obj).spec?.taints ?? []) as DaemonNode['taints'],
    }))
  }

  unwatch(ns: string) {
    this.sql.exec('DELETE FROM node_watchers WHERE ns = ?', ns)
  }

  /** After a commit: registered namespaces hear of nodes added, removed, relabelled or retainted. */
  afterApply(entries: readonly LogEntry[]) {
    const changed = entries.some(
      (e) =>
        e.resource === 'nodes' && (e.type !== 'MODIFIED' || !deepEqual(placementOf(e.prev), placementOf(e.object))),
    )
    if (!changed) return
    for (const { ns } of this.sql.exec<{ ns: string }>('SELECT ns FROM node_watchers').toArray()) {
      namespaceApi(this.env, ns)
        .nodesChanged()
        .catch((e: unknown) => console.error(`telling namespace ${ns} of node changes failed`, e))
    }
  }
}
