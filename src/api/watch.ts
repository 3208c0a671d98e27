// The Worker side of a watch: subscribes to the owning Durable Object (or the cluster-wide hub) over a hibernatable
// WebSocket and relays each event to the client, as a line of a chunked response (what kubectl and client-go use)
// or as a WebSocket message. The Worker holds the client connection so the Durable Object never has to stay awake.
import type { Context } from 'hono'
import type { ResourceDef } from '../registry/resource'
import { statuses, StatusError } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { bookmark } from '../registry/watch-events'
import { apiVersionOf, resourceKey } from '../registry/resource'
import { encodeWatchEvent } from '../registry/wire-json'
import type { ListOptions } from './query'
import { hostFor, type HostApi } from './hosts'
import { watchUrl } from '../registry/watch-request'
import { NO_CACHE, json, negotiate, negotiated } from './respond'
import { negotiateOutputStream, resourceEndpoint } from './negotiation'
import { tableOptions, toTable } from './table'
import { partialObject } from './partial-metadata'
import { watchLines } from './watch-lines'

type Ctx = Context<{ Bindings: Env }>

/** A client that lets this much pile up unread is too slow: it is cut off and will re-list. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024

/**
 * Headers of a streamed watch. `identity` keeps the platform's automatic gzip (and miniflare's emulation of it) off:
 * a compressor buffers, and a watch line that sits in a buffer is a lost event as far as the client can tell.
 */
const STREAM_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': NO_CACHE, 'Content-Encoding': 'identity' }

/** kube's default watch timeout when the client sets none: random in [minRequestTimeout, 2x]. */
const defaultTimeoutSeconds = () => 1800 + Math.floor(Math.random() * 1800)

/**
 * The subprotocol a WebSocket watch accepts: the client's first (what is left once a bearer token subprotocol was
 * taken out, src/auth/bearer.ts), as kube's watch server echoes the one it is offered. None offered: none answered.
 */
function subprotocolHeader(c: Ctx): Record<string, string> {
  const first = c.req.header('sec-websocket-protocol')?.split(',')[0]?.trim()
  return first ? { 'Sec-WebSocket-Protocol': first } : {}
}

export async function serveWatch(c: Ctx, def: ResourceDef, ns: string | null, opts: ListOptions): Promise<Response> {
  // kube's serveWatchHandler: the Table options the list handler's negotiation asked for, then a serializer that
  // writes streams (YAML does not: 406).
  const endpoint = resourceEndpoint({ table: true, custom: def.unstructured !== undefined })
  const convert = (negotiated(c) ?? negotiate(c, endpoint)).convert
  const tableVersion = convert?.kind === 'Table' ? convert.version : undefined
  // Each event's object (bookmarks' too) as PartialObjectMetadata, as kube's watchEmbeddedEncoder transforms it.
  const partialVersion = convert?.kind === 'PartialObjectMetadata' ? convert.version : undefined
  const include = tableVersion ? tableOptions(c.req.query('includeObject')) : 'Metadata'
  negotiateOutputStream(c.req.header('accept') ?? '', endpoint)
  const url = watchUrl({
    resource: resourceKey(def),
    ask: { resourceVersion: opts.resourceVersion ?? '', sendInitialEvents: opts.sendInitialEvents },
    selectors: opts.selectors,
    bookmarks: opts.allowWatchBookmarks,
  })
  const target: Pick<HostApi, 'fetch'> =
    ns === null && def.namespaced ? c.env.WATCH_HUB.getByName('hub') : hostFor(c.env, def, ns ?? '')
  let upstream: Response
  try {
    upstream = await target.fetch(url, { headers: { Upgrade: 'websocket' } })
  } catch (e) {
    throw new StatusError(
      statuses.serviceUnavailable(`watch could not be started: ${e instanceof Error ? e.message : String(e)}`),
    )
  }
  const source = upstream.webSocket
  if (upstream.status !== 101 || !source) {
    // The host's refusal is a Status: written again here so it gets kube's bytes (and pretty) like any other error.
    const body = await upstream.text()
    let status: unknown
    try {
      status = JSON.parse(body)
    } catch {
      return new Response(body, {
        status: upstream.status,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': NO_CACHE },
      })
    }
    return json(c, status, upstream.status)
  }
  const table = tableVersion !== undefined
  const reshape = table || partialVersion !== undefined
  const websocketClient = c.req.header('upgrade')?.toLowerCase() === 'websocket'
  // A version served but not stored needs its events' apiVersion rewritten, and a custom resource whose schema has
  // defaults gets them on every event's object (kube's decoder defaults what it reads: a DELETED object, the initial
  // events and replayed history may predate a default): no pass-through then. Built-in kinds never rewrite.
  const defaults = def.unstructured?.defaultsOnRead === true
  const rewrite = def.storage === false || defaults
  if (websocketClient && !reshape && !opts.timeoutSeconds && !rewrite) {
    // Nothing to transform and no deadline to keep: hand the host's socket to the client, so each event goes from
    // the Durable Object to the client with no Worker code in between (about half the CPU per event).
    return new Response(null, { status: 101, webSocket: source, headers: subprotocolHeader(c) })
  }
  source.accept()

  let first = true
  let lastRv: string | undefined =
    opts.resourceVersion && opts.resourceVersion !== '0' ? opts.resourceVersion : undefined
  /** Turns the host's event line (newline included, as kube ends each event) into what this client asked for. */
  const render = (line: string): string => {
    const needRv = opts.allowWatchBookmarks
    if (!reshape && !needRv && !rewrite) return line
    const ev = JSON.parse(line) as { type: string; object: KubeObject }
    const rv = ev.object?.metadata?.resourceVersion
    if (rv) lastRv = rv
    if (ev.type === 'ERROR') return line
    if (partialVersion) return encodeWatchEvent({ type: ev.type, object: partialObject(ev.object, partialVersion) })
    if (ev.type === 'BOOKMARK') return line
    // kube prints its internal version: a converting version's Table rows come from the stored object.
    const printed = ev.object
    if (rewrite && ev.object?.kind === def.kind) {
      if (def.conversion) ev.object = def.conversion.fromStored(ev.object)
      if (defaults) def.strategy.applyDefaults(ev.object)
      if (def.storage === false) ev.object.apiVersion = apiVersionOf(def)
    }
    if (!table) return rewrite ? encodeWatchEvent(ev) : line
    const t = toTable(
      def,
      [def.conversion ? printed : ev.object],
      { resourceVersion: rv },
      include,
      tableVersion!,
      new Date(),
      first,
    )
    if (def.conversion && include === 'Object' && t.rows[0]) t.rows[0].object = ev.object
    first = false
    return encodeWatchEvent({ type: ev.type, object: t })
  }

  const timeoutMs =
    (opts.timeoutSeconds && opts.timeoutSeconds > 0 ? opts.timeoutSeconds : defaultTimeoutSeconds()) * 1000
  const finalBookmark = () => {
    if (!opts.allowWatchBookmarks || !lastRv) return null
    const b = bookmark(def.kind, apiVersionOf(def), Number(lastRv))
    return encodeWatchEvent(
      partialVersion ? { ...b, object: partialObject(b.object as KubeObject, partialVersion) } : b,
    )
  }

  if (websocketClient) {
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    server.accept()
    let done = false
    const end = (code = 1000, reason = 'watch ended') => {
      if (done) return
      done = true
      clearTimeout(timer)
      try {
        source.close(1000, 'client gone')
      } catch {
        /* closed */
      }
      try {
        server.close(code, reason)
      } catch {
        /* closed */
      }
    }
    const timer = setTimeout(() => {
      const b = finalBookmark()
      if (b)
        try {
          server.send(b)
        } catch {
          /* closed */
        }
      end(1000, 'timeout')
    }, timeoutMs)
    source.addEventListener('message', (e) => {
      try {
        server.send(render(String(e.data)))
      } catch {
        end()
      }
    })
    source.addEventListener('close', () => end())
    source.addEventListener('error', () => end(1011, 'upstream error'))
    server.addEventListener('close', () => end())
    return new Response(null, { status: 101, webSocket: client, headers: subprotocolHeader(c) })
  }

  let done = false
  const body = watchLines(() => end())
  const end = () => {
    if (done) return
    done = true
    clearTimeout(timer)
    try {
      source.close(1000, 'client gone')
    } catch {
      /* closed */
    }
    body.close()
  }
  const write = (line: string) => {
    if (done) return
    body.write(line)
    if (body.pending > MAX_BUFFERED_BYTES) {
      console.warn('closing a watch that cannot keep up')
      done = true
      clearTimeout(timer)
      try {
        source.close(1011, 'watcher could not keep up')
      } catch {
        /* closed */
      }
      body.cut('too slow')
    }
  }
  const timer = setTimeout(() => {
    const b = finalBookmark()
    if (b) write(b)
    end()
  }, timeoutMs)
  source.addEventListener('message', (e) => {
    try {
      write(render(String(e.data)))
    } catch (err) {
      console.error('bad watch event from host', err)
    }
  })
  source.addEventListener('close', () => end())
  source.addEventListener('error', () => end())
  c.req.raw.signal?.addEventListener?.('abort', () => end())
  return new Response(body.readable, { status: 200, headers: STREAM_HEADERS })
}
