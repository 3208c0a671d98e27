// Opening a host's watch socket: where the watch starts (decideWatchStart), the replay it asked for, then membership
// in the broadcast, with no await in between.
import type { LogEntry } from '../registry/store'
import { apiVersionOf, resourceKey } from '../registry/resource'
import { resourceByPlural } from '../registry/resources'
import { watchFilter } from '../registry/selectors'
import { statuses, type Status } from '../registry/status'
import { bookmark, eventFor, matchesFilter, type WatchEvent } from '../registry/watch-events'
import type { WatchRequest } from '../registry/watch-request'
import { decideWatchStart, fromScratch } from '../registry/watch-start'
import type { ChangeLog } from './change-log'
import type { ObjectStore } from './object-store'
import type { WatchSocket } from './watch-membership'
import type { Watchers } from './watchers'

/** What opening a watch needs from its host. */
interface WatchSocketHost {
  objects: ObjectStore
  log: ChangeLog
  watchers: Watchers
  /** '' for the cluster scope, the namespace name otherwise. */
  scope: string
  /** Waits out in-flight commits, then refuses (a Status) a resourceVersion newer than the cluster's. */
  ensureFresh(minRv: number): Promise<Status | null>
}

/** A refusal before the socket opens, or the events to send once it has (then maybe close). */
export type WatchOpening = { refused: Status } | { accept(socket: WatchSocket): void }

/**
 * Prepares a watch: everything that awaits (freshness, reading the change log further back than local history)
 * happens here; the returned accept() joins the socket and sends the replay without yielding, so no commit can slip
 * between the replay and the live events.
 */
export async function prepareWatch(req: WatchRequest, host: WatchSocketHost): Promise<WatchOpening> {
  const def = resourceByPlural(req.resource)
  if (!def) return { refused: statuses.pathNotFound() }
  const { objects, log } = host
  if (!fromScratch(req.ask)) {
    const stale = await host.ensureFresh(Number(req.ask.resourceVersion))
    if (stale) return { refused: stale }
  }
  const requested = fromScratch(req.ask) ? 0 : Number(req.ask.resourceVersion)
  const needsLog = !fromScratch(req.ask) && requested < objects.historyFloor
  // ensureFresh passed: the cluster has reached `requested`, even when this namespace's newest change is older.
  const currentRv = Math.max(objects.currentRv, requested)
  const plan = decideWatchStart(req.ask, { currentRv, compactedRv: needsLog ? await log.compactedRv() : 0 })
  if (plan.kind === 'refused') return { refused: plan.status }
  const older: LogEntry[] = []
  if (plan.kind === 'replay' && plan.after < objects.historyFloor) {
    // Older than local history: read the log up to where local history takes over.
    let from = plan.after
    while (from < objects.historyFloor) {
      const page = await log.changesFor(host.scope, from, 1000)
      if (page.length === 0) break
      for (const e of page) if (e.rv <= objects.historyFloor) older.push(e)
      from = page[page.length - 1]!.rv
      if (page.length < 1000) break
    }
  }
  const filter = watchFilter(def.strategy, req.selectors)

  return {
    accept(socket) {
      // ---- nothing below awaits ----
      const current = objects.currentRv
      host.watchers.accept(socket, {
        resource: resourceKey(def),
        selectors: req.selectors,
        bookmarks: req.bookmarks,
        from: current,
      })
      const send = (ev: WatchEvent) => host.watchers.send(socket, ev)
      if (plan.kind === 'expired') {
        send({ type: 'ERROR', object: plan.status })
        socket.close(1000, 'too old resource version')
      } else if (plan.kind === 'initial') {
        for (const s of objects.all(resourceKey(def)))
          if (matchesFilter(filter, s.object)) send({ type: 'ADDED', object: s.object })
        if (plan.endBookmark) send(bookmark(def.kind, apiVersionOf(def), current, true))
      } else {
        let last = plan.after
        const replay = (e: LogEntry) => {
          if (e.resource !== resourceKey(def) || e.rv <= last) return
          last = e.rv
          const ev = eventFor(filter, e.type, e.object, e.prev)
          if (ev) send(ev)
        }
        for (const e of older) replay(e)
        for (const e of objects.historySince(Math.max(plan.after, last))) replay(e)
      }
    },
  }
}
