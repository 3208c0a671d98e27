// When a host asks the change log to compact itself (D1Log.compact does the work).
import type { ChangeLog } from './change-log'

/** How often (in resourceVersions) a host checks whether the D1 change log needs compacting. */
const COMPACT_EVERY = 1000

export class CompactionTrigger {
  private lastCheck = 0

  constructor(
    private readonly log: ChangeLog,
    private readonly env: Env,
  ) {}

  /**
   * Keeps the D1 change log bounded (CHANGE_LOG_RETAIN entries). Whichever host's commit crosses the next
   * thousand triggers a small compaction step, off the write path; history below the floor then answers 410.
   */
  afterCommit(entries: readonly { rv: number }[]): void {
    const rv = entries[entries.length - 1]?.rv ?? 0
    const bucket = Math.floor(rv / COMPACT_EVERY)
    if (bucket <= this.lastCheck) return
    this.lastCheck = bucket
    const retain = Number(this.env.CHANGE_LOG_RETAIN ?? '100000')
    if (!Number.isFinite(retain) || retain <= 0 || rv <= retain) return
    this.log.compact(retain).catch((e: unknown) => console.error('change-log compaction failed', e))
  }
}
