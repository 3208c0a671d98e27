// The write verbs' plans against the current state, as they run inside the write queue: create, update, patch,
// a controller's reconcile, delete. What they plan against: planning-host.ts; read-modify-writes: mutation-plans.ts;
// /scale: scale-plan.ts; turning a plan into a queued job: write-job.ts.
import { planDelete } from '../registry/store-delete'
import { planCreate, planUpdate } from '../registry/store'
import { planApply } from '../registry/store-apply'
import { statuses, fail, ok } from '../registry/status'
import type { ResourceDef } from '../registry/resource'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { updatePrecondition } from '../registry/preconditions'
import { clone } from '../registry/deep-equal'
import type { Desired } from './controller'
import { scaleRow } from '../registry/scale-subresource'
import { betaReplacement } from '../registry/v1beta1/replace'
import { applyPatch, decodeApplied, type PatchType } from '../registry/patch/apply-patch'
import type { CreationTokens } from './creation-tokens'
import { planMutateVerb, planMutation } from './mutation-plans'
import { contextOf, managerOf, type PlanningHost, type VerbPlan } from './planning-host'
import type { PatchOptions, WriteOptions } from './rpc-types'
import { planScaleVerb } from './scale-plan'
import { customFinalizerWarnings } from '../registry/custom/finalizer-warnings'
import { strategyWarnings } from '../registry/strategy-warnings'
import { admitPlanned, admittingContext } from './admission-plans'
import type { Change } from '../registry/store'
import { convertingWrite, planConvertedPatch } from './conversion-plans'
import { nameForAdmission } from './host-policy'

/**
 * POST: admission again (synchronously, so a create cannot slip in after termination began), the creation token's
 * twin check, then the generic store's create. `me` is this create's own claim on its token.
 */
export function planCreateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  input: KubeObject,
  opts: WriteOptions,
  tokens: CreationTokens,
  me: symbol,
): VerbPlan & { warnings?: string[]; also?: Change[] } {
  const via = convertingWrite(def, resource)
  if (via) {
    const converted = via.conversion.toStored(input)
    if (!converted.ok) return { plan: converted }
    return planCreateVerb(host, via.stored, resource, converted.value, opts, tokens, me)
  }
  const token = opts.idempotencyKey
  const refusedNow = host.admitCreateNow(def, nameForAdmission(input))
  if (refusedNow) return { plan: fail(refusedNow) }
  if (token) {
    const twin = tokens.conflict(token, me, host.scope())
    if (twin) return { plan: fail(twin) }
  }
  const ctx = admittingContext(host, def, contextOf(host, opts))
  const plan = planCreate(def, ctx, input, (n) => host.exists(resource, n), managerOf(opts))
  if (!plan.ok) return { plan }
  const admitted = admitPlanned(host, def, plan.value.object, null)
  if (!admitted.ok) return { plan: admitted }
  if (token && !opts.dryRun) {
    tokens.reserve(token, me, resource, plan.value.name, plan.value.object.metadata.uid ?? '')
  }
  const warnings = customFinalizerWarnings(def, undefined, plan.value.object, null)
  warnings.push(...strategyWarnings(def, undefined, plan.value.object, null))
  return {
    plan: ok({ change: plan.value, object: plan.value.object, created: true }),
    warnings,
    also: admitted.value,
  }
}

/** PUT. */
export function planUpdateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  input: KubeObject,
  opts: WriteOptions,
): VerbPlan & { warnings?: string[]; also?: Change[] } {
  if (opts.subresource === 'scale')
    return planScaleVerb(host, def, resource, name, () => ok({ object: input, warnings: [] }), opts, input)
  if (opts.codec === 'v1beta1')
    return planMutation(host, def, resource, name, (cur) => betaReplacement(def, cur.object, cur.rv, input, name), opts)
  const via = convertingWrite(def, resource, opts.subresource)
  if (via) {
    const converted = via.conversion.toStored(input)
    if (!converted.ok) return { plan: converted }
    return planUpdateVerb(host, via.stored, resource, name, converted.value, opts)
  }
  const current = host.get(resource, name)
  const plan = planUpdate(def, contextOf(host, opts), name, input, current, managerOf(opts), updatePrecondition(input))
  if (!plan.ok) return { plan }
  const admitted = updateAdmission(host, def, plan.value, current?.object ?? null, opts)
  if (!admitted.ok) return { plan: admitted }
  const warnings = customFinalizerWarnings(def, opts.subresource, plan.value.object, current?.object ?? null)
  warnings.push(...strategyWarnings(def, opts.subresource, plan.value.object, current?.object ?? null))
  return { plan: ok({ change: plan.value.change, object: plan.value.object }), warnings, also: admitted.value }
}

/**
 * PATCH: applies the patch to the current object, then updates as a PUT would (server-side apply may create).
 * `warnings` are the fieldValidation=Warn findings of decoding the patch, once it decoded.
 */
export function planPatchVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  type: PatchType,
  body: string,
  opts: PatchOptions,
): VerbPlan & { warnings?: string[]; also?: Change[] } {
  const current = host.get(resource, name)
  const via = convertingWrite(def, resource, opts.subresource)
  if (via) return planConvertedPatch(host, via, resource, name, type, body, opts)
  if (type === 'apply') {
    const applied = decodeApplied(def, body, opts.fieldValidation)
    if (!applied.ok) return { plan: applied }
    const warnings = applied.value.warnings
    // A subresource is never created by applying to it.
    if (!current && opts.subresource)
      return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)), warnings }
    if (!current) {
      const refused = host.admitCreateNow(def, name)
      if (refused) return { plan: fail(refused), warnings }
    }
    // An apply that creates gets LimitRanger's defaults as a POST does.
    const plan = planApply(
      def,
      admittingContext(host, def, contextOf(host, opts)),
      name,
      applied.value.object,
      current,
      (n) => host.exists(resource, n),
      opts.fieldManager ?? 'unknown',
      opts.force ?? false,
      opts.subresource,
    )
    if (!plan.ok) return { plan, warnings }
    const admitted = updateAdmission(host, def, plan.value, current?.object ?? null, opts)
    if (!admitted.ok) return { plan: admitted, warnings }
    const added = customFinalizerWarnings(def, opts.subresource, plan.value.object, current?.object ?? null)
    added.push(...strategyWarnings(def, opts.subresource, plan.value.object, current?.object ?? null))
    return {
      plan: ok({ change: plan.value.change, object: plan.value.object, created: plan.value.created }),
      warnings: [...warnings, ...added],
      also: admitted.value,
    }
  }
  if (opts.subresource === 'scale')
    return planScaleVerb(
      host,
      def,
      resource,
      name,
      (view) => applyPatch(scaleRow(def), view, type, body, opts.fieldValidation),
      opts,
    )
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const patched = applyPatch(def, current.object, type, body, opts.fieldValidation)
  if (!patched.ok) return { plan: patched }
  const warnings = patched.value.warnings
  const plan = planUpdate(def, contextOf(host, opts), name, patched.value.object, current, managerOf(opts))
  if (!plan.ok) return { plan, warnings }
  const admitted = updateAdmission(host, def, plan.value, current.object, opts)
  if (!admitted.ok) return { plan: admitted, warnings }
  const added = customFinalizerWarnings(def, opts.subresource, plan.value.object, current.object)
  added.push(...strategyWarnings(def, opts.subresource, plan.value.object, current.object))
  return {
    plan: ok({ change: plan.value.change, object: plan.value.object }),
    warnings: [...warnings, ...added],
    also: admitted.value,
  }
}

/** A controller's level-triggered write: whatever `decide` wants given the newest state, planned by its verb. */
export function planReconcileVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  decide: (current: KubeObject | null) => Desired,
  opts: WriteOptions,
): VerbPlan & { also?: Change[] } {
  const current = host.get(resource, name)
  const desired = decide(current ? clone(current.object) : null)
  if (!desired) return { plan: ok({ change: null, object: current?.object ?? { metadata: { name } }, declined: true }) }
  if ('delete' in desired) return planDeleteVerb(host, def, resource, name, desired.delete)
  if ('update' in desired) return planMutateVerb(host, def, resource, name, () => desired.update, opts)
  const refused = host.admitCreateNow(def, name)
  if (refused) return { plan: fail(refused) }
  const ctx = admittingContext(host, def, contextOf(host, opts))
  const plan = planCreate(def, ctx, desired.create, (n) => host.exists(resource, n), managerOf(opts))
  if (!plan.ok) return { plan }
  // A controller's pods are admitted as a client's are: kube's controllers create them through the API.
  const admitted = admitPlanned(host, def, plan.value.object, null)
  if (!admitted.ok) return { plan: admitted }
  return { plan: ok({ change: plan.value, object: plan.value.object, created: true }), also: admitted.value }
}

/**
 * Admission of a planned PUT, PATCH or apply of the object itself (not a subresource) that changes it: a create by
 * apply as a create, an update with the stored object. Nothing to admit for an unchanged object.
 */
function updateAdmission(
  host: PlanningHost,
  def: ResourceDef,
  planned: { change: Change | null; object: KubeObject },
  old: KubeObject | null,
  opts: WriteOptions,
) {
  if (opts.subresource || !planned.change) return ok<Change[]>([])
  return admitPlanned(host, def, planned.object, planned.change.type === 'ADDED' ? null : old)
}

/** DELETE: a graceful one answers the time its object is due for removal. */
export function planDeleteVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  options: DeleteOptions,
  opts: WriteOptions = {},
): VerbPlan {
  const plan = planDelete(def, contextOf(host, opts), name, host.get(resource, name), options)
  if (!plan.ok) return { plan }
  const { change, object } = plan.value
  const pending = change?.type !== 'DELETED'
  return { plan: ok({ change, object, ...(pending ? { pending } : {}) }), removeAt: plan.value.removeAt }
}
