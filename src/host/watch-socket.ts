// Opening a namespace or cluster DO's watch socket: the replay a watcher asked for, then membership in the
// broadcast, with no await in between.
import type { D1Log, LogEntry } from '../log/d1-log'
import { apiVersionOf } from '../registry/resource'
import { statuses, type Status } from '../registry/status'
import { bookmark, eventFor, matchesFilter, type WatchEvent } from '../registry/watch-events'
import type { LocalStore } from './local-store'
import { watchStart, type Watchers } from './watchers'

/** What opening a watch needs from its host DO. */
export interface WatchSocketHost {
  local: LocalStore
  log: D1Log
  watchers: Watchers
  /** '' for the cluster scope, the namespace name otherwise. */
  scope: string
  /** Waits out in-flight commits, then refuses (a Status) a resourceVersion newer than the cluster's. */
  ensureFresh(minRv: number): Promise<Status | null>
}

/**
 * Opens a hibernatable watch socket: replays what the watcher asked for (current state as ADDED, or every
 * change after its resourceVersion, from local history or, further back, the D1 log), then joins it to the
 * broadcast. All awaiting happens before the socket is accepted; from acceptance to the last replayed event
 * nothing yields, so no commit can slip between the replay and the live events.
 */
export async function openWatchSocket(url: URL, host: WatchSocketHost): Promise<Response> {
  const start = await watchStart(url, () => host.local.currentRv)
  if (!start) return Response.json(statuses.pathNotFound(), { status: 404 })
  const { req, def, filter, fromScratch, initial, requested } = start

  const older: LogEntry[] = []
  let tooOld: WatchEvent | null = null
  if (!fromScratch) {
    const stale = await host.ensureFresh(requested)
    if (stale) return Response.json(stale, { status: stale.code })
  }
  if (!fromScratch && !initial && requested < host.local.historyFloor) {
    const compacted = await host.log.compactedRv()
    if (requested < compacted) {
      tooOld = { type: 'ERROR', object: statuses.tooOldResourceVersion(requested, compacted + 1) }
    } else {
      // Older than local history: read the D1 log up to where local history takes over.
      let from = requested
      while (from < host.local.historyFloor) {
        const page = await host.log.changesFor(host.scope, from, 1000)
        if (page.length === 0) break
        for (const e of page) if (e.rv <= host.local.historyFloor) older.push(e)
        from = page[page.length - 1]!.rv
        if (page.length < 1000) break
      }
    }
  }

  // ---- nothing below awaits ----
  const pair = new WebSocketPair()
  const [client, server] = [pair[0], pair[1]]
  const current = host.local.currentRv
  host.watchers.accept(server, {
    resource: def.plural,
    labelSelector: req.labelSelector,
    fieldSelector: req.fieldSelector,
    bookmarks: req.bookmarks,
    from: current,
  })
  if (tooOld) {
    host.watchers.send(server, tooOld)
    server.close(1000, 'too old resource version')
    return new Response(null, { status: 101, webSocket: client })
  }
  if (initial) {
    for (const s of host.local.all(def.plural)) {
      if (matchesFilter(filter, s.object)) host.watchers.send(server, { type: 'ADDED', object: s.object })
    }
    if (req.sendInitialEvents === true) host.watchers.send(server, bookmark(def.kind, apiVersionOf(def), current, true))
  } else {
    let last = requested
    const replay = (e: LogEntry) => {
      if (e.resource !== def.plural || e.rv <= last) return
      last = e.rv
      const ev = eventFor(filter, e.type, e.object, e.prev)
      if (ev) host.watchers.send(server, ev)
    }
    for (const e of older) replay(e)
    for (const e of host.local.historySince(Math.max(requested, last))) replay(e)
  }
  return new Response(null, { status: 101, webSocket: client })
}
