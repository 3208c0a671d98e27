// kube 1.33's ResourceQuota admission check (plugin/pkg/admission/resourcequota/controller.go CheckRequest) over the
// namespace's quotas as they are inside its write queue: the quotas that select the object, the pod constraints, and
// the charge against each quota's status.hard of its status.used plus the object's delta, as kube's evaluator
// charges it. As in kube, a quota enforces its status, which the quota controller writes: one it has not synced yet
// (just created) enforces nothing, and one whose status.used lacks a resource of its status.hard that the object is
// charged for refuses it (`status unknown for quota`). Every charge commits with its write and the controller keeps
// used exact after every other change; the namespace's kept count stands in for status.used where it has one.
// Answers kube's refusal, or each charged quota's new usage.
import type { KubeObject } from '../../schema/meta'
import { formatQuantity, type ParsedQuantity } from '../../schema/quantity'
import type { ResourceQuota } from '../../schema/resource-quota'
import { compareUtf8 } from '../go-strings'
import type { PodObject } from '../strategies/pod/pod-types'
import { cmpQuantity, ZERO } from '../strategies/pod/pod-validation-quantities'
import { matchingResources, podConstraints, quotaMatches, scopeSelectorsOf, type Usage, usageOf } from './quota-usage'
import { parseQuantity } from '../../schema/quantity'

/** What the check reads of the namespace. */
interface QuotaView {
  /** The namespace's ResourceQuotas as stored now. */
  quotas: KubeObject[]
  /** Every stored object of the kind written (what usageStats sums). */
  objects(): KubeObject[]
  /** A quota's exact usage as of the last commit, when the namespace keeps it (every hard resource counted). */
  usage?(rq: ResourceQuota): Usage | undefined
  now: Date
}

/** The kind written: its stored resource name and API group. */
interface WrittenKind {
  resource: string
  group: string
}

type QuotaVerdict = { refused: string } | { charged: { quota: ResourceQuota; used: Record<string, string> }[] }

/** Quantity.Add: exact, a zero sum takes the format of what is added. */
export function sumQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const e = Math.min(a.exponent, b.exponent)
  const m = a.mantissa * 10n ** BigInt(a.exponent - e) + b.mantissa * 10n ** BigInt(b.exponent - e)
  return { mantissa: m, exponent: e, format: a.mantissa === 0n ? b.format : a.format }
}

/**
 * What a quota enforces: its status.hard, which the quota controller copies from spec.hard. A quota it has not synced
 * yet (just created, or its spec.hard just changed) enforces what its status says, as kube's admission does.
 */
const hardOf = (rq: ResourceQuota) => Object.keys(rq.status?.hard ?? {}).sort(compareUtf8)

/**
 * UsageStats: the exact usage of `resources` by the stored objects of this kind that the quota's scopes select, each
 * starting from zero (so a resource with nothing charged reads "0").
 */
export function usageStats(rq: ResourceQuota, kind: WrittenKind, resources: string[], view: Omit<QuotaView, 'quotas'>) {
  const used: Usage = new Map(resources.map((r) => [r, ZERO]))
  if (resources.length === 0) return used
  const scoped = scopeSelectorsOf(rq).length > 0
  for (const obj of view.objects())
    for (const [k, v] of objectUsage(rq, kind, resources, obj, view.now, scoped))
      used.set(k, sumQuantities(used.get(k)!, v))
  return used
}

/** What one object charges a quota for `resources` (nothing when the quota's scopes do not select it). */
export function objectUsage(
  rq: ResourceQuota,
  kind: WrittenKind,
  resources: string[],
  obj: KubeObject,
  now: Date,
  scoped = scopeSelectorsOf(rq).length > 0,
): Usage {
  const out: Usage = new Map()
  if (scoped && !quotaMatches(rq, resources, kind.resource, kind.group, obj)) return out
  for (const [k, v] of usageOf(kind.resource, kind.group, obj, now)) if (resources.includes(k)) out.set(k, v)
  return out
}

/** hasUsageStats: status.used has a value for every resource of status.hard the object is charged for. */
const hasUsageStats = (rq: ResourceQuota, restricted: string[]) =>
  restricted.every((r) => rq.status?.used?.[r] !== undefined)

/**
 * The usage `resources` are charged on: the namespace's kept count where it has one (exact at plan time, where
 * status.used may not show a delete yet), else status.used, which kube's admission reads.
 */
function usedOf(rq: ResourceQuota, kept: Usage | undefined, resources: string[]): Usage {
  return new Map(resources.map((r) => [r, kept?.get(r) ?? parseQuantity(String(rq.status?.used?.[r] ?? '0')) ?? ZERO]))
}

/** quota.SubtractWithNonNegativeResult, then RemoveZeros. */
function delta(now: Usage, before: Usage | null): Usage {
  const out: Usage = new Map()
  for (const [k, v] of now) {
    const prev = before?.get(k)
    const d = prev ? sumQuantities(v, { ...prev, mantissa: -prev.mantissa }) : v
    if (d.mantissa > 0n) out.set(k, d)
  }
  return out
}

const pretty = (u: Map<string, ParsedQuantity>) =>
  [...u.keys()]
    .sort(compareUtf8)
    .map((k) => `${k}=${formatQuantity(u.get(k)!)}`)
    .join(',')

/** CheckRequest for a create (`old` null) or an update of one object of `kind`. */
export function checkQuota(kind: WrittenKind, obj: KubeObject, old: KubeObject | null, view: QuotaView): QuotaVerdict {
  const quotas = (view.quotas as ResourceQuota[])
    .filter((rq) => !rq.metadata?.deletionTimestamp)
    .sort((a, b) => compareUtf8(a.metadata?.name ?? '', b.metadata?.name ?? ''))
  const interesting: { rq: ResourceQuota; restricted: string[] }[] = []
  for (const rq of quotas) {
    const hard = hardOf(rq)
    if (!quotaMatches(rq, hard, kind.resource, kind.group, obj)) continue
    const restricted = matchingResources(kind.resource, kind.group, hard)
    if (kind.group === '' && kind.resource === 'pods') {
      const failed = podConstraints(obj as PodObject, restricted)
      if (failed) return { refused: `failed quota: ${rq.metadata?.name}: ${failed}` }
    }
    if (!hasUsageStats(rq, restricted))
      return { refused: `status unknown for quota: ${rq.metadata?.name}, resources: ${restricted.join(',')}` }
    interesting.push({ rq, restricted })
  }
  if (interesting.length === 0) return { charged: [] }
  const usage = usageOf(kind.resource, kind.group, obj, view.now)
  const negative = [...usage].filter(([, v]) => v.mantissa < 0n).map(([k]) => k)
  if (negative.length)
    return { refused: `quota usage is negative for resource(s): ${negative.sort(compareUtf8).join(',')}` }
  const requested = delta(usage, old ? usageOf(kind.resource, kind.group, old, view.now) : null)
  if (requested.size === 0) return { charged: [] }
  const charged: { quota: ResourceQuota; used: Record<string, string> }[] = []
  for (const { rq, restricted } of interesting) {
    const hard = new Map(Object.entries(rq.status?.hard ?? {}).map(([k, v]) => [k, parseQuantity(v) ?? ZERO]))
    const used = usedOf(rq, view.usage?.(rq), restricted)
    const asked = new Map([...requested].filter(([k]) => hard.has(k)))
    const exceeded = [...asked.keys()].filter(
      (k) => cmpQuantity(sumQuantities(used.get(k) ?? ZERO, asked.get(k)!), hard.get(k)!) > 0,
    )
    if (exceeded.length) {
      const mask = (u: Map<string, ParsedQuantity>) =>
        new Map(exceeded.filter((k) => u.has(k)).map((k) => [k, u.get(k)!]))
      return {
        refused: `exceeded quota: ${rq.metadata?.name}, requested: ${pretty(mask(asked))}, used: ${pretty(mask(used))}, limited: ${pretty(mask(hard))}`,
      }
    }
    const next: Record<string, string> = {}
    for (const [k, v] of used) next[k] = formatQuantity(asked.has(k) ? sumQuantities(v, asked.get(k)!) : v)
    charged.push({ quota: rq, used: next })
  }
  return { charged }
}
