-- Metrics (src/log/metrics-store.ts): what isolates and Durable Objects flush, summed by /metrics at scrape time.
-- source '' holds counters (and histogram buckets, sums and counts): each flush adds its deltas to them. Any other
-- source is one isolate or Durable Object, and its rows are its gauges as of its last flush; an isolate's carry an
-- expiry (it may die without a word), a Durable Object's none (they stay true while it hibernates).
-- labels is the JSON array of label values in the family's label order.
CREATE TABLE metric_values (
  source TEXT NOT NULL,
  name TEXT NOT NULL,
  labels TEXT NOT NULL,
  value REAL NOT NULL,
  expires INTEGER,
  PRIMARY KEY (source, name, labels)
);
CREATE INDEX metric_values_by_expiry ON metric_values (expires) WHERE expires IS NOT NULL;

-- A flush is one statement. Its gauges start with a marker row (name '') that removes the source's previous gauges
-- (a gauge that went away must not linger) and is itself not stored.
CREATE TRIGGER metric_values_reset BEFORE INSERT ON metric_values WHEN NEW.name = '' AND NEW.source <> ''
BEGIN
  DELETE FROM metric_values WHERE source = NEW.source;
  SELECT RAISE(IGNORE);
END;
