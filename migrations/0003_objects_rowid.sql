-- `objects` becomes an ordinary rowid table. Its rows hold whole objects (a pod is 1-2 KB of JSON): SQLite advises
-- WITHOUT ROWID only for rows under about a twentieth of a page, and with big rows every insert and lookup walks a
-- deeper, fuller tree. The (resource, ns, name) key stays, as a unique index. (The WITHOUT ROWID came from a design
-- that read last_insert_rowid(); commits now take the resourceVersion from RETURNING.)
-- The trigger that maintains the table is dropped first and created again unchanged, so that no step of the
-- rebuild meets a trigger naming a table that is momentarily gone.
DROP TRIGGER changes_index;
CREATE TABLE objects_rowid (
  resource TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  rv INTEGER NOT NULL,
  object TEXT NOT NULL,
  labels TEXT NOT NULL,
  PRIMARY KEY (resource, ns, name)
);
INSERT INTO objects_rowid (resource, ns, name, rv, object, labels) SELECT resource, ns, name, rv, object, labels FROM objects;
DROP TABLE objects;
ALTER TABLE objects_rowid RENAME TO objects;
CREATE TRIGGER changes_index AFTER INSERT ON changes
BEGIN
  DELETE FROM objects
    WHERE NEW.type = 'DELETED' AND resource = NEW.resource AND ns = NEW.ns AND name = NEW.name;
  INSERT INTO objects (resource, ns, name, rv, object, labels)
    SELECT NEW.resource, NEW.ns, NEW.name, NEW.rv, NEW.object, COALESCE(json_extract(NEW.object, '$.metadata.labels'), '{}')
    WHERE NEW.type <> 'DELETED'
    ON CONFLICT (resource, ns, name) DO UPDATE SET rv = excluded.rv, object = excluded.object, labels = excluded.labels;
  DELETE FROM labels
    WHERE resource = NEW.resource AND ns = NEW.ns AND name = NEW.name
      AND (NEW.type <> 'MODIFIED' OR json_extract(NEW.object, '$.metadata.labels') IS NOT json_extract(NEW.prev, '$.metadata.labels'));
  INSERT INTO labels (resource, key, value, ns, name)
    SELECT NEW.resource, j.key, j.value, NEW.ns, NEW.name FROM json_each(NEW.object, '$.metadata.labels') AS j
    WHERE NEW.type = 'ADDED'
      OR (NEW.type = 'MODIFIED' AND json_extract(NEW.object, '$.metadata.labels') IS NOT json_extract(NEW.prev, '$.metadata.labels'));
END;
