// What the write verbs plan against, as they run inside the write queue: the host's state and plan-time admission
// (PlanningHost), the strategy context and field manager a write plans with, and the resource row it plans with
// (the kind's own, or its subresource's). A verb's plan (VerbPlan) is what each planner in write-plans.ts answers.
import type { Change, Stored } from '../registry/store'
import type { Manager } from '../registry/store-encoding'
import type { Result, Status } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { StrategyContext, Writer } from '../registry/strategy'
import type { KubeObject } from '../schema/meta'
import type { ParsedQuantity } from '../schema/quantity'
import type { ResourceQuota } from '../schema/resource-quota'
import { kinds, resourceByPlural } from '../registry/resources'
import { statusDefOf } from '../registry/status-subresource'
import { ephemeralDefOf } from '../registry/ephemeral-containers-subresource'
import { bindingDefOf } from '../registry/binding-subresource'
import { servesScale } from '../registry/scale-subresource'
import type { HostPolicy } from './host-policy'
import type { ObjectStore } from './object-store'
import type { Requester, WriteOptions } from './rpc-types'
import { writerOf } from './writer'

/** A verb's plan: the change to commit (null: nothing to do) or a refusal, and a graceful deletion's removal time. */
export interface VerbPlan {
  /** `declined`: a mutation chose to change nothing. */
  plan: Result<{ change: Change | null; object: KubeObject; created?: boolean; declined?: boolean; pending?: boolean }>
  removeAt?: number
}

/** What the verbs plan against: the host's state and its plan-time admission. */
export interface PlanningHost {
  /** '' for the cluster scope, the namespace name otherwise. */
  scope(): string
  strategyContext(): StrategyContext
  get(resource: string, name: string): Stored | null
  exists(resource: string, name: string): boolean
  /** Every object of a resource as stored now (admission that reads the namespace: LimitRanges, quotas). */
  list(resource: string): KubeObject[]
  /** Create admission, synchronously, at plan time inside the write queue. */
  admitCreateNow(def: ResourceDef, name: string): Status | null
  /** Every cluster-scoped object of a resource, as admission reads them (StrategyContext.clusterObjects). */
  clusterObjects(resource: string): KubeObject[]
  /** The writer strategies judge (StrategyContext.writer), from a request's requester. */
  writer(requester: Requester): Writer
  /** A quota's exact usage as of the last commit, when the host keeps it (HostPolicy.quotaUsage). */
  quotaUsage(quota: ResourceQuota): Map<string, ParsedQuantity> | undefined
}

export const managerOf = (opts: WriteOptions): Manager | undefined =>
  opts.fieldManager
    ? { name: opts.fieldManager, ...(opts.subresource ? { subresource: opts.subresource } : {}) }
    : undefined

/** The strategy context a write plans with: the host's, and the writer when the request names one. */
export function contextOf(host: PlanningHost, opts: WriteOptions): StrategyContext {
  // Admission reads the host's other objects as they are inside the write queue (the pod's ServiceAccount).
  // Memoized for the plan: a pod's ServiceAccount is read by the plugin's Admit and again by its Validate.
  const seen = new Map<string, KubeObject | null>()
  const ctx = {
    ...host.strategyContext(),
    lookup: (resource: string, name: string) => {
      const key = `${resource}/${name}`
      let found = seen.get(key)
      if (found === undefined) seen.set(key, (found = host.get(resource, name)?.object ?? null))
      return found
    },
    clusterObjects: (resource: string) => host.clusterObjects(resource),
  }
  // The subresource a write goes through, for admission (NodeRestriction, the ServiceAccount plugin on
  // ephemeralcontainers); a node's writes carry the node too.
  if (opts.subresource) Object.assign(ctx, { subresource: opts.subresource })
  if (opts.node) Object.assign(ctx, { requestingNode: opts.node })
  return opts.requester ? { ...ctx, writer: host.writer(opts.requester) } : ctx
}

/** The resource row a write plans with: the kind's own, or that of the subresource it goes through (none: 404). */
export function defFor(resource: string, subresource: string | undefined, version?: string): ResourceDef | undefined {
  const stored = resourceByPlural(resource)
  const def = stored && version ? (kinds.inVersion(stored, version) ?? stored) : stored
  if (!def || subresource === undefined) return def
  if (subresource === 'status') return statusDefOf(def)
  if (subresource === 'ephemeralcontainers') return ephemeralDefOf(def)
  if (subresource === 'binding') return bindingDefOf(def)
  // Scale writes are planned on the kind's own row (planScaleVerb converts).
  if (subresource === 'scale') return servesScale(def) ? def : undefined
  return undefined
}

/** A host's local objects and policy as the planners see them. */
export function planningHostOf(
  scope: string,
  objects: ObjectStore,
  policy: HostPolicy,
  strategyContext: () => StrategyContext,
): PlanningHost {
  return {
    scope: () => scope,
    strategyContext,
    get: (resource, name) => objects.get(resource, name),
    exists: (resource, name) => objects.exists(resource, name),
    list: (resource) => objects.all(resource).map((s) => s.object),
    admitCreateNow: (def, name) => policy.admitCreateNow(def, name),
    // The cluster's own objects, or the copy the namespace's policy fetched before the write was queued.
    clusterObjects: (resource) =>
      scope === '' ? objects.all(resource).map((s) => s.object) : (policy.clusterObjects?.(resource) ?? []),
    quotaUsage: (quota) =>
      policy.quotaUsage?.(quota, (resource) => objects.all(resource).map((s) => s.object), strategyContext().now),
    writer: (requester) =>
      writerOf(scope, requester, {
        all: (resource) => objects.all(resource).map((s) => s.object),
        get: (resource, name) => objects.get(resource, name)?.object ?? null,
      }),
  }
}
