// The only module that speaks SQL to D1: the change log (whose autoincrement id is the resourceVersion), the
// current-object index with its label index, compaction, and the cluster-wide list source.
import type { Change, LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { pastStates, type IndexHint, type ListItem, type ListSource, type PastState } from '../registry/list'
import { materialize, storedText } from '../registry/stored-json'

interface ChangeRow {
  rv: number
  resource: string
  ns: string
  name: string
  type: Change['type']
  object: string
  prev: string | null
  prev_rv: number | null
}

interface ObjectRow {
  ns: string
  name: string
  rv: number
  labels: string
  object: string
}

/** The D1 key order (namespace, name) as one string that sorts the same way: NUL sorts below every name byte. */
const clusterKey = (ns: string, name: string) => `${ns}\u0000${name}`
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('\u0000')
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)]
}

/** One appended change per row of a JSON array: [resource, ns, name, type, object, prev, prev_rv]. */
const APPEND_ROWS = `INSERT INTO changes (resource, ns, name, type, object, prev, prev_rv, ts)
  SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, ?2
  FROM json_each(?1) AS j ORDER BY j.key RETURNING rv`
const APPEND_ONE =
  'INSERT INTO changes (resource, ns, name, type, object, prev, prev_rv, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING rv'

/**
 * How many characters of stored JSON one appended-rows parameter carries. D1 caps a bound value at 2 MB; at up to
 * 3 UTF-8 bytes a character, plus the escapes an object's JSON gains inside the array, 500,000 stays under it. A
 * change bigger than that goes as its own statement, as it always could.
 */
const COMMIT_CHUNK_CHARS = 500_000

export class D1Log {
  constructor(
    private readonly db: D1Database,
    private readonly chunkChars = COMMIT_CHUNK_CHARS,
    /** Told the size of every group commit (kubeflare_d1_commit_batch_size). */
    private readonly onCommit?: (size: number) => void,
  ) {}

  /**
   * Appends the changes in order, all in one D1 batch (one transaction); the `changes_index` trigger (migration
   * 0002) keeps the object and label index in step inside the same transaction. Returns each change's
   * resourceVersion. Either everything commits or nothing does.
   *
   * The changes travel as few statements as possible: a group commit's changes share one INSERT ... SELECT over a
   * JSON array, because each statement costs D1 far more than the bytes it carries.
   */
  async commit(changes: readonly Change[], now: number): Promise<number[]> {
    if (changes.length === 0) return []
    this.onCommit?.(changes.length)
    const statements: D1PreparedStatement[] = []
    let rows: string[] = []
    let chars = 0
    const flush = () => {
      if (rows.length > 0) statements.push(this.db.prepare(APPEND_ROWS).bind(`[${rows.join(',')}]`, now))
      rows = []
      chars = 0
    }
    for (const c of changes) {
      const text = storedText(c)
      const size = text.object.length + (text.prev?.length ?? 0)
      if (size > this.chunkChars) {
        flush()
        statements.push(
          this.db
            .prepare(APPEND_ONE)
            .bind(c.resource, c.namespace, c.name, c.type, text.object, text.prev, c.prevRv, now),
        )
        continue
      }
      if (chars + size > this.chunkChars) flush()
      rows.push(JSON.stringify([c.resource, c.namespace, c.name, c.type, text.object, text.prev, c.prevRv]))
      chars += size
    }
    flush()
    const results = await this.db.batch<{ rv: number }>(statements)
    // RETURNING rows come in no promised order, but rv grows with insertion order, which follows the array's.
    const rvs = results.flatMap((r) => r.results.map((row) => row.rv).sort((x, y) => x - y))
    // Never hand out resourceVersions that might belong to other changes; the write queue then asks the log.
    if (rvs.length !== changes.length)
      throw new Error(`D1 returned ${rvs.length} resourceVersions for ${changes.length} changes`)
    return rvs
  }

  /** The newest committed resourceVersion, cluster-wide. */
  async currentRv(): Promise<number> {
    const row = await this.db
      .prepare('SELECT COALESCE((SELECT MAX(rv) FROM changes), (SELECT compacted FROM log_meta WHERE id = 1), 0) AS rv')
      .first<{ rv: number }>()
    return row?.rv ?? 0
  }

  /** History at or below this resourceVersion has been compacted away. */
  async compactedRv(): Promise<number> {
    const row = await this.db.prepare('SELECT compacted FROM log_meta WHERE id = 1').first<{ compacted: number }>()
    return row?.compacted ?? 0
  }

  /** Changes to one namespace ('' = cluster-scoped objects) after a resourceVersion, in order. */
  async changesFor(ns: string, afterRv: number, limit: number): Promise<LogEntry[]> {
    const { results } = await this.db
      .prepare(
        'SELECT rv, resource, ns, name, type, object, prev, prev_rv FROM changes WHERE ns = ? AND rv > ? ORDER BY rv LIMIT ?',
      )
      .bind(ns, afterRv, limit)
      .all<ChangeRow>()
    return results.map(toEntry)
  }

  /** Changes of one resource across all namespaces after a resourceVersion, in order. */
  async changesOf(resource: string, afterRv: number, limit: number): Promise<LogEntry[]> {
    const { results } = await this.db
      .prepare(
        'SELECT rv, resource, ns, name, type, object, prev, prev_rv FROM changes WHERE resource = ? AND rv > ? ORDER BY rv LIMIT ?',
      )
      .bind(resource, afterRv, limit)
      .all<ChangeRow>()
    return results.map(toEntry)
  }

  /**
   * Every change after a resourceVersion, across the cluster, in order (the watch hub's feed), each with when its
   * commit began (the hub times its deliveries from it).
   */
  async changesAfter(afterRv: number, limit: number): Promise<(LogEntry & { committedAt: number })[]> {
    const { results } = await this.db
      .prepare(
        'SELECT rv, resource, ns, name, type, object, prev, prev_rv, ts FROM changes WHERE rv > ? ORDER BY rv LIMIT ?',
      )
      .bind(afterRv, limit)
      .all<ChangeRow & { ts: number }>()
    return results.map((r) => ({ ...toEntry(r), committedAt: r.ts }))
  }

  /** Every current object of a namespace: rebuilds a Durable Object whose history fell behind compaction. */
  async objectsIn(ns: string): Promise<{ resource: string; name: string; rv: number; object: KubeObject }[]> {
    const { results } = await this.db
      .prepare('SELECT resource, name, rv, object FROM objects WHERE ns = ?')
      .bind(ns)
      .all<{ resource: string; name: string; rv: number; object: string }>()
    return results.map((r) => ({ resource: r.resource, name: r.name, rv: r.rv, object: materialize(r.object, r.rv) }))
  }

  /** Every current object of one resource across the cluster (the service allocators' repair pass reads services). */
  async objectsOf(resource: string): Promise<{ ns: string; name: string; object: KubeObject }[]> {
    const { results } = await this.db
      .prepare('SELECT ns, name, rv, object FROM objects WHERE resource = ?')
      .bind(resource)
      .all<{ ns: string; name: string; rv: number; object: string }>()
    return results.map((r) => ({ ns: r.ns, name: r.name, object: materialize(r.object, r.rv) }))
  }

  /**
   * Drops change-log entries so that at most `retain` remain behind the newest, at most `step` per call (small
   * deletes keep each D1 call short). Returns the new compaction floor.
   */
  async compact(retain: number, step = 2000): Promise<number> {
    const current = await this.currentRv()
    const floor = await this.compactedRv()
    const target = Math.min(current - retain, floor + step)
    if (target <= floor) return floor
    await this.db.batch([
      this.db.prepare('DELETE FROM changes WHERE rv <= ?').bind(target),
      this.db.prepare('UPDATE log_meta SET compacted = MAX(compacted, ?) WHERE id = 1').bind(target),
    ])
    return target
  }

  /** The namespaces holding objects of a resource (a CustomResourceDefinition's cleanup deletes in each). */
  async namespacesOf(resource: string): Promise<string[]> {
    const { results } = await this.db
      .prepare('SELECT DISTINCT ns FROM objects WHERE resource = ? ORDER BY ns')
      .bind(resource)
      .all<{ ns: string }>()
    return results.map((r) => r.ns)
  }

  /** A consistent-snapshot list source over one resource across all namespaces. */
  async listSource(resource: string): Promise<ListSource> {
    const row = await this.db
      .prepare(
        `SELECT COALESCE((SELECT MAX(rv) FROM changes), (SELECT compacted FROM log_meta WHERE id = 1), 0) AS current,
                (SELECT compacted FROM log_meta WHERE id = 1) AS floor`,
      )
      .first<{ current: number; floor: number }>()
    const db = this.db
    return {
      currentRv: row?.current ?? 0,
      floorRv: row?.floor ?? 0,
      async scan(after: string | null, n: number, hint: IndexHint | null): Promise<ListItem[]> {
        const [ans, aname] = after === null ? ['', ''] : splitKey(after)
        const cmp = after === null ? '' : 'AND (o.ns, o.name) > (?, ?)'
        const afterBinds = after === null ? [] : [ans, aname]
        let stmt: D1PreparedStatement
        if (hint && (hint.values === null || hint.values.length <= 50)) {
          const valueCond = hint.values === null ? '' : `AND l.value IN (${hint.values.map(() => '?').join(', ')})`
          stmt = db
            .prepare(
              `SELECT o.ns, o.name, o.rv, o.labels, o.object FROM labels l
               JOIN objects o ON o.resource = l.resource AND o.ns = l.ns AND o.name = l.name
               WHERE l.resource = ? AND l.key = ? ${valueCond} ${cmp.replace(/o\./g, 'l.')}
               ORDER BY l.ns, l.name LIMIT ?`,
            )
            .bind(resource, hint.key, ...(hint.values ?? []), ...afterBinds, n)
        } else {
          stmt = db
            .prepare(
              `SELECT o.ns, o.name, o.rv, o.labels, o.object FROM objects o WHERE o.resource = ? ${cmp} ORDER BY o.ns, o.name LIMIT ?`,
            )
            .bind(resource, ...afterBinds, n)
        }
        const { results } = await stmt.all<ObjectRow>()
        return results.map((r) => ({
          key: clusterKey(r.ns, r.name),
          rv: r.rv,
          labels: JSON.parse(r.labels) as Record<string, string>,
          load: () => materialize(r.object, r.rv),
        }))
      },
      async count(after: string | null): Promise<number> {
        const [ans, aname] = after === null ? ['', ''] : splitKey(after)
        const row =
          after === null
            ? await db
                .prepare('SELECT COUNT(*) AS n FROM objects WHERE resource = ?')
                .bind(resource)
                .first<{ n: number }>()
            : await db
                .prepare('SELECT COUNT(*) AS n FROM objects WHERE resource = ? AND (ns, name) > (?, ?)')
                .bind(resource, ans, aname)
                .first<{ n: number }>()
        return row?.n ?? 0
      },
      async changedSince(rv: number, after: string | null): Promise<Map<string, PastState>> {
        const { results } = await db
          .prepare('SELECT ns, name, type, prev, prev_rv FROM changes WHERE resource = ? AND rv > ? ORDER BY rv')
          .bind(resource, rv)
          .all<{ ns: string; name: string; type: Change['type']; prev: string | null; prev_rv: number | null }>()
        return pastStates(
          results.map((r) => ({ key: clusterKey(r.ns, r.name), type: r.type, prev: r.prev, prevRv: r.prev_rv })),
          after,
        )
      },
    }
  }
}

function toEntry(r: ChangeRow): LogEntry {
  return {
    rv: r.rv,
    type: r.type,
    resource: r.resource,
    namespace: r.ns,
    name: r.name,
    object: materialize(r.object, r.rv),
    prev: r.prev !== null && r.prev_rv !== null ? materialize(r.prev, r.prev_rv) : null,
    // The row holds exactly what storedText would encode, so a catch-up apply need not encode it again.
    text: { object: r.object, prev: r.prev !== null && r.prev_rv !== null ? r.prev : null },
    prevRv: r.prev_rv,
  }
}
