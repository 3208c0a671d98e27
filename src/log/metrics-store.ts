// The metrics table in D1 (migration 0004): each source's flush as one statement (counter deltas added up, the
// source's gauges replaced), and the scrape's read: every series summed across sources, expired isolate gauges
// dropped, and the stored objects counted per resource from the objects table.
import type { MetricRow } from '../metrics/metric-deltas'
import type { SeriesValue } from '../metrics/exposition'

/**
 * One flush: the rows of a JSON array, in order. Counters (source '') add to what is stored; gauge rows replace
 * (the `metric_values_reset` trigger turns the marker row that precedes them into a delete of the source's rows).
 */
const FLUSH = `INSERT INTO metric_values (source, name, labels, value, expires)
  SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4
  FROM json_each(?1) AS j WHERE true ORDER BY j.key
  ON CONFLICT (source, name, labels) DO UPDATE SET
    value = CASE WHEN excluded.source = '' THEN value + excluded.value ELSE excluded.value END,
    expires = excluded.expires`

/** D1 caps a bound value at 2 MB; a flush bigger than this (never, in practice) goes as several statements. */
const CHUNK_CHARS = 500_000

export class MetricsStore {
  constructor(private readonly db: D1Database) {}

  /** Writes one source's flush. */
  async write(rows: readonly MetricRow[]): Promise<void> {
    const chunks: string[] = []
    let current: string[] = []
    let chars = 0
    for (const row of rows) {
      const text = JSON.stringify(row)
      // A gauge marker starts a source's rows: never split it from the gauges it clears for.
      if (chars + text.length > CHUNK_CHARS && current.length > 0 && row[1] !== '') {
        chunks.push(`[${current.join(',')}]`)
        current = []
        chars = 0
      }
      current.push(text)
      chars += text.length
    }
    if (current.length > 0) chunks.push(`[${current.join(',')}]`)
    if (chunks.length === 1) await this.db.prepare(FLUSH).bind(chunks[0]).run()
    else if (chunks.length > 1) await this.db.batch(chunks.map((c) => this.db.prepare(FLUSH).bind(c)))
  }

  /**
   * Everything /metrics shows, read in one batch: isolate gauges past their expiry are deleted first, then the
   * series are summed across sources, and the live objects counted per resource (the change log's index).
   */
  async scrape(now: number): Promise<{ series: SeriesValue[]; objects: { resource: string; count: number }[] }> {
    const [, series, objects] = await this.db.batch([
      this.db.prepare('DELETE FROM metric_values WHERE expires IS NOT NULL AND expires <= ?').bind(now),
      this.db
        .prepare('SELECT name, labels, SUM(value) AS value FROM metric_values WHERE name <> ? GROUP BY name, labels')
        .bind(''),
      this.db.prepare('SELECT resource, COUNT(*) AS count FROM objects GROUP BY resource'),
    ])
    return {
      series: (series!.results as SeriesValue[]) ?? [],
      objects: (objects!.results as { resource: string; count: number }[]) ?? [],
    }
  }
}
