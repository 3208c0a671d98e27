// The ObjectStore of a Durable Object over its own SQLite: the current objects of its scope (table objects) and the
// applied mark, applying committed changes in one transaction together with their index rows (sql-object-indexes.ts)
// and their place in the bounded event history (sql-history.ts).
import type { KubeObject } from '../schema/meta'
import type { LogEntry, Stored } from '../registry/store'
import type { ListSource } from '../registry/list'
import { encodeStored as encode, materialize, storedText } from '../registry/stored-json'
import type { Attend, HostState, ObjectStore, OwnerRow } from './object-store'
import { sqlListSource } from './sql-list-source'
import { graphEdgesFrom } from './sql-graph-edges'
import { SqlHistory } from './sql-history'
import {
  attending,
  clearIndexes,
  dependents,
  indexAfresh,
  labelsOf,
  namesWithLabel,
  owners,
  attendedResources,
  rebuildAttention,
  reindex,
} from './sql-object-indexes'

export class SqlObjectStore implements ObjectStore {
  private appliedRv: number
  private readonly history: SqlHistory
  /**
   * Resources whose last `all()` found no rows and that no apply has touched since. Admission lists a few kinds on
   * every create (LimitRanges, ResourceQuotas) that most namespaces never have; this spares those queries. Only
   * emptiness is remembered (no objects are shared between callers), and a resource leaves the set before any
   * statement writes it, so a rolled-back transaction can only make the set smaller.
   */
  private readonly knownEmpty = new Set<string>()

  /** The tables must exist (prepareSqlSchema); `state` holds the applied mark and the history floor. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
    private readonly state: HostState,
    historyRetain: number,
    /** Whether a controller still has work with an object: such objects are listed in `attention`. */
    private readonly attend: Attend = () => false,
  ) {
    this.appliedRv = Number(state.get('applied_rv') ?? 0)
    this.history = new SqlHistory(sql, state, historyRetain)
  }

  /** The newest resourceVersion applied here: every change to this scope up to it is reflected. */
  get currentRv() {
    return this.appliedRv
  }

  /** Snapshots and watch replays from below this resourceVersion need the D1 log. */
  get historyFloor() {
    return this.history.floor
  }

  get(resource: string, name: string): Stored | null {
    const row = this.sql
      .exec<{ rv: number; object: string }>(
        'SELECT rv, object FROM objects WHERE resource = ? AND name = ?',
        resource,
        name,
      )
      .toArray()[0]
    return row ? { rv: row.rv, object: materialize(row.object, row.rv), text: row.object } : null
  }

  /** Every object of a resource, in name order. */
  all(resource: string): Stored[] {
    if (this.knownEmpty.has(resource)) return []
    const rows = this.sql
      .exec<{ rv: number; object: string }>('SELECT rv, object FROM objects WHERE resource = ? ORDER BY name', resource)
      .toArray()
    if (rows.length === 0) this.knownEmpty.add(resource)
    return rows.map((r) => ({ rv: r.rv, object: materialize(r.object, r.rv) }))
  }

  labelsOf(resource: string): { name: string; labels: Record<string, string> }[] {
    return this.sql
      .exec<{ name: string; labels: string }>(
        'SELECT name, labels FROM objects WHERE resource = ? ORDER BY name',
        resource,
      )
      .toArray()
      .map((r) => ({ name: r.name, labels: JSON.parse(r.labels) as Record<string, string> }))
  }

  namesWithLabel(resource: string, key: string, value: string): string[] {
    return namesWithLabel(this.sql, resource, key, value)
  }

  /** Objects a controller still has work with (what a wake-up must look at; the rest are settled). */
  attending(resource: string): Stored[] {
    return attending(this.sql, resource)
  }

  /** Recomputes the attention list from every object (once, for state written before the list existed). */
  rebuildAttention() {
    this.storage.transactionSync(() => rebuildAttention(this.sql, this.attend))
  }

  /** The objects naming `uid` in their ownerReferences (the garbage collector's index). */
  dependents(uid: string): { resource: string; name: string }[] {
    return dependents(this.sql, uid)
  }

  /** Every owner some object here names (uid, apiVersion, kind, name): the garbage collector checks they exist. */
  owners(): OwnerRow[] {
    return owners(this.sql)
  }

  /** The resources with objects on the attention list (a wake-up's walk, whatever kinds this isolate knows). */
  attendedResources(): string[] {
    return attendedResources(this.sql)
  }

  graphEdgesFrom(type: string, namespace: string, name: string, node?: string) {
    return graphEdgesFrom(this.sql, type, namespace, name, node)
  }

  exists(resource: string, name: string): boolean {
    return this.sql.exec('SELECT 1 FROM objects WHERE resource = ? AND name = ?', resource, name).toArray().length > 0
  }

  names(resource: string): string[] {
    return this.sql
      .exec<{ name: string }>('SELECT name FROM objects WHERE resource = ? ORDER BY name', resource)
      .toArray()
      .map((r) => r.name)
  }

  resources(): string[] {
    return this.sql
      .exec<{ resource: string }>('SELECT DISTINCT resource FROM objects')
      .toArray()
      .map((r) => r.resource)
  }

  /**
   * Applies committed changes (in rv order) atomically: objects, index rows, history and the applied mark. Entries
   * at or below the applied mark are skipped, so applying the same commit twice (catch-up after a crash) is harmless.
   */
  apply(entries: readonly LogEntry[]) {
    this.storage.transactionSync(() => {
      for (const e of entries) {
        if (e.rv <= this.appliedRv) continue
        this.knownEmpty.delete(e.resource)
        const { object: json, prev } = storedText(e)
        this.history.append(e, json, prev)
        reindex(this.sql, e, this.attend)
        if (e.type === 'DELETED') {
          this.sql.exec('DELETE FROM objects WHERE resource = ? AND name = ?', e.resource, e.name)
        } else {
          this.sql.exec(
            `INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (resource, name) DO UPDATE SET rv = excluded.rv, labels = excluded.labels, object = excluded.object`,
            e.resource,
            e.name,
            e.rv,
            JSON.stringify(labelsOf(e.object)),
            json,
          )
        }
        this.appliedRv = e.rv
      }
      this.state.set('applied_rv', String(this.appliedRv))
      this.history.trim()
    })
  }

  /** Replaces everything with a full copy (used when this object fell behind the compacted D1 log). */
  reset(objects: { resource: string; name: string; rv: number; object: KubeObject }[], atRv: number) {
    this.knownEmpty.clear()
    this.storage.transactionSync(() => {
      this.sql.exec('DELETE FROM objects')
      clearIndexes(this.sql)
      this.history.restart(atRv)
      for (const o of objects) {
        this.sql.exec(
          'INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)',
          o.resource,
          o.name,
          o.rv,
          JSON.stringify(labelsOf(o.object)),
          encode(o.object, o.resource),
        )
        indexAfresh(this.sql, o, this.attend)
      }
      this.appliedRv = atRv
      this.state.set('applied_rv', String(atRv))
    })
  }

  /** Records a learned resourceVersion with no change here (keeps list resourceVersions moving forward). */
  advance(rv: number) {
    if (rv <= this.appliedRv) return
    this.appliedRv = rv
    this.state.set('applied_rv', String(rv))
  }

  /** Events after a resourceVersion from the local history, in order (callers check historyFloor first). */
  historySince(afterRv: number, limit = 1_000_000): LogEntry[] {
    return this.history.since(afterRv, limit)
  }

  /** A consistent-snapshot list source over one resource of this scope. */
  listSource(resource: string): ListSource {
    return sqlListSource(this.sql, resource, this.appliedRv, this.history.floor)
  }
}
