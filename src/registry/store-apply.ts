// Server-side apply as the generic store plans it: the applied configuration merged by field ownership
// (managed-fields/apply.ts), conflicts answered as kube words them, then a create or an update of the result.
import { conflictCause, conflictMessage, serverSideApply } from './managed-fields/apply'
import { keepsStatus } from './store-encoding'
import type { ResourceDef, VersionConversion } from './resource'
import { fail, ok, statuses, type Result } from './status'
import { type Change, planCreate, planUpdate, resourceOf, type Stored } from './store'
import type { StrategyContext } from './strategy'
import type { KubeObject } from '../schema/meta'

/** A create or an update (change null: nothing changed), and which. */
interface ApplyPlan {
  change: Change | null
  object: KubeObject
  created: boolean
}

/**
 * Plans a server-side apply of `applied` (already shape-checked) by `manager`: create, or merge by ownership. `view`:
 * the request's version converts (autoscaling/v1 HPAs): the merge runs on the object as that version shows it, then
 * the result converts to the stored version `def` plans.
 */
export function planApply(
  def: ResourceDef,
  ctx: StrategyContext,
  name: string,
  applied: KubeObject,
  current: Stored | null,
  exists: (name: string) => boolean,
  manager: string,
  force: boolean,
  subresource?: string,
  view?: { row: ResourceDef; conversion: VersionConversion },
): Result<ApplyPlan> {
  const meta = (applied.metadata ??= {})
  if (meta.name && meta.name !== name) {
    return fail(
      statuses.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`),
    )
  }
  meta.name = name
  const base = current && view ? view.conversion.fromStored(current.object) : (current?.object ?? null)
  const schema = view?.row.schema ?? def.schema
  const outcome = serverSideApply(base, applied, schema, manager, force, ctx.now, subresource, keepsStatus(def))
  if (!outcome.ok) {
    const s = statuses.conflict(resourceOf(def), name, '')
    s.message = conflictMessage(outcome.conflicts)
    s.details = {
      ...s.details,
      causes: outcome.conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: conflictCause(c),
        field: c.field,
      })),
    }
    return fail(s)
  }
  let merged = outcome.object
  if (view) {
    const converted = view.conversion.toStored(merged)
    if (!converted.ok) return converted
    merged = converted.value
  }
  if (!current) {
    const created = planCreate(def, ctx, merged, exists, { name: manager, subresource, keep: true })
    return created.ok ? ok({ change: created.value, object: created.value.object, created: true }) : created
  }
  const updated = planUpdate(def, ctx, name, merged, current, { name: manager, subresource, keep: true })
  return updated.ok ? ok({ ...updated.value, created: false }) : updated
}
