// The cluster Durable Object: cluster-scoped objects (namespaces now; nodes and allocators later). It creates the
// system namespaces on first start and drives namespace deletion: Terminating, empty the namespace, remove it.
import { StoreHost } from '../host/store-host'
import type { LogEntry } from '../log/d1-log'
import type { ResourceDef } from '../registry/resource'
import type { Status } from '../registry/status'
import { planCreate, planRemoval } from '../registry/store'
import { resourceByPlural } from '../registry/resources'
import { SYSTEM_NAMESPACES } from '../registry/strategies/namespace'
import type { NamespacePhase } from '../namespace/namespace-object'

const TERMINATION_RETRY_MS = 1000

export class ClusterObject extends StoreHost {
  protected get scope(): string {
    return ''
  }

  protected override async start(): Promise<void> {
    await super.start()
    await this.bootstrap()
  }

  private async bootstrap() {
    if (this.local.getState('bootstrapped')) return
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
    this.local.setState('bootstrapped', '1')
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
    return pending.length > 0 ? Date.now() + TERMINATION_RETRY_MS : null
  }

  protected override async onAlarm(): Promise<void> {
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
  }
}
