// A Durable Object's own SQLite: the current objects of its scope, a label index, a bounded event history (for
// watches and list snapshots), creation tokens, the owner and attention indexes and its bookkeeping.
import type { KubeObject } from '../schema/meta'
import type { ChangeType, Stored } from '../registry/store'
import type { IndexHint, ListItem, ListSource, PastState } from '../registry/list'
import { pastStates, type LogEntry } from '../log/d1-log'
import { encodeStored as encode, materialize, storedText } from '../registry/stored-json'

// An ordinary rowid table: its rows are whole objects, too big for WITHOUT ROWID (which SQLite advises only for rows
// under about a twentieth of a page); the (resource, name) key is a unique index.
const objectsTable = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  resource TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, labels TEXT NOT NULL, object TEXT NOT NULL,
  PRIMARY KEY (resource, name)
);`

/** The layout below; an object whose `state` records an older one is upgraded when it starts (see upgrade()). */
const LAYOUT = '2'

const SCHEMA = `
${objectsTable('objects')}
CREATE TABLE IF NOT EXISTS labels (
  resource TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (resource, key, value, name)
) WITHOUT ROWID;
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
  owner_uid TEXT NOT NULL, owner_kind TEXT NOT NULL, owner_name TEXT NOT NULL, resource TEXT NOT NULL, name TEXT NOT NULL,
  PRIMARY KEY (owner_uid, resource, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS owner_refs_by_dependent ON owner_refs (resource, name);
CREATE TABLE IF NOT EXISTS creation_tokens (
  token TEXT PRIMARY KEY, resource TEXT NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL, at INTEGER NOT NULL
) WITHOUT ROWID;
`

type Row = Record<string, SqlStorageValue>

/** How long a creation token is remembered: the contract is "at least 24 hours". */
export const CREATION_TOKEN_TTL_MS = 25 * 60 * 60 * 1000

export class LocalStore {
  private appliedRv: number
  private floorRv: number
  private historyCount: number

  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
    private readonly historyRetain: number,
    /** Whether a controller still has work with an object: such objects are listed in `attention`. */
    private readonly attend: (resource: string, obj: KubeObject) => boolean = () => false,
  ) {
    const fresh = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'objects'").one().n === 0
    sql.exec(SCHEMA)
    if (fresh) this.setState('layout', LAYOUT)
    else if (this.getState('layout') !== LAYOUT) this.upgrade()
    this.appliedRv = Number(this.getState('applied_rv') ?? 0)
    this.floorRv = Number(this.getState('floor_rv') ?? 0)
    this.historyCount = Number(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM history').one().n)
  }

  /**
   * Brings tables written by an older kubeflare to the current layout. Layout 1 kept `objects` WITHOUT ROWID; its
   * rows move to a rowid table. (A new object is created at the current layout and never runs this.)
   */
  private upgrade() {
    this.storage.transactionSync(() => {
      this.sql.exec(objectsTable('objects_upgraded'))
      this.sql.exec('INSERT INTO objects_upgraded (resource, name, rv, labels, object) SELECT resource, name, rv, labels, object FROM objects')
      this.sql.exec('DROP TABLE objects')
      this.sql.exec('ALTER TABLE objects_upgraded RENAME TO objects')
      this.setState('layout', LAYOUT)
    })
  }

  /** The newest resourceVersion applied here: every change to this scope up to it is reflected. */
  get currentRv() {
    return this.appliedRv
  }

  /** Snapshots and watch replays from below this resourceVersion need the D1 log. */
  get historyFloor() {
    return this.floorRv
  }

  getState(key: string): string | undefined {
    const rows = this.sql.exec<{ value: string }>('SELECT value FROM state WHERE key = ?', key).toArray()
    return rows[0]?.value
  }

  setState(key: string, value: string | undefined) {
    if (value === undefined) this.sql.exec('DELETE FROM state WHERE key = ?', key)
    else this.sql.exec('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value)
  }

  get(resource: string, name: string): Stored | null {
    const row = this.sql
      .exec<{ rv: number; object: string }>('SELECT rv, object FROM objects WHERE resource = ? AND name = ?', resource, name)
      .toArray()[0]
    return row ? { rv: row.rv, object: materialize(row.object, row.rv) } : null
  }

  /** Every object of a resource, in name order. */
  all(resource: string): Stored[] {
    return this.sql
      .exec<{ rv: number; object: string }>('SELECT rv, object FROM objects WHERE resource = ? ORDER BY name', resource)
      .toArray()
      .map((r) => ({ rv: r.rv, object: materialize(r.object, r.rv) }))
  }

  /** Objects a controller still has work with (what a wake-up must look at; the rest are settled). */
  attending(resource: string): Stored[] {
    return this.sql
      .exec<{ rv: number; object: string }>(
        'SELECT o.rv, o.object FROM attention a JOIN objects o ON o.resource = a.resource AND o.name = a.name WHERE a.resource = ? ORDER BY a.name',
        resource,
      )
      .toArray()
      .map((r) => ({ rv: r.rv, object: materialize(r.object, r.rv) }))
  }

  /** Recomputes the attention list from every object (once, for state written before the list existed). */
  rebuildAttention() {
    this.storage.transactionSync(() => {
      this.sql.exec('DELETE FROM attention')
      for (const r of this.sql.exec<{ resource: string; name: string; rv: number; object: string }>('SELECT resource, name, rv, object FROM objects').toArray()) {
        if (this.attend(r.resource, materialize(r.object, r.rv))) {
          this.sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', r.resource, r.name)
        }
      }
    })
  }

  /** The objects naming `uid` in their ownerReferences (the garbage collector's index). */
  dependents(uid: string): { resource: string; name: string }[] {
    return this.sql.exec<{ resource: string; name: string }>('SELECT resource, name FROM owner_refs WHERE owner_uid = ?', uid).toArray()
  }

  /** Every owner some object here names (uid, kind, name): the garbage collector checks they still exist. */
  owners(): { uid: string; kind: string; name: string }[] {
    return this.sql
      .exec<{ uid: string; kind: string; name: string }>('SELECT DISTINCT owner_uid AS uid, owner_kind AS kind, owner_name AS name FROM owner_refs')
      .toArray()
  }

  exists(resource: string, name: string): boolean {
    return this.sql.exec('SELECT 1 FROM objects WHERE resource = ? AND name = ?', resource, name).toArray().length > 0
  }

  names(resource: string): string[] {
    return this.sql.exec<{ name: string }>('SELECT name FROM objects WHERE resource = ? ORDER BY name', resource).toArray().map((r) => r.name)
  }

  resources(): string[] {
    return this.sql.exec<{ resource: string }>('SELECT DISTINCT resource FROM objects').toArray().map((r) => r.resource)
  }

  /**
   * Applies committed changes (in rv order) atomically: objects, labels, history and the applied mark. Entries at
   * or below the applied mark are skipped, so applying the same commit twice (catch-up after a crash) is harmless.
   */
  apply(entries: readonly LogEntry[]) {
    this.storage.transactionSync(() => {
      for (const e of entries) {
        if (e.rv <= this.appliedRv) continue
        const { object: json, prev } = storedText(e)
        this.sql.exec(
          'INSERT INTO history (rv, resource, name, type, object, prev, prev_rv) VALUES (?, ?, ?, ?, ?, ?, ?)',
          e.rv,
          e.resource,
          e.name,
          e.type,
          json,
          prev,
          e.prevRv,
        )
        this.historyCount++
        // A create has no index rows to clear (each statement costs; creates are the hot path).
        if (e.type !== 'ADDED') {
          this.sql.exec('DELETE FROM labels WHERE resource = ? AND name = ?', e.resource, e.name)
          this.sql.exec('DELETE FROM owner_refs WHERE resource = ? AND name = ?', e.resource, e.name)
          this.sql.exec('DELETE FROM attention WHERE resource = ? AND name = ?', e.resource, e.name)
        }
        if (e.type !== 'DELETED' && this.attend(e.resource, e.object)) {
          this.sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', e.resource, e.name)
        }
        if (e.type !== 'DELETED') {
          for (const ref of e.object.metadata.ownerReferences ?? []) {
            this.sql.exec(
              'INSERT INTO owner_refs (owner_uid, owner_kind, owner_name, resource, name) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
              ref.uid,
              ref.kind,
              ref.name,
              e.resource,
              e.name,
            )
          }
        }
        if (e.type === 'DELETED') {
          this.sql.exec('DELETE FROM objects WHERE resource = ? AND name = ?', e.resource, e.name)
          this.sql.exec('DELETE FROM expiries WHERE resource = ? AND name = ?', e.resource, e.name)
        } else {
          const labels = (e.object.metadata.labels ?? {}) as Record<string, string>
          this.sql.exec(
            `INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (resource, name) DO UPDATE SET rv = excluded.rv, labels = excluded.labels, object = excluded.object`,
            e.resource,
            e.name,
            e.rv,
            JSON.stringify(labels),
            json,
          )
          for (const [k, v] of Object.entries(labels)) {
            this.sql.exec('INSERT INTO labels (resource, key, value, name) VALUES (?, ?, ?, ?)', e.resource, k, v, e.name)
          }
        }
        this.appliedRv = e.rv
      }
      this.setState('applied_rv', String(this.appliedRv))
      this.trimHistory()
    })
  }

  /** Replaces everything with a full copy (used when this object fell behind the compacted D1 log). */
  reset(objects: { resource: string; name: string; rv: number; object: KubeObject }[], atRv: number) {
    this.storage.transactionSync(() => {
      this.sql.exec('DELETE FROM objects; DELETE FROM labels; DELETE FROM history; DELETE FROM owner_refs; DELETE FROM attention;')
      for (const o of objects) {
        const labels = (o.object.metadata.labels ?? {}) as Record<string, string>
        this.sql.exec(
          'INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)',
          o.resource,
          o.name,
          o.rv,
          JSON.stringify(labels),
          encode(o.object),
        )
        for (const [k, v] of Object.entries(labels)) {
          this.sql.exec('INSERT INTO labels (resource, key, value, name) VALUES (?, ?, ?, ?)', o.resource, k, v, o.name)
        }
        for (const ref of o.object.metadata.ownerReferences ?? []) {
          this.sql.exec(
            'INSERT INTO owner_refs (owner_uid, owner_kind, owner_name, resource, name) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
            ref.uid,
            ref.kind,
            ref.name,
            o.resource,
            o.name,
          )
        }
        if (this.attend(o.resource, o.object)) {
          this.sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', o.resource, o.name)
        }
      }
      this.appliedRv = atRv
      this.floorRv = atRv
      this.historyCount = 0
      this.setState('applied_rv', String(atRv))
      this.setState('floor_rv', String(atRv))
    })
  }

  /** Records a learned resourceVersion with no change here (keeps list resourceVersions moving forward). */
  advance(rv: number) {
    if (rv <= this.appliedRv) return
    this.appliedRv = rv
    this.setState('applied_rv', String(rv))
  }

  private trimHistory() {
    const excess = this.historyCount - this.historyRetain
    if (excess <= 0) return
    const cut = this.sql
      .exec<{ rv: number }>('SELECT rv FROM history ORDER BY rv LIMIT 1 OFFSET ?', excess - 1)
      .toArray()[0]?.rv
    if (cut === undefined) return
    this.sql.exec('DELETE FROM history WHERE rv <= ?', cut)
    this.historyCount -= excess
    this.floorRv = Math.max(this.floorRv, cut)
    this.setState('floor_rv', String(this.floorRv))
  }

  /** Events after a resourceVersion from the local history, in order (callers check historyFloor first). */
  historySince(afterRv: number, limit = 1_000_000): LogEntry[] {
    return this.sql
      .exec<Row>('SELECT rv, resource, name, type, object, prev, prev_rv FROM history WHERE rv > ? ORDER BY rv LIMIT ?', afterRv, limit)
      .toArray()
      .map((r) => ({
        rv: r.rv as number,
        type: r.type as ChangeType,
        resource: r.resource as string,
        namespace: '',
        name: r.name as string,
        object: materialize(r.object as string, r.rv as number),
        prev: r.prev !== null && r.prev_rv !== null ? materialize(r.prev as string, r.prev_rv as number) : null,
        prevRv: r.prev_rv as number | null,
      }))
  }

  // Creation tokens (Idempotency-Key): which create a token produced, kept at least CREATION_TOKEN_TTL_MS.

  creationToken(token: string): { resource: string; name: string; uid: string } | null {
    return (
      this.sql
        .exec<{ resource: string; name: string; uid: string }>('SELECT resource, name, uid FROM creation_tokens WHERE token = ?', token)
        .toArray()[0] ?? null
    )
  }

  recordCreationToken(token: string, resource: string, name: string, uid: string, now: number) {
    this.sql.exec(
      'INSERT INTO creation_tokens (token, resource, name, uid, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (token) DO NOTHING',
      token,
      resource,
      name,
      uid,
      now,
    )
    this.sql.exec('DELETE FROM creation_tokens WHERE at < ?', now - CREATION_TOKEN_TTL_MS)
  }

  // Graceful deletions: when each object is due to be removed.
  setExpiry(resource: string, name: string, at: number) {
    this.sql.exec(
      'INSERT INTO expiries (resource, name, at) VALUES (?, ?, ?) ON CONFLICT (resource, name) DO UPDATE SET at = excluded.at',
      resource,
      name,
      at,
    )
  }

  dueExpiries(now: number): { resource: string; name: string }[] {
    return this.sql.exec<{ resource: string; name: string }>('SELECT resource, name FROM expiries WHERE at <= ?', now).toArray()
  }

  clearExpiry(resource: string, name: string) {
    this.sql.exec('DELETE FROM expiries WHERE resource = ? AND name = ?', resource, name)
  }

  nextExpiry(): number | null {
    const row = this.sql.exec<{ at: number | null }>('SELECT MIN(at) AS at FROM expiries').one()
    return row.at ?? null
  }

  /** A consistent-snapshot list source over one resource of this scope. */
  listSource(resource: string): ListSource {
    const sql = this.sql
    return {
      currentRv: this.appliedRv,
      floorRv: this.floorRv,
      isolated: true,
      async scan(after: string | null, n: number, hint: IndexHint | null): Promise<ListItem[]> {
        let rows: Row[]
        const a = after ?? ''
        if (hint && (hint.values === null || hint.values.length <= 50)) {
          const valueCond = hint.values === null ? '' : `AND l.value IN (${hint.values.map(() => '?').join(', ')})`
          rows = sql
            .exec<Row>(
              `SELECT o.name, o.rv, o.labels, o.object FROM labels l JOIN objects o ON o.resource = l.resource AND o.name = l.name
               WHERE l.resource = ? AND l.key = ? ${valueCond} AND l.name > ? ORDER BY l.name LIMIT ?`,
              resource,
              hint.key,
              ...(hint.values ?? []),
              a,
              n,
            )
            .toArray()
        } else {
          rows = sql
            .exec<Row>('SELECT name, rv, labels, object FROM objects WHERE resource = ? AND name > ? ORDER BY name LIMIT ?', resource, a, n)
            .toArray()
        }
        return rows.map((r) => ({
          key: r.name as string,
          rv: r.rv as number,
          labels: JSON.parse(r.labels as string) as Record<string, string>,
          load: () => materialize(r.object as string, r.rv as number),
        }))
      },
      async count(after: string | null): Promise<number> {
        return Number(
          sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM objects WHERE resource = ? AND name > ?', resource, after ?? '').one().n,
        )
      },
      async changedSince(rv: number, after: string | null): Promise<Map<string, PastState>> {
        const rows = sql
          .exec<Row>('SELECT name, type, prev, prev_rv FROM history WHERE resource = ? AND rv > ? ORDER BY rv', resource, rv)
          .toArray()
        return pastStates(
          rows.map((r) => ({ key: r.name as string, type: r.type as ChangeType, prev: r.prev as string | null, prevRv: r.prev_rv as number | null })),
          after,
        )
      },
    }
  }
}
