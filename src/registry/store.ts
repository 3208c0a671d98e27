// The generic store: create, update and delete for every kind, planned as pure functions over the current state.
// The Durable Object hosts run these plans inside their write queue and commit the resulting Change.
import type { StoredText } from './stored-json'
import { fieldError, type FieldError } from './field-errors'
import { statuses, ok, fail, type Result, type Resource } from './status'
import type { ResourceDef } from './resource'
import { apiVersionOf, resourceKey } from './resource'
import type { StrategyContext } from './strategy'
import { ObjectMeta, type KubeObject } from '../schema/meta'
import { validateObjectMeta, validateObjectMetaUpdate } from './validation/object-meta'
import { generateName } from './generate-name'
import { deepEqual, clone } from './deep-equal'
import { rfc3339 } from './time'
import { recordUpdate } from './managed-fields/managers'
import { goTypeOf } from './decoding/go-types'
import { omitEmptyCopy, omitEmptyFields } from './decoding/go-encoded'
import { conflictCause, conflictMessage, serverSideApply } from './managed-fields/apply'
import { parseObjectResourceVersion } from './resource-version'
import { nodeRestriction, storeWrite } from './admission/node-restriction'
import { uidPreconditionFailure } from './preconditions'

/** Who is writing, for managedFields; omitted: fields are not tracked (internal writes). */
export interface Manager {
  name: string
  subresource?: string
  /** The object's managedFields were already computed (server-side apply). */
  keep?: boolean
}

/** An object as stored: its metadata.resourceVersion equals String(rv). */
export interface Stored {
  rv: number
  object: KubeObject
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
  track(def, ctx, obj, null, manager)
  def.strategy.admit?.(obj)
  def.strategy.prepareForCreate(obj, ctx)
  const errors: FieldError[] = [
    ...validateObjectMeta(meta, { namespaced: def.namespaced, validateName: def.strategy.validateName }),
    ...def.strategy.validate(obj),
  ]
  if (errors.length) return fail(statuses.invalid(def.kind, meta.name ?? '', errors, def.group || undefined))
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
  def.strategy.admit?.(obj)
  def.strategy.prepareForUpdate(obj, old, ctx)
  track(def, ctx, obj, old, manager)
  const errors: FieldError[] = [
    ...validateObjectMetaUpdate(meta, oldMeta),
    ...validateObjectMeta(meta, { namespaced: def.namespaced, validateName: def.strategy.validateName }),
    ...def.strategy.validateUpdate(obj, old),
  ]
  if (errors.length) return fail(statuses.invalid(def.kind, name, errors, def.group || undefined))
  encodeAsGo(def, obj)
  meta.resourceVersion = String(current.rv)
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

/** Sets managedFields for an Update by `manager` (or keeps what apply computed; or the old ones for internal writes). */
function track(def: ResourceDef, ctx: StrategyContext, obj: KubeObject, old: KubeObject | null, manager?: Manager) {
  if (manager?.keep) return
  if (!manager) {
    if (old?.metadata.managedFields) obj.metadata.managedFields = old.metadata.managedFields
    else delete obj.metadata.managedFields
    return
  }
  const sent = obj.metadata.managedFields
  delete obj.metadata.managedFields
  const oldForDiff = old ? { ...old, metadata: { ...old.metadata } } : null
  // Owned fields are those of the object as stored (encodeAsGo runs after validation, so on a copy here).
  const encoded = encodedCopy(def, obj)
  const entries = recordUpdate(encoded, oldForDiff, def.schema, manager.name, ctx.now, manager.subresource, sent)
  if (entries) obj.metadata.managedFields = entries
}

interface ApplyPlan extends UpdatePlan {
  created: boolean
}

/** Plans a server-side apply of `applied` (already shape-checked) by `manager`: create, or merge by ownership. */
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
): Result<ApplyPlan> {
  const meta = (applied.metadata ??= {})
  if (meta.name && meta.name !== name) {
    return fail(
      statuses.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`),
    )
  }
  meta.name = name
  const outcome = serverSideApply(current?.object ?? null, applied, def.schema, manager, force, ctx.now, subresource)
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
  if (!current) {
    const created = planCreate(def, ctx, outcome.object, exists, { name: manager, subresource, keep: true })
    return created.ok ? ok({ change: created.value, object: created.value.object, created: true }) : created
  }
  const updated = planUpdate(def, ctx, name, outcome.object, current, { name: manager, subresource, keep: true })
  return updated.ok ? ok({ ...updated.value, created: false }) : updated
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

/**
 * The object as kube's Go structs encode it for storage: omitempty fields holding their empty value go. Validation
 * sees the object before (kube validates the decoded Go value, whose empty map prints `map[string]string{}`, not
 * nil); managedFields and storage see it after (the field manager reads the object through ToUnstructured, which
 * omits them too). A custom resource keeps its JSON: only its metadata (decoded as ObjectMeta) is encoded.
 */
function encodeAsGo(def: ResourceDef, obj: KubeObject) {
  if (def.unstructured) omitEmptyFields(obj.metadata, goTypeOf(ObjectMeta, 'v1.ObjectMeta'))
  else omitEmptyFields(obj, goTypeOf(def.schema, `v1.${def.kind}`))
}

/** A copy of `obj` as encodeAsGo leaves it (a typed kind's copy is made and encoded in one walk). */
function encodedCopy(def: ResourceDef, obj: KubeObject): KubeObject {
  if (!def.unstructured) return omitEmptyCopy(obj, goTypeOf(def.schema, `v1.${def.kind}`)) as KubeObject
  const copy = clone(obj)
  encodeAsGo(def, copy)
  return copy
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
