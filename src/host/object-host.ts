// The generic host of one scope (a namespace, or the cluster's own objects): a façade over parts with small
// interfaces (local state, change log, write queue, watchers, alarms, controllers) and a policy for what its kind of
// scope adds. Every write, a client's or a controller's, takes one path: verb → plan with the kind's strategy → the
// write queue → commit to the log → apply locally → watchers, controllers → answer.
import type { ListPage } from '../registry/list'
import type { ResourceDef } from '../registry/resource'
import { resourceByPlural } from '../registry/resources'
import { fail, ok, statuses, type Result, type Status } from '../registry/status'
import type { LogEntry } from '../registry/store'
import { planExpiry, planRemoval } from '../registry/store-delete'
import type { StrategyContext } from '../registry/strategy'
import type { WatchRequest } from '../registry/watch-request'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { catchUp, noteWakeUp, recoverBatch } from './catch-up'
import type { ChangeLog } from './change-log'
import type { Controller, ControllerHost, Desired, Mutation } from './controller'
import type { Alarms } from './alarms'
import { CreationTokens } from './creation-tokens'
import { Expiries } from './expiry'
import type { HostPolicy } from './host-policy'
import type { LocalState } from './object-store'
import { ensureFresh, getObject, listLocal } from './reads'
import type { ListQuery, PatchOptions, PatchType, Snapshot, WriteAnswer, WriteOptions } from './rpc-types'
import { prepareWatch, type WatchOpening } from './watch-socket'
import type { Watchers } from './watchers'
import { WriteQueue } from './write-queue'
import { writerOf } from './writer'
import {
  defFor,
  planCreateVerb,
  planDeleteVerb,
  planMutateVerb,
  planPatchVerb,
  planReconcileVerb,
  planUpdateVerb,
  writeJob,
  type PlanningHost,
  type VerbPlan,
} from './write-plans'

export interface HostParts {
  /** '' for the cluster scope, the namespace name otherwise. */
  scope: string
  local: LocalState
  log: ChangeLog
  watchers: Watchers
  alarms: Alarms
  policy: HostPolicy
  controllers: readonly Controller[]
  /** Effects of every commit beyond this host (poking the cluster-wide watch hub, compacting the log). */
  commitListeners?: readonly ((entries: readonly LogEntry[]) => void)[]
  /** The object's metrics (src/host/durable-metrics.ts); in-memory hosts have none. */
  metrics?: { socketsChanged(): void }
  /**
   * Makes sure the kind table knows `resource` before a verb serves it (custom resources arrive at run time: see
   * src/registry/custom/custom-kinds.ts). Answers nothing when nothing needs awaiting.
   */
  knowKind?: (resource: string) => Promise<void> | undefined
}

export class ObjectHost {
  readonly scope: string
  readonly queue: WriteQueue
  /** What controllers see of this host. */
  readonly controllerView: ControllerHost
  private readonly expiries: Expiries
  private readonly tokens: CreationTokens
  private readonly planning: PlanningHost
  /** The resourceVersion of each resource's last change applied since this wake-up (see snapshot). */
  private readonly changedAt = new Map<string, number>()
  private wokeAtRv = 0
  /** When the commit now in flight (commits never overlap) began: watch events are timed from it. */
  private commitStartedAt = 0
  /**
   * Each controller's own view (its wake-ups are its own) and the earliest time it asked to be woken at: an alarm
   * resyncs only the controllers whose time has come, so a kubelet start or an event's expiry does not make every
   * controller walk its objects. Wake-ups asked through the shared controllerView are everyone's.
   */
  private readonly views = new Map<Controller, ControllerHost>()
  private readonly dueAt = new Map<Controller | 'all', number>()

  constructor(private readonly parts: HostParts) {
    const { local, log, policy } = parts
    this.scope = parts.scope
    this.expiries = new Expiries(local.expiries)
    this.tokens = new CreationTokens(local.tokens)
    this.planning = {
      scope: () => this.scope,
      strategyContext: () => this.strategyContext(),
      get: (resource, name) => local.objects.get(resource, name),
      exists: (resource, name) => local.objects.exists(resource, name),
      admitCreateNow: (def, name) => policy.admitCreateNow(def, name),
      writer: (requester) =>
        writerOf(this.scope, requester, {
          all: (resource) => local.objects.all(resource).map((s) => s.object),
          get: (resource, name) => local.objects.get(resource, name)?.object ?? null,
        }),
    }
    this.queue = new WriteQueue({
      catchUp: () => this.catchUp(),
      commit: (changes) => {
        this.commitStartedAt = Date.now()
        return log.commit(changes, this.commitStartedAt)
      },
      applied: (entries) => this.applied(entries, true),
      recover: (changes) => recoverBatch({ objects: local.objects, log, scope: this.scope }, changes),
      commitFailed: (e) => {
        console.error('commit to the change log failed', e)
        this.expiries.forget()
        return statuses.serviceUnavailable(
          `the change log is unavailable: ${e instanceof Error ? e.message : String(e)}`,
        )
      },
    })
    this.controllerView = this.viewForControllers('all')
    for (const c of parts.controllers) this.views.set(c, this.viewForControllers(c))
  }

  get objects() {
    return this.parts.local.objects
  }

  get state() {
    return this.parts.local.state
  }

  get watchers() {
    return this.parts.watchers
  }

  get log(): ChangeLog {
    return this.parts.log
  }

  /** Once per wake-up, before any request: bookkeeping, catch-up from the log, then the controllers' resync. */
  async start(): Promise<void> {
    noteWakeUp(this.objects, this.state)
    await this.catchUp()
    this.wokeAtRv = this.objects.currentRv
    const now = Date.now()
    // Level-triggered controllers reconcile on every wake-up; nothing they owe is lost with the process.
    for (const c of this.parts.controllers) {
      void c.resync?.(this.viewOf(c), now).catch((e: unknown) => console.error(`controller ${c.name} resync failed`, e))
    }
  }

  /** Operational counters: wake-ups since creation, open watchers, the applied resourceVersion. */
  stats(): { wakes: number; watchers: number; appliedRv: number; historyFloor: number } {
    return {
      wakes: Number(this.state.get('wakes') ?? '0'),
      watchers: this.watchers.count(),
      appliedRv: this.objects.currentRv,
      historyFloor: this.objects.historyFloor,
    }
  }

  strategyContext(): StrategyContext {
    return { now: new Date(), namespace: this.scope }
  }

  // ---- verbs ------------------------------------------------------------------------------------------------

  /** GET; with `minRv`, only once this host has seen that resourceVersion (504 when the cluster has not reached it). */
  async get(resource: string, name: string, minRv?: number): Promise<Result<KubeObject>> {
    await this.parts.knowKind?.(resource)
    if (minRv !== undefined) {
      const fresh = await this.ensureFresh(minRv)
      if (fresh) return fail(fresh)
    }
    return getObject(this.objects, resource, name)
  }

  async list(resource: string, q: ListQuery): Promise<Result<ListPage>> {
    await this.parts.knowKind?.(resource)
    return listLocal(this.objects, resource, q, (rv) => this.ensureFresh(rv))
  }

  /**
   * Every object of some resources, for a caller that keeps a copy (the Worker's RBAC cache): `version` changes
   * whenever any of them changes (the resourceVersion of the last such change, or of this wake-up when none has been
   * seen since), and `objects` is null when it equals `since`, the version the caller already holds.
   */
  snapshot(resources: readonly string[], since?: number): Snapshot {
    const version = Math.max(...resources.map((r) => this.changedAt.get(r) ?? this.wokeAtRv))
    if (version === since) return { version, objects: null }
    return { version, objects: Object.fromEntries(resources.map((r) => [r, this.objects.all(r).map((s) => s.object)])) }
  }

  async create(resource: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    await this.parts.knowKind?.(resource)
    const def = defFor(resource, undefined, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    const refused = await this.parts.policy.admitCreate(def, input.metadata?.name ?? '')
    if (refused) return fail(refused)
    // This create's own claim on its token, so a re-plan (a batch deferred it) does not see itself as a twin.
    const me = Symbol('create')
    const answer = await this.write(
      def,
      () => planCreateVerb(this.planning, def, resource, input, opts, this.tokens, me),
      opts,
    )
    if (opts.idempotencyKey && !opts.dryRun) this.tokens.settle(opts.idempotencyKey, me, answer.ok)
    return answer
  }

  async update(
    resource: string,
    name: string,
    input: KubeObject,
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    await this.parts.knowKind?.(resource)
    const def = defFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => planUpdateVerb(this.planning, def, resource, name, input, opts), opts)
  }

  /** A read-modify-write next to the state (controllers, binding): see Mutation. */
  mutate(resource: string, name: string, mutation: Mutation, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource, opts.version)
    if (!def) return Promise.resolve(fail(statuses.pathNotFound()))
    return this.write(def, () => planMutateVerb(this.planning, def, resource, name, mutation, opts), opts)
  }

  /** A controller's level-triggered write (see Desired). */
  async reconcile(
    resource: string,
    name: string,
    decide: (current: KubeObject | null) => Desired,
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    const def = defFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    // Learn what admission needs (a namespace's phase) before planning, in case the decision is a create.
    await this.parts.policy.admitCreate(def, name)
    return this.write(def, () => planReconcileVerb(this.planning, def, resource, name, decide, opts), opts)
  }

  /** PATCH: applies the patch to the current object inside the write queue, then updates as a PUT would. */
  async patch(
    resource: string,
    name: string,
    type: PatchType,
    body: string,
    opts: PatchOptions,
  ): Promise<Result<WriteAnswer>> {
    await this.parts.knowKind?.(resource)
    const def = defFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    let warnings: string[] = []
    const answer = await this.write(
      def,
      () => {
        const planned = planPatchVerb(this.planning, def, resource, name, type, body, opts)
        if (planned.warnings) warnings = planned.warnings
        return planned
      },
      opts,
    )
    if (answer.ok) answer.value.warnings = warnings
    return answer
  }

  async delete(
    resource: string,
    name: string,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    await this.parts.knowKind?.(resource)
    const def = resourceByPlural(resource)
    if (!def) return fail(statuses.pathNotFound())
    return this.write(def, () => planDeleteVerb(this.planning, def, resource, name, options, opts), opts)
  }

  /** Deletes every object the query selects (as of now), each as its own DELETE. Answers the deleted objects. */
  async deleteCollection(
    resource: string,
    q: ListQuery,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): Promise<Result<ListPage>> {
    const page = await this.list(resource, { ...q, mode: { kind: 'latest' }, limit: undefined })
    if (!page.ok) return page
    const deleted: KubeObject[] = []
    for (const item of page.value.items) {
      const r = await this.delete(resource, item.metadata.name!, options, opts)
      if (r.ok) deleted.push(r.value.object)
      else if (r.status.code !== 404) return fail(r.status)
    }
    return ok({ items: deleted, resourceVersion: this.objects.currentRv })
  }

  /** Removes an object whatever holds it (a namespace whose content is gone; an operator's repair). */
  remove(resource: string, name: string): Promise<boolean> {
    const def = resourceByPlural(resource)
    if (!def) return Promise.resolve(false)
    return this.queue.submit(() => {
      const current = this.objects.get(resource, name)
      return {
        changes: current ? [planRemoval(def, this.strategyContext(), current)] : [],
        finish: () => current !== null,
      }
    })
  }

  /** Prepares a watch socket (src/host/watch-socket.ts). */
  async watch(req: WatchRequest): Promise<WatchOpening> {
    await this.parts.knowKind?.(req.resource)
    return prepareWatch(req, {
      objects: this.objects,
      log: this.parts.log,
      watchers: this.watchers,
      scope: this.scope,
      ensureFresh: (rv) => this.ensureFresh(rv),
    })
  }

  /** A socket (a watch, a log follow) closed: the object's gauges of open requests change. */
  socketClosed(): void {
    this.parts.metrics?.socketsChanged()
  }

  /** The alarm rang: remove what is due, then the policy's and the controllers' timed work. */
  async alarm(now = Date.now()): Promise<void> {
    for (const { resource, name } of this.expiries.due(now)) await this.removeDue(resource, name)
    await this.parts.policy.onAlarm?.(now)
    const everyone = (this.dueAt.get('all') ?? Number.POSITIVE_INFINITY) <= now
    if (everyone) this.dueAt.delete('all')
    for (const c of this.parts.controllers) {
      if (!everyone && (this.dueAt.get(c) ?? Number.POSITIVE_INFINITY) > now) continue
      this.dueAt.delete(c)
      await c.resync?.(this.viewOf(c), now)
    }
    await this.scheduleAlarm()
  }

  // ---- the write path ---------------------------------------------------------------------------------------

  /** Queues a verb's plan; a dry run plans against the same state but commits nothing. */
  private write(def: ResourceDef, planner: () => VerbPlan, opts: WriteOptions): Promise<Result<WriteAnswer>> {
    const job = {
      beginChange: this.parts.policy.beginChange?.bind(this.parts.policy) ?? (async () => ({})),
      expect: this.expiries.expect.bind(this.expiries),
    }
    return this.queue.submit<Result<WriteAnswer>>(
      async () => writeJob(job, def, planner(), opts),
      (answer) => fail(answer as Status),
    )
  }

  /** Everything that follows a commit: the local apply, expiries, watchers, the policy, the alarm, controllers. */
  private async applied(entries: LogEntry[], committedHere: boolean): Promise<void> {
    this.objects.apply(entries.map((e) => ({ ...e, namespace: this.scope })))
    for (const e of entries) this.changedAt.set(e.resource, e.rv)
    const hadExpiry = this.expiries.record(entries)
    this.watchers.broadcast(entries, this.objects.currentRv, committedHere ? this.commitStartedAt : undefined)
    for (const listen of this.parts.commitListeners ?? []) listen(entries)
    // Entries replayed from the log at wake-up skip the policy: it talks to other objects, which may be waking too.
    if (committedHere) await this.parts.policy.afterApply?.(entries)
    if (hadExpiry || this.parts.policy.nextAlarmAt?.() != null) await this.scheduleAlarm()
    for (const c of this.parts.controllers) {
      // Not awaited: controllers queue their own writes behind this commit.
      c.onCommitted?.(entries, this.viewOf(c))?.catch((e: unknown) => console.error(`controller ${c.name} failed`, e))
    }
  }

  private catchUp(): Promise<void> {
    return catchUp({
      objects: this.objects,
      log: this.parts.log,
      scope: this.scope,
      applied: (entries) => this.applied(entries, false),
      rebuilt: (oldest) => this.watchers.expireAll(oldest),
    })
  }

  private ensureFresh(minRv: number): Promise<Status | null> {
    return ensureFresh({ objects: this.objects, queue: this.queue, log: this.parts.log }, minRv)
  }

  /** Removes one object whose time has come (graceful deletion over, or its time to live); an early one stays. */
  private async removeDue(resource: string, name: string) {
    const def = resourceByPlural(resource)
    if (!def) return this.expiries.clear(resource, name)
    await this.queue.submit(() => {
      const current = this.objects.get(resource, name)
      const ctx = this.strategyContext()
      const change = def.ttlSeconds && current ? planRemoval(def, ctx, current) : planExpiry(def, ctx, current)
      if (!change) this.expiries.clear(resource, name)
      return { changes: change ? [change] : [], finish: () => undefined }
    })
  }

  /**
   * Sets the alarm to the earliest expiry, policy time or controller wake-up still owed. The object has one alarm and
   * it is gone once it rang: an alarm that rang for other work (an expiry, the service allocation repair) before a
   * controller's time must set it again for that controller, or its wake-up is lost (the node lifecycle controller's
   * eviction due in 2 s waited for whatever rang next).
   */
  async scheduleAlarm(): Promise<void> {
    const times = [this.expiries.next(), this.parts.policy.nextAlarmAt?.() ?? null, ...this.dueAt.values()].filter(
      (t): t is number => t !== null,
    )
    if (times.length > 0) await this.parts.alarms.wakeAt(Math.min(...times))
  }

  private viewOf(c: Controller): ControllerHost {
    return this.views.get(c) ?? this.controllerView
  }

  /** Records a wake-up `who` asked for, then sets the alarm (which keeps the earliest time). */
  private async wakeFor(who: Controller | 'all', at: number): Promise<void> {
    this.dueAt.set(who, Math.min(this.dueAt.get(who) ?? Number.POSITIVE_INFINITY, at))
    await this.parts.alarms.wakeAt(at)
  }

  private viewForControllers(who: Controller | 'all'): ControllerHost {
    const objects = () => this.objects
    const declinedAsNull = (r: Result<WriteAnswer>): Result<WriteAnswer | null> =>
      r.ok && r.value.declined ? ok(null) : r
    return {
      scope: this.scope,
      get: (resource, name) => objects().get(resource, name),
      all: (resource) => objects().all(resource),
      labelsOf: (resource) => objects().labelsOf(resource),
      namesWithLabel: (resource, key, value) => objects().namesWithLabel(resource, key, value),
      attending: (resource) => objects().attending(resource),
      dependents: (uid) => objects().dependents(uid),
      owners: () => objects().owners(),
      create: (resource, obj, opts) => this.create(resource, obj, opts),
      update: async (resource, name, mutation, opts) =>
        declinedAsNull(await this.mutate(resource, name, mutation, opts)),
      reconcile: async (resource, name, decide, opts) =>
        declinedAsNull(await this.reconcile(resource, name, decide, opts)),
      delete: (resource, name, options, opts) => this.delete(resource, name, options, opts),
      wakeAt: (at) => this.wakeFor(who, at),
    }
  }
}
