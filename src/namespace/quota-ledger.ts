// The resource quota controller's own exact count of what each quota charges, kept in memory and moved by the delta
// of every committed change (usage of the new state minus usage of the old, as kube's evaluators measure both), so a
// commit costs the size of its entries, not the size of the namespace. A quota is counted from the objects only when
// it is first seen, when its hard or scopes change, when an entry lacks its old state, and when a pod's deletion grace
// period has run out (time-dependent usage no commit announces). Counting happens where the objects are exactly the
// state after the last commit the ledger has been told of: synchronously in onCommitted, or at plan time inside the
// write queue (never between a commit's apply and its hand-off to the controllers).
import { compareUtf8 } from '../registry/go-strings'
import { resourceKey, type ResourceDef } from '../registry/resource'
import { kinds, resourceByPlural } from '../registry/resources'
import { objectUsage, sumQuantities, usageStats } from '../registry/quota/quota-check'
import { matchingResources, scopeSelectorsOf, type Usage } from '../registry/quota/quota-usage'
import type { ParsedQuantity } from '../schema/quantity'
import { ZERO } from '../registry/strategies/pod/pod-validation-quantities'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import type { ResourceQuota } from '../schema/resource-quota'

const QUOTAS = 'resourcequotas'

/** What the ledger reads of the namespace: its objects as stored now. */
type Objects = (resource: string) => KubeObject[]

/** One quota's count: its identity and what it was counted for (a change to either means counting again). */
interface Count {
  uid: string
  shape: string
  usage: Usage
  /** Set when the count no longer holds; deltas are skipped until the quota is counted again. */
  stale: boolean
}

const namespacedKinds = (): ResourceDef[] => kinds.all().filter((d) => d.namespaced)
const hardNames = (rq: ResourceQuota) => Object.keys(rq.spec?.hard ?? {}).sort(compareUtf8)
const shapeOf = (rq: ResourceQuota) => JSON.stringify([hardNames(rq), scopeSelectorsOf(rq)])

/** When a pod being deleted stops counting (its grace period run out), or null. */
function graceEnds(pod: KubeObject): number | null {
  const at = pod.metadata?.deletionTimestamp
  const grace = pod.metadata?.deletionGracePeriodSeconds
  if (!at || grace === undefined || grace === null) return null
  return Date.parse(at) + Number(grace) * 1000
}

export class QuotaLedger {
  private readonly counts = new Map<string, Count>()
  /** Pods being deleted and when their grace period runs out: a count made before then goes stale then. */
  private readonly deadlines = new Map<string, number>()
  /** No deadline is earlier than this (it may be later than the earliest one left): expire() looks only past it. */
  private soonest = Number.POSITIVE_INFINITY
  /** Whether a controller moves this ledger after every commit (only then may admission read it). */
  private followed = false

  /** The quota controller moves this ledger: admission may charge against it. */
  follow() {
    this.followed = true
  }

  /** usage(), when a controller keeps the ledger moving; undefined otherwise. */
  followedUsage(rq: ResourceQuota, objects: Objects, now: Date): Usage | undefined {
    return this.followed ? this.usage(rq, objects, now) : undefined
  }

  /** The exact usage of a quota as of the last commit, counting it first when it must be. */
  usage(rq: ResourceQuota, objects: Objects, now: Date): Usage {
    const name = rq.metadata?.name ?? ''
    // Any count made before a deadline that has passed is stale (this one included).
    this.expire(now.getTime())
    let count = this.counts.get(name)
    if (!count || count.stale || count.uid !== (rq.metadata?.uid ?? '') || count.shape !== shapeOf(rq)) {
      count = { uid: rq.metadata?.uid ?? '', shape: shapeOf(rq), usage: countAll(rq, objects, now), stale: false }
      this.counts.set(name, count)
      this.noteDeadlines(objects, now.getTime())
    }
    return count.usage
  }

  /**
   * Moves every count by a commit's entries, read against the quotas as they are after it. Answers whether a
   * quota's count or the quota itself changed (its status may need writing).
   */
  committed(entries: readonly LogEntry[], quotas: ResourceQuota[], now: Date): boolean {
    // A deadline passed since the counts were made: they hold a pod that no longer counts (and a delta read now
    // would not take it out), so every quota is counted again.
    let moved = this.expire(now.getTime())
    for (const e of entries) {
      if (e.resource === 'pods') this.notePod(e, now.getTime())
      if (e.resource === QUOTAS) {
        moved = true
        if (e.type === 'DELETED') this.counts.delete(e.name)
        continue
      }
      const def = resourceByPlural(e.resource)
      if (!def?.namespaced) continue
      const kind = { resource: def.plural, group: def.group }
      for (const rq of quotas) {
        const count = this.counts.get(rq.metadata?.name ?? '')
        if (!count || count.stale) continue
        if (count.uid !== (rq.metadata?.uid ?? '') || count.shape !== shapeOf(rq)) {
          count.stale = true
          moved = true
          continue
        }
        const resources = matchingResources(def.plural, def.group, hardNames(rq))
        if (resources.length === 0) continue
        moved = true
        // An update without its old state cannot be told apart from a new object: count the quota again.
        if (e.type === 'MODIFIED' && !e.prev) {
          count.stale = true
          continue
        }
        const old = e.type === 'DELETED' ? (e.prev ?? e.object) : e.prev
        const after = e.type === 'DELETED' ? new Map() : objectUsage(rq, kind, resources, e.object, now)
        const before = old ? objectUsage(rq, kind, resources, old, now) : new Map()
        for (const [k, v] of after) add(count.usage, k, v)
        for (const [k, v] of before) add(count.usage, k, { ...v, mantissa: -v.mantissa })
      }
    }
    return moved
  }

  /** Counts made before a deadline that has now passed are stale. Answers whether any deadline passed. */
  expire(now: number): boolean {
    if (this.soonest >= now) return false
    let passed = false
    this.soonest = Number.POSITIVE_INFINITY
    for (const [name, due] of this.deadlines)
      if (due < now) {
        passed = true
        this.deadlines.delete(name)
      } else this.soonest = Math.min(this.soonest, due)
    if (passed) for (const c of this.counts.values()) c.stale = true
    return passed
  }

  /** The next deadline still to come, for the controller's wake-up. */
  nextDeadline(now: number): number | null {
    let next: number | null = null
    for (const due of this.deadlines.values()) if (due >= now && (next === null || due < next)) next = due
    return next
  }

  /** Only deadlines still to come matter: a delta or a count read after one already leaves its pod out. */
  private notePod(e: LogEntry, now: number) {
    const due = e.type === 'DELETED' ? null : graceEnds(e.object)
    if (due === null || due < now) this.deadlines.delete(e.name)
    else this.noteDeadline(e.name, due)
  }

  private noteDeadline(name: string, due: number) {
    this.deadlines.set(name, due)
    this.soonest = Math.min(this.soonest, due)
  }

  private noteDeadlines(objects: Objects, now: number) {
    for (const pod of objects('pods')) {
      const due = graceEnds(pod)
      if (due !== null && due >= now) this.noteDeadline(pod.metadata?.name ?? '', due)
    }
  }
}

const add = (usage: Usage, k: string, v: ParsedQuantity) => usage.set(k, sumQuantities(usage.get(k) ?? ZERO, v))

/** syncResourceQuota's CalculateUsage: every hard resource some kind is charged for, counted from the objects. */
function countAll(rq: ResourceQuota, objects: Objects, now: Date): Usage {
  const usage: Usage = new Map()
  const names = hardNames(rq)
  for (const def of namespacedKinds()) {
    const resources = matchingResources(def.plural, def.group, names)
    if (resources.length === 0) continue
    const stats = usageStats(rq, { resource: def.plural, group: def.group }, resources, {
      objects: () => objects(resourceKey(def)),
      now,
    })
    for (const [k, v] of stats) usage.set(k, v)
  }
  return usage
}
