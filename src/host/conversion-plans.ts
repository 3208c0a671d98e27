// Writes through a served version that converts (autoscaling/v1 HPAs, stored as v2): the request's object is
// converted to the stored version and planned with the stored row (its defaults, strategy and validation, so field
// errors name the stored version's paths, as kube's name its internal version's); a patch applies to the object as
// this version shows it, then converts. The Worker converts answers back (src/api/handlers.ts).
import type { ResourceDef, VersionConversion } from '../registry/resource'
import { fail, ok, statuses } from '../registry/status'
import { planUpdate } from '../registry/store'
import { planApply } from '../registry/store-apply'
import { applyPatch, decodeApplied, type PatchType } from '../registry/patch/apply-patch'
import { contextOf, defFor, managerOf, type PlanningHost, type VerbPlan } from './planning-host'
import type { PatchOptions } from './rpc-types'
import { admitPlanned } from './admission-plans'
import type { Change } from '../registry/store'

/** A converting version's write: the row it came through, its conversion, and the stored row to plan with. */
interface Converting {
  row: ResourceDef
  conversion: VersionConversion
  stored: ResourceDef
}

/** The conversion a write through `def` needs (null: `def` is the stored version's row, or converts apiVersion only). */
export function convertingWrite(def: ResourceDef, resource: string, subresource?: string): Converting | null {
  if (!def.conversion) return null
  const stored = defFor(resource, subresource)
  return stored ? { row: def, conversion: def.conversion, stored } : null
}

/** PATCH (and server-side apply) through a converting version: the patch applies to the object as it shows it. */
export function planConvertedPatch(
  host: PlanningHost,
  via: Converting,
  resource: string,
  name: string,
  type: PatchType,
  body: string,
  opts: PatchOptions,
): VerbPlan & { warnings?: string[]; also?: Change[] } {
  const current = host.get(resource, name)
  const notFound = () =>
    fail(statuses.notFound({ resource: via.stored.plural, group: via.stored.group || undefined }, name))
  if (type === 'apply') {
    const applied = decodeApplied(via.row, body, opts.fieldValidation)
    if (!applied.ok) return { plan: applied }
    const warnings = applied.value.warnings
    if (!current && opts.subresource) return { plan: notFound(), warnings }
    if (!current) {
      const refused = host.admitCreateNow(via.stored, name)
      if (refused) return { plan: fail(refused), warnings }
    }
    const plan = planApply(
      via.stored,
      contextOf(host, opts),
      name,
      applied.value.object,
      current,
      (n) => host.exists(resource, n),
      opts.fieldManager ?? 'unknown',
      opts.force ?? false,
      opts.subresource,
      via,
    )
    if (!plan.ok) return { plan, warnings }
    // Quota and the other admission a create or update through the stored version gets (write-plans.ts).
    const change = plan.value.change
    const admitted =
      opts.subresource || !change
        ? ok<Change[]>([])
        : admitPlanned(host, via.stored, plan.value.object, change.type === 'ADDED' ? null : (current?.object ?? null))
    if (!admitted.ok) return { plan: admitted, warnings }
    return {
      plan: ok({ change, object: plan.value.object, created: plan.value.created }),
      warnings,
      also: admitted.value,
    }
  }
  if (!current) return { plan: notFound() }
  const patched = applyPatch(via.row, via.conversion.fromStored(current.object), type, body, opts.fieldValidation)
  if (!patched.ok) return { plan: patched }
  const warnings = patched.value.warnings
  const converted = via.conversion.toStored(patched.value.object)
  if (!converted.ok) return { plan: converted, warnings }
  const plan = planUpdate(via.stored, contextOf(host, opts), name, converted.value, current, managerOf(opts))
  if (!plan.ok) return { plan, warnings }
  return { plan: ok({ change: plan.value.change, object: plan.value.object }), warnings }
}
