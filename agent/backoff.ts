// The kubelet's container restart back-off (client-go's flowcontrol.Backoff as the kubelet uses it): the first restart
// is immediate, each later one waits twice as long as the one before (10s, 20s, 40s … capped at 5m), counted from the
// container's exit; a container that stayed up for twice the cap starts over.
export class Backoff {
  private readonly entries = new Map<string, { delay: number; lastUpdate: number }>()
  private readonly initialMs: number
  private readonly maxMs: number
  private readonly now: () => number

  constructor(initialMs: number, maxMs: number, now: () => number = Date.now) {
    this.initialMs = initialMs
    this.maxMs = maxMs
    this.now = now
  }

  private expired(eventTime: number, lastUpdate: number) {
    return eventTime - lastUpdate > this.maxMs * 2
  }

  /** When a container that exited at `finishedAt` may start again (now or earlier: at once). */
  restartAt(key: string, finishedAt: number): number {
    const e = this.entries.get(key)
    if (!e || this.expired(finishedAt, e.lastUpdate)) return finishedAt
    return finishedAt + e.delay
  }

  /** The delay the next back-off will use (for the CrashLoopBackOff message). */
  delay(key: string): number {
    return this.entries.get(key)?.delay ?? this.initialMs
  }

  /** A restart happens now after an exit at `finishedAt`: the next one waits longer. */
  next(key: string, finishedAt: number) {
    const e = this.entries.get(key)
    if (!e || this.expired(finishedAt, e.lastUpdate))
      this.entries.set(key, { delay: this.initialMs, lastUpdate: this.now() })
    else this.entries.set(key, { delay: Math.min(e.delay * 2, this.maxMs), lastUpdate: this.now() })
  }

  forget(prefix: string) {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k)
  }
}
