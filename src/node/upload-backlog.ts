// What clients send towards the agent (stdin, port-forward writes, proxied request bodies) beyond the agent's credit:
// it waits in the node object's SQLite, not in memory. workerd cannot slow a WebSocket's sender (a Durable Object
// gets every message as an event, whatever it returns), and kube's channel protocols have no flow control, so a client
// pushes as fast as its link allows: `kubectl cp` of a large file writes hundreds of MiB at once. Held in memory that
// either exhausts the object or, bounded, cuts the stream (it did at 16 MiB: a 200 MB `kubectl cp` into a pod failed
// after 0.4 MB). On disk it waits until the agent's credit lets it go, in order, an EOF after the data before it, and
// it survives the object's hibernation. Credit itself is memory: after a restart a stream starts again from the
// initial window.
import { dataFrame, eofFrame, INITIAL_WINDOW } from './tunnel-frames'

/** A stream with more than this waiting is cut (the object's storage is not a file system). */
export const MAX_BACKLOG = 1024 * 1024 * 1024

/** The most one row holds: a Durable Object's SQLite refuses a value over 2 MB (Miniflare's does not). */
export const MAX_ROW = 1024 * 1024

type Row = {
  seq: number
  channel: number
  eof: number
  data: ArrayBuffer | null
}

export class UploadBacklog {
  private readonly sql: SqlStorage
  private readonly send: (frame: Uint8Array) => void
  /** DATA payload bytes each stream may still send the agent. */
  private readonly credit = new Map<number, number>()
  /** Bytes waiting per stream (read from storage the first time a stream is asked about after a restart). */
  private readonly waitingBytes = new Map<number, number>()

  constructor(sql: SqlStorage, send: (frame: Uint8Array) => void) {
    this.sql = sql
    this.send = send
    sql.exec(
      'CREATE TABLE IF NOT EXISTS upload_backlog (seq INTEGER PRIMARY KEY, stream INTEGER NOT NULL, channel INTEGER NOT NULL, eof INTEGER NOT NULL, data BLOB)',
    )
    sql.exec('CREATE INDEX IF NOT EXISTS upload_backlog_stream ON upload_backlog (stream, seq)')
  }

  /** Bytes waiting for the agent's credit on stream `id`. */
  waiting(id: number): number {
    let n = this.waitingBytes.get(id)
    if (n === undefined) {
      n = Number(
        this.sql
          .exec<{ n: number }>('SELECT COALESCE(SUM(length(data)), 0) AS n FROM upload_backlog WHERE stream = ?', id)
          .one().n,
      )
      this.waitingBytes.set(id, n)
    }
    return n
  }

  /** Whether anything waits on stream `id` (an EOF waits only behind data). */
  private queued(id: number): boolean {
    return this.waiting(id) > 0
  }

  /** Bytes on `channel` for the agent: what the credit allows goes now, the rest waits. Answers the bytes waiting. */
  data(id: number, channel: number, bytes: Uint8Array): number {
    let rest = bytes
    if (!this.queued(id)) {
      const credit = this.creditOf(id)
      const now = Math.min(credit, rest.length)
      if (now > 0) {
        this.send(dataFrame(id, channel, rest.subarray(0, now)))
        this.credit.set(id, credit - now)
        rest = rest.subarray(now)
      }
    }
    if (rest.length === 0) return this.waiting(id)
    for (let at = 0; at < rest.length; at += MAX_ROW)
      this.sql.exec(
        'INSERT INTO upload_backlog (stream, channel, eof, data) VALUES (?, ?, 0, ?)',
        id,
        channel,
        rest.slice(at, at + MAX_ROW),
      )
    const waiting = this.waiting(id) + rest.length
    this.waitingBytes.set(id, waiting)
    return waiting
  }

  /** The client ended `channel`: the agent hears it after what waits before it. */
  eof(id: number, channel: number) {
    if (this.queued(id))
      this.sql.exec('INSERT INTO upload_backlog (stream, channel, eof, data) VALUES (?, ?, 1, NULL)', id, channel)
    else this.send(eofFrame(id, channel))
  }

  /** The agent granted `bytes` more on stream `id`: what waits goes, in order, as far as the credit reaches. */
  grant(id: number, bytes: number) {
    let credit = this.creditOf(id) + bytes
    for (;;) {
      const row = this.sql
        .exec<Row>('SELECT seq, channel, eof, data FROM upload_backlog WHERE stream = ? ORDER BY seq LIMIT 1', id)
        .toArray()[0]
      if (!row) break
      if (row.eof) {
        this.send(eofFrame(id, row.channel))
        this.sql.exec('DELETE FROM upload_backlog WHERE seq = ?', row.seq)
        continue
      }
      if (credit <= 0) break
      const data = new Uint8Array(row.data ?? new ArrayBuffer(0))
      const now = Math.min(credit, data.length)
      this.send(dataFrame(id, row.channel, data.subarray(0, now)))
      credit -= now
      this.waitingBytes.set(id, this.waiting(id) - now)
      if (now === data.length) this.sql.exec('DELETE FROM upload_backlog WHERE seq = ?', row.seq)
      else this.sql.exec('UPDATE upload_backlog SET data = ? WHERE seq = ?', data.slice(now), row.seq)
    }
    this.credit.set(id, credit)
  }

  /** The stream is over: what waits for it goes. */
  forget(id: number) {
    this.credit.delete(id)
    this.waitingBytes.delete(id)
    this.sql.exec('DELETE FROM upload_backlog WHERE stream = ?', id)
  }

  /** Drops what waits for streams that are no longer open (after a restart, or the agent's loss). */
  keepOnly(open: Set<number>) {
    for (const { stream } of this.sql.exec<{ stream: number }>('SELECT DISTINCT stream FROM upload_backlog').toArray())
      if (!open.has(stream)) this.forget(stream)
    for (const id of [...this.credit.keys()]) if (!open.has(id)) this.credit.delete(id)
  }

  private creditOf(id: number): number {
    return this.credit.get(id) ?? INITIAL_WINDOW
  }
}
