// The garbage collector's retries: work it could not finish (a dependent whose owner's kind nobody serves yet, an owner
// whose dependents in another namespace did not answer), tried again after kube's per-item backoff, so that an alarm
// looks at what is pending and nothing else. Kept in memory: a wake-up in a new isolate finds the same work again by
// walking the owners objects name (GarbageCollector.resync).

/** What is retried: a dependent attempted again, an owner processed again, a gone owner's namespaces told again. */
export type Retry =
  | { type: 'dependent'; resource: string; name: string }
  | { type: 'owner'; resource: string; name: string }
  | { type: 'gone'; uid: string }

/**
 * kube's workqueue.DefaultTypedControllerRateLimiter per item: 5 ms doubling to 1000 s. The first retries here start at
 * one second: a retry may ask the cluster object for the CRDs, and a kind does not appear within milliseconds.
 */
const FIRST_MS = 1000
const MAX_MS = 1000 * 1000

const keyOf = (r: Retry) => (r.type === 'gone' ? `gone ${r.uid}` : `${r.type} ${r.resource} ${r.name}`)

export class GcRetries {
  /** Failures so far, kept while the work is pending or running (its next failure waits longer). */
  private readonly attempts = new Map<string, number>()
  private readonly pending = new Map<string, { retry: Retry; at: number }>()

  /** Schedules `retry` after its backoff (doubling with each failure); answers when it falls due. */
  add(retry: Retry, now: number): number {
    const key = keyOf(retry)
    const attempts = (this.attempts.get(key) ?? 0) + 1
    const at = now + Math.min(FIRST_MS * 2 ** (attempts - 1), MAX_MS)
    this.attempts.set(key, attempts)
    this.pending.set(key, { retry, at })
    return at
  }

  /** The work succeeded (or has nothing left to do): its backoff starts over next time. */
  forget(retry: Retry): void {
    this.attempts.delete(keyOf(retry))
    this.pending.delete(keyOf(retry))
  }

  /**
   * Takes the work due at `now` (all of it with `everything`, when a kind appeared), in the order it was added. The
   * caller runs each and then calls `settle`: work that failed again was added again, the rest is forgotten.
   */
  take(now: number, everything = false): Retry[] {
    const due = [...this.pending.entries()].filter(([, p]) => everything || p.at <= now)
    for (const [key] of due) this.pending.delete(key)
    return due.map(([, p]) => p.retry)
  }

  /** After running taken work: forgotten unless it failed again (and is pending once more). */
  settle(retry: Retry): void {
    if (!this.pending.has(keyOf(retry))) this.forget(retry)
  }

  /** The earliest time something falls due, or null. */
  next(): number | null {
    let at: number | null = null
    for (const p of this.pending.values()) if (at === null || p.at < at) at = p.at
    return at
  }
}
