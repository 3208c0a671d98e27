// The namespaces whose pods wait to be scheduled, and what could let them in: any freed room or node change wakes
// every one (`waiting_namespaces`); a pod being bound or relabelled wakes only those whose pods were refused by pod
// (anti-)affinity or topology spread (`waiting_for_pods`), as kube's queueing hints requeue a pod on an assigned pod's
// add or update only for the plugins that care. Waking takes a namespace off the list; a pod still refused puts it
// back. The rows live in the cluster object's SQLite (the tables are node-ledger-schema.ts's).
export class WaitingNamespaces {
  /** Whether waiting_for_pods may have rows (so a bind of a pod nobody waits for reads nothing). */
  private forPods: boolean | null = null

  constructor(private readonly sql: SqlStorage) {}

  /** A pod of `ns` fits nowhere; `onPods`: it was refused by other pods' presence or labels. */
  add(ns: string, onPods: boolean) {
    this.sql.exec('INSERT INTO waiting_namespaces (ns) VALUES (?) ON CONFLICT (ns) DO NOTHING', ns)
    if (!onPods) return
    this.sql.exec('INSERT INTO waiting_for_pods (ns) VALUES (?) ON CONFLICT (ns) DO NOTHING', ns)
    this.forPods = true
  }

  /** Every waiting namespace (both lists are cleared). */
  takeAll(): string[] {
    this.sql.exec('DELETE FROM waiting_for_pods')
    this.forPods = false
    return this.taken('waiting_namespaces')
  }

  /** The namespaces waiting on other pods (taken off both lists). */
  takeForPods(): string[] {
    if (this.forPods === false) return []
    const rows = this.taken('waiting_for_pods')
    this.forPods = false
    for (const ns of rows) this.sql.exec('DELETE FROM waiting_namespaces WHERE ns = ?', ns)
    return rows
  }

  private taken(table: 'waiting_namespaces' | 'waiting_for_pods'): string[] {
    const rows = this.sql
      .exec<{ ns: string }>(`SELECT ns FROM ${table}`)
      .toArray()
      .map((r) => r.ns)
    this.sql.exec(`DELETE FROM ${table}`)
    return rows
  }
}
