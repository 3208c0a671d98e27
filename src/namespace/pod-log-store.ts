// Container logs of the simulated kubelet, kept in the namespace DO's SQLite per pod UID and container: lifecycle
// lines and whatever the container's program echoes. They go when the pod goes, as a node's logs do.
import type { LogQuery } from '../registry/pod-log-request'
export interface LogLine {
  seq: number
  ts: string
  line: string
}

export class PodLogStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS pod_logs (
      uid TEXT NOT NULL, container TEXT NOT NULL, seq INTEGER NOT NULL, ts TEXT NOT NULL, line TEXT NOT NULL,
      PRIMARY KEY (uid, container, seq)
    ) WITHOUT ROWID`)
  }

  append(uid: string, container: string, lines: readonly string[], ts: string): LogLine[] {
    // One statement per line, numbering it after the container's last (a line per started container is the common
    // case: the simulated kubelet writes one for every container it starts).
    return lines.map((line) => {
      const { seq } = this.sql
        .exec<{ seq: number }>(
          'INSERT INTO pod_logs (uid, container, seq, ts, line) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ? ' +
            'FROM pod_logs WHERE uid = ? AND container = ? RETURNING seq',
          uid,
          container,
          ts,
          line,
          uid,
          container,
        )
        .one()
      return { seq, ts, line }
    })
  }

  /** The sequence number of the container's last line: how many lines it has ever written (0: none). */
  lastSeq(uid: string, container: string): number {
    return (
      this.sql
        .exec<{ seq: number | null }>(
          'SELECT MAX(seq) AS seq FROM pod_logs WHERE uid = ? AND container = ?',
          uid,
          container,
        )
        .one().seq ?? 0
    )
  }

  /**
   * Drops a container's lines up to `seq` (the runs of a restarted container older than the previous one, which no
   * request can read any more: kubelet keeps the current and the previous container's logs). Later lines keep
   * their numbers, so the runs after them are still found by number.
   */
  dropThrough(uid: string, container: string, seq: number) {
    this.sql.exec('DELETE FROM pod_logs WHERE uid = ? AND container = ? AND seq <= ?', uid, container, seq)
  }

  lines(uid: string, container: string, afterSeq = 0): LogLine[] {
    return this.sql
      .exec<{ seq: number; ts: string; line: string }>(
        'SELECT seq, ts, line FROM pod_logs WHERE uid = ? AND container = ? AND seq > ? ORDER BY seq',
        uid,
        container,
        afterSeq,
      )
      .toArray()
  }

  /**
   * The log as kubectl logs shows it, with kube's tailLines, sinceSeconds/sinceTime, limitBytes, timestamps; `run`
   * narrows it to one run's lines of a restarted container (src/registry/pod-log-request.ts).
   */
  read(
    uid: string,
    container: string,
    q: LogQuery,
    run?: { from: number; to: number },
  ): { text: string; lastSeq: number } {
    let lines = this.lines(uid, container)
    const lastSeq = lines.length ? lines[lines.length - 1]!.seq : 0
    if (run) lines = lines.filter((l) => l.seq > run.from && l.seq <= run.to)
    if (q.since !== undefined) lines = lines.filter((l) => Date.parse(l.ts) >= q.since!)
    if (q.tailLines !== undefined) lines = q.tailLines === 0 ? [] : lines.slice(-q.tailLines)
    let text = lines.map((l) => format(l, q.timestamps ?? false)).join('')
    if (q.limitBytes !== undefined) text = truncateBytes(text, q.limitBytes)
    return { text, lastSeq }
  }

  forget(uid: string) {
    this.sql.exec('DELETE FROM pod_logs WHERE uid = ?', uid)
  }
}

export const format = (l: LogLine, timestamps: boolean) => (timestamps ? `${l.ts} ${l.line}\n` : `${l.line}\n`)

function truncateBytes(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length <= max) return text
  return new TextDecoder().decode(bytes.slice(0, max))
}
