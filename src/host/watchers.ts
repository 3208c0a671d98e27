// A host's watchers: joining a watch (with or without bookmarks) and fanning committed changes out to every watcher
// of their resource as watch events, with kube's selector crossing, at most one bookmark per watcher every 10 s on
// commits it does not see, and 410 Expired for all when the host lost history. Membership is a part of its own
// (src/host/watch-membership.ts), so the same fan-out runs over hibernating WebSockets and in-memory sockets.
import type { LogEntry } from '../registry/store'
import { resourceByPlural } from '../registry/resources'
import { apiVersionOf } from '../registry/resource'
import { bookmark, eventFor, type WatchEvent, type WatchFilter } from '../registry/watch-events'
import { watchFilter } from '../registry/selectors'
import { statuses } from '../registry/status'
import { encodeWatchEvent } from '../registry/wire-json'
import { BOOKMARKS_TAG, type WatchMembership, type WatchSocket, type WatchSpec } from './watch-membership'

/** Bookmarks ride on commits a watcher does not see, at most this often, so idle watchers never wake anything. */
const BOOKMARK_EVERY_MS = 10_000
/** Every watch socket carries this tag: the host may hold other sockets (pod log followers). */
const WATCH_TAG = 'watch'

/** Who hears about watchers joining and events leaving (the host's metrics, src/host/durable-metrics.ts). */
interface WatchObserver {
  /** A watcher joined (one leaving is reported by the object's webSocketClose). */
  socketsChanged(): void
  /** `events` events were handed to sockets `seconds` after the commit that made them began. */
  delivered(seconds: number, events: number): void
}

/** A committed entry, with when its commit began when the log told us (the hub reads it from D1). */
type DeliveredEntry = LogEntry & { committedAt?: number }

export class Watchers {
  private readonly filters = new WeakMap<WatchSocket, WatchFilter>()
  private readonly lastBookmark = new WeakMap<WatchSocket, number>()

  constructor(
    private readonly members: WatchMembership,
    private readonly observer?: WatchObserver,
  ) {}

  /** Joins a socket; call it and the replay's sends without an await between, so no commit interleaves. */
  accept(socket: WatchSocket, spec: WatchSpec) {
    this.members.add(
      socket,
      spec,
      spec.bookmarks ? [WATCH_TAG, spec.resource, BOOKMARKS_TAG] : [WATCH_TAG, spec.resource],
    )
    this.observer?.socketsChanged()
  }

  /** What each open watcher asked for (a closing socket no longer counts). */
  openSpecs(): WatchSpec[] {
    const specs: WatchSpec[] = []
    for (const socket of this.members.sockets(WATCH_TAG)) {
      const state = (socket as { readyState?: number }).readyState
      if (state !== undefined && state !== 1) continue
      const spec = this.members.spec(socket)
      if (spec) specs.push(spec)
    }
    return specs
  }

  count(resource?: string): number {
    return this.members.sockets(resource ?? WATCH_TAG).length
  }

  /** Sends one event (or its encoded line); a socket that cannot take it is closed (its client re-lists and re-watches). */
  send(socket: WatchSocket, event: WatchEvent | string): boolean {
    try {
      socket.send(typeof event === 'string' ? event : encodeWatchEvent(event))
      return true
    } catch {
      try {
        socket.close(1011, 'watcher could not keep up')
      } catch {
        // already closed
      }
      return false
    }
  }

  /**
   * Ends every watch with a 410 Expired ERROR event, as kube does for a watcher its history no longer covers: the
   * host rebuilt its objects without the changes in between, so the watchers must re-list.
   */
  expireAll(oldest: number) {
    for (const socket of this.members.sockets(WATCH_TAG)) {
      const spec = this.members.spec(socket)
      if (spec && this.send(socket, { type: 'ERROR', object: statuses.tooOldResourceVersion(spec.from, oldest) })) {
        try {
          socket.close(1000, 'resource version too old')
        } catch {
          // already closed
        }
      }
    }
  }

  private filter(socket: WatchSocket, spec: WatchSpec): WatchFilter {
    let f = this.filters.get(socket)
    if (!f) {
      f = watchFilter(resourceByPlural(spec.resource)!.strategy, spec.selectors)
      this.filters.set(socket, f)
    }
    return f
  }

  /**
   * Delivers committed entries (in rv order) to every watcher of their resources. `committedAt` is when their commit
   * began, for entries that do not carry their own; with neither, the delivery is not timed (a catch-up replay).
   */
  broadcast(entries: readonly DeliveredEntry[], currentRv: number, committedAt?: number) {
    if (entries.length === 0) return
    const byResource = new Map<string, DeliveredEntry[]>()
    const sent = this.observer ? new Map<DeliveredEntry, number>() : null
    for (const e of entries) {
      const list = byResource.get(e.resource)
      if (list) list.push(e)
      else byResource.set(e.resource, [e])
    }
    const bookmarkers = this.members.sockets(BOOKMARKS_TAG)
    // Who got an event only matters to the few watchers that asked for bookmarks.
    const reached = bookmarkers.length > 0 ? new Set<WatchSocket>() : null
    for (const [resource, list] of byResource) this.deliver(resource, list, reached, sent)
    this.bookmark(bookmarks(bookmarkers, reached), currentRv)
    if (sent && sent.size > 0) this.timeDelivery(sent, committedAt)
  }

  /** One observation per commit time: a batch's entries share theirs. */
  private timeDelivery(sent: Map<DeliveredEntry, number>, committedAt: number | undefined) {
    const byTime = new Map<number, number>()
    for (const [e, n] of sent) {
      const at = e.committedAt ?? committedAt
      if (at !== undefined) byTime.set(at, (byTime.get(at) ?? 0) + n)
    }
    const now = Date.now()
    for (const [at, n] of byTime) this.observer!.delivered(Math.max(0, now - at) / 1000, n)
  }

  private deliver(
    resource: string,
    list: DeliveredEntry[],
    reached: Set<WatchSocket> | null,
    sent: Map<DeliveredEntry, number> | null,
  ) {
    const sockets = this.members.sockets(resource)
    // Nobody watches (most writes): nothing is serialized.
    if (sockets.length === 0) return
    const count = (e: DeliveredEntry) => sent?.set(e, (sent.get(e) ?? 0) + 1)
    // The unfiltered line for each entry is serialized once, whatever the number of watchers.
    const plain = list.map((e) => encodeWatchEvent({ type: e.type, object: e.object }))
    const oldest = list[0]!.rv
    for (const socket of sockets) {
      const spec = this.members.spec(socket)
      if (!spec) continue
      const f = this.filter(socket, spec)
      const unfiltered = !f.labelSelector && !f.fieldSelector
      if (unfiltered && spec.from < oldest) {
        // The common case: an unfiltered watcher past its replay gets every line as is.
        for (let i = 0; i < plain.length; i++) {
          if (!this.send(socket, plain[i]!)) break
          count(list[i]!)
        }
        reached?.add(socket)
        continue
      }
      for (let i = 0; i < list.length; i++) {
        const e = list[i]!
        if (e.rv <= spec.from) continue
        const ev = unfiltered ? plain[i]! : eventFor(f, e.type, e.object, e.prev)
        if (!ev) continue
        if (!this.send(socket, ev)) break
        count(e)
        reached?.add(socket)
      }
    }
  }

  private bookmark(sockets: WatchSocket[], currentRv: number) {
    const now = Date.now()
    for (const socket of sockets) {
      const spec = this.members.spec(socket)
      if (!spec?.bookmarks) continue
      if (now - (this.lastBookmark.get(socket) ?? 0) < BOOKMARK_EVERY_MS) continue
      const def = resourceByPlural(spec.resource)
      if (!def) continue
      this.lastBookmark.set(socket, now)
      this.send(socket, bookmark(def.kind, apiVersionOf(def), currentRv))
    }
  }
}

/** Bookmark candidates: watchers that asked for bookmarks and saw nothing of this commit. */
const bookmarks = (sockets: WatchSocket[], reached: Set<WatchSocket> | null) => sockets.filter((s) => !reached?.has(s))

/** The peer closed: complete the close handshake (a no-op when the runtime already did). */
export function closeQuietly(ws: WebSocket, code: number) {
  try {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, 'closed')
  } catch {
    // already closed
  }
}
