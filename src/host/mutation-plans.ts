// Read-modify-write plans: an update computed from the newest stored object when the write is planned, so it cannot
// conflict (kube's GuaranteedUpdate): a controller's Mutation, and the updates other verbs derive from the current
// object (a v1beta1 replacement, a /scale write).
import { planUpdate, type Stored } from '../registry/store'
import { statuses, fail, ok, type Result } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { KubeObject } from '../schema/meta'
import { clone } from '../registry/deep-equal'
import type { Mutation } from './controller'
import { contextOf, managerOf, type PlanningHost, type VerbPlan } from './planning-host'
import type { WriteOptions } from './rpc-types'

/**
 * A read-modify-write next to the state (kube's GuaranteedUpdate): `mutate` sees a copy of the newest object when the
 * write is planned and answers what to PUT, so the update cannot conflict. A mutation that declines plans nothing.
 */
export function planMutateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  mutate: Mutation,
  opts: WriteOptions,
): VerbPlan {
  const current = host.get(resource, name)
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const next = mutate(clone(current.object))
  if (!next) return { plan: ok({ change: null, object: current.object, declined: true }) }
  next.metadata.resourceVersion = String(current.rv)
  const plan = planUpdate(def, contextOf(host, opts), name, next, current, managerOf(opts))
  if (!plan.ok) return { plan }
  // The mutation had a copy, so the previous state is the stored row as read: its JSON is not encoded again.
  const change = plan.value.change
  if (change?.prev && current.text !== undefined) change.prevText = current.text
  return { plan: ok({ change, object: plan.value.object }) }
}

/** An update computed from the newest stored object, or refused; planned like a PUT. */
export function planMutation(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  next: (current: Stored) => Result<KubeObject>,
  opts: WriteOptions,
): VerbPlan {
  const current = host.get(resource, name)
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const updated = next(current)
  if (!updated.ok) return { plan: updated }
  const plan = planUpdate(
    def,
    contextOf(host, opts),
    name,
    updated.value,
    current,
    managerOf({ ...opts, subresource: undefined }),
  )
  return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
}
