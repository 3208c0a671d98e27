// A decoded request object as kube writes it back: Go's omitempty applied field by field (the decoder keeps what the
// client sent, `"namespace": ""` included), ObjectMeta after the create handler wiped its system fields, and the
// FieldsV1 kube's field manager records for a create, which compares the object with its kind's Go zero value.
import { deepEqual } from '../../registry/deep-equal'
import { compareUtf8 } from '../../registry/go-strings'

export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Whether omitempty leaves the value out: '', false, 0, null, an empty list or map (never a struct, always shown). */
const empty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0)

/** The fields of `o` named in `keys`, each left out when omitempty would leave it out, in the order given. */
export function omitEmpty(o: unknown, keys: readonly string[]): Json {
  const out: Json = {}
  if (!isObject(o)) return out
  for (const k of keys) if (!empty(o[k])) out[k] = o[k]
  return out
}

/** A []string as Go holds it: the strings of a list, null for an absent or null list. */
export const stringsOf = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string')

/** ObjectMeta as the create handler leaves it (WipeObjectMetaSystemFields), written with its omitempty tags. */
export function goObjectMeta(meta: unknown): Json {
  const m = isObject(meta) ? meta : {}
  return {
    ...omitEmpty(m, ['name', 'generateName', 'namespace', 'resourceVersion', 'generation']),
    // A zero metav1.Time is a struct: omitempty cannot leave it out, so it is written as null.
    creationTimestamp: null,
    ...omitEmpty(m, ['labels', 'annotations', 'ownerReferences', 'finalizers']),
  }
}

/** What metav1.ObjectMeta{} is not: the fields a review's "metadata must be empty" rule looks at. */
export const metaIsEmpty = (meta: Json, except: readonly string[] = []) =>
  Object.keys(goObjectMeta(meta)).every((k) => k === 'creationTimestamp' || except.includes(k))

/** The metadata fields a manager may own: kube's stripMeta drops the rest from every field set. */
const OWNABLE_META = ['generateName', 'labels', 'annotations', 'ownerReferences', 'finalizers']

/** Every field of an added value: a struct or map owns itself ('.') and each of its fields. */
function added(v: unknown): Json {
  if (!isObject(v) || Object.keys(v).length === 0) return {}
  const out: Json = { '.': {} }
  for (const [k, x] of Object.entries(v)) out[`f:${k}`] = added(x)
  return out
}

/**
 * The fields `next` sets that Go's zero object `zero` does not hold (structured-merge-diff's Compare: Added plus
 * Modified). A field absent from the zero object is added with everything under it; a struct present in both is
 * compared field by field; a value present in both (a null pointer, a scalar, an atomic list) only if it differs.
 */
function changed(next: Json, zero: unknown): Json {
  const out: Json = {}
  const z = isObject(zero) ? zero : {}
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined) continue
    const was = z[k]
    let fields: Json | null
    if (was === undefined) fields = added(v)
    else if (isObject(v) && (isObject(was) || was === null)) {
      // A struct in both, or a null pointer now set: only the fields below change hands, not the field itself.
      fields = changed(v, was)
      if (Object.keys(fields).length === 0) fields = null
    } else fields = deepEqual(v, was) ? null : {}
    if (fields) out[`f:${k}`] = fields
  }
  return out
}

/** FieldsV1 is raw JSON to the encoder, written in insertion order: kube's has every level's keys sorted. */
function sortedKeys(o: Json): Json {
  const out: Json = {}
  for (const k of Object.keys(o).sort(compareUtf8)) out[k] = isObject(o[k]) ? sortedKeys(o[k]) : o[k]
  return out
}

/** One managedFields entry, as metav1.ManagedFieldsEntry is written. */
export interface ManagedEntry {
  manager: string
  operation: 'Update'
  apiVersion: string
  time: string
  fieldsType: 'FieldsV1'
  fieldsV1: Json
  subresource?: string
}

/**
 * managedFields after kube's field manager saw a create by `manager` (an Update against a new, empty object): the
 * fields of `body` (the object without metadata, as Go writes it) that differ from `zero`, plus the ownable metadata.
 * Undefined when that is nothing.
 */
export function createdFields(
  body: Json,
  meta: Json,
  zero: Json,
  entry: Omit<ManagedEntry, 'operation' | 'fieldsType' | 'fieldsV1'>,
): ManagedEntry[] | undefined {
  const fields = sortedKeys(changed({ ...body, metadata: omitEmpty(meta, OWNABLE_META) }, { ...zero, metadata: {} }))
  if (Object.keys(fields).length === 0) return undefined
  const e: ManagedEntry = {
    manager: entry.manager,
    operation: 'Update',
    apiVersion: entry.apiVersion,
    time: entry.time,
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
  }
  if (entry.subresource) e.subresource = entry.subresource
  return [e]
}

/** A string field of a decoded object ('' when absent or null, as Go holds it). */
export const field = (o: unknown, key: string): string => (isObject(o) ? str(o[key]) : '')
