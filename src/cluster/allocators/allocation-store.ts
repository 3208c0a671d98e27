// The allocators' storage: one table in the cluster Durable Object's SQLite, one row per reserved cluster IP or node
// port with its owner (`<namespace>/<name>/<uid>`), when it was reserved, and whether a repair pass has seen a stored
// service hold it. Every statement binds its parameters.
import type { Pool } from './allocation-types'

interface StoredAllocation {
  pool: Pool
  value: number
  owner: string
  reservedAt: number
  verified: boolean
}

interface Row extends Record<string, SqlStorageValue> {
  pool: string
  value: number
  owner: string
  reserved_at: number
  verified: number
}

const toAllocation = (r: Row): StoredAllocation => ({
  pool: r.pool as Pool,
  value: r.value,
  owner: r.owner,
  reservedAt: r.reserved_at,
  verified: r.verified === 1,
})

export class AllocationStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS svc_alloc (
         pool TEXT NOT NULL,
         value INTEGER NOT NULL,
         owner TEXT NOT NULL,
         reserved_at INTEGER NOT NULL,
         verified INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (pool, value)
       ) WITHOUT ROWID`,
    )
    sql.exec('CREATE INDEX IF NOT EXISTS svc_alloc_owner ON svc_alloc (owner)')
    sql.exec('CREATE INDEX IF NOT EXISTS svc_alloc_unverified ON svc_alloc (verified, reserved_at)')
  }

  get(pool: Pool, value: number): StoredAllocation | null {
    const rows = this.sql
      .exec<Row>(
        'SELECT pool, value, owner, reserved_at, verified FROM svc_alloc WHERE pool = ? AND value = ?',
        pool,
        value,
      )
      .toArray()
    return rows.length ? toAllocation(rows[0]!) : null
  }

  /** Taken values of [lo, hi], ascending. */
  takenBetween(pool: Pool, lo: number, hi: number): number[] {
    return this.sql
      .exec<{ value: number }>(
        'SELECT value FROM svc_alloc WHERE pool = ? AND value >= ? AND value <= ? ORDER BY value',
        pool,
        lo,
        hi,
      )
      .toArray()
      .map((r) => r.value)
  }

  insert(pool: Pool, value: number, owner: string, at: number) {
    this.sql.exec(
      'INSERT INTO svc_alloc (pool, value, owner, reserved_at, verified) VALUES (?, ?, ?, ?, 0)',
      pool,
      value,
      owner,
      at,
    )
  }

  /** Removes a value if `owner` holds it; answers whether it did. */
  remove(pool: Pool, value: number, owner: string): boolean {
    return (
      this.sql.exec('DELETE FROM svc_alloc WHERE pool = ? AND value = ? AND owner = ?', pool, value, owner)
        .rowsWritten > 0
    )
  }

  removeOwner(owner: string): StoredAllocation[] {
    const rows = this.sql
      .exec<Row>('SELECT pool, value, owner, reserved_at, verified FROM svc_alloc WHERE owner = ?', owner)
      .toArray()
    this.sql.exec('DELETE FROM svc_alloc WHERE owner = ?', owner)
    return rows.map(toAllocation)
  }

  markVerified(pool: Pool, value: number, owner: string) {
    this.sql.exec('UPDATE svc_alloc SET verified = 1, owner = ? WHERE pool = ? AND value = ?', owner, pool, value)
  }

  all(): StoredAllocation[] {
    return this.sql
      .exec<Row>('SELECT pool, value, owner, reserved_at, verified FROM svc_alloc ORDER BY pool, value')
      .toArray()
      .map(toAllocation)
  }

  /** When the oldest reservation no repair pass has confirmed was made, or null when every row is confirmed. */
  oldestUnverified(): number | null {
    const row = this.sql
      .exec<{ at: number | null }>('SELECT MIN(reserved_at) AS at FROM svc_alloc WHERE verified = 0')
      .one()
    return row.at ?? null
  }
}
