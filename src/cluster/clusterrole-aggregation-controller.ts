// kube's clusterrole-aggregation-controller: a ClusterRole with an aggregationRule holds the rules of every ClusterRole
// its selectors pick (admin, edit and view gather the aggregate-to-* roles, and whatever a CRD's author labels so).
// Any ClusterRole change re-syncs every aggregated role; a role whose rules change triggers the next pass itself, so
// chains (admin ← edit ← view) settle.
import type { Controller, ControllerHost } from '../host/controller'
import { aggregatedRules, aggregationChanges } from '../registry/rbac/aggregation'
import type { LogEntry } from '../registry/store'
import type { ClusterRole } from '../schema/rbac'

const MANAGER = 'clusterrole-aggregation-controller'

export class ClusterRoleAggregationController implements Controller {
  readonly name = 'clusterrole-aggregation'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    if (entries.some((e) => e.resource === 'clusterroles')) await this.resync(host)
  }

  async resync(host: ControllerHost): Promise<void> {
    const all = host.all('clusterroles').map((s) => s.object as unknown as ClusterRole)
    for (const role of all) {
      const wanted = aggregatedRules(role, all)
      if (!wanted) continue
      const name = role.metadata?.name ?? ''
      if (!wanted.ok) {
        console.error(`clusterrole-aggregation: ${name}: ${wanted.message}`)
        continue
      }
      if (!aggregationChanges(role, wanted.rules)) continue
      const r = await host.update(
        'clusterroles',
        name,
        (current) => {
          // Decided against the newest state: another pass follows any change made meanwhile.
          const again = aggregatedRules(current as unknown as ClusterRole, all)
          if (!again?.ok || !aggregationChanges(current as unknown as ClusterRole, again.rules)) return null
          return { ...current, rules: again.rules } as typeof current
        },
        { fieldManager: MANAGER },
      )
      if (!r.ok && r.status.code !== 404) console.error(`clusterrole-aggregation: ${name}: ${r.status.message}`)
    }
  }
}
