// The tables of a Durable Object's own SQLite (src/host/sql-object-store.ts, sql-host-records.ts), and bringing an
// older object's tables to the current layout when it starts.
import { rebuildGraphEdges } from './sql-graph-edges'
import { rebuildOwnerRefs } from './sql-object-indexes'

// An ordinary rowid table: its rows are whole objects, too big for WITHOUT ROWID (which SQLite advises only for rows
// under about a twentieth of a page); the (resource, name) key is a unique index.
const objectsTable = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  resource TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, labels TEXT NOT NULL, object TEXT NOT NULL,
  PRIMARY KEY (resource, name)
);`

/** The layout below; an object whose `state` records an older one is upgraded when it starts (see upgrade()). */
const LAYOUT = '4'

const SCHEMA = `
${objectsTable('objects')}
CREATE TABLE IF NOT EXISTS labels (
  resource TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (resource, key, value, name)
) WITHOUT ROWID;
-- An object's label rows, found without scanning every label of its resource (a delete, a relabel).
CREATE INDEX IF NOT EXISTS labels_by_object ON labels (resource, name);
CREATE TABLE IF NOT EXISTS history (
  rv INTEGER PRIMARY KEY, resource TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
  object TEXT NOT NULL, prev TEXT, prev_rv INTEGER
);
CREATE INDEX IF NOT EXISTS history_by_resource ON history (resource, rv);
CREATE TABLE IF NOT EXISTS expiries (
  resource TEXT NOT NULL, name TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (resource, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS attention (resource TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (resource, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS owner_refs (
  owner_uid TEXT NOT NULL, owner_api_version TEXT NOT NULL DEFAULT '', owner_kind TEXT NOT NULL, owner_name TEXT NOT NULL,
  resource TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (owner_uid, resource, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS owner_refs_by_dependent ON owner_refs (resource, name);
-- The Node authorizer's graph (src/registry/node-graph/graph-edges.ts): an edge from (type, ref_namespace, ref_name)
-- to the object (resource, name), bound to \`node\`; looked up by what the edge leaves, dropped by the object holding it.
CREATE TABLE IF NOT EXISTS graph_edges (
  type TEXT NOT NULL, ref_namespace TEXT NOT NULL, ref_name TEXT NOT NULL, node TEXT NOT NULL,
  resource TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (type, ref_namespace, ref_name, node, resource, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS graph_edges_by_object ON graph_edges (resource, name);
CREATE TABLE IF NOT EXISTS creation_tokens (
  token TEXT PRIMARY KEY, resource TEXT NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL, at INTEGER NOT NULL
) WITHOUT ROWID;
`

const stateOf = (sql: SqlStorage, key: string) =>
  sql.exec<{ value: string }>('SELECT value FROM state WHERE key = ?', key).toArray()[0]?.value
const setLayout = (sql: SqlStorage) =>
  sql.exec(
    "INSERT INTO state (key, value) VALUES ('layout', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    LAYOUT,
  )

/** Creates the tables of a new object at the current layout, or upgrades an older object's. */
export function prepareSqlSchema(sql: SqlStorage, storage: DurableObjectStorage) {
  const fresh =
    sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'objects'").one()
      .n === 0
  sql.exec(SCHEMA)
  if (fresh) setLayout(sql)
  else if (stateOf(sql, 'layout') !== LAYOUT) upgrade(sql, storage)
}

/**
 * Brings tables written by an older kubeflare to the current layout. Layout 1 kept `objects` WITHOUT ROWID; its rows
 * move to a rowid table. Layout 3 added the Node authorizer's graph edges: the objects already stored get theirs.
 * Layout 4 added the owner's apiVersion to owner rows (the garbage collector resolves owners by group and kind).
 * (A new object is created at the current layout and never runs this.)
 */
function upgrade(sql: SqlStorage, storage: DurableObjectStorage) {
  const layout = stateOf(sql, 'layout')
  storage.transactionSync(() => {
    if (layout !== '2' && layout !== '3') {
      sql.exec(objectsTable('objects_upgraded'))
      sql.exec(
        'INSERT INTO objects_upgraded (resource, name, rv, labels, object) SELECT resource, name, rv, labels, object FROM objects',
      )
      sql.exec('DROP TABLE objects')
      sql.exec('ALTER TABLE objects_upgraded RENAME TO objects')
    }
    if (layout !== '3') rebuildGraphEdges(sql)
    const ownerColumns = sql.exec<{ name: string }>('PRAGMA table_info(owner_refs)').toArray()
    if (!ownerColumns.some((c) => c.name === 'owner_api_version')) {
      sql.exec("ALTER TABLE owner_refs ADD COLUMN owner_api_version TEXT NOT NULL DEFAULT ''")
    }
    rebuildOwnerRefs(sql)
    setLayout(sql)
  })
}
