// What the cluster Durable Object does for service allocation besides answering reserve/release: scheduling and
// running the repair pass on its alarm (only while some reservation is unconfirmed or something was released, so an
// idle cluster object is never woken).
import type { D1Log } from '../../log/d1-log'
import type { Alarms } from '../../host/alarms'
import type { HostState } from '../../host/object-store'
import type { KubeObject } from '../../schema/meta'
import type { Allocated, AllocationRequest, AllocationRow, Holding, ReserveAnswer } from './allocation-types'
import { REPAIR_GRACE_MS, ServiceAllocators, type RepairResult } from './service-allocators'
import { holdingsOf, ownerOf } from '../../registry/strategies/service/service-holdings'
import type { ServiceObject } from '../../registry/strategies/service/service-types'

const REPAIR_AT = 'svc_repair_at'

export class ServiceAllocationHost {
  readonly allocators: ServiceAllocators

  constructor(
    storage: DurableObjectStorage,
    env: Env,
    private readonly log: D1Log,
    private readonly state: HostState,
    private readonly alarms: Alarms,
  ) {
    this.allocators = new ServiceAllocators(storage, {
      serviceCIDR: env.SERVICE_CIDR,
      nodePortRange: env.NODE_PORT_RANGE,
    })
  }

  async reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer> {
    const answer = this.allocators.reserve(owner, request, dryRun)
    if (answer.ok && !dryRun && (answer.clusterIPs.length > 0 || answer.nodePorts.length > 0))
      await this.repairBy(Date.now() + REPAIR_GRACE_MS)
    return answer
  }

  async release(owner: string, what: Allocated | null): Promise<Allocated> {
    const freed = this.allocators.release(owner, what)
    // A release may undo a commit that timed out yet happened: a later pass re-claims what a service still holds.
    if (freed.clusterIPs.length > 0 || freed.nodePorts.length > 0) await this.repairBy(Date.now() + REPAIR_GRACE_MS)
    return freed
  }

  rows(): AllocationRow[] {
    return this.allocators.rows()
  }

  /** The repair pass: what the stored services hold (read from D1) against the allocation table. */
  async repair(graceMs = REPAIR_GRACE_MS): Promise<RepairResult> {
    const readAt = Date.now()
    const services = await this.log.objectsOf('services')
    const holdings: Holding[] = services.map((o: { object: KubeObject }) => {
      const svc = o.object as ServiceObject
      return { owner: ownerOf(svc), ...holdingsOf(svc) }
    })
    const result = this.allocators.repair(holdings, readAt, graceMs)
    for (const f of result.freed)
      console.warn(`service allocation repair: freed ${f.pool} ${f.value} of ${f.owner}, which no service holds`)
    for (const c of result.claimed)
      console.warn(
        `service allocation repair: ${c.owner} holds ${c.pool} ${c.value}, which was not allocated; claimed it`,
      )
    return result
  }

  /** Alarm work: a due repair pass. */
  async onAlarm(now: number): Promise<void> {
    const due = Number(this.state.get(REPAIR_AT) ?? 'NaN')
    if (due <= now) {
      this.state.set(REPAIR_AT, undefined)
      try {
        await this.repair()
      } catch (e) {
        console.error('service allocation repair failed; retrying later', e)
        this.state.set(REPAIR_AT, String(now + REPAIR_GRACE_MS))
        return
      }
      const next = this.allocators.nextRepairAt()
      if (next !== null) this.state.set(REPAIR_AT, String(Math.max(next, now + 1000)))
    }
  }

  /** The earliest alarm this host needs, for the cluster object's alarm scheduling. */
  nextAlarmAt(): number | null {
    const due = this.state.get(REPAIR_AT)
    return due === undefined ? null : Number(due)
  }

  private async repairBy(at: number) {
    const due = this.state.get(REPAIR_AT)
    if (due !== undefined && Number(due) <= at) return
    this.state.set(REPAIR_AT, String(at))
    await this.wakeBy(at)
  }

  private wakeBy(at: number) {
    return this.alarms.wakeAt(at)
  }
}
