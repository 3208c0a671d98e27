// The in-memory twins of the host records (src/host/sql-host-records.ts): bookkeeping (HostState), creation tokens
// (TokenStore) and due removals (ExpiryStore) over Maps. The unit tests run both through one case suite
// (test/host/object-store.cases.ts).
import { CREATION_TOKEN_TTL_MS, type ExpiryStore, type HostState, type TokenStore } from './object-store'

export class MemoryHostState implements HostState {
  private readonly values = new Map<string, string>()

  get(key: string): string | undefined {
    return this.values.get(key)
  }

  set(key: string, value: string | undefined) {
    if (value === undefined) this.values.delete(key)
    else this.values.set(key, value)
  }
}

export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, { resource: string; name: string; uid: string; at: number }>()

  find(token: string): { resource: string; name: string; uid: string } | null {
    const t = this.tokens.get(token)
    return t ? { resource: t.resource, name: t.name, uid: t.uid } : null
  }

  record(token: string, resource: string, name: string, uid: string, now: number) {
    if (!this.tokens.has(token)) this.tokens.set(token, { resource, name, uid, at: now })
    for (const [k, t] of this.tokens) if (t.at < now - CREATION_TOKEN_TTL_MS) this.tokens.delete(k)
  }
}

export class MemoryExpiryStore implements ExpiryStore {
  private readonly times = new Map<string, { resource: string; name: string; at: number }>()

  set(resource: string, name: string, at: number) {
    this.times.set(`${resource}/${name}`, { resource, name, at })
  }

  due(now: number): { resource: string; name: string }[] {
    return [...this.times.values()].filter((t) => t.at <= now).map(({ resource, name }) => ({ resource, name }))
  }

  clear(resource: string, name: string) {
    this.times.delete(`${resource}/${name}`)
  }

  next(): number | null {
    let min: number | null = null
    for (const t of this.times.values()) if (min === null || t.at < min) min = t.at
    return min
  }
}
