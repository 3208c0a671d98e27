// The Durable Object base both hosts share: typed RPC verbs over the generic store, the write queue, catch-up from
// the D1 log on start, and graceful-deletion expiry. Subclasses add admission and what follows a commit.
// The work lives beside it, by concept: the verbs' planning (write-plans.ts, creation-tokens.ts), reads and
// freshness (reads.ts), catch-up and lost-commit recovery (catch-up.ts), expiry and the alarm (expiry.ts), the
// controllers' view (controller-host.ts), the watch hub poke (hub-poke.ts), the compaction trigger (log-compaction.ts).
import { DurableObject } from 'cloudflare:workers'
import { D1Log, type LogEntry } from '../log/d1-log'
import { LocalStore } from './local-store'
import { WriteQueue } from './write-queue'
import type { Change, Stored } from '../registry/store'
import type { ListPage } from '../registry/list'
import { statuses, fail, ok, type Result, type Status } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { resourceByPlural } from '../registry/resources'
import { Watchers, closeQuietly } from './watchers'
import { openWatchSocket } from './watch-socket'
import type { Controller, ControllerHost } from './controller'
import type { ListQuery, PatchOptions, PatchType, WriteAnswer, WriteOptions } from './rpc-types'
import { catchUp, noteWakeUp, recoverBatch } from './catch-up'
import { Expiries } from './expiry'
import { controllerHostOf } from './controller-host'
import { HubPoke } from './hub-poke'
import { CompactionTrigger } from './log-compaction'
import { CreationTokens } from './creation-tokens'
import { ensureFresh, getObject, listLocal } from './reads'
import { defFor, planCreateVerb, planDeleteVerb, planPatchVerb, planUpdateVerb, writeJob, type PlanningHost, type VerbPlan } from './write-plans'

export type { ListQuery, PatchOptions, PatchType, WriteAnswer, WriteOptions } from './rpc-types'

export abstract class StoreHost extends DurableObject<Env> {
  protected readonly local: LocalStore
  protected readonly log: D1Log
  protected readonly queue: WriteQueue
  protected readonly watchers: Watchers
  private readonly expiry: Expiries
  private readonly hub: HubPoke
  private readonly compaction: CompactionTrigger
  private readonly creationTokens: CreationTokens
  /** What the verbs plan against (src/host/write-plans.ts). */
  private readonly planning: PlanningHost

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.local = new LocalStore(ctx.storage.sql, ctx.storage, Number(env.HISTORY_RETAIN ?? '5000'), (resource, obj) =>
      this.needsAttention(resource, obj),
    )
    this.log = new D1Log(env.DB)
    this.watchers = new Watchers(ctx)
    this.expiry = new Expiries(this.local, ctx.storage)
    this.hub = new HubPoke(env)
    this.compaction = new CompactionTrigger(this.log, env)
    this.creationTokens = new CreationTokens(this.local)
    this.planning = {
      scope: () => this.scope,
      strategyContext: () => this.strategyContext(),
      get: (resource, name) => this.local.get(resource, name),
      exists: (resource, name) => this.local.exists(resource, name),
      admitCreateNow: (def, name) => this.admitCreateNow(def, name),
    }
    this.queue = new WriteQueue({
      catchUp: () => this.catchUp(),
      commit: (changes) => this.log.commit(changes, Date.now()),
      applied: (entries) => this.applied(entries),
      recover: (changes) => recoverBatch({ local: this.local, log: this.log, scope: this.scope }, changes),
      commitFailed: (e) => {
        console.error('D1 commit failed', e)
        this.expiry.forget()
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
    noteWakeUp(this.local)
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
    const hadExpiry = this.expiry.record(entries)
    this.watchers.broadcast(entries, this.local.currentRv)
    this.compaction.afterCommit(entries[entries.length - 1]?.rv ?? 0)
    this.hub.poke()
    // Only a graceful deletion (or a subclass) adds a time to wake up at.
    if (hadExpiry || this.nextAlarmAt() !== null) await this.scheduleAlarm()
    this.notifyControllers(entries)
  }

  /** Hands committed entries to the controllers. */
  private notifyControllers(entries: LogEntry[]): void {
    // Not awaited: controllers queue their own writes behind this commit.
    for (const c of this.controllers()) {
      c.onCommitted?.(entries, this.controllerHost)?.catch((e: unknown) => console.error(`controller ${c.name} failed`, e))
    }
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
    return controllerHostOf({
      scope: this.scope,
      env: this.env,
      local: this.local,
      storage: this.ctx.storage,
      internalWrite: (resource, name, plan) => this.internalWrite(resource, name, plan),
      create: (resource, obj, fieldManager) => this.create(resource, obj, { fieldManager }),
    })
  }

  /** Replays committed changes of this scope from the D1 log (src/host/catch-up.ts). */
  protected catchUp(): Promise<void> {
    return catchUp({
      local: this.local,
      log: this.log,
      watchers: this.watchers,
      scope: this.scope,
      notifyControllers: (entries) => this.notifyControllers(entries),
    })
  }

  // ---- RPC verbs -------------------------------------------------------------------------------------------

  /** GET; with `minRv`, only once this host has seen that resourceVersion (504 when the cluster has not reached it). */
  async get(resource: string, name: string, minRv?: number): Promise<Result<KubeObject>> {
    if (minRv !== undefined) {
      const fresh = await this.ensureFresh(minRv)
      if (fresh) return fail(fresh)
    }
    return getObject(this.local, resource, name)
  }

  async list(resource: string, q: ListQuery): Promise<Result<ListPage>> {
    return listLocal(this.local, resource, q, (rv) => this.ensureFresh(rv))
  }

  async create(resource: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    const refused = await this.admitCreate(def, input.metadata?.name ?? '')
    if (refused) return fail(refused)
    const token = opts.idempotencyKey
    // This create's own reservation of its token, so a re-plan (a batch deferred it) does not see itself as a twin.
    const me = Symbol('create')
    const answer = await this.write(def, () => planCreateVerb(this.planning, def, resource, input, opts, this.creationTokens, me), opts)
    if (token && !opts.dryRun) this.creationTokens.settle(token, me, answer.ok)
    return answer
  }

  async update(resource: string, name: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => planUpdateVerb(this.planning, def, resource, name, input, opts), opts)
  }

  /** PATCH: applies the patch to the current object inside the write queue, then updates as a PUT would. */
  async patch(resource: string, name: string, type: PatchType, body: string, opts: PatchOptions): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource)
    if (!def) return fail(statuses.pathNotFound())
    let warnings: string[] = []
    const answer = await this.write(def, () => {
      const planned = planPatchVerb(this.planning, def, resource, name, type, body, opts)
      if (planned.warnings) warnings = planned.warnings
      return planned
    }, opts)
    if (answer.ok) answer.value.warnings = warnings
    return answer
  }

  async delete(resource: string, name: string, options: DeleteOptions = {}, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => planDeleteVerb(this.planning, def, resource, name, options), opts)
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
  protected write(def: ResourceDef, planner: () => VerbPlan, opts: WriteOptions): Promise<Result<WriteAnswer>> {
    const host = { beginChange: this.beginChange.bind(this), expect: this.expiry.expect.bind(this.expiry) }
    return this.queue.submit<Result<WriteAnswer>>(async () => writeJob(host, def, planner(), opts), (answer) => fail(answer as Status))
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
  protected ensureFresh(minRv: number): Promise<Status | null> {
    return ensureFresh({ local: this.local, queue: this.queue, log: this.log }, minRv)
  }

  /** Extra alarm times a subclass needs (the base handles graceful-deletion expiry). */
  protected nextAlarmAt(): number | null {
    return null
  }

  protected async scheduleAlarm() {
    await this.expiry.schedule(this.nextAlarmAt())
  }

  override async alarm(): Promise<void> {
    const now = Date.now()
    await this.expiry.removeDue(now, this.queue, () => this.strategyContext())
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
