// The generic store: create and update for every kind, planned as pure functions over the current state, and the
// Change they plan. The Durable Object hosts run these plans inside their write queue and commit the resulting Change.
// Its other verbs: store-delete.ts (delete, expiry, removal), store-apply.ts (server-side apply); how it encodes what
// it stores and records managedFields: store-encoding.ts.
import type { StoredText } from './stored-json'
import { fieldError, type FieldError } from './field-errors'
import { statuses, ok, fail, type Result, type Resource } from './status'
import type { ResourceDef } from './resource'
import { apiVersionOf, resourceKey } from './resource'
import type { StrategyContext } from './strategy'
import type { KubeObject } from '../schema/meta'
import { validateObjectMeta, validateObjectMetaUpdate } from './validation/object-meta'
import { generateName } from './generate-name'
import { deepEqual, clone } from './deep-equal'
import { encodeAsGo, type Manager, trackManagedFields } from './store-encoding'
import { rfc3339 } from './time'
import { parseObjectResourceVersion } from './resource-version'
import { nodeRestriction, storeWrite } from './admission/node-restriction'
import { uidPreconditionFailure } from './preconditions'
import { keepManagedFieldsTimestamps } from './managed-fields/timestamps'

/** An object as stored: its metadata.resourceVersion equals String(rv). */
export interface Stored {
  rv: number
  object: KubeObject
  /** The JSON its store holds for it (stored form, see stored-json.ts), when it was read from one. */
  text?: string
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

/** One write, before commit: objects carry no resourceVersion; the commit assigns it. */
export interface Change {
  type: ChangeType
  resource: string
  namespace: string
  name: string
  /** The state after the change; for DELETED, the final state. */
  object: KubeObject
  /** The state before the change; null for ADDED. */
  prev: KubeObject | null
  /** The resourceVersion prev was stored at; null for ADDED. */
  prevRv: number | null
  /** object and prev as stored JSON, once something has encoded them (see storedText). Planners leave it unset. */
  text?: StoredText
  /** prev as its store held it, when the planner read it so and left it untouched: not encoded again. */
  prevText?: string
}

/** A committed change: the change with the resourceVersion its commit gave it. */
export interface LogEntry extends Change {
  rv: number
}

export const resourceOf = (def: ResourceDef): Resource => ({ resource: def.plural, group: def.group || undefined })

const GENERATE_ATTEMPTS = 8

/** Plans a create. `exists` answers whether a name is taken in the object's scope. */
export function planCreate(
  def: ResourceDef,
  ctx: StrategyContext,
  input: KubeObject,
  exists: (name: string) => boolean,
  manager?: Manager,
): Result<Change> {
  const incoming = intake(def, ctx, input)
  if (!incoming.ok) return incoming
  const obj = incoming.value
  const meta = obj.metadata
  // kube's storage refuses a resourceVersion that parses to anything but 0 and ignores one that does not parse. It
  // answers 500 for this input; bad input is a 400 here, with kube's message.
  const rv = parseObjectResourceVersion(meta.resourceVersion)
  if (rv.ok && rv.value !== 0)
    return fail(statuses.badRequest('resourceVersion should not be set on objects to be created'))
  delete meta.resourceVersion
  // The name admission's refusals give (admission.extractResourceName): a name is generated only after admission.
  const admissionName = meta.name || meta.generateName || 'Unknown'
  let generated = false
  if (!meta.name && meta.generateName) {
    generated = true
    meta.name = generateName(meta.generateName)
    for (let i = 1; i < GENERATE_ATTEMPTS && exists(meta.name); i++) meta.name = generateName(meta.generateName)
  }
  // BeforeCreate: the server owns these fields.
  delete meta.deletionTimestamp
  delete meta.deletionGracePeriodSeconds
  delete meta.selfLink
  meta.uid = crypto.randomUUID()
  meta.creationTimestamp = rfc3339(ctx.now)
  if (meta.generation !== undefined) meta.generation = 1
  def.strategy.applyDefaults(obj)
  const refused = ctx.writer ? def.strategy.authorizeWrite?.(obj, null, ctx) : null
  if (refused) return fail(refused)
  // Admission of writes by nodes (NodeRestriction); a create's name is the one the request gave.
  const denied =
    ctx.requestingNode &&
    nodeRestriction(ctx.requestingNode, storeWrite('CREATE', def, ctx, generated ? '' : (meta.name ?? ''), obj, null))
  if (denied) return fail(denied)
  trackManagedFields(def, ctx, obj, null, manager)
  ctx.mutatingAdmission?.(obj)
  const admitted = def.strategy.admit?.(obj, ctx, null)
  if (admitted) return fail(statuses.forbidden(resourceOf(def), admissionName, admitted))
  def.strategy.prepareForCreate(obj, ctx)
  const errors: FieldError[] = [
    ...validateObjectMeta(meta, { namespaced: def.namespaced, validateName: def.strategy.validateName, type: def }),
    ...def.strategy.validate(obj),
  ]
  if (errors.length) return fail(statuses.invalid(def.kind, meta.name ?? '', errors, def.group || undefined))
  const validated = def.strategy.validateAdmission?.(obj, ctx, null)
  if (validated) return fail(statuses.forbidden(resourceOf(def), admissionName, validated))
  encodeAsGo(def, obj)
  const name = meta.name!
  if (exists(name)) {
    return fail(
      generated ? statuses.generateNameConflict(resourceOf(def), name) : statuses.alreadyExists(resourceOf(def), name),
    )
  }
  return ok({
    type: 'ADDED',
    resource: resourceKey(def),
    namespace: ctx.namespace,
    name,
    object: obj,
    prev: null,
    prevRv: null,
  })
}

interface UpdatePlan {
  /** null when the update changes nothing: no write, no new resourceVersion, as etcd3's GuaranteedUpdate. */
  change: Change | null
  object: KubeObject
}

/**
 * Plans a PUT of `input` over `current` (the object named in the URL). `uidPrecondition` is the uid the stored object
 * must have (a PUT's body names one; see preconditions.ts).
 */
export function planUpdate(
  def: ResourceDef,
  ctx: StrategyContext,
  name: string,
  input: KubeObject,
  current: Stored | null,
  manager?: Manager,
  uidPrecondition?: string,
): Result<UpdatePlan> {
  const res = resourceOf(def)
  const incoming = intake(def, ctx, input)
  if (!incoming.ok) return incoming
  const obj = incoming.value
  const meta = obj.metadata
  if (meta.name && meta.name !== name) {
    return fail(
      statuses.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`),
    )
  }
  meta.name = name
  if (!current) return fail(statuses.notFound(res, name))
  const old = current.object
  const failed = uidPreconditionFailure(def, ctx.namespace, name, uidPrecondition, old)
  if (failed) return fail(failed)
  // A resourceVersion that parses to 0 ("0" included) is no precondition: the update is unconditional where the
  // kind allows it (kube's Store.Update).
  const rv = parseObjectResourceVersion(meta.resourceVersion)
  if (!rv.ok) return rv
  if (rv.value !== 0) {
    if (rv.value !== current.rv) return fail(statuses.modified(res, name))
  } else if (!def.strategy.allowUnconditionalUpdate) {
    // kube names the resource, not the kind, in this one Invalid error.
    return fail(
      statuses.invalid(
        def.plural,
        name,
        [fieldError.invalid('metadata.resourceVersion', '0x0', 'must be specified for an update')],
        def.group || undefined,
      ),
    )
  }
  // BeforeUpdate: what no caller may change.
  const oldMeta = old.metadata
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation
  else delete meta.generation
  if (!meta.uid) meta.uid = oldMeta.uid
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds
  }
  delete meta.selfLink
  def.strategy.applyDefaults(obj)
  const refused = ctx.writer ? def.strategy.authorizeWrite?.(obj, old, ctx) : null
  if (refused) return fail(refused)
  const denied =
    ctx.requestingNode && nodeRestriction(ctx.requestingNode, storeWrite('UPDATE', def, ctx, name, obj, old))
  if (denied) return fail(denied)
  const admitted = def.strategy.admit?.(obj, ctx, old)
  if (admitted) return fail(statuses.forbidden(res, name, admitted))
  def.strategy.prepareForUpdate(obj, old, ctx)
  trackManagedFields(def, ctx, obj, old, manager)
  const errors: FieldError[] = [
    ...validateObjectMetaUpdate(meta, oldMeta, def),
    ...validateObjectMeta(meta, { namespaced: def.namespaced, validateName: def.strategy.validateName, type: def }),
    ...def.strategy.validateUpdate(obj, old),
  ]
  if (errors.length) return fail(statuses.invalid(def.kind, name, errors, def.group || undefined))
  const validated = def.strategy.validateAdmission?.(obj, ctx, old)
  if (validated) return fail(statuses.forbidden(res, name, validated))
  encodeAsGo(def, obj)
  meta.resourceVersion = String(current.rv)
  keepManagedFieldsTimestamps(obj, old)
  if (deepEqual(obj, old)) return ok({ change: null, object: old })
  delete meta.resourceVersion
  const prev = stripRv(old)
  // An update that leaves no finalizer on an object being deleted without a grace period still running completes
  // the deletion (kube's ShouldDeleteDuringUpdate); within a grace period the removal stays with its expiry/kubelet.
  const graceOver = oldMeta.deletionGracePeriodSeconds === undefined || oldMeta.deletionGracePeriodSeconds === 0
  if (oldMeta.deletionTimestamp && graceOver && !meta.finalizers?.length) {
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
  })
}

/** A copy of a request's object with the kind's apiVersion and kind, metadata present, the namespace checked. */
function intake(def: ResourceDef, ctx: StrategyContext, input: KubeObject): Result<KubeObject> {
  const obj = clone(input)
  obj.apiVersion = apiVersionOf(def)
  obj.kind = def.kind
  obj.metadata ??= {}
  const bad = checkNamespace(def, ctx, obj)
  return bad ? fail(bad) : ok(obj)
}

function checkNamespace(def: ResourceDef, ctx: StrategyContext, obj: KubeObject) {
  const meta = obj.metadata
  if (!def.namespaced) {
    // rest.EnsureObjectNamespaceMatchesRequestNamespace: a cluster-scoped object's namespace is cleared, not refused
    // (charts often give every object one).
    delete meta.namespace
    return undefined
  }
  if (meta.namespace && meta.namespace !== ctx.namespace) {
    return statuses.badRequest('the namespace of the provided object does not match the namespace sent on the request')
  }
  meta.namespace = ctx.namespace
  return undefined
}

/** A copy of a stored object without its resourceVersion (what a change carries as its previous state). */
export function stripRv(obj: KubeObject): KubeObject {
  const copy = clone(obj)
  delete copy.metadata.resourceVersion
  return copy
}

/** Sets the committed resourceVersion on an object (in place) and returns it. */
export function withRv<T extends KubeObject>(obj: T, rv: number): T {
  obj.metadata.resourceVersion = String(rv)
  return obj
}
