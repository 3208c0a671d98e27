// The namespace's admission plugins that read other objects of the namespace, run inside the write queue around the
// store's plan of a write: LimitRanger (defaults into a pod before it is planned; its bounds judge pods and claims
// after) and ResourceQuota (the charge against every quota that selects the object). The quota check and the quota's
// new usage are one job with the write: its status change commits in the same batch, and any other write charging
// that quota waits for the next batch (the write queue defers a second change to one object), so no two writes can
// both take the last unit of a quota. The usage they charge against is the namespace's ledger of each quota's exact
// usage as of the last commit (src/namespace/quota-ledger.ts), moved by every commit's delta: no write reads the
// namespace's other objects to be charged.
import type { ResourceDef } from '../registry/resource'
import { resourceKey } from '../registry/resource'
import { fail, ok, type Result, statuses } from '../registry/status'
import { statusDefOf } from '../registry/status-subresource'
import { type Change, planUpdate, resourceOf } from '../registry/store'
import { clone } from '../registry/deep-equal'
import { defaultPodResources, validateClaimStorage, validatePodResources } from '../registry/quota/limit-ranger'
import { checkQuota } from '../registry/quota/quota-check'
import { resourceByPlural } from '../registry/resources'
import type { PodObject } from '../registry/strategies/pod/pod-types'
import type { KubeObject } from '../schema/meta'
import type { StrategyContext } from '../registry/strategy'
import type { PlanningHost } from './planning-host'

const isCore = (def: ResourceDef, plural: string) => def.group === '' && def.plural === plural

/**
 * The context a write plans with, given LimitRanger's Admit as the store's mutating admission: a pod's create gets
 * the namespace's Container defaults after the scheme's (those copy limits into missing requests, so a container
 * that states only limits keeps them) and after its managedFields are recorded, so they are nobody's.
 */
export function admittingContext(host: PlanningHost, def: ResourceDef, ctx: StrategyContext): StrategyContext {
  if (!isCore(def, 'pods') || !host.scope()) return ctx
  const ranges = host.list('limitranges')
  if (ranges.length === 0) return ctx
  return { ...ctx, mutatingAdmission: (obj) => defaultPodResources(obj as PodObject, ranges) }
}

/** The admission name kube's refusals give: the name, else the generateName, else "Unknown". */
const admissionName = (obj: KubeObject) => obj.metadata?.name || obj.metadata?.generateName || 'Unknown'

/**
 * Validating admission once the store planned a create (`old` null) or an update of the object itself: LimitRanger's
 * bounds (pod creates; claim creates and updates), then the quota charge. Answers the quota status changes to commit
 * along, or kube's Forbidden.
 */
export function admitPlanned(
  host: PlanningHost,
  def: ResourceDef,
  obj: KubeObject,
  old: KubeObject | null,
): Result<Change[]> {
  if (!host.scope()) return ok([])
  const forbidden = (why: string) => fail<Change[]>(statuses.forbidden(resourceOf(def), admissionName(obj), why))
  const deleting = old?.metadata?.deletionTimestamp
  if (!deleting && (isCore(def, 'persistentvolumeclaims') || (isCore(def, 'pods') && old === null))) {
    const ranges = host.list('limitranges')
    if (ranges.length) {
      const refused = isCore(def, 'pods')
        ? validatePodResources(obj as PodObject, ranges)
        : validateClaimStorage(obj, ranges)
      if (refused) return forbidden(refused)
    }
  }
  // kube's evaluators judge creates of every kind, and updates only of services and claims (a type or size change).
  if (old && !(isCore(def, 'services') || isCore(def, 'persistentvolumeclaims'))) return ok([])
  const quotas = host.list('resourcequotas')
  if (quotas.length === 0) return ok([])
  const key = resourceKey(def)
  const verdict = checkQuota({ resource: def.plural, group: def.group }, obj, old, {
    quotas,
    objects: () => host.list(key),
    usage: (rq) => host.quotaUsage(rq),
    now: host.strategyContext().now,
  })
  if ('refused' in verdict) return forbidden(verdict.refused)
  return ok(verdict.charged.flatMap(({ quota, used }) => quotaStatusChange(host, quota.metadata?.name ?? '', used)))
}

/** The charged quota's status through its /status row, as kube's quota admission writes it: its hard kept, used. */
function quotaStatusChange(host: PlanningHost, name: string, used: Record<string, string>): Change[] {
  const def = statusDefOf(resourceByPlural('resourcequotas')!)!
  const current = host.get('resourcequotas', name)
  if (!current) return []
  const next = clone(current.object) as KubeObject & { status?: Record<string, unknown> }
  next.status = { ...next.status, used: { ...(next.status?.used as object), ...used } }
  // kube's quota admission writes through the apiserver's loopback client, whose user agent names the manager.
  const plan = planUpdate(def, host.strategyContext(), name, next, current, {
    name: 'kube-apiserver',
    subresource: 'status',
  })
  return plan.ok && plan.value.change ? [plan.value.change] : []
}
