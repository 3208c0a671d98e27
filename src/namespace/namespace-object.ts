// The per-namespace Durable Object: holds one namespace's objects and serializes their writes. A thin host over
// StoreHost; it only adds namespace admission and the cleanup a namespace deletion asks of it.
import { StoreHost } from '../host/store-host'
import type { ResourceDef } from '../registry/resource'
import { statuses, type Status } from '../registry/status'
import { planRemoval, planDelete } from '../registry/store'
import { resourceByPlural } from '../registry/resources'

export type NamespacePhase = 'Active' | 'Terminating'

export class NamespaceObject extends StoreHost {
  /** Cached phase of this namespace; unknown (undefined) is asked of the cluster object. */
  private phase: NamespacePhase | undefined

  protected get scope(): string {
    return this.ctx.id.name ?? ''
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.phase = this.local.getState('phase') as NamespacePhase | undefined
  }

  protected async admitCreate(_def: ResourceDef): Promise<Status | null> {
    if (this.phase === undefined) {
      const phase = await this.env.CLUSTER.getByName('cluster').namespacePhase(this.scope)
      // Only a namespace that exists is remembered: the cluster object tells us when that changes.
      if (phase) this.setPhaseLocally(phase)
    }
    return this.admitCreateNow()
  }

  protected admitCreateNow(): Status | null {
    if (this.phase === 'Active') return null
    if (this.phase === 'Terminating') {
      return statuses.forbidden(
        { resource: 'namespaces' },
        this.scope,
        `unable to create new content in namespace ${this.scope} because it is being terminated`,
      )
    }
    return statuses.notFound({ resource: 'namespaces' }, this.scope)
  }

  private setPhaseLocally(phase: NamespacePhase | undefined) {
    this.phase = phase
    this.local.setState('phase', phase)
  }

  // ---- called by the cluster object --------------------------------------------------------------------------

  /** The namespace was created (Active), is being deleted (Terminating) or is gone (null). */
  async setPhase(phase: NamespacePhase | null): Promise<void> {
    this.setPhaseLocally(phase ?? undefined)
  }

  /**
   * Deletes everything in the namespace (as kube's namespace controller does, without grace periods) and answers
   * how many objects remain (held by finalizers).
   */
  async terminate(): Promise<number> {
    this.setPhaseLocally('Terminating')
    const work: Promise<unknown>[] = []
    for (const resource of this.local.resources()) {
      const def = resourceByPlural(resource)
      if (!def) continue
      for (const name of this.local.names(resource)) {
        work.push(
          this.queue.submit(() => {
            const current = this.local.get(resource, name)
            if (!current) return { changes: [], finish: () => undefined }
            const plan = planDelete(def, this.strategyContext(), name, current, { gracePeriodSeconds: 0 })
            const change = plan.ok ? plan.value.change : null
            return { changes: change ? [change] : [], finish: () => undefined }
          }),
        )
      }
    }
    await Promise.all(work)
    let remaining = 0
    for (const resource of this.local.resources()) remaining += this.local.names(resource).length
    return remaining
  }

  /** Test and repair hook: removes one object whatever holds it. */
  async forceRemove(resource: string, name: string): Promise<boolean> {
    const def = resourceByPlural(resource)
    if (!def) return false
    return this.queue.submit(() => {
      const current = this.local.get(resource, name)
      return { changes: current ? [planRemoval(def, this.strategyContext(), current)] : [], finish: () => current !== null }
    })
  }
}
