// Watch specs too large for a hibernating WebSocket's attachment (workerd caps it at 16 KiB; kube takes a selector of
// any length): kept in the Durable Object's SQLite under an id the attachment carries instead, so such a watch
// survives hibernation as any other does. The table appears with the first such watch.
export class SqlWatchSpecs {
  private ready = false

  constructor(private readonly sql: SqlStorage) {}

  private table() {
    if (!this.ready) this.sql.exec('CREATE TABLE IF NOT EXISTS watch_specs (id TEXT PRIMARY KEY, spec TEXT NOT NULL)')
    this.ready = true
  }

  put(id: string, spec: string) {
    this.table()
    this.sql.exec('INSERT INTO watch_specs (id, spec) VALUES (?, ?)', id, spec)
  }

  get(id: string): string | null {
    this.table()
    return this.sql.exec<{ spec: string }>('SELECT spec FROM watch_specs WHERE id = ?', id).toArray()[0]?.spec ?? null
  }

  /** Drops the specs of sockets that are gone (every id not in `live`). */
  retainOnly(live: ReadonlySet<string>) {
    this.table()
    for (const { id } of this.sql.exec<{ id: string }>('SELECT id FROM watch_specs').toArray())
      if (!live.has(id)) this.sql.exec('DELETE FROM watch_specs WHERE id = ?', id)
  }
}
