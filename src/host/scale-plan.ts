// A write through a kind's /scale subresource (PUT or PATCH of a Scale), planned as an update of the kind's own
// object: only the replicas the Scale names change.
import { fail, type Result } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { KubeObject } from '../schema/meta'
import { uidPreconditionFailure, updatePrecondition } from '../registry/preconditions'
import { applyScale, scaleOf } from '../registry/scale-subresource'
import { planMutation } from './mutation-plans'
import type { PlanningHost, VerbPlan } from './planning-host'
import type { WriteOptions } from './rpc-types'

/**
 * A write through /scale: `next` makes the Scale to write from the current Scale view (without its resourceVersion,
 * so one in the answer is the caller's precondition), and only the replicas it names are planned as an update. A PUT's
 * Scale (`put`) carries a uid precondition as any PUT body does (kube's scale subresources pass the request's
 * preconditions on).
 */
export function planScaleVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  next: (view: KubeObject) => Result<{ object: KubeObject; warnings: string[] }>,
  opts: WriteOptions,
  put?: KubeObject,
): VerbPlan & { warnings?: string[] } {
  let warnings: string[] = []
  const uid = put ? updatePrecondition(put) : undefined
  const planned = planMutation(
    host,
    def,
    resource,
    name,
    (current) => {
      const failed = uidPreconditionFailure(def, host.strategyContext().namespace, name, uid, current.object)
      if (failed) return fail(failed)
      const view = scaleOf(current.object, def)
      delete view.metadata.resourceVersion
      const scale = next(view)
      if (!scale.ok) return scale
      warnings = scale.value.warnings
      const updated = applyScale(def, current.object, current.rv, scale.value.object, name)
      if (updated.ok) updated.value.metadata.resourceVersion = String(current.rv)
      return updated
    },
    opts,
  )
  return { ...planned, warnings }
}
