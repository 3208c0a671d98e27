// Hibernatable WebSocket watchers inside a Durable Object: accept with tags, keep each watcher's filter in its
// attachment (so it survives eviction), and fan committed changes out as watch events.
import type { LogEntry } from '../log/d1-log'
import { parseLabelSelector } from '../registry/label-selector'
import { parseFieldSelector } from '../registry/field-selector'
import { resourceByPlural } from '../registry/resources'
import { apiVersionOf } from '../registry/resource'
import { bookmark, eventFor, type WatchEvent, type WatchFilter } from '../registry/watch-events'
import { statuses } from '../registry/status'
import { encodeWatchEvent } from '../registry/wire-json'

/** What a watcher asked for; stored in the socket's attachment (well under its 16 KiB cap: selectors are short). */
export interface WatchSpec {
  resource: string
  labelSelector?: string
  fieldSelector?: string
  bookmarks: boolean
  /** Changes at or below this resourceVersion were already sent during the watcher's replay. */
  from: number
}

/** Bookmarks ride on commits a watcher does not see, at most this often, so idle watchers never wake anything. */
const BOOKMARK_EVERY_MS = 10_000
const BOOKMARKS_TAG = 'bookmarks'

export class Watchers {
  private filters = new WeakMap<WebSocket, WatchFilter>()
  /** Attachments never change after accept: deserializing one per socket per commit is the fan-out's main cost. */
  private specs = new WeakMap<WebSocket, WatchSpec | null>()
  private lastBookmark = new WeakMap<WebSocket, number>()

  constructor(private readonly ctx: DurableObjectState) {}

  /** Accepts the server end; call it and the replay sends without an await between, so no commit interleaves. */
  accept(ws: WebSocket, spec: WatchSpec) {
    // The bookmarks tag lets a commit find the few watchers that want bookmarks without visiting every socket.
    this.ctx.acceptWebSocket(ws, spec.bookmarks ? [spec.resource, BOOKMARKS_TAG] : [spec.resource])
    ws.serializeAttachment(spec)
    this.specs.set(ws, spec)
  }

  spec(ws: WebSocket): WatchSpec | null {
    let spec = this.specs.get(ws)
    if (spec === undefined) {
      spec = (ws.deserializeAttachment() as WatchSpec | null) ?? null
      this.specs.set(ws, spec)
    }
    return spec
  }

  filter(ws: WebSocket, spec: WatchSpec): WatchFilter {
    let f = this.filters.get(ws)
    if (!f) {
      f = filterFor(spec)
      this.filters.set(ws, f)
    }
    return f
  }

  count(resource?: string): number {
    return this.ctx.getWebSockets(resource).length
  }

  /** Sends one event (or its encoded line); a socket that cannot take it is closed (its client re-lists and re-watches). */
  send(ws: WebSocket, event: WatchEvent | string): boolean {
    try {
      ws.send(typeof event === 'string' ? event : encodeWatchEvent(event))
      return true
    } catch {
      try {
        ws.close(1011, 'watcher could not keep up')
      } catch {
        // already closed
      }
      return false
    }
  }

  /**
   * Ends every watch with a 410 Expired ERROR event, as kube does for a watcher its history no longer covers: the
   * DO rebuilt its objects without the changes in between, so the watchers must re-list.
   */
  expireAll(oldest: number) {
    for (const ws of this.ctx.getWebSockets()) {
      const spec = this.spec(ws)
      if (spec && this.send(ws, { type: 'ERROR', object: statuses.tooOldResourceVersion(spec.from, oldest) })) {
        try {
          ws.close(1000, 'resource version too old')
        } catch {
          // already closed
        }
      }
    }
  }

  /** Delivers committed entries (in rv order) to every watcher of their resources. */
  broadcast(entries: readonly LogEntry[], currentRv: number) {
    if (entries.length === 0) return
    const byResource = new Map<string, LogEntry[]>()
    for (const e of entries) {
      const list = byResource.get(e.resource)
      if (list) list.push(e)
      else byResource.set(e.resource, [e])
    }
    const now = Date.now()
    const bookmarkers = this.ctx.getWebSockets(BOOKMARKS_TAG)
    // Who got an event only matters to the few watchers that asked for bookmarks.
    const reached = bookmarkers.length > 0 ? new Set<WebSocket>() : null
    for (const [resource, list] of byResource) {
      // The unfiltered line for each entry is serialized once, whatever the number of watchers.
      const plain = list.map((e) => encodeWatchEvent({ type: e.type, object: e.object }))
      const oldest = list[0]!.rv
      for (const ws of this.ctx.getWebSockets(resource)) {
        const spec = this.spec(ws)
        if (!spec) continue
        const f = this.filter(ws, spec)
        if (!f.labelSelector && !f.fieldSelector && spec.from < oldest) {
          // The common case: an unfiltered watcher past its replay gets every line as is.
          for (const line of plain) if (!this.send(ws, line)) break
          reached?.add(ws)
          continue
        }
        for (let i = 0; i < list.length; i++) {
          const e = list[i]!
          if (e.rv <= spec.from) continue
          const ev = !f.labelSelector && !f.fieldSelector ? plain[i]! : eventFor(f, e.type, e.object, e.prev)
          if (!ev) continue
          if (!this.send(ws, ev)) break
          reached?.add(ws)
        }
      }
    }
    for (const ws of bookmarkers) {
      if (reached?.has(ws)) continue
      const spec = this.spec(ws)
      if (!spec?.bookmarks) continue
      if (now - (this.lastBookmark.get(ws) ?? 0) < BOOKMARK_EVERY_MS) continue
      const def = resourceByPlural(spec.resource)
      if (!def) continue
      this.lastBookmark.set(ws, now)
      this.send(ws, bookmark(def.kind, apiVersionOf(def), currentRv))
    }
  }
}

export function filterFor(spec: Pick<WatchSpec, 'resource' | 'labelSelector' | 'fieldSelector'>): WatchFilter {
  const def = resourceByPlural(spec.resource)!
  const label = spec.labelSelector ? parseLabelSelector(spec.labelSelector) : undefined
  const field = spec.fieldSelector ? parseFieldSelector(spec.fieldSelector) : undefined
  return {
    strategy: def.strategy,
    labelSelector: label?.ok ? label.selector : undefined,
    fieldSelector: field?.ok ? field.selector : undefined,
  }
}

/** Parses the internal /watch request a Worker sends to a host. */
export function watchRequest(url: URL) {
  const p = url.searchParams
  const initial = p.get('initial')
  return {
    resource: p.get('resource') ?? '',
    resourceVersion: p.get('rv') ?? '',
    labelSelector: p.get('label') || undefined,
    fieldSelector: p.get('field') || undefined,
    bookmarks: p.get('bookmarks') === '1',
    sendInitialEvents: initial === 'true' ? true : initial === 'false' ? false : undefined,
  }
}

/** Where a watch starts, as kube defines it, and what it watches; null when the resource is not served. */
export interface WatchStart {
  req: ReturnType<typeof watchRequest>
  def: NonNullable<ReturnType<typeof resourceByPlural>>
  filter: WatchFilter
  /** No resourceVersion, or "0". */
  fromScratch: boolean
  /** Synthetic ADDED events for the current state come first. */
  initial: boolean
  /** Changes after this resourceVersion are replayed (when not initial). */
  requested: number
}

export async function watchStart(url: URL, currentRv: () => number | Promise<number>): Promise<WatchStart | null> {
  const req = watchRequest(url)
  const def = resourceByPlural(req.resource)
  if (!def) return null
  const fromScratch = req.resourceVersion === '' || req.resourceVersion === '0'
  const initial = fromScratch ? req.sendInitialEvents !== false : req.sendInitialEvents === true
  // Without a resourceVersion and without initial events, a watch starts at the most recent state.
  const requested = fromScratch ? (initial ? 0 : await currentRv()) : Number(req.resourceVersion)
  return { req, def, filter: filterFor(req), fromScratch, initial, requested }
}

/** The peer closed: complete the close handshake (a no-op when the runtime already did). */
export function closeQuietly(ws: WebSocket, code: number) {
  try {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, 'closed')
  } catch {
    // already closed
  }
}
