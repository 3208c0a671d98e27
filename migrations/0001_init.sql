-- The change log: every committed write, in commit order. rv is the cluster-wide resourceVersion.
-- object holds the state after the change (the final state for DELETED), prev the state before it (NULL for ADDED)
-- and prev_rv the resourceVersion prev had;
-- neither carries metadata.resourceVersion: readers set it from rv.
CREATE TABLE changes (
  rv INTEGER PRIMARY KEY AUTOINCREMENT,
  resource TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  object TEXT NOT NULL,
  prev TEXT,
  prev_rv INTEGER,
  ts INTEGER NOT NULL
);
CREATE INDEX changes_by_ns ON changes (ns, rv);
CREATE INDEX changes_by_resource ON changes (resource, rv);

-- Current state: one row per live object. WITHOUT ROWID so that inserts here leave last_insert_rowid() alone.
CREATE TABLE objects (
  resource TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  rv INTEGER NOT NULL,
  object TEXT NOT NULL,
  labels TEXT NOT NULL,
  PRIMARY KEY (resource, ns, name)
) WITHOUT ROWID;

-- Label index for cross-namespace label queries.
CREATE TABLE labels (
  resource TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (resource, key, value, ns, name)
) WITHOUT ROWID;
CREATE INDEX labels_by_object ON labels (resource, ns, name);

-- Log bookkeeping: compacted = the highest rv removed by compaction (history below it answers 410 Expired).
CREATE TABLE log_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  compacted INTEGER NOT NULL
);
INSERT INTO log_meta (id, compacted) VALUES (1, 0);
