// The cluster Durable Object: cluster-scoped objects (namespaces, nodes), the scheduling ledger and the service
// allocators. It creates the system namespaces and virtual nodes on first start and drives namespace deletion.
import { StoreHost } from '../host/store-host'
import type { LogEntry } from '../log/d1-log'
import type { ResourceDef } from '../registry/resource'
import type { Status } from '../registry/status'
import { planCreate, planRemoval } from '../registry/store'
import { resourceByPlural } from '../registry/resources'
import { SYSTEM_NAMESPACES } from '../registry/strategies/namespace'
import type { NamespacePhase } from '../namespace/namespace-object'
import { Scheduling, type NodeFacts, type ScheduleRequest } from './scheduling'
import { parseVirtualNodes, virtualNode } from '../registry/virtual-nodes'
import type { ScheduleResult } from '../registry/scheduling'
import { ServiceAllocationHost } from './allocators/service-allocation-host'
import type { Allocated, AllocationRequest, AllocationRow, ReserveAnswer } from './allocators/allocation-types'
import type { RepairResult } from './allocators/service-allocators'

const TERMINATION_RETRY_MS = 1000

export class ClusterObject extends StoreHost {
  private readonly scheduling: Scheduling
  /** Service cluster IPs and node ports (src/cluster/allocators/). */
  private readonly services: ServiceAllocationHost

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.scheduling = new Scheduling(ctx.storage.sql, this.local, env)
    this.services = new ServiceAllocationHost(ctx, env, this.log, this.local)
  }

  protected get scope(): string {
    return ''
  }

  protected override async start(): Promise<void> {
    await super.start()
    await this.ensureSystemNamespaces()
    await this.bootstrapNodes()
  }

  /**
   * The Worker calls this before it serves its first API request: the system namespaces (made on start) and what the
   * `default` namespace keeps (the `kubernetes` service and its endpoints) exist, whatever that request is.
   */
  async bootstrap(): Promise<void> {
    if (this.local.getState('default_bootstrapped')) return
    await this.env.NAMESPACES.getByName('default').bootstrap()
    this.local.setState('default_bootstrapped', '1')
  }

  /** Creates whichever system namespace is missing (kube's system-namespaces controller); only kube-node-lease can go. */
  private async ensureSystemNamespaces() {
    const def = resourceByPlural('namespaces')!
    await Promise.all(
      SYSTEM_NAMESPACES.map((name) =>
        this.queue.submit(() => {
          if (this.local.exists('namespaces', name)) return { changes: [], finish: () => undefined }
          const plan = planCreate(def, this.strategyContext(), { metadata: { name } }, () => false)
          return { changes: plan.ok ? [plan.value] : [], finish: () => undefined }
        }),
      ),
    )
  }

  /** Registers the virtual nodes of wrangler.toml's VIRTUAL_NODES (once; they are ordinary nodes afterwards). */
  private async bootstrapNodes() {
    if (this.local.getState('nodes_bootstrapped')) return
    const def = resourceByPlural('nodes')!
    const configs = parseVirtualNodes(this.env.VIRTUAL_NODES)
    await Promise.all(
      configs.map((config, i) =>
        this.queue.submit(() => {
          if (this.local.exists('nodes', config.name)) return { changes: [], finish: () => undefined }
          const plan = planCreate(def, this.strategyContext(), virtualNode(config, i, new Date()), () => false)
          if (!plan.ok) console.error(`virtual node ${config.name} was refused`, plan.status.message)
          return { changes: plan.ok ? [plan.value] : [], finish: () => undefined }
        }),
      ),
    )
    this.local.setState('nodes_bootstrapped', '1')
  }

  // ---- scheduling, for namespace objects ---------------------------------------------------------------------

  async schedulePod(req: ScheduleRequest): Promise<ScheduleResult> {
    return this.scheduling.schedulePod(req)
  }

  async assumePod(req: ScheduleRequest, node: string): Promise<void> {
    this.scheduling.assumePod(req, node)
  }

  async allocatePodIP(podKey: string): Promise<{ podIP: string; hostIP: string } | null> {
    return this.scheduling.allocatePodIP(podKey)
  }

  async releasePod(podKey: string): Promise<boolean> {
    return this.scheduling.releasePod(podKey)
  }

  async nodeFacts(name: string): Promise<NodeFacts | null> {
    return this.scheduling.nodeFacts(name)
  }

  // ---- service IPs and node ports, for namespace objects ------------------------------------------------------

  /** Reserves a service's cluster IPs and node ports for `owner` (`ns/name/uid`), all or none; dry runs only check. */
  async reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer> {
    return this.services.reserve(owner, request, dryRun)
  }

  /** Frees what `owner` holds of `what` (everything it holds when null). */
  async release(owner: string, what: Allocated | null): Promise<Allocated> {
    return this.services.release(owner, what)
  }

  /** The allocation table, for tests and operators. */
  async allocations(): Promise<AllocationRow[]> {
    return this.services.rows()
  }

  /** Runs the allocation repair pass now (tests, operators); graceMs protects reservations younger than it. */
  async repairAllocations(graceMs?: number): Promise<RepairResult> {
    return this.services.repair(graceMs)
  }

  protected async admitCreate(): Promise<Status | null> {
    return null
  }

  protected admitCreateNow(_def: ResourceDef): Status | null {
    return null
  }

  /** What a namespace's Durable Object asks before its first write. */
  async namespacePhase(name: string): Promise<NamespacePhase | null> {
    const ns = this.local.get('namespaces', name)
    if (!ns) return null
    return ((ns.object.status as { phase?: NamespacePhase } | undefined)?.phase ?? 'Active') as NamespacePhase
  }

  protected override async applied(entries: LogEntry[]): Promise<void> {
    await super.applied(entries)
    // New or changed nodes may make room for pods that could not be scheduled.
    if (entries.some((e) => e.resource === 'nodes')) this.scheduling.wakeWaiting()
    for (const e of entries) {
      if (e.resource !== 'namespaces') continue
      const stub = this.env.NAMESPACES.getByName(e.name)
      if (e.type === 'ADDED') await stub.setPhase('Active')
      else if (e.type === 'MODIFIED' && (e.object.status as { phase?: string } | undefined)?.phase === 'Terminating') {
        await stub.setPhase('Terminating')
        await this.markTerminating(e.name)
      }
    }
  }

  private async markTerminating(name: string) {
    const pending = new Set(JSON.parse(this.local.getState('terminating') ?? '[]') as string[])
    pending.add(name)
    this.local.setState('terminating', JSON.stringify([...pending]))
    await this.ctx.storage.setAlarm(Date.now())
  }

  protected override nextAlarmAt(): number | null {
    const pending = JSON.parse(this.local.getState('terminating') ?? '[]') as string[]
    const terminating = pending.length > 0 ? Date.now() + TERMINATION_RETRY_MS : null
    const services = this.services.nextAlarmAt()
    if (terminating === null || services === null) return terminating ?? services
    return Math.min(terminating, services)
  }

  protected override async onAlarm(now: number): Promise<void> {
    await this.services.onAlarm(now)
    const pending = JSON.parse(this.local.getState('terminating') ?? '[]') as string[]
    if (pending.length === 0) return
    const def = resourceByPlural('namespaces')!
    const still: string[] = []
    for (const name of pending) {
      const stub = this.env.NAMESPACES.getByName(name)
      const remaining = await stub.terminate()
      if (remaining > 0) {
        still.push(name)
        continue
      }
      await this.queue.submit(() => {
        const current = this.local.get('namespaces', name)
        return { changes: current ? [planRemoval(def, this.strategyContext(), current)] : [], finish: () => undefined }
      })
      await stub.setPhase(null)
    }
    this.local.setState('terminating', still.length > 0 ? JSON.stringify(still) : undefined)
    if (pending.some((name) => (SYSTEM_NAMESPACES as readonly string[]).includes(name))) await this.ensureSystemNamespaces()
  }
}
