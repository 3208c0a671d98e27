// The in-memory twin of sql-list-source.ts: consistent-snapshot lists over one resource's rows (name order, stored
// text materialized on load), a label hint narrowing the scan, and the event history for older snapshots.
import { pastStates, type IndexHint, type ListItem, type ListSource } from '../registry/list'
import type { ChangeType } from '../registry/store'
import { materialize } from '../registry/stored-json'

/** An object's row as the in-memory store keeps it. */
interface Row {
  rv: number
  labels: Record<string, string>
  text: string
}

/** What a snapshot needs of a history event: the object's name and its state before the change. */
interface PastRow {
  rv: number
  name: string
  type: ChangeType
  prev: string | null
  prevRv: number | null
}

/** `rows`: the resource's rows in name order; `history`: its events, oldest first. */
export function memoryListSource(
  rows: readonly [string, Row][],
  history: readonly PastRow[],
  currentRv: number,
  floorRv: number,
): ListSource {
  const matchesHint = (r: Row, hint: IndexHint | null) =>
    !hint || (hint.key in r.labels && (hint.values === null || hint.values.includes(r.labels[hint.key]!)))
  return {
    currentRv,
    floorRv,
    isolated: true,
    async scan(after: string | null, n: number, hint: IndexHint | null): Promise<ListItem[]> {
      return rows
        .filter(([name, r]) => (after === null || name > after) && matchesHint(r, hint))
        .slice(0, n)
        .map(([name, r]) => ({ key: name, rv: r.rv, labels: r.labels, load: () => materialize(r.text, r.rv) }))
    },
    async count(after: string | null): Promise<number> {
      return rows.filter(([name]) => after === null || name > after).length
    },
    async changedSince(rv: number, after: string | null) {
      return pastStates(
        history.filter((h) => h.rv > rv).map((h) => ({ key: h.name, type: h.type, prev: h.prev, prevRv: h.prevRv })),
        after,
      )
    },
  }
}
