// Who is watching: the sockets of a host's watchers with what each asked for, tagged by resource so a commit visits
// only its resource's watchers. HibernatingMembership keeps them with the runtime (ctx.acceptWebSocket and the
// socket attachment, which survive eviction; a spec too large for an attachment goes to SQLite, sql-watch-specs.ts);
// MemoryMembership is its in-memory twin for unit tests.
import type { Selectors } from '../registry/selectors'
import { SqlWatchSpecs } from './sql-watch-specs'

/** The end of a watch a host writes to: a hibernatable WebSocket, or a test's stand-in. */
export interface WatchSocket {
  send(message: string): void
  close(code?: number, reason?: string): void
}

/** What a watcher asked for; kept in the socket's attachment, or in SQLite when its selectors are long. */
export interface WatchSpec {
  resource: string
  selectors?: Selectors
  bookmarks: boolean
  /** Changes at or below this resourceVersion were already sent during the watcher's replay. */
  from: number
}

/** The tag of watchers that asked for bookmarks: a commit finds those few without visiting every socket. */
export const BOOKMARKS_TAG = 'bookmarks'

export interface WatchMembership {
  add(socket: WatchSocket, spec: WatchSpec, tags: string[]): void
  /** Open sockets, all or those carrying `tag`. */
  sockets(tag?: string): WatchSocket[]
  spec(socket: WatchSocket): WatchSpec | null
}

/** An attachment naming a spec kept in SQLite. */
interface StoredSpecRef {
  storedSpec: string
}

/**
 * Selectors longer than this (as JSON) are kept out of the attachment: with the rest of the spec and the structured
 * clone's overhead (two bytes a character for non-Latin-1 text), they stay well under workerd's 16 KiB.
 */
const INLINE_SELECTORS = 4096

export class HibernatingMembership implements WatchMembership {
  /** Attachments never change after accept: deserializing one per socket per commit is the fan-out's main cost. */
  private readonly specs = new WeakMap<WatchSocket, WatchSpec | null>()
  private readonly stored: SqlWatchSpecs

  constructor(private readonly ctx: DurableObjectState) {
    this.stored = new SqlWatchSpecs(ctx.storage.sql)
  }

  add(socket: WatchSocket, spec: WatchSpec, tags: string[]) {
    const ws = socket as WebSocket
    this.ctx.acceptWebSocket(ws, tags)
    if (JSON.stringify(spec.selectors ?? {}).length > INLINE_SELECTORS) {
      // Rare (a selector of hundreds of terms): the specs of sockets gone since the last one are dropped here.
      this.stored.retainOnly(this.storedIds())
      const ref: StoredSpecRef = { storedSpec: crypto.randomUUID() }
      this.stored.put(ref.storedSpec, JSON.stringify(spec))
      ws.serializeAttachment(ref)
    } else {
      ws.serializeAttachment(spec)
    }
    this.specs.set(ws, spec)
  }

  /** The stored specs open sockets name. */
  private storedIds(): Set<string> {
    const ids = new Set<string>()
    for (const ws of this.ctx.getWebSockets()) {
      const a = ws.deserializeAttachment() as Partial<StoredSpecRef> | null
      if (typeof a?.storedSpec === 'string') ids.add(a.storedSpec)
    }
    return ids
  }

  sockets(tag?: string): WatchSocket[] {
    return this.ctx.getWebSockets(tag)
  }

  spec(socket: WatchSocket): WatchSpec | null {
    let spec = this.specs.get(socket)
    if (spec === undefined) {
      const attached = ((socket as WebSocket).deserializeAttachment() as WatchSpec | StoredSpecRef | null) ?? null
      if (attached && 'storedSpec' in attached) {
        const text = this.stored.get(attached.storedSpec)
        spec = text === null ? null : (JSON.parse(text) as WatchSpec)
      } else {
        spec = attached
      }
      this.specs.set(socket, spec)
    }
    return spec
  }
}

export class MemoryMembership implements WatchMembership {
  private members: { socket: WatchSocket; spec: WatchSpec; tags: string[] }[] = []

  add(socket: WatchSocket, spec: WatchSpec, tags: string[]) {
    this.members.push({ socket, spec, tags })
  }

  sockets(tag?: string): WatchSocket[] {
    this.members = this.members.filter((m) => !(m.socket as { closed?: boolean }).closed)
    return this.members.filter((m) => tag === undefined || m.tags.includes(tag)).map((m) => m.socket)
  }

  spec(socket: WatchSocket): WatchSpec | null {
    return this.members.find((m) => m.socket === socket)?.spec ?? null
  }
}

/** A socket for tests and in-memory hosts: it records what it was sent and whether it was closed. */
export class RecordingSocket implements WatchSocket {
  readonly messages: string[] = []
  closed: { code?: number; reason?: string } | null = null

  send(message: string) {
    if (this.closed) throw new Error('socket closed')
    this.messages.push(message)
  }

  close(code?: number, reason?: string) {
    this.closed ??= { code, reason }
  }

  /** The messages as parsed watch events. */
  events(): { type: string; object: Record<string, any> }[] {
    return this.messages.map((m) => JSON.parse(m) as { type: string; object: Record<string, any> })
  }
}
