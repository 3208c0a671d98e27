// The small records a Durable Object host keeps in its SQLite besides objects: bookkeeping (HostState), creation
// tokens (TokenStore) and due removals (ExpiryStore). The tables come from sql-schema.ts.
import { CREATION_TOKEN_TTL_MS, type ExpiryStore, type HostState, type TokenStore } from './object-store'

export class SqlHostState implements HostState {
  constructor(private readonly sql: SqlStorage) {}

  get(key: string): string | undefined {
    return this.sql.exec<{ value: string }>('SELECT value FROM state WHERE key = ?', key).toArray()[0]?.value
  }

  set(key: string, value: string | undefined) {
    if (value === undefined) this.sql.exec('DELETE FROM state WHERE key = ?', key)
    else
      this.sql.exec(
        'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        key,
        value,
      )
  }
}

export class SqlTokenStore implements TokenStore {
  constructor(private readonly sql: SqlStorage) {}

  find(token: string): { resource: string; name: string; uid: string } | null {
    return (
      this.sql
        .exec<{ resource: string; name: string; uid: string }>(
          'SELECT resource, name, uid FROM creation_tokens WHERE token = ?',
          token,
        )
        .toArray()[0] ?? null
    )
  }

  record(token: string, resource: string, name: string, uid: string, now: number) {
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
}

export class SqlExpiryStore implements ExpiryStore {
  constructor(private readonly sql: SqlStorage) {}

  set(resource: string, name: string, at: number) {
    this.sql.exec(
      'INSERT INTO expiries (resource, name, at) VALUES (?, ?, ?) ON CONFLICT (resource, name) DO UPDATE SET at = excluded.at',
      resource,
      name,
      at,
    )
  }

  due(now: number): { resource: string; name: string }[] {
    return this.sql
      .exec<{ resource: string; name: string }>('SELECT resource, name FROM expiries WHERE at <= ?', now)
      .toArray()
  }

  clear(resource: string, name: string) {
    this.sql.exec('DELETE FROM expiries WHERE resource = ? AND name = ?', resource, name)
  }

  next(): number | null {
    return this.sql.exec<{ at: number | null }>('SELECT MIN(at) AS at FROM expiries').one().at ?? null
  }
}
