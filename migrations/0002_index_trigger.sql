-- The object and label index follow the change log inside SQLite: one trigger per appended change keeps `objects`
-- (current state) and `labels` (cross-namespace label index) in step, in the same transaction as the append. A
-- commit then sends one statement per change instead of three, and the index can never disagree with the log.
-- The labels are rewritten only when they changed (or the object is new or gone).
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
