// The controllers a host drives: each one's view of the host (its wake-ups are its own), the earliest time each asked
// to be woken at, and their runs: a resync on every wake-up, a resync of those whose time has come when the alarm
// rings, the hand-off of every commit.
import type { Result } from '../registry/status'
import { ok } from '../registry/status'
import type { LogEntry } from '../registry/store'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { Alarms } from './alarms'
import type { Controller, ControllerHost, Desired, Mutation } from './controller'
import type { ObjectStore } from './object-store'
import type { WriteAnswer, WriteOptions } from './rpc-types'

/** The host's verbs a controller's view writes through (ObjectHost's own). */
interface HostVerbs {
  readonly scope: string
  readonly objects: ObjectStore
  create(resource: string, obj: KubeObject, opts?: WriteOptions): Promise<Result<WriteAnswer>>
  mutate(resource: string, name: string, mutation: Mutation, opts?: WriteOptions): Promise<Result<WriteAnswer>>
  reconcile(
    resource: string,
    name: string,
    decide: (current: KubeObject | null) => Desired,
    opts?: WriteOptions,
  ): Promise<Result<WriteAnswer>>
  delete(resource: string, name: string, options?: DeleteOptions, opts?: WriteOptions): Promise<Result<WriteAnswer>>
  knowKindOf(apiVersion: string, kind: string): Promise<void> | undefined
}

export class HostControllers {
  /** What controllers see of the host; wake-ups asked through it are everyone's. */
  readonly shared: ControllerHost
  /**
   * Each controller's own view and the earliest time it asked to be woken at: an alarm resyncs only the controllers
   * whose time has come, so a kubelet start or an event's expiry does not make every controller walk its objects.
   */
  private readonly views = new Map<Controller, ControllerHost>()
  private readonly dueAt = new Map<Controller | 'all', number>()

  constructor(
    private readonly controllers: readonly Controller[],
    private readonly host: HostVerbs,
    private readonly alarms: Alarms,
  ) {
    this.shared = this.viewFor('all')
    for (const c of controllers) this.views.set(c, this.viewFor(c))
  }

  /** On every wake-up: level-triggered controllers reconcile; nothing they owe is lost with the process. */
  resyncAll(now: number): void {
    for (const c of this.controllers) {
      void c.resync?.(this.viewOf(c), now).catch((e: unknown) => console.error(`controller ${c.name} resync failed`, e))
    }
  }

  /** The alarm rang: resyncs the controllers whose wake-up has come (all of them when a shared one has). */
  async resyncDue(now: number): Promise<void> {
    const everyone = (this.dueAt.get('all') ?? Number.POSITIVE_INFINITY) <= now
    if (everyone) this.dueAt.delete('all')
    for (const c of this.controllers) {
      if (!everyone && (this.dueAt.get(c) ?? Number.POSITIVE_INFINITY) > now) continue
      this.dueAt.delete(c)
      await c.resync?.(this.viewOf(c), now)
    }
  }

  /** Hands a commit to every controller, not awaited: controllers queue their own writes behind this commit. */
  committed(entries: readonly LogEntry[]): void {
    for (const c of this.controllers) {
      c.onCommitted?.(entries, this.viewOf(c))?.catch((e: unknown) => console.error(`controller ${c.name} failed`, e))
    }
  }

  /** The wake-up times still owed (the alarm must be set again for the earliest after it rang for other work). */
  wakeUps(): number[] {
    return [...this.dueAt.values()]
  }

  private viewOf(c: Controller): ControllerHost {
    return this.views.get(c) ?? this.shared
  }

  /** Records a wake-up `who` asked for, then sets the alarm (which keeps the earliest time). */
  private async wakeFor(who: Controller | 'all', at: number): Promise<void> {
    this.dueAt.set(who, Math.min(this.dueAt.get(who) ?? Number.POSITIVE_INFINITY, at))
    await this.alarms.wakeAt(at)
  }

  private viewFor(who: Controller | 'all'): ControllerHost {
    const host = this.host
    const objects = () => host.objects
    const declinedAsNull = (r: Result<WriteAnswer>): Result<WriteAnswer | null> =>
      r.ok && r.value.declined ? ok(null) : r
    return {
      scope: host.scope,
      get: (resource, name) => objects().get(resource, name),
      all: (resource) => objects().all(resource),
      labelsOf: (resource) => objects().labelsOf(resource),
      namesWithLabel: (resource, key, value) => objects().namesWithLabel(resource, key, value),
      attending: (resource) => objects().attending(resource),
      dependents: (uid) => objects().dependents(uid),
      owners: () => objects().owners(),
      attendedResources: () => objects().attendedResources(),
      knowKindOf: (apiVersion, kind) => host.knowKindOf(apiVersion, kind),
      create: (resource, obj, opts) => host.create(resource, obj, opts),
      update: async (resource, name, mutation, opts) =>
        declinedAsNull(await host.mutate(resource, name, mutation, opts)),
      reconcile: async (resource, name, decide, opts) =>
        declinedAsNull(await host.reconcile(resource, name, decide, opts)),
      delete: (resource, name, options, opts) => host.delete(resource, name, options, opts),
      wakeAt: (at) => this.wakeFor(who, at),
    }
  }
}
