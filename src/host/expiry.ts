// Graceful-deletion expiry and time to live: recording when objects fall due, keeping the DO's alarm at the earliest
// time, and removing what is due when it rings.
import type { LogEntry } from '../log/d1-log'
import { resourceByPlural } from '../registry/resources'
import { planExpiry, planRemoval } from '../registry/store'
import type { StrategyContext } from '../registry/strategy'
import type { LocalStore } from './local-store'
import type { WriteQueue } from './write-queue'

/** Asks for a wake-up at `at`, keeping an alarm already set sooner. */
export async function wakeNoLaterThan(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm()
  if (current === null || current > at) await storage.setAlarm(at)
}

export class Expiries {
  /** Removal times of graceful deletions planned in the batch now committing, by `resource/name`. */
  private readonly pending = new Map<string, number>()

  constructor(
    private readonly local: LocalStore,
    private readonly storage: DurableObjectStorage,
  ) {}

  /** A graceful deletion was planned: once its change applies, the object is due at `removeAt`. */
  expect(resource: string, name: string, removeAt: number): void {
    this.pending.set(`${resource}/${name}`, removeAt)
  }

  /** The batch did not commit: none of its graceful deletions start. */
  forget(): void {
    this.pending.clear()
  }

  /** Records the expiries a committed batch sets; answers whether it set any. */
  record(entries: LogEntry[]): boolean {
    let hadExpiry = false
    for (const e of entries) {
      const removeAt = e.type === 'MODIFIED' ? this.pending.get(`${e.resource}/${e.name}`) : undefined
      if (removeAt !== undefined) {
        this.local.setExpiry(e.resource, e.name, removeAt)
        hadExpiry = true
      }
      // Kinds with a time to live (events) go that long after their last write.
      const ttl = resourceByPlural(e.resource)?.ttlSeconds
      if (ttl && e.type !== 'DELETED') {
        this.local.setExpiry(e.resource, e.name, Date.now() + ttl * 1000)
        hadExpiry = true
      }
    }
    this.pending.clear()
    return hadExpiry
  }

  /** Sets the alarm to the earliest expiry or `extra` (a subclass's own time), whichever comes first. */
  async schedule(extra: number | null): Promise<void> {
    const times = [this.local.nextExpiry(), extra].filter((t): t is number => t !== null)
    if (times.length === 0) return
    await wakeNoLaterThan(this.storage, Math.min(...times))
  }

  /** Removes every object due by `now`, each as its own queued write (an expiry no longer due is cleared). */
  async removeDue(now: number, queue: WriteQueue, strategyContext: () => StrategyContext): Promise<void> {
    for (const { resource, name } of this.local.dueExpiries(now)) {
      const def = resourceByPlural(resource)
      if (!def) {
        this.local.clearExpiry(resource, name)
        continue
      }
      await queue.submit(() => {
        const current = this.local.get(resource, name)
        const change = def.ttlSeconds && current ? planRemoval(def, strategyContext(), current) : planExpiry(def, strategyContext(), current)
        if (!change) this.local.clearExpiry(resource, name)
        return { changes: change ? [change] : [], finish: () => undefined }
      })
    }
  }
}
