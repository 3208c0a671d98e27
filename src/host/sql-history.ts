// The bounded event history of a Durable Object's SQLite (table history): every applied change with its previous
// state, for watch replays and list snapshots, trimmed to the newest `retain` events; below its floor, callers need
// the change log.
import type { ChangeType, LogEntry } from '../registry/store'
import { materialize } from '../registry/stored-json'
import type { HostState } from './object-store'

type Row = Record<string, SqlStorageValue>

export class SqlHistory {
  private floorRv: number
  private count: number

  /** `state` holds the floor across wake-ups. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly state: HostState,
    private readonly retain: number,
  ) {
    this.floorRv = Number(state.get('floor_rv') ?? 0)
    this.count = Number(sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM history').one().n)
  }

  /** Snapshots and watch replays from below this resourceVersion need the D1 log. */
  get floor() {
    return this.floorRv
  }

  /** Records an applied change, its object and previous state as stored text. */
  append(e: LogEntry, json: string, prev: string | null): void {
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
    this.count++
  }

  /** Drops the oldest events past the retained count and raises the floor to the newest dropped. */
  trim(): void {
    const excess = this.count - this.retain
    if (excess <= 0) return
    const cut = this.sql
      .exec<{ rv: number }>('SELECT rv FROM history ORDER BY rv LIMIT 1 OFFSET ?', excess - 1)
      .toArray()[0]?.rv
    if (cut === undefined) return
    this.sql.exec('DELETE FROM history WHERE rv <= ?', cut)
    this.count -= excess
    this.floorRv = Math.max(this.floorRv, cut)
    this.state.set('floor_rv', String(this.floorRv))
  }

  /** Forgets every event: history starts again at `atRv` (a reset). */
  restart(atRv: number): void {
    this.sql.exec('DELETE FROM history')
    this.floorRv = atRv
    this.count = 0
    this.state.set('floor_rv', String(atRv))
  }

  /** Events after a resourceVersion, in order (callers check the floor first). */
  since(afterRv: number, limit: number): LogEntry[] {
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
}
