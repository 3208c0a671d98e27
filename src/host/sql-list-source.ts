// Consistent-snapshot lists over one resource of a Durable Object's own SQLite: its rows, its label index for a
// selector's narrowing requirement, and its event history for the state at an older snapshot.
import type { ChangeType } from '../registry/store'
import { pastStates, type IndexHint, type ListItem, type ListSource, type PastState } from '../registry/list'
import { materialize } from '../registry/stored-json'

type Row = Record<string, SqlStorageValue>

export function sqlListSource(sql: SqlStorage, resource: string, currentRv: number, floorRv: number): ListSource {
  return {
    currentRv,
    floorRv,
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
          .exec<Row>(
            'SELECT name, rv, labels, object FROM objects WHERE resource = ? AND name > ? ORDER BY name LIMIT ?',
            resource,
            a,
            n,
          )
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
        sql
          .exec<{ n: number }>(
            'SELECT COUNT(*) AS n FROM objects WHERE resource = ? AND name > ?',
            resource,
            after ?? '',
          )
          .one().n,
      )
    },
    async changedSince(rv: number, after: string | null): Promise<Map<string, PastState>> {
      const rows = sql
        .exec<Row>(
          'SELECT name, type, prev, prev_rv FROM history WHERE resource = ? AND rv > ? ORDER BY rv',
          resource,
          rv,
        )
        .toArray()
      return pastStates(
        rows.map((r) => ({
          key: r.name as string,
          type: r.type as ChangeType,
          prev: r.prev as string | null,
          prevRv: r.prev_rv as number | null,
        })),
        after,
      )
    },
  }
}
