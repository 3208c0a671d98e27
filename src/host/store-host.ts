// The Durable Object base both hosts share: typed RPC verbs over the generic store, the write queue, catch-up from
// the D1 log on start, and graceful-deletion expiry. Subclasses add admission and what follows a commit.
import { DurableObject } from 'cloudflare:workers'
import { D1Log, type LogEntry } from '../log/d1-log'
import { LocalStore } from './local-store'
import { WriteQueue, type JobPlan } from './write-queue'
import { planApply, planCreate, planDelete, planExpiry, planRemoval, planUpdate, type Change, type Manager, type Stored } from '../registry/store'
import { listObjects, type ListMode, type ListPage } from '../registry/list'
import { parseLabelSelector } from '../registry/label-selector'
import { parseFieldSelector } from '../registry/field-selector'
import { statuses, fail, ok, type Result, type Status } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { resourceByPlural } from '../registry/resources'
import { statusDefOf } from '../registry/status-subresource'
import { ephemeralDefOf } from '../registry/ephemeral-containers-subresource'
import type { FieldValidation } from '../registry/decode'
import { applyPatch, decodeApplied, type PatchType } from '../registry/patch/apply-patch'
import { Watchers, closeQuietly } from './watchers'
import { openWatchSocket } from './watch-socket'
import type { Controller, ControllerHost } from './controller'

/** A list request as it crosses RPC: selectors travel as strings. */
export interface ListQuery {
  mode: ListMode
  limit?: number
  labelSelector?: string
  fieldSelector?: string
  /** resourceVersion with NotOlderThan semantics: the list must reflect at least this. */
  minRv?: number
}

export interface WriteOptions {
  dryRun?: boolean
  /** The manager recorded in managedFields (the fieldManager parameter, or derived from the User-Agent). */
  fieldManager?: string
  /** Writes through a subresource (`status`) plan with that subresource's strategy (src/registry/status-subresource.ts). */
  subresource?: string
  /** Creates only: the Idempotency-Key header, a creation token (see README). */
  idempotencyKey?: string
}

export type { PatchType } from '../registry/patch/apply-patch'

export interface PatchOptions extends WriteOptions {
  fieldValidation: FieldValidation
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean
}

/** Answers of the write verbs: the object and whether it was created (201) or not (200). */
export interface WriteAnswer {
  object: KubeObject
  created?: boolean
  /** fieldValidation=Warn findings made inside the host (patch results), for Warning headers. */
  warnings?: string[]
}

const CATCH_UP_PAGE = 1000
/** Bump when needsAttention changes meaning: stored attention lists are rebuilt on the next wake-up. */
const ATTENTION_VERSION = '2'
/** How often (in resourceVersions) a host checks whether the D1 change log needs compacting. */
const COMPACT_EVERY = 1000

/** The answer to a repeated creation token: AlreadyExists pointing at what the first create made. */
function tokenConflict(token: string, seen: { resource: string; name: string; uid: string }, scope: string): Status {
  const def = resourceByPlural(seen.resource)
  const selfLink = def?.namespaced ? `/api/v1/namespaces/${scope}/${seen.resource}/${seen.name}` : `/api/v1/${seen.resource}/${seen.name}`
  const s = statuses.alreadyExists({ resource: seen.resource }, seen.name)
  s.message = `${seen.resource} ${JSON.stringify(seen.name)} already exists: it was created by an earlier request with Idempotency-Key ${JSON.stringify(token)} (${selfLink})`
  s.details = { ...s.details, uid: seen.uid }
  s.metadata = { ...s.metadata, selfLink } as Status['metadata']
  return s
}

const managerOf = (opts: WriteOptions): Manager | undefined =>
  opts.fieldManager ? { name: opts.fieldManager, ...(opts.subresource ? { subresource: opts.subresource } : {}) } : undefined

/** The resource row a write plans with: the kind's own, or that of the subresource it goes through (none: 404). */
function defFor(resource: string, subresource: string | undefined): ResourceDef | undefined {
  const def = resourceByPlural(resource)
  if (!def || subresource === undefined) return def
  if (subresource === 'status') return statusDefOf(def)
  if (subresource === 'ephemeralcontainers') return ephemeralDefOf(def)
  return undefined
}

export abstract class StoreHost extends DurableObject<Env> {
  protected readonly local: LocalStore
  protected readonly log: D1Log
  protected readonly queue: WriteQueue
  protected readonly watchers: Watchers

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.local = new LocalStore(ctx.storage.sql, ctx.storage, Number(env.HISTORY_RETAIN ?? '5000'), (resource, obj) =>
      this.needsAttention(resource, obj),
    )
    this.log = new D1Log(env.DB)
    this.watchers = new Watchers(ctx)
    this.queue = new WriteQueue({
      catchUp: () => this.catchUp(),
      commit: (changes) => this.log.commit(changes, Date.now()),
      applied: (entries) => this.applied(entries),
      recover: (changes) => this.recoverBatch(changes),
      commitFailed: (e) => {
        console.error('D1 commit failed', e)
        this.pendingExpiry.clear()
        return statuses.serviceUnavailable(`the change log is unavailable: ${e instanceof Error ? e.message : String(e)}`)
      },
    })
    // A crash between a D1 commit and the local apply loses nothing: replay the log before serving anything.
    void ctx.blockConcurrencyWhile(async () => {
      // Let subclass constructors finish before start() looks at their fields.
      await Promise.resolve()
      await this.start()
    })
  }

  /** Runs once per wake-up, before any request: catch up from the log (subclasses may add bootstrap work). */
  protected async start(): Promise<void> {
    // Counted so operators (and the benchmark) can see that idle watchers cost no wake-ups.
    this.local.setState('wakes', String(Number(this.local.getState('wakes') ?? '0') + 1))
    if (this.local.getState('attention') !== ATTENTION_VERSION) {
      this.local.rebuildAttention()
      this.local.setState('attention', ATTENTION_VERSION)
    }
    await this.catchUp()
  }

  /** Operational counters: wake-ups since creation, open watchers, the applied resourceVersion. */
  async stats(): Promise<{ wakes: number; watchers: number; appliedRv: number; historyFloor: number }> {
    return {
      wakes: Number(this.local.getState('wakes') ?? '0'),
      watchers: this.watchers.count(),
      appliedRv: this.local.currentRv,
      historyFloor: this.local.historyFloor,
    }
  }

  /** '' for the cluster scope, the namespace name otherwise. */
  protected abstract get scope(): string

  /** Admission for creates (namespace exists and is not terminating...); a Status refuses. */
  protected abstract admitCreate(def: ResourceDef, name: string): Promise<Status | null>
  /** The same check, synchronously, at plan time inside the write queue. */
  protected abstract admitCreateNow(def: ResourceDef, name: string): Status | null

  /** Everything that follows a local apply: watchers, controllers. */
  protected async applied(entries: LogEntry[]): Promise<void> {
    this.local.apply(entries.map((e) => ({ ...e, namespace: this.scope })))
    let hadExpiry = false
    for (const e of entries) {
      const removeAt = e.type === 'MODIFIED' ? this.pendingExpiry.get(`${e.resource}/${e.name}`) : undefined
      if (removeAt !== undefined) {
        this.local.setExpiry(e.resource, e.name, removeAt)
        hadExpiry = true
      }
      // Kinds with a time to live (events) go that long after their last write.
      const ttl = resourceByPlural(e.resource)?.ttlSeconds
      if (ttl && e.type !== 'DELETED') {
        this.local.setExpiry(e.resource, e.name, Date.now() + ttl * 1000)
        hadExpiry = true
      }
    }
    this.pendingExpiry.clear()
    this.watchers.broadcast(entries, this.local.currentRv)
    this.maybeCompact(entries[entries.length - 1]?.rv ?? 0)
    this.pokeHub()
    // Only a graceful deletion (or a subclass) adds a time to wake up at.
    if (hadExpiry || this.nextAlarmAt() !== null) await this.scheduleAlarm()
    // Not awaited: controllers queue their own writes behind this commit.
    for (const c of this.controllers()) {
      c.onCommitted?.(entries, this.controllerHost)?.catch((e: unknown) => console.error(`controller ${c.name} failed`, e))
    }
  }

  private lastCompactionCheck = 0

  /**
   * Keeps the D1 change log bounded (CHANGE_LOG_RETAIN entries). Whichever host's commit crosses the next
   * thousand triggers a small compaction step, off the write path; history below the floor then answers 410.
   */
  private maybeCompact(rv: number) {
    const bucket = Math.floor(rv / COMPACT_EVERY)
    if (bucket <= this.lastCompactionCheck) return
    this.lastCompactionCheck = bucket
    const retain = Number(this.env.CHANGE_LOG_RETAIN ?? '100000')
    if (!Number.isFinite(retain) || retain <= 0 || rv <= retain) return
    this.log.compact(retain).catch((e: unknown) => console.error('change-log compaction failed', e))
  }

  /**
   * Whether a controller of this host still has work with an object; wake-ups only look at those, so a namespace of
   * thousands of settled pods wakes in milliseconds. Must not depend on subclass fields (the store calls it early).
   */
  protected needsAttention(_resource: string, _obj: KubeObject): boolean {
    return false
  }

  /** The controllers this host runs (none by default). */
  protected controllers(): readonly Controller[] {
    return []
  }

  protected get controllerHost(): ControllerHost {
    const host: ControllerHost = {
      scope: this.scope,
      env: this.env,
      get: (resource, name) => this.local.get(resource, name),
      all: (resource) => this.local.all(resource),
      attending: (resource) => this.local.attending(resource),
      dependents: (uid) => this.local.dependents(uid),
      owners: () => this.local.owners(),
      write: (resource, name, plan) => this.internalWrite(resource, name, plan),
      wakeAt: async (at) => {
        const current = await this.ctx.storage.getAlarm()
        if (current === null || current > at) await this.ctx.storage.setAlarm(at)
      },
    }
    return host
  }

  private pendingExpiry = new Map<string, number>()

  private hubPoke: Promise<void> | null = null
  private hubPokeAgain = false

  /**
   * Tells the cluster-wide watch hub there is more in the D1 log. It reads everything after its cursor, so under
   * load one poke in flight (plus one after it) covers any number of commits: no RPC per commit.
   */
  private pokeHub() {
    if (this.hubPoke) {
      this.hubPokeAgain = true
      return
    }
    this.hubPoke = this.env.WATCH_HUB.getByName('hub')
      .poke()
      .catch((e: unknown) => console.error('poking the watch hub failed', e))
      .finally(() => {
        this.hubPoke = null
        if (this.hubPokeAgain) {
          this.hubPokeAgain = false
          this.pokeHub()
        }
      })
  }

  /**
   * Whether a batch whose commit threw landed in the log. This host is the only writer of its scope and was caught
   * up before the flush, so anything in the log past its applied resourceVersion is that batch, or nothing is.
   */
  private async recoverBatch(changes: Change[]): Promise<number[] | null> {
    const found = await this.log.changesFor(this.scope, this.local.currentRv, changes.length + 1)
    if (found.length === 0) return null
    const same =
      found.length === changes.length &&
      found.every((e, i) => e.resource === changes[i]!.resource && e.name === changes[i]!.name && e.type === changes[i]!.type)
    if (!same) throw new Error(`the log holds ${found.length} unexpected change(s) of ${this.scope || 'the cluster scope'}`)
    return found.map((e) => e.rv)
  }

  /** Replays committed changes of this scope from the D1 log. */
  protected async catchUp(): Promise<void> {
    for (;;) {
      const from = this.local.currentRv
      const compacted = await this.log.compactedRv()
      if (from < compacted) {
        // The log no longer reaches back to us: rebuild from the object index.
        const [objects, rv] = await Promise.all([this.log.objectsIn(this.scope), this.log.currentRv()])
        this.local.reset(objects, rv)
        this.watchers.expireAll(compacted + 1)
        return
      }
      const entries = await this.log.changesFor(this.scope, from, CATCH_UP_PAGE)
      if (entries.length === 0) return
      // Changes found in the log (a commit whose answer was lost, or a crash before the local apply) are news to
      // the watchers and controllers too: deliver them like any commit.
      const fresh = entries.filter((e) => e.rv > this.local.currentRv)
      this.local.apply(fresh)
      this.watchers.broadcast(fresh, this.local.currentRv)
      for (const c of this.controllers()) {
        c.onCommitted?.(fresh, this.controllerHost)?.catch((e: unknown) => console.error(`controller ${c.name} failed`, e))
      }
      if (entries.length < CATCH_UP_PAGE) return
    }
  }

  // ---- RPC verbs -------------------------------------------------------------------------------------------

  async get(resource: string, name: string): Promise<Result<KubeObject>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    const found = this.local.get(resource, name)
    return found ? ok(found.object) : fail(statuses.notFound({ resource, group: def.group || undefined }, name))
  }

  async list(resource: string, q: ListQuery): Promise<Result<ListPage>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    const labelSelector = q.labelSelector ? parseLabelSelector(q.labelSelector) : undefined
    if (labelSelector && !labelSelector.ok) return fail(statuses.badRequest(labelSelector.message))
    const fieldSelector = q.fieldSelector ? parseFieldSelector(q.fieldSelector) : undefined
    if (fieldSelector && !fieldSelector.ok) return fail(statuses.badRequest(fieldSelector.message))
    let floor = q.mode.kind === 'exact' ? q.mode.rv : q.minRv
    if (floor !== undefined) {
      const fresh = await this.ensureFresh(floor)
      if (fresh) return fail(fresh)
    }
    const page = await listObjects(this.local.listSource(resource), def.strategy, {
      mode: q.mode,
      limit: q.limit,
      labelSelector: labelSelector?.selector,
      fieldSelector: fieldSelector?.selector,
    })
    if (page.ok && q.minRv !== undefined && q.mode.kind !== 'exact') {
      page.value.resourceVersion = Math.max(page.value.resourceVersion, q.minRv)
    }
    return page
  }

  async create(resource: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    const refused = await this.admitCreate(def, input.metadata?.name ?? '')
    if (refused) return fail(refused)
    const token = opts.idempotencyKey
    // This create's own reservation of its token, so a re-plan (a batch deferred it) does not see itself as a twin.
    const me = Symbol('create')
    const answer = await this.write(def, () => {
      const refusedNow = this.admitCreateNow(def, input.metadata?.name ?? '')
      if (refusedNow) return { plan: fail(refusedNow) }
      if (token) {
        const pending = this.pendingTokens.get(token)
        const seen = (pending && pending.owner !== me ? pending : null) ?? this.local.creationToken(token)
        if (seen) return { plan: fail(tokenConflict(token, seen, this.scope)) }
      }
      const plan = planCreate(def, this.strategyContext(), input, (n) => this.local.exists(resource, n), managerOf(opts))
      if (plan.ok && token && !opts.dryRun) {
        this.pendingTokens.set(token, { resource, name: plan.value.name, uid: plan.value.object.metadata.uid ?? '', owner: me })
      }
      return { plan: plan.ok ? ok({ change: plan.value, object: plan.value.object, created: true }) : plan }
    }, opts)
    if (token && !opts.dryRun) {
      const pending = this.pendingTokens.get(token)
      if (pending?.owner === me) {
        this.pendingTokens.delete(token)
        // Only a committed create claims its token; a refused or failed one leaves it free for the retry.
        if (answer.ok) this.local.recordCreationToken(token, pending.resource, pending.name, pending.uid, Date.now())
      }
    }
    return answer
  }

  /** Tokens of creates planned but not yet committed: a duplicate queued behind its twin must see them. */
  private pendingTokens = new Map<string, { resource: string; name: string; uid: string; owner: symbol }>()

  async update(resource: string, name: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => {
      const plan = planUpdate(def, this.strategyContext(), name, input, this.local.get(resource, name), managerOf(opts))
      return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
    }, opts)
  }

  /** PATCH: applies the patch to the current object inside the write queue, then updates as a PUT would. */
  async patch(resource: string, name: string, type: PatchType, body: string, opts: PatchOptions): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource)
    if (!def) return fail(statuses.pathNotFound())
    let warnings: string[] = []
    const answer = await this.write(def, () => {
      const current = this.local.get(resource, name)
      if (type === 'apply') {
        const applied = decodeApplied(def, body, opts.fieldValidation)
        if (!applied.ok) return { plan: applied }
        warnings = applied.value.warnings
        // A subresource is never created by applying to it.
        if (!current && opts.subresource) return { plan: fail(statuses.notFound({ resource, group: def.group || undefined }, name)) }
        if (!current) {
          const refused = this.admitCreateNow(def, name)
          if (refused) return { plan: fail(refused) }
        }
        const plan = planApply(def, this.strategyContext(), name, applied.value.object, current, (n) => this.local.exists(resource, n), opts.fieldManager ?? 'unknown', opts.force ?? false, opts.subresource)
        return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object, created: plan.value.created }) : plan }
      }
      if (!current) return { plan: fail(statuses.notFound({ resource, group: def.group || undefined }, name)) }
      const patched = applyPatch(def, current.object, type, body, opts.fieldValidation)
      if (!patched.ok) return { plan: patched }
      warnings = patched.value.warnings
      const plan = planUpdate(def, this.strategyContext(), name, patched.value.object, current, managerOf(opts))
      return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
    }, opts)
    if (answer.ok) answer.value.warnings = warnings
    return answer
  }

  async delete(resource: string, name: string, options: DeleteOptions = {}, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => {
      const plan = planDelete(def, this.strategyContext(), name, this.local.get(resource, name), options)
      if (!plan.ok) return { plan }
      return { plan: ok({ change: plan.value.change, object: plan.value.object }), removeAt: plan.value.removeAt }
    }, opts)
  }

  /** Deletes every object the query selects (as of now), each as its own DELETE. Answers the deleted objects. */
  async deleteCollection(resource: string, q: ListQuery, options: DeleteOptions = {}, opts: WriteOptions = {}): Promise<Result<ListPage>> {
    const page = await this.list(resource, { ...q, mode: { kind: 'latest' }, limit: undefined })
    if (!page.ok) return page
    const deleted: KubeObject[] = []
    for (const item of page.value.items) {
      const r = await this.delete(resource, item.metadata.name!, options, opts)
      if (r.ok) deleted.push(r.value.object)
      else if (r.status.code !== 404) return fail(r.status)
    }
    return ok({ items: deleted, resourceVersion: this.local.currentRv })
  }

  // ---- watch ----------------------------------------------------------------------------------------------

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/watch' && request.headers.get('upgrade') === 'websocket') return this.openWatch(url)
    return Response.json(statuses.pathNotFound(), { status: 404 })
  }

  override async webSocketMessage(): Promise<void> {
    // Watch clients have nothing to say; kube ignores what they send.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeQuietly(ws, code)
  }

  /** Opens a hibernatable watch socket (src/host/watch-socket.ts). */
  protected openWatch(url: URL): Promise<Response> {
    return openWatchSocket(url, {
      local: this.local,
      log: this.log,
      watchers: this.watchers,
      scope: this.scope,
      ensureFresh: (rv) => this.ensureFresh(rv),
    })
  }

  // ---- internals -------------------------------------------------------------------------------------------

  protected strategyContext() {
    return { now: new Date(), namespace: this.scope }
  }

  /**
   * Runs a planned write through the queue. A dry run plans against the same state but commits nothing; the
   * would-be object is answered without a resourceVersion.
   */
  protected write(
    def: ResourceDef,
    planner: () => { plan: Result<{ change: Change | null; object: KubeObject; created?: boolean }>; removeAt?: number },
    opts: WriteOptions,
  ): Promise<Result<WriteAnswer>> {
    return this.queue.submit<Result<WriteAnswer>>(async () => {
      const { plan, removeAt } = planner()
      if (!plan.ok) return { changes: [], finish: () => plan }
      const { change, object, created } = plan.value
      let rollback: (() => Promise<void>) | undefined
      if (change) {
        // Reservations outside this object (cluster-wide IPs and ports) happen after validation, as kube's
        // BeginCreate/BeginUpdate hooks do, and are undone if the change does not commit.
        const begun = await this.beginChange(def, change, opts.dryRun ?? false)
        if (begun.status) return { changes: [], finish: () => fail<WriteAnswer>(begun.status!) }
        rollback = begun.rollback
      }
      if (opts.dryRun || change === null) {
        if (opts.dryRun) delete object.metadata.resourceVersion
        await rollback?.()
        return { changes: [], finish: () => ok({ object: change?.object ?? object, created }) }
      }
      if (removeAt !== undefined) this.pendingExpiry.set(`${def.plural}/${change.name}`, removeAt)
      return {
        changes: [change],
        finish: (entries: LogEntry[]) => ok({ object: entries[0]!.object, created }),
        rollback,
      } satisfies JobPlan<Result<WriteAnswer>>
    }, (answer) => fail(answer as Status))
  }

  /**
   * Called for every planned change before it commits (dry runs too): a subclass reserves what the change needs
   * outside this object and may fill the results into change.object. A Status refuses the write.
   */
  protected async beginChange(_def: ResourceDef, _change: Change, _dryRun: boolean): Promise<{ status?: Status; rollback?: () => Promise<void> }> {
    return {}
  }

  /**
   * Queues an internal write (controllers, the kubelet simulation): `plan` sees the current object and answers the
   * change to make, or null for none. No managedFields owner, no admission.
   */
  protected async internalWrite(resource: string, name: string, plan: (current: Stored | null) => Change | null): Promise<LogEntry | null> {
    return this.queue.submit(() => {
      const change = plan(this.local.get(resource, name))
      return { changes: change ? [change] : [], finish: (entries: LogEntry[]) => entries[0] ?? null }
    })
  }

  /** Waits out in-flight commits, then checks a requested resourceVersion against the cluster's newest. */
  protected async ensureFresh(minRv: number): Promise<Status | null> {
    if (minRv <= this.local.currentRv) return null
    await this.queue.idle()
    if (minRv <= this.local.currentRv) return null
    let current = await this.log.currentRv()
    if (minRv > current) {
      // kube waits a little for the store to catch up before giving up.
      await new Promise((r) => setTimeout(r, 1000))
      current = await this.log.currentRv()
      if (minRv > current) return statuses.tooLargeResourceVersion(minRv, current)
    }
    return null
  }

  /** Extra alarm times a subclass needs (the base handles graceful-deletion expiry). */
  protected nextAlarmAt(): number | null {
    return null
  }

  protected async scheduleAlarm() {
    const times = [this.local.nextExpiry(), this.nextAlarmAt()].filter((t): t is number => t !== null)
    if (times.length === 0) return
    const next = Math.min(...times)
    const current = await this.ctx.storage.getAlarm()
    if (current === null || current > next) await this.ctx.storage.setAlarm(next)
  }

  override async alarm(): Promise<void> {
    const now = Date.now()
    for (const { resource, name } of this.local.dueExpiries(now)) {
      const def = resourceByPlural(resource)
      if (!def) {
        this.local.clearExpiry(resource, name)
        continue
      }
      await this.queue.submit(() => {
        const current = this.local.get(resource, name)
        const change = def.ttlSeconds && current ? planRemoval(def, this.strategyContext(), current) : planExpiry(def, this.strategyContext(), current)
        if (!change) this.local.clearExpiry(resource, name)
        return { changes: change ? [change] : [], finish: () => undefined }
      })
    }
    await this.onAlarm(now)
    for (const c of this.controllers()) await c.resync?.(this.controllerHost, now)
    await this.scheduleAlarm()
  }

  /** Subclass alarm work. */
  protected async onAlarm(_now: number): Promise<void> {}

  /** Exposed for tests and the cluster host: the stored object with its resourceVersion. */
  protected stored(resource: string, name: string): Stored | null {
    return this.local.get(resource, name)
  }
}
