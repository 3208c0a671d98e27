// Where a watch starts, decided in one place for the namespace objects and the cluster-wide hub alike (kine's Watch:
// subscribe, replay after the revision, or say "compacted"): the current state first, a replay of every change after
// a resourceVersion, 410 Expired below the log's history, or 504 beyond the newest resourceVersion.
import { statuses, type Status } from './status'

/** What the client asked for: resourceVersion as sent ('' when absent) and sendInitialEvents. */
export interface WatchAsk {
  resourceVersion: string
  sendInitialEvents?: boolean
}

/** What the host knows when it decides (after waiting for in-flight commits). */
interface WatchHistory {
  /** The newest resourceVersion of the cluster. */
  currentRv: number
  /** Changes at or below this are gone from the log. */
  compactedRv: number
}

type WatchPlan =
  /** ADDED for every current object, then changes; with sendInitialEvents, a BOOKMARK marks the end of them. */
  | { kind: 'initial'; endBookmark: boolean }
  /** Every change after `after`, exactly once, in resourceVersion order, then live changes. */
  | { kind: 'replay'; after: number }
  /** One ERROR event with this Status (410 Expired), then the end of the watch. */
  | { kind: 'expired'; status: Status }
  /** Refused before the watch starts (504 Too large resource version). */
  | { kind: 'refused'; status: Status }

/** Whether the ask starts from scratch (no resourceVersion, or "0"): such a watch needs no history. */
export const fromScratch = (ask: WatchAsk) => ask.resourceVersion === '' || ask.resourceVersion === '0'

/**
 * kube's rules: without a resourceVersion (or with "0") a watch begins with the current state unless
 * sendInitialEvents=false, which starts it at the newest change; with one, it replays what came after it, or, with
 * sendInitialEvents=true, begins with the current state.
 */
export function decideWatchStart(ask: WatchAsk, history: WatchHistory): WatchPlan {
  if (fromScratch(ask)) {
    return ask.sendInitialEvents === false
      ? { kind: 'replay', after: history.currentRv }
      : { kind: 'initial', endBookmark: ask.sendInitialEvents === true }
  }
  const requested = Number(ask.resourceVersion)
  if (requested > history.currentRv)
    return { kind: 'refused', status: statuses.tooLargeResourceVersion(requested, history.currentRv) }
  if (ask.sendInitialEvents === true) return { kind: 'initial', endBookmark: true }
  if (requested < history.compactedRv)
    return { kind: 'expired', status: statuses.tooOldResourceVersion(requested, history.compactedRv + 1) }
  return { kind: 'replay', after: requested }
}
