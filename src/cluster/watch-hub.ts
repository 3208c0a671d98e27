// The cluster-wide watch hub: serves watches across all namespaces (`GET /api/v1/pods?watch=true`) by reading the
// D1 change log in resourceVersion order, so events from different namespaces are never reordered or lost. Hosts
// poke it after each commit; with no watchers a poke costs nothing, and idle watchers hibernate.
import { DurableObject } from 'cloudflare:workers'
import { D1Log } from '../log/d1-log'
import { configureEncryptionAtRest } from '../registry/at-rest-config'
import { Watchers, closeQuietly } from '../host/watchers'
import { DurableMetrics } from '../host/durable-metrics'
import { HibernatingMembership } from '../host/watch-membership'
import { customKinds } from '../registry/custom/custom-kinds'
import { resourceByPlural } from '../registry/resources'
import { apiVersionOf, resourceKey } from '../registry/resource'
import { statuses } from '../registry/status'
import { bookmark, eventFor, matchesFilter, type WatchEvent } from '../registry/watch-events'
import { selectorsFrom, watchFilter } from '../registry/selectors'
import { listObjects } from '../registry/list'
import { readWatchRequest } from '../registry/watch-request'
import { decideWatchStart } from '../registry/watch-start'

const PAGE = 1000

export class WatchHub extends DurableObject<Env> {
  private readonly log: D1Log
  private readonly watchers: Watchers
  private readonly metrics: DurableMetrics
  /** Every change at or below this has been delivered to the current watchers. */
  private cursor: number | null = null
  /** Delivery and joining are serialized: a joiner's replay must meet the live stream exactly. */
  private chain: Promise<unknown> = Promise.resolve()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The hub reads Secrets from the D1 log: they are stored encrypted.
    configureEncryptionAtRest(env)
    this.log = new D1Log(env.DB)
    this.metrics = new DurableMetrics(ctx, env, 'WatchHub', {
      watches: () => this.watchers.openSpecs(),
      logFollowers: () => 0,
    })
    this.metrics.woke()
    this.watchers = new Watchers(new HibernatingMembership(ctx), this.metrics)
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn)
    this.chain = next.catch(() => undefined)
    return next
  }

  /** Called by hosts after a commit; answers whether anyone watches through the hub (src/host/hub-poke.ts). */
  async poke(): Promise<boolean> {
    // Always behind the mutex: a watcher may be joining right now, and its replay must meet this delivery.
    return this.serial(() => this.deliver())
  }

  private async deliver(): Promise<boolean> {
    if (this.watchers.count() === 0) {
      this.cursor = null
      return false
    }
    // Custom resources' watchers need their kinds known in this isolate (it may have just woken up).
    for (const resource of new Set(this.watchers.openSpecs().map((s) => s.resource)))
      await customKinds.know(resource, this.env.CLUSTER.getByName('cluster'))
    this.cursor ??= Number((await this.ctx.storage.get<number>('cursor')) ?? (await this.log.currentRv()))
    for (;;) {
      const entries = await this.log.changesAfter(this.cursor, PAGE)
      if (entries.length === 0) break
      this.cursor = entries[entries.length - 1]!.rv
      this.watchers.broadcast(entries, this.cursor)
      if (entries.length < PAGE) break
    }
    await this.ctx.storage.put('cursor', this.cursor)
    return true
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('upgrade') !== 'websocket') return Response.json(statuses.pathNotFound(), { status: 404 })
    const url = new URL(request.url)
    return this.serial(() => this.join(url))
  }

  override async webSocketMessage(): Promise<void> {}

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeQuietly(ws, code)
    this.metrics.socketsChanged()
  }

  private async join(url: URL): Promise<Response> {
    const req = readWatchRequest(url)
    if (req) await customKinds.know(req.resource, this.env.CLUSTER.getByName('cluster'))
    const def = req ? resourceByPlural(req.resource) : undefined
    if (!req || !def) return Response.json(statuses.pathNotFound(), { status: 404 })
    // Bring live delivery up to date first, so the replay below ends where the live stream continues.
    await this.deliver()
    const [compactedRv, currentRv] = await Promise.all([this.log.compactedRv(), this.log.currentRv()])
    const plan = decideWatchStart(req.ask, { currentRv, compactedRv })
    if (plan.kind === 'refused') return Response.json(plan.status, { status: plan.status.code })
    const filter = watchFilter(def.strategy, req.selectors)
    const events: WatchEvent[] = []
    let from: number
    if (plan.kind === 'initial') {
      const page = await listObjects(await this.log.listSource(resourceKey(def)), def.strategy, {
        mode: { kind: 'latest' },
        ...selectorsFrom(req.selectors),
      })
      if (!page.ok) return Response.json(page.status, { status: page.status.code })
      from = page.value.resourceVersion
      for (const obj of page.value.items) if (matchesFilter(filter, obj)) events.push({ type: 'ADDED', object: obj })
      if (plan.endBookmark) events.push(bookmark(def.kind, apiVersionOf(def), from, true))
    } else if (plan.kind === 'expired') {
      from = currentRv
      events.push({ type: 'ERROR', object: plan.status })
    } else {
      from = plan.after
      for (;;) {
        const page = await this.log.changesOf(resourceKey(def), from, PAGE)
        for (const e of page) {
          const ev = eventFor(filter, e.type, e.object, e.prev)
          if (ev) events.push(ev)
        }
        if (page.length > 0) from = page[page.length - 1]!.rv
        if (page.length < PAGE) break
      }
      from = Math.max(from, currentRv)
    }
    // With other watchers the cursor stays: they still need what lies between it and this joiner's position.
    this.cursor ??= from
    // Persisted at once: if the hub is evicted before its first delivery, the next poke must resume from here.
    await this.ctx.storage.put('cursor', this.cursor)

    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    this.watchers.accept(server, {
      resource: resourceKey(def),
      selectors: req.selectors,
      bookmarks: req.bookmarks,
      from,
    })
    for (const ev of events) this.watchers.send(server, ev)
    if (plan.kind === 'expired') server.close(1000, 'too old resource version')
    return new Response(null, { status: 101, webSocket: client })
  }
}
