// The node ledger's tables (node-ledger.ts), and the columns later versions added to a table an older one made: each
// is added in place on open, with the value older rows must read.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS pod_bindings (
  pod_key TEXT PRIMARY KEY, ns TEXT NOT NULL, node TEXT NOT NULL,
  cpu_milli INTEGER NOT NULL, mem_bytes INTEGER NOT NULL, pod_ip TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS pod_bindings_by_node ON pod_bindings (node);
CREATE INDEX IF NOT EXISTS pod_bindings_by_ns ON pod_bindings (ns);
CREATE UNIQUE INDEX IF NOT EXISTS pod_bindings_by_ip ON pod_bindings (pod_ip) WHERE pod_ip IS NOT NULL;
CREATE TABLE IF NOT EXISTS ended_pods (pod_key TEXT PRIMARY KEY, ns TEXT NOT NULL, node TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ended_pods_by_node ON ended_pods (node);
CREATE TABLE IF NOT EXISTS waiting_namespaces (ns TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS waiting_for_pods (ns TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS node_watchers (ns TEXT PRIMARY KEY) WITHOUT ROWID;
`

/** Columns pod_bindings gained, in order, with their definition. */
const ADDED_COLUMNS: [name: string, definition: string][] = [
  // The host ports a pod holds (JSON), for the NodePorts filter; NULL: none.
  ['host_ports', 'TEXT'],
  // 1 for the scheduler's placements and every older row, 0 for a binding made elsewhere until its kubelet admits it.
  ['admitted', 'INTEGER NOT NULL DEFAULT 1'],
  // ephemeral-storage and extended resources the pod reserves (JSON); NULL: none.
  ['other_requests', 'TEXT'],
  // The pod's labels and its pod affinity and anti-affinity (JSON), for InterPodAffinity; NULL: none. Rows older than
  // the column read '?' (not known yet): the pod's namespace describes them on its first resync (describePod).
  ['labels', "TEXT DEFAULT '?'"],
  ['pod_affinity', 'TEXT'],
  // 1 once the pod has a deletionTimestamp: PodTopologySpread counts no terminating pod (kube's #87621).
  ['terminating', 'INTEGER NOT NULL DEFAULT 0'],
  // The pod's cpu and memory with kube's defaults for containers that name none (NodeResourcesFit's score). Rows older
  // than the columns read NULL: their requests count, or the defaults where those are 0 (per pod, not per container).
  ['nonzero_cpu_milli', 'INTEGER'],
  ['nonzero_mem_bytes', 'INTEGER'],
]

/** Makes the ledger's tables, adding the columns an older table lacks. */
export function openLedgerTables(sql: SqlStorage) {
  sql.exec(SCHEMA)
  const table = sql
    .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'pod_bindings'")
    .toArray()[0]!.sql
  for (const [name, definition] of ADDED_COLUMNS)
    if (!table.includes(name)) sql.exec(`ALTER TABLE pod_bindings ADD COLUMN ${name} ${definition}`)
}
