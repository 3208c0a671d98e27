// An object as the generic store writes it: Go's omitempty encoding for storage (encodeAsGo, after validation) and
// the managedFields an Update records (trackManagedFields), computed over that same encoding.
import { omitEmptyCopy, omitEmptyFields } from './decoding/go-encoded'
import { goTypeOf } from './decoding/go-types'
import { clone } from './deep-equal'
import { recordUpdate } from './managed-fields/managers'
import type { ResourceDef } from './resource'
import type { StrategyContext } from './strategy'
import { ObjectMeta, type KubeObject } from '../schema/meta'

/** Who is writing, for managedFields; omitted: fields are not tracked (internal writes). */
export interface Manager {
  name: string
  subresource?: string
  /** The object's managedFields were already computed (server-side apply). */
  keep?: boolean
}

/** Sets managedFields for an Update by `manager` (or keeps what apply computed; or the old ones for internal writes). */
export function trackManagedFields(
  def: ResourceDef,
  ctx: StrategyContext,
  obj: KubeObject,
  old: KubeObject | null,
  manager?: Manager,
) {
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
  // A create is compared with the kind's empty Go object (a custom resource's is empty).
  const goType = def.unstructured ? null : goTypeOf(def.schema, `v1.${def.kind}`)
  const entries = recordUpdate(
    encoded,
    oldForDiff,
    def.schema,
    goType,
    manager.name,
    ctx.now,
    manager.subresource,
    sent,
    keepsStatus(def),
  )
  if (entries) obj.metadata.managedFields = entries
}

/** Whether main-resource writes own status: a custom resource without a status subresource (no reset fields). */
export const keepsStatus = (def: ResourceDef) =>
  def.unstructured !== undefined && !def.subresources?.some((s) => s.name === 'status')

/**
 * The object as kube's Go structs encode it for storage: omitempty fields holding their empty value go. Validation
 * sees the object before (kube validates the decoded Go value, whose empty map prints `map[string]string{}`, not
 * nil); managedFields and storage see it after (the field manager reads the object through ToUnstructured, which
 * omits them too). A custom resource keeps its JSON: only its metadata (decoded as ObjectMeta) is encoded.
 */
export function encodeAsGo(def: ResourceDef, obj: KubeObject) {
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
