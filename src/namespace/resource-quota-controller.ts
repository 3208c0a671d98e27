// kube's resource quota controller for one namespace (pkg/controller/resourcequota): every quota's status.hard
// mirrors spec.hard and status.used is the exact usage of the namespace's objects for each hard resource. kube
// recalculates on a resync; here the controller recalculates after every commit that changes a quota or an object a
// quota charges (a delete, a pod turning Succeeded or Failed, a claim resized), so used is exact as soon as the
// commit is applied. Creates are charged already by admission, in the create's own commit (src/host/admission-plans.ts).
import type { Controller, ControllerHost } from '../host/controller'
import { compareUtf8 } from '../registry/go-strings'
import { resourceKey, type ResourceDef } from '../registry/resource'
import { kinds } from '../registry/resources'
import { usageStats } from '../registry/quota/quota-check'
import { matchingResources } from '../registry/quota/quota-usage'
import type { LogEntry } from '../registry/store'
import { formatQuantity } from '../schema/quantity'
import type { KubeObject } from '../schema/meta'
import type { ResourceQuota } from '../schema/resource-quota'

const QUOTAS = 'resourcequotas'
/** kube-controller-manager's controllers write under this manager. */
const MANAGER = 'kube-controller-manager'

const namespacedKinds = (): ResourceDef[] => kinds.all().filter((d) => d.namespaced)

/** The status kube's syncResourceQuota writes: hard from the spec, used recalculated and masked to hard. */
function quotaStatus(rq: ResourceQuota, list: (resource: string) => KubeObject[], now: Date) {
  const hard = { ...(rq.spec?.hard ?? {}) }
  const names = Object.keys(hard).sort(compareUtf8)
  const used: Record<string, string | number> = { ...(rq.status?.used ?? {}) }
  for (const def of namespacedKinds()) {
    const resources = matchingResources(def.plural, def.group, names)
    if (resources.length === 0) continue
    const stats = usageStats(rq, { resource: def.plural, group: def.group }, resources, {
      objects: () => list(resourceKey(def)),
      now,
    })
    for (const [k, v] of stats) used[k] = formatQuantity(v)
  }
  for (const k of Object.keys(used)) if (!(k in hard)) delete used[k]
  return { hard, used }
}

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b))
function sortKeys(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  )
}

export class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota-controller'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const quotas = host.all(QUOTAS)
    if (quotas.length === 0) return
    const touched = new Set(entries.map((e) => e.resource))
    // A quota's own change (its spec, or a client's status write) or a change to a kind some quota charges.
    const charged = (rq: ResourceQuota) => {
      if (touched.has(QUOTAS)) return true
      const names = Object.keys(rq.spec?.hard ?? {})
      return namespacedKinds().some(
        (d) => touched.has(resourceKey(d)) && matchingResources(d.plural, d.group, names).length > 0,
      )
    }
    await this.sync(host, quotas.map((s) => s.object as ResourceQuota).filter(charged))
  }

  async resync(host: ControllerHost): Promise<void> {
    await this.sync(
      host,
      host.all(QUOTAS).map((s) => s.object as ResourceQuota),
    )
  }

  private async sync(host: ControllerHost, quotas: ResourceQuota[]) {
    if (quotas.length) await this.wakeForStuckPods(host)
    for (const rq of quotas) {
      const name = rq.metadata?.name ?? ''
      // Decided against the newest state when the write is planned, so a create charged meanwhile is counted.
      await host.update(
        QUOTAS,
        name,
        (current) => {
          const q = current as ResourceQuota
          if (q.metadata?.deletionTimestamp) return null
          const status = quotaStatus(q, (r) => host.all(r).map((s) => s.object), new Date())
          if (same(status, { hard: q.status?.hard ?? {}, used: q.status?.used ?? {} })) return null
          return { ...q, status } as KubeObject
        },
        { subresource: 'status', fieldManager: MANAGER },
      )
    }
  }

  /**
   * A pod being deleted stops counting once its deletion's grace period has run out (QuotaV1Pod: a lost node's pods
   * stuck terminating must not hold the quota); nothing commits at that moment, so the controller asks the host to
   * wake it then (resync runs on alarms), as kube's periodic resync would catch it.
   */
  private async wakeForStuckPods(host: ControllerHost) {
    const now = Date.now()
    let next: number | null = null
    for (const { object } of host.all('pods')) {
      const at = object.metadata?.deletionTimestamp
      const grace = object.metadata?.deletionGracePeriodSeconds
      if (!at || grace === undefined || grace === null) continue
      const due = Date.parse(at) + Number(grace) * 1000 + 1000
      if (due > now && (next === null || due < next)) next = due
    }
    if (next !== null) await host.wakeAt(next)
  }
}
