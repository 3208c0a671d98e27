// Which conflicts a server-side apply may take over because client-side apply put those values there: the fields of
// the last-applied-configuration annotation whose values the live object still holds (kube's lastAppliedManager).
import type { z } from 'zod'
import type { KubeObject } from '../../schema/meta'
import { checkShape, handlingPrefix, stripNulls } from '../decode'
import { deepEqual } from '../deep-equal'
import { StatusError } from '../status'
import { node } from '../schema-walk'
import { fieldSetOf, innerPathsOf, splitPath, valueAt, withKeyDefaults, type FieldSet } from './field-set'
import { lastAppliedOf } from './last-applied-annotation'

/**
 * The paths the annotation on `live` vouches for, or null when it cannot: absent or empty, not JSON, another
 * apiVersion or kind than the live object's, or not an object of the kind's schema.
 */
export function lastAppliedTakeover(live: KubeObject, schema: z.ZodType): FieldSet | null {
  const text = lastAppliedOf(live)
  if (text === undefined) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  const config = stripNulls(parsed) as KubeObject
  if (config.apiVersion !== live.apiVersion || config.kind !== live.kind) return null
  // kube reads the annotation as a typed object: unknown fields and wrong types make it unusable.
  try {
    checkShape(schema, config, handlingPrefix(live.kind!, live.apiVersion!.split('/').pop()!), 'Strict', null)
  } catch (e) {
    if (e instanceof StatusError) return null
    throw e
  }
  const last = withKeyDefaults(config, node(schema))
  const lastSet = fieldSetOf(last, schema)
  const inner = innerPathsOf(lastSet)
  const allowed: FieldSet = new Set()
  for (const p of lastSet) {
    const segs = splitPath(p)
    const liveValue = valueAt(live, segs)
    // Fields client-side apply set that have since been removed or changed are no longer its to hand over; a map
    // entry or list item present in both stands, whatever became of its own fields.
    if (liveValue === undefined) continue
    if (!inner.has(p) && !deepEqual(valueAt(last, segs), liveValue)) continue
    allowed.add(p)
  }
  return allowed
}
