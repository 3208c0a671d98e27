// A host's one alarm: what it rings for (removals that fell due, the policy's timed work, the controllers' wake-ups)
// and setting it again, after it rang or after a commit, for the earliest of them.
import { resourceByPlural } from '../registry/resources'
import { planExpiry, planRemoval } from '../registry/store-delete'
import type { StrategyContext } from '../registry/strategy'
import type { Alarms } from './alarms'
import type { Expiries } from './expiry'
import type { HostControllers } from './host-controllers'
import type { HostPolicy } from './host-policy'
import type { ObjectStore } from './object-store'
import type { WriteQueue } from './write-queue'

/** What the alarm reads and writes through: the host's parts. */
interface AlarmParts {
  alarms: Alarms
  expiries: Expiries
  policy: HostPolicy
  controllers: HostControllers
  objects: ObjectStore
  queue: WriteQueue
  strategyContext(): StrategyContext
}

export class HostAlarm {
  constructor(private readonly parts: AlarmParts) {}

  /** The alarm rang: remove what is due, then the policy's and the controllers' timed work. */
  async ring(now: number): Promise<void> {
    for (const { resource, name } of this.parts.expiries.due(now)) await this.removeDue(resource, name)
    await this.parts.policy.onAlarm?.(now)
    await this.parts.controllers.resyncDue(now)
    await this.schedule()
  }

  /**
   * Sets the alarm to the earliest expiry, policy time or controller wake-up still owed. The object has one alarm and
   * it is gone once it rang: an alarm that rang for other work (an expiry, the service allocation repair) before a
   * controller's time must set it again for that controller, or its wake-up is lost (the node lifecycle controller's
   * eviction due in 2 s waited for whatever rang next).
   */
  async schedule(): Promise<void> {
    const { expiries, policy, controllers } = this.parts
    const times = [expiries.next(), policy.nextAlarmAt?.() ?? null, ...controllers.wakeUps()].filter(
      (t): t is number => t !== null,
    )
    if (times.length > 0) await this.parts.alarms.wakeAt(Math.min(...times))
  }

  /** Removes one object whose time has come (graceful deletion over, or its time to live); an early one stays. */
  private async removeDue(resource: string, name: string) {
    const { expiries, objects } = this.parts
    const def = resourceByPlural(resource)
    if (!def) return expiries.clear(resource, name)
    await this.parts.queue.submit(() => {
      const current = objects.get(resource, name)
      const ctx = this.parts.strategyContext()
      const change = def.ttlSeconds && current ? planRemoval(def, ctx, current) : planExpiry(def, ctx, current)
      if (!change) expiries.clear(resource, name)
      return { changes: change ? [change] : [], finish: () => undefined }
    })
  }
}
