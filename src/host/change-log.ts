// What a host needs of the cluster's change log (the D1 `changes` table, whose autoincrement id is the
// resourceVersion): commit a batch, read its own scope back, and know where the log starts and ends. D1Log
// (src/log/d1-log.ts) is the platform implementation; memory-change-log.ts is its twin for unit tests.
import type { Change, LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'

export interface ChangeLog {
  /** Appends the changes in order, in one transaction; answers each change's resourceVersion. All or nothing. */
  commit(changes: readonly Change[], now: number): Promise<number[]>
  /** The newest resourceVersion committed anywhere in the cluster. */
  currentRv(): Promise<number>
  /** Changes at or below this resourceVersion are gone from the log (410 Expired below it). */
  compactedRv(): Promise<number>
  /** Changes of one scope ('' for cluster-scoped objects) after `afterRv`, in order, at most `limit`. */
  changesFor(scope: string, afterRv: number, limit: number): Promise<LogEntry[]>
  /** The current objects of one scope, from the object index. */
  objectsIn(scope: string): Promise<{ resource: string; name: string; rv: number; object: KubeObject }[]>
  /** Drops the oldest changes so about `retain` remain (a bounded step per call); answers the new compaction floor. */
  compact(retain: number): Promise<number>
}
