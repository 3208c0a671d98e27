// Graceful-deletion expiry and time to live: recording when objects fall due as commits apply, and which removals are
// due when the alarm rings (the host plans and commits them).
import { resourceByPlural } from '../registry/resources'
import type { LogEntry } from '../registry/store'
import type { ExpiryStore } from './object-store'

export class Expiries {
  /** Removal times of graceful deletions planned in the batch now committing, by `resource/name`. */
  private readonly pending = new Map<string, number>()

  constructor(private readonly store: ExpiryStore) {}

  /** A graceful deletion was planned: once its change applies, the object is due at `removeAt`. */
  expect(resource: string, name: string, removeAt: number): void {
    this.pending.set(`${resource}/${name}`, removeAt)
  }

  /** The batch did not commit: none of its graceful deletions start. */
  forget(): void {
    this.pending.clear()
  }

  /** Records the expiries applied entries set (and drops those of deleted objects); answers whether any was set. */
  record(entries: readonly LogEntry[], now = Date.now()): boolean {
    let hadExpiry = false
    for (const e of entries) {
      if (e.type === 'DELETED') {
        this.store.clear(e.resource, e.name)
        continue
      }
      const removeAt = e.type === 'MODIFIED' ? this.pending.get(`${e.resource}/${e.name}`) : undefined
      if (removeAt !== undefined) {
        this.store.set(e.resource, e.name, removeAt)
        hadExpiry = true
      }
      // Kinds with a time to live (events) go that long after their last write.
      const ttl = resourceByPlural(e.resource)?.ttlSeconds
      if (ttl) {
        this.store.set(e.resource, e.name, now + ttl * 1000)
        hadExpiry = true
      }
    }
    this.pending.clear()
    return hadExpiry
  }

  /** The earliest due time, or null. */
  next(): number | null {
    return this.store.next()
  }

  /** What is due by `now`. */
  due(now: number): { resource: string; name: string }[] {
    return this.store.due(now)
  }

  /** Nothing is due for this object any more (it changed, or its kind is gone). */
  clear(resource: string, name: string): void {
    this.store.clear(resource, name)
  }
}
