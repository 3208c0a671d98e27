// The generic host of one scope (a namespace, or the cluster's own objects): a façade over parts with small
// interfaces (local state, change log, write queue, watchers, alarms, controllers) and a policy for what its kind of
// scope adds. Every write, a client's or a controller's, takes one path: verb → plan with the kind's strategy → the
// write queue → commit to the log → apply locally → watchers, controllers → answer. Its parts: host-parts.ts (what it
// is composed of), host-commits.ts (the write path after planning), host-controllers.ts, host-alarm.ts.
import type { ListPage } from '../registry/list'
import type { ResourceDef } from '../registry/resource'
import { fail, ok, statuses, type Result, type Status } from '../registry/status'
import { planRemoval } from '../registry/store-delete'
import type { StrategyContext } from '../registry/strategy'
import type { WatchRequest } from '../registry/watch-request'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { ChangeLog } from './change-log'
import type { ControllerHost, Desired, Mutation } from './controller'
import { noteWakeUp } from './catch-up'
import { HostAlarm } from './host-alarm'
import { HostCommits } from './host-commits'
import { HostControllers } from './host-controllers'
import type { HostParts } from './host-parts'
import { CreationTokens } from './creation-tokens'
import { Expiries } from './expiry'
import { ensureFresh, getObject, listLocal } from './reads'
import type { ListQuery, PatchOptions, PatchType, Snapshot, WriteAnswer, WriteOptions } from './rpc-types'
import { prepareWatch, type WatchOpening } from './watch-socket'
import type { WriteQueue } from './write-queue'
import { planMutateVerb } from './mutation-plans'
import { defFor, type PlanningHost, planningHostOf } from './planning-host'
import { planCreateVerb, planDeleteVerb, planPatchVerb, planReconcileVerb, planUpdateVerb } from './write-plans'
import { nameForAdmission } from './host-policy'

export class ObjectHost {
  readonly scope: string
  readonly queue: WriteQueue
  /** What controllers see of this host. */
  readonly controllerView: ControllerHost
  private readonly expiries: Expiries
  private readonly tokens: CreationTokens
  private readonly planning: PlanningHost
  /** The resourceVersion of this wake-up: the version snapshot answers for resources unchanged since. */
  private wokeAtRv = 0
  private readonly controllers: HostControllers
  private readonly commits: HostCommits
  private readonly alarmClock: HostAlarm

  constructor(private readonly parts: HostParts) {
    const { local, log, policy } = parts
    this.scope = parts.scope
    this.expiries = new Expiries(local.expiries)
    this.tokens = new CreationTokens(local.tokens)
    this.planning = planningHostOf(this.scope, local.objects, policy, () => this.strategyContext())
    this.controllers = new HostControllers(parts.controllers, this, parts.alarms)
    this.controllerView = this.controllers.shared
    this.commits = new HostCommits({
      scope: this.scope,
      objects: local.objects,
      log,
      watchers: parts.watchers,
      policy,
      expiries: this.expiries,
      controllers: this.controllers,
      commitListeners: parts.commitListeners ?? [],
      scheduleAlarm: () => this.alarmClock.schedule(),
    })
    this.queue = this.commits.queue
    this.alarmClock = new HostAlarm({
      alarms: parts.alarms,
      expiries: this.expiries,
      policy,
      controllers: this.controllers,
      objects: local.objects,
      queue: this.queue,
      strategyContext: () => this.strategyContext(),
    })
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
    await this.commits.catchUp()
    this.wokeAtRv = this.objects.currentRv
    this.controllers.resyncAll(Date.now())
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

  /** Loads the kind an ownerReference names when it is served (HostParts.knowKindOf). */
  knowKindOf = (apiVersion: string, kind: string) => this.parts.knowKindOf?.(apiVersion, kind)

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
    const version = Math.max(...resources.map((r) => this.commits.changedAt.get(r) ?? this.wokeAtRv))
    if (version === since) return { version, objects: null }
    return { version, objects: Object.fromEntries(resources.map((r) => [r, this.objects.all(r).map((s) => s.object)])) }
  }

  async create(resource: string, input: KubeObject, opts: WriteOptions = {}): Promise<Result<WriteAnswer>> {
    const def = await this.rowFor(resource, undefined, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    const refused = await this.parts.policy.admitCreate(def, nameForAdmission(input))
    if (refused) return fail(refused)
    // This create's own claim on its token, so a re-plan (a batch deferred it) does not see itself as a twin.
    const me = Symbol('create')
    let warnings: string[] = []
    const answer = await this.commits.write(
      def,
      () => {
        const planned = planCreateVerb(this.planning, def, resource, input, opts, this.tokens, me)
        warnings = planned.warnings ?? []
        return planned
      },
      opts,
    )
    if (opts.idempotencyKey && !opts.dryRun) this.tokens.settle(opts.idempotencyKey, me, answer.ok)
    if (answer.ok && warnings.length) answer.value.warnings = warnings
    return answer
  }

  async update(
    resource: string,
    name: string,
    input: KubeObject,
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    const def = await this.rowFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    let warnings: string[] = []
    const answer = await this.commits.write(
      def,
      () => {
        const planned = planUpdateVerb(this.planning, def, resource, name, input, opts)
        warnings = planned.warnings ?? []
        return planned
      },
      opts,
    )
    if (answer.ok && warnings.length) answer.value.warnings = warnings
    return answer
  }

  /** A read-modify-write next to the state (controllers, binding): see Mutation. */
  async mutate(
    resource: string,
    name: string,
    mutation: Mutation,
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    const def = await this.rowFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    return this.commits.write(def, () => planMutateVerb(this.planning, def, resource, name, mutation, opts), opts)
  }

  /** A controller's level-triggered write (see Desired). */
  async reconcile(
    resource: string,
    name: string,
    decide: (current: KubeObject | null) => Desired,
    opts: WriteOptions = {},
  ): Promise<Result<WriteAnswer>> {
    const def = await this.rowFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    // Learn what admission needs (a namespace's phase) before planning, in case the decision is a create.
    await this.parts.policy.admitCreate(def, name)
    return this.commits.write(def, () => planReconcileVerb(this.planning, def, resource, name, decide, opts), opts)
  }

  /** PATCH: applies the patch to the current object inside the write queue, then updates as a PUT would. */
  async patch(
    resource: string,
    name: string,
    type: PatchType,
    body: string,
    opts: PatchOptions,
  ): Promise<Result<WriteAnswer>> {
    const def = await this.rowFor(resource, opts.subresource, opts.version)
    if (!def) return fail(statuses.pathNotFound())
    // An apply may create: learn what create admission needs before planning, as reconcile does (planning decides).
    if (type === 'apply' && !opts.subresource && !this.objects.exists(resource, name))
      await this.parts.policy.admitCreate(def, name)
    let warnings: string[] = []
    const answer = await this.commits.write(
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
    const def = await this.rowFor(resource)
    if (!def) return fail(statuses.pathNotFound())
    return this.commits.write(def, () => planDeleteVerb(this.planning, def, resource, name, options, opts), opts)
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
  async remove(resource: string, name: string): Promise<boolean> {
    const def = await this.rowFor(resource)
    if (!def) return false
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

  /** The alarm rang: remove what is due, then the policy's and the controllers' timed work (src/host/host-alarm.ts). */
  alarm(now = Date.now()): Promise<void> {
    return this.alarmClock.ring(now)
  }

  /**
   * The row a write plans with, once this isolate knows the kind (a custom kind may not be loaded yet after a wake-up
   * in a new isolate), whoever writes: a client, or a controller (the garbage collector releasing custom resources).
   */
  private async rowFor(resource: string, subresource?: string, version?: string): Promise<ResourceDef | undefined> {
    await this.parts.knowKind?.(resource)
    return defFor(resource, subresource, version)
  }

  private ensureFresh(minRv: number): Promise<Status | null> {
    return ensureFresh({ objects: this.objects, queue: this.queue, log: this.parts.log }, minRv)
  }

  /** Sets the alarm for the earliest work still owed (src/host/host-alarm.ts). */
  scheduleAlarm(): Promise<void> {
    return this.alarmClock.schedule()
  }
}
