// The ObjectStore of a Durable Object over its own SQLite: the current objects of its scope, a label index, a bounded
// event history (for watches and list snapshots), the owner and attention indexes and the applied mark.
import type { KubeObject } from '../schema/meta'
import type { ChangeType, LogEntry, Stored } from '../registry/store'
import type { ListSource } from '../registry/list'
import { encodeStored as encode, materialize, storedText } from '../registry/stored-json'
import type { Attend, HostState, ObjectStore } from './object-store'
import { sqlListSource } from './sql-list-source'
import { graphEdgesChanged, graphEdgesOf, GRAPH_RESOURCES } from '../registry/node-graph/graph-edges'
import { graphEdgesFrom, writeGraphEdges } from './sql-graph-edges'

type Row = Record<string, SqlStorageValue>

/** Two label maps or owner lists with the same content (keys in the same order, as a rewrite of one keeps them). */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

export class SqlObjectStore implements ObjectStore {
  private appliedRv: number
  private floorRv: number
  private historyCount: number

  /** The tables must exist (prepareSqlSchema); `state` holds the applied mark and the history floor. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
    private readonly state: HostState,
    private readonly historyRetain: number,
    /** Whether a controller still has work with an object: such objects are listed in `attention`. */
    private readonly attend: Attend = () => false,
  ) {
    this.appliedRv = Number(state.get('applied_rv') ?? 0)
    this.floorRv = Number(state.get('floor_rv') ?? 0)
    this.historyCount = Number(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM history').one().n)
  }

  /** The newest resourceVersion applied here: every change to this scope up to it is reflected. */
  get currentRv() {
    return this.appliedRv
  }

  /** Snapshots and watch replays from below this resourceVersion need the D1 log. */
  get historyFloor() {
    return this.floorRv
  }

  get(resource: string, name: string): Stored | null {
    const row = this.sql
      .exec<{ rv: number; object: string }>(
        'SELECT rv, object FROM objects WHERE resource = ? AND name = ?',
        resource,
        name,
      )
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
    return this.sql
      .exec<{ name: string }>(
        'SELECT name FROM labels WHERE resource = ? AND key = ? AND value = ? ORDER BY name',
        resource,
        key,
        value,
      )
      .toArray()
      .map((r) => r.name)
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
      for (const r of this.sql
        .exec<{ resource: string; name: string; rv: number; object: string }>(
          'SELECT resource, name, rv, object FROM objects',
        )
        .toArray()) {
        if (this.attend(r.resource, materialize(r.object, r.rv))) {
          this.sql.exec(
            'INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING',
            r.resource,
            r.name,
          )
        }
      }
    })
  }

  /** The objects naming `uid` in their ownerReferences (the garbage collector's index). */
  dependents(uid: string): { resource: string; name: string }[] {
    return this.sql
      .exec<{ resource: string; name: string }>('SELECT resource, name FROM owner_refs WHERE owner_uid = ?', uid)
      .toArray()
  }

  /** Every owner some object here names (uid, kind, name): the garbage collector checks they still exist. */
  owners(): { uid: string; kind: string; name: string }[] {
    return this.sql
      .exec<{ uid: string; kind: string; name: string }>(
        'SELECT DISTINCT owner_uid AS uid, owner_kind AS kind, owner_name AS name FROM owner_refs',
      )
      .toArray()
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
        // Index rows change only when what they index changed: most updates (a status, a binding) leave an object's
        // labels and owners as they were, and rewriting them cost statements on every write. A create has none to
        // clear (each statement costs; creates are the hot path).
        const labelsChanged =
          e.type !== 'MODIFIED' || !e.prev || !same(e.prev.metadata.labels, e.object.metadata.labels)
        const ownersChanged =
          e.type !== 'MODIFIED' || !e.prev || !same(e.prev.metadata.ownerReferences, e.object.metadata.ownerReferences)
        if (e.type !== 'ADDED') {
          if (labelsChanged) this.sql.exec('DELETE FROM labels WHERE resource = ? AND name = ?', e.resource, e.name)
          if (ownersChanged) this.sql.exec('DELETE FROM owner_refs WHERE resource = ? AND name = ?', e.resource, e.name)
        }
        if (e.type !== 'DELETED' && this.attend(e.resource, e.object)) {
          this.sql.exec(
            'INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING',
            e.resource,
            e.name,
          )
        } else if (e.type !== 'ADDED') {
          this.sql.exec('DELETE FROM attention WHERE resource = ? AND name = ?', e.resource, e.name)
        }
        if (e.type !== 'DELETED' && ownersChanged) {
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
        // The graph's edges change only when what they hang on does (a pod's binding; not its status).
        if (
          GRAPH_RESOURCES.includes(e.resource) &&
          (e.type !== 'MODIFIED' || !e.prev || graphEdgesChanged(e.resource, e.prev, e.object))
        ) {
          const edges = e.type === 'DELETED' ? [] : graphEdgesOf(e.resource, e.object)
          // Nothing to clear when the object held no edges (a pod being bound, an unbound pod deleted).
          const heldNone = e.type === 'ADDED' || (e.prev !== null && graphEdgesOf(e.resource, e.prev).length === 0)
          writeGraphEdges(this.sql, e.resource, e.name, edges, heldNone)
        }
        if (e.type === 'DELETED') {
          this.sql.exec('DELETE FROM objects WHERE resource = ? AND name = ?', e.resource, e.name)
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
          for (const [k, v] of labelsChanged ? Object.entries(labels) : []) {
            this.sql.exec(
              'INSERT INTO labels (resource, key, value, name) VALUES (?, ?, ?, ?)',
              e.resource,
              k,
              v,
              e.name,
            )
          }
        }
        this.appliedRv = e.rv
      }
      this.state.set('applied_rv', String(this.appliedRv))
      this.trimHistory()
    })
  }

  /** Replaces everything with a full copy (used when this object fell behind the compacted D1 log). */
  reset(objects: { resource: string; name: string; rv: number; object: KubeObject }[], atRv: number) {
    this.storage.transactionSync(() => {
      this.sql.exec(
        'DELETE FROM objects; DELETE FROM labels; DELETE FROM history; DELETE FROM owner_refs; DELETE FROM attention;',
      )
      this.sql.exec('DELETE FROM graph_edges')
      for (const o of objects) {
        const labels = (o.object.metadata.labels ?? {}) as Record<string, string>
        this.sql.exec(
          'INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)',
          o.resource,
          o.name,
          o.rv,
          JSON.stringify(labels),
          encode(o.object, o.resource),
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
          this.sql.exec(
            'INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING',
            o.resource,
            o.name,
          )
        }
        writeGraphEdges(this.sql, o.resource, o.name, graphEdgesOf(o.resource, o.object), true)
      }
      this.appliedRv = atRv
      this.floorRv = atRv
      this.historyCount = 0
      this.state.set('applied_rv', String(atRv))
      this.state.set('floor_rv', String(atRv))
    })
  }

  /** Records a learned resourceVersion with no change here (keeps list resourceVersions moving forward). */
  advance(rv: number) {
    if (rv <= this.appliedRv) return
    this.appliedRv = rv
    this.state.set('applied_rv', String(rv))
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
    this.state.set('floor_rv', String(this.floorRv))
  }

  /** Events after a resourceVersion from the local history, in order (callers check historyFloor first). */
  historySince(afterRv: number, limit = 1_000_000): LogEntry[] {
    return this.sql
      .exec<Row>(
        'SELECT rv, resource, name, type, object, prev, prev_rv FROM history WHERE rv > ? ORDER BY rv LIMIT ?',
        afterRv,
        limit,
      )
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

  /** A consistent-snapshot list source over one resource of this scope. */
  listSource(resource: string): ListSource {
    return sqlListSource(this.sql, resource, this.appliedRv, this.floorRv)
  }
}
