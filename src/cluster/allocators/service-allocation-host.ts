// What the cluster Durable Object does for service allocation besides answering reserve/release: scheduling and
// running the repair pass on its alarm (only while some reservation is unconfirmed or something was released, so an
// idle cluster object is never woken), and creating the `kubernetes` service in `default` once the namespaces exist.
import type { D1Log } from '../../log/d1-log'
import type { LocalStore } from '../../host/local-store'
import type { KubeObject } from '../../schema/meta'
import type { Allocated, AllocationRequest, AllocationRow, Holding, ReserveAnswer } from './allocation-types'
import { REPAIR_GRACE_MS, ServiceAllocators, type RepairResult } from './service-allocators'
import { holdingsOf, ownerOf } from '../../registry/strategies/service/service-holdings'
import type { ServiceObject } from '../../registry/strategies/service/service-types'

const REPAIR_AT = 'svc_repair_at'
const KUBERNETES_SERVICE = 'kubernetes_service'
const BOOTSTRAP_RETRY_MS = 1000

export class ServiceAllocationHost {
  readonly allocators: ServiceAllocators

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly log: D1Log,
    private readonly local: LocalStore,
  ) {
    this.allocators = new ServiceAllocators(ctx.storage, { serviceCIDR: env.SERVICE_CIDR, nodePortRange: env.NODE_PORT_RANGE })
  }

  /** On every wake-up: if the `kubernetes` service is still owed, ask for an alarm (no cross-object calls here). */
  async start(): Promise<void> {
    if (!this.local.getState(KUBERNETES_SERVICE)) await this.wakeBy(Date.now())
  }

  async reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer> {
    const answer = this.allocators.reserve(owner, request, dryRun)
    if (answer.ok && !dryRun && (answer.clusterIPs.length > 0 || answer.nodePorts.length > 0)) await this.repairBy(Date.now() + REPAIR_GRACE_MS)
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
    for (const f of result.freed) console.warn(`service allocation repair: freed ${f.pool} ${f.value} of ${f.owner}, which no service holds`)
    for (const c of result.claimed) console.warn(`service allocation repair: ${c.owner} holds ${c.pool} ${c.value}, which was not allocated; claimed it`)
    return result
  }

  /** Alarm work: the owed `kubernetes` service, then a due repair pass. */
  async onAlarm(now: number): Promise<void> {
    if (!this.local.getState(KUBERNETES_SERVICE)) await this.createKubernetesService()
    const due = Number(this.local.getState(REPAIR_AT) ?? 'NaN')
    if (due <= now) {
      this.local.setState(REPAIR_AT, undefined)
      try {
        await this.repair()
      } catch (e) {
        console.error('service allocation repair failed; retrying later', e)
        this.local.setState(REPAIR_AT, String(now + REPAIR_GRACE_MS))
        return
      }
      const next = this.allocators.nextRepairAt()
      if (next !== null) this.local.setState(REPAIR_AT, String(Math.max(next, now + 1000)))
    }
  }

  /** The earliest alarm this host needs, for the cluster object's alarm scheduling. */
  nextAlarmAt(): number | null {
    const times: number[] = []
    if (!this.local.getState(KUBERNETES_SERVICE)) times.push(Date.now() + BOOTSTRAP_RETRY_MS)
    const due = this.local.getState(REPAIR_AT)
    if (due !== undefined) times.push(Number(due))
    return times.length ? Math.min(...times) : null
  }

  /** Creates `default/kubernetes` with the range's first address, through the default namespace's ordinary write path. */
  private async createKubernetesService() {
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        type: 'ClusterIP',
        clusterIP: this.allocators.firstIP,
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
        sessionAffinity: 'None',
      },
    }
    try {
      const r = await this.env.NAMESPACES.getByName('default').create('services', body, { fieldManager: 'kube-apiserver' })
      if (r.ok || r.status.code === 409) this.local.setState(KUBERNETES_SERVICE, '1')
      else console.error('creating the kubernetes service failed; retrying', r.status.message)
    } catch (e) {
      console.error('creating the kubernetes service failed; retrying', e)
    }
  }

  private async repairBy(at: number) {
    const due = this.local.getState(REPAIR_AT)
    if (due !== undefined && Number(due) <= at) return
    this.local.setState(REPAIR_AT, String(at))
    await this.wakeBy(at)
  }

  private async wakeBy(at: number) {
    const current = await this.ctx.storage.getAlarm()
    if (current === null || current > at) await this.ctx.storage.setAlarm(at)
  }
}
