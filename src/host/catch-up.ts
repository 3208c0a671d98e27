// Keeping a host's local state level with its scope in the change log: the wake-up bookkeeping, catch-up (replaying
// what the log holds past the applied mark, or rebuilding when the log no longer reaches back), and the recovery of a
// batch whose commit threw.
import type { Change, LogEntry } from '../registry/store'
import type { ChangeLog } from './change-log'
import type { HostState, ObjectStore } from './object-store'

const CATCH_UP_PAGE = 1000
/** Bump when needsAttention changes meaning: stored attention lists are rebuilt on the next wake-up. */
const ATTENTION_VERSION = '4'

/** What catching up needs from its host. */
interface LogFollower {
  objects: ObjectStore
  log: ChangeLog
  /** '' for the cluster scope, the namespace name otherwise. */
  scope: string
  /** Applies entries found in the log exactly as a commit's (store, watchers, expiries, controllers). */
  applied(entries: LogEntry[]): Promise<void>
  /** The log no longer reaches back to this host: its objects were rebuilt and its watchers must re-list. */
  rebuilt(oldestRv: number): void
}

/** The bookkeeping of every wake-up, before catch-up. */
export function noteWakeUp(objects: ObjectStore, state: HostState): void {
  // Counted so operators (and the benchmark) can see that idle watchers cost no wake-ups.
  state.set('wakes', String(Number(state.get('wakes') ?? '0') + 1))
  if (state.get('attention') !== ATTENTION_VERSION) {
    objects.rebuildAttention()
    state.set('attention', ATTENTION_VERSION)
  }
}

/** Replays committed changes of this scope from the change log. */
export async function catchUp(host: LogFollower): Promise<void> {
  const { objects, log, scope } = host
  for (;;) {
    const from = objects.currentRv
    const compacted = await log.compactedRv()
    if (from < compacted) {
      // The log no longer reaches back to us: rebuild from the object index.
      const [current, rv] = await Promise.all([log.objectsIn(scope), log.currentRv()])
      objects.reset(current, rv)
      host.rebuilt(compacted + 1)
      return
    }
    const entries = await log.changesFor(scope, from, CATCH_UP_PAGE)
    if (entries.length === 0) return
    // Changes found in the log (a commit whose answer was lost, or a crash before the local apply) are news to
    // the watchers and controllers too: deliver them like any commit.
    const fresh = entries.filter((e) => e.rv > objects.currentRv)
    await host.applied(fresh)
    if (entries.length < CATCH_UP_PAGE) return
  }
}

/**
 * Whether a batch whose commit threw landed in the log. This host is the only writer of its scope and was caught
 * up before the flush, so anything in the log past its applied resourceVersion is that batch, or nothing is.
 */
export async function recoverBatch(
  host: Pick<LogFollower, 'objects' | 'log' | 'scope'>,
  changes: Change[],
): Promise<number[] | null> {
  const found = await host.log.changesFor(host.scope, host.objects.currentRv, changes.length + 1)
  if (found.length === 0) return null
  const same =
    found.length === changes.length &&
    found.every(
      (e, i) => e.resource === changes[i]!.resource && e.name === changes[i]!.name && e.type === changes[i]!.type,
    )
  if (!same)
    throw new Error(`the log holds ${found.length} unexpected change(s) of ${host.scope || 'the cluster scope'}`)
  return found.map((e) => e.rv)
}
