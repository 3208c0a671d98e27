// The delete verbs of the generic store: a DELETE as kube's registry store plans it (BeforeDelete's checks, graceful
// deletion, finalizers, propagation), the removal of an object whose grace period ended, and an unconditional removal.
import { fieldError, type FieldError } from './field-errors'
import { statuses, ok, fail, type Result } from './status'
import type { ResourceDef } from './resource'
import { resourceKey } from './resource'
import type { StrategyContext } from './strategy'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { clone, deepEqual } from './deep-equal'
import { addGoSeconds, rfc3339 } from './time'
import { nodeRestriction, storeWrite } from './admission/node-restriction'
import { deletePreconditionFailure } from './preconditions'
import { invalidOptions, validateDeleteOptions } from './validation/meta-options'
import { type Change, resourceOf, type Stored, stripRv } from './store'

interface DeletePlan {
  /** null when the delete changes nothing (already terminating with a shorter grace period). */
  change: Change | null
  object: KubeObject
  /** When set, the object stays until this time (graceful deletion); the host removes it then. */
  removeAt?: number
}

/** Plans a DELETE: immediate, graceful (deletionTimestamp + grace) or blocked by finalizers. */
export function planDelete(
  def: ResourceDef,
  ctx: StrategyContext,
  name: string,
  current: Stored | null,
  options: DeleteOptions,
): Result<DeletePlan> {
  const res = resourceOf(def)
  // NodeRestriction judges a node's delete before the store reads anything, as kube's admission runs first.
  const denied =
    ctx.requestingNode &&
    nodeRestriction(ctx.requestingNode, storeWrite('DELETE', def, ctx, name, null, current?.object ?? null))
  if (denied) return fail(denied)
  if (!current) return fail(statuses.notFound(res, name))
  // rest.BeforeDelete validates the options first, whoever deletes (an eviction's, a controller's).
  const invalid = validateDeleteOptions(options)
  if (invalid.length > 0) return fail(invalidOptions('DeleteOptions', invalid))
  const old = current.object
  const record = { uid: old.metadata.uid ?? '', resourceVersion: String(current.rv) }
  const unmet = deletePreconditionFailure(def, name, options.preconditions, record)
  if (unmet) return fail(unmet)
  // rest.BeforeDelete: "Negative values will be treated as the value `1s` on the delete path."
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) {
    options = { ...options, gracePeriodSeconds: 1 }
  }
  const prev = stripRv(old)
  const begun = def.strategy.beginDelete?.(clone(prev), ctx)
  if (begun && 'status' in begun) return fail(begun.status)
  if (begun) {
    if (deepEqual(begun.object, prev)) return ok({ change: null, object: old })
    return ok({
      change: {
        type: 'MODIFIED',
        resource: resourceKey(def),
        namespace: ctx.namespace,
        name,
        object: begun.object,
        prev,
        prevRv: current.rv,
      },
      object: begun.object,
    })
  }
  const obj = clone(prev)
  const meta = obj.metadata
  // Orphan and Foreground propagation are carried out by the garbage collector, held by these finalizers.
  const gcFinalizer =
    options.propagationPolicy === 'Orphan' ||
    (options.propagationPolicy === undefined && options.orphanDependents === true)
      ? 'orphan'
      : options.propagationPolicy === 'Foreground'
        ? 'foregroundDeletion'
        : null
  if (gcFinalizer && !meta.finalizers?.includes(gcFinalizer))
    meta.finalizers = [...(meta.finalizers ?? []), gcFinalizer]
  let grace = def.strategy.gracePeriod ? def.strategy.gracePeriod(old, options) : 0
  const hasFinalizers = (meta.finalizers?.length ?? 0) > 0
  if (grace > 0 || hasFinalizers) {
    const already = old.metadata.deletionTimestamp !== undefined
    const oldGrace = old.metadata.deletionGracePeriodSeconds
    // A later delete may only shorten the grace period.
    if (
      already &&
      (oldGrace === undefined || grace >= oldGrace) &&
      deepEqual(meta.finalizers, old.metadata.finalizers)
    ) {
      return ok({ change: null, object: old })
    }
    // Go's time arithmetic (addGoSeconds): a huge grace period wraps around as kube's deletionTimestamp does.
    let removeAt = addGoSeconds(ctx.now.getTime(), grace)
    if (already && oldGrace !== undefined) {
      // A shorter grace period counts from the first deletion request (kube's BeforeDelete), not from this one, and
      // never moves the deletion into the past: then it is now, with the shortest grace period that is still one.
      const since = Date.parse(old.metadata.deletionTimestamp!)
      if (grace >= oldGrace) {
        // Pending: only the finalizers change.
        removeAt = since
        grace = oldGrace
      } else removeAt = addGoSeconds(addGoSeconds(since, oldGrace, true), grace)
      if (removeAt < ctx.now.getTime()) {
        removeAt = ctx.now.getTime()
        if (grace !== 0) grace = 1
      }
    }
    meta.deletionTimestamp = rfc3339(new Date(removeAt))
    meta.deletionGracePeriodSeconds = grace
    if (grace === 0 && !hasFinalizers) {
      return ok({
        change: {
          type: 'DELETED',
          resource: resourceKey(def),
          namespace: ctx.namespace,
          name,
          object: obj,
          prev,
          prevRv: current.rv,
        },
        object: obj,
      })
    }
    return ok({
      change: {
        type: 'MODIFIED',
        resource: resourceKey(def),
        namespace: ctx.namespace,
        name,
        object: obj,
        prev,
        prevRv: current.rv,
      },
      object: obj,
      removeAt: hasFinalizers ? undefined : removeAt,
    })
  }
  return ok({
    change: {
      type: 'DELETED',
      resource: resourceKey(def),
      namespace: ctx.namespace,
      name,
      object: obj,
      prev,
      prevRv: current.rv,
    },
    object: obj,
  })
}

/** Plans the removal of an object whose grace period ended (no-op unless it is still due and unblocked). */
export function planExpiry(def: ResourceDef, ctx: StrategyContext, current: Stored | null): Change | null {
  if (!current) return null
  const meta = current.object.metadata
  if (!meta.deletionTimestamp || (meta.finalizers?.length ?? 0) > 0) return null
  if (Date.parse(meta.deletionTimestamp) > ctx.now.getTime()) return null
  const prev = stripRv(current.object)
  return {
    type: 'DELETED',
    resource: resourceKey(def),
    namespace: ctx.namespace,
    name: meta.name!,
    object: clone(prev),
    prev,
    prevRv: current.rv,
  }
}

/** Plans the unconditional removal of an object (a namespace whose content is gone, a force-finalized object). */
export function planRemoval(def: ResourceDef, ctx: StrategyContext, current: Stored): Change {
  const prev = stripRv(current.object)
  return {
    type: 'DELETED',
    resource: resourceKey(def),
    namespace: ctx.namespace,
    name: prev.metadata.name!,
    object: clone(prev),
    prev,
    prevRv: current.rv,
  }
}
