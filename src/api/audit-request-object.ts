// What kube's audit learns from a create's or update's decoded body (audit.LogRequestObject, called by the create and
// update handlers right after decoding): the objectRef's missing name, namespace, uid and resourceVersion come from
// the object, and at Request level and above the object itself is the event's requestObject. The decoding codec has
// defaulted it (DecoderToVersion runs the scheme's defaulters), and nothing the server sets later is on it yet (no
// uid or creationTimestamp of its own, the namespace as sent); it is encoded as Go encodes the type: omitempty fields
// left out, fields in struct order, and the zero values Go writes for what the body left out (a Pod's `status: {}`,
// ObjectMeta's zero creationTimestamp as null).
import type { Context } from 'hono'
import type { z } from 'zod'
import { LEVELS } from '../audit/policy'
import { omitEmptyCopy, omitEmptyFields } from '../registry/decoding/go-encoded'
import { GO_JSON_FIELDS } from '../registry/decoding/go-json-fields'
import { type GoType, goTypeOf } from '../registry/decoding/go-types'
import { clone } from '../registry/deep-equal'
import type { ResourceDef } from '../registry/resource'
import { encodeInGoOrder } from '../registry/wire-json'
import { ObjectMeta, type KubeObject } from '../schema/meta'
import { type Observation, observationOf } from './observation'

/**
 * Called by a handler before it decodes a create's or update's body: from then on the event records only what that
 * decoding gives (a body that does not decode is never logged, as kube's handler returns before LogRequestObject).
 */
export function noteDecodingRequest(c: Context): void {
  const obs = observationOf(c)
  if (obs) obs.requestDecodedHere = true
}

/** Called by a handler once it decoded a create's or update's body (before anything else changes the object). */
export function noteDecodedRequest(c: Context, def: ResourceDef, obj: KubeObject): void {
  const obs = observationOf(c)
  if (!obs) return
  obs.requestObjectRef = refOf(obj)
  if (atRequestLevel(obs)) obs.requestObject = asLogged(def, obj)
}

/**
 * The same for a subresource's body that is a kind of its own with no defaults (a pod's Binding or Eviction, a
 * Scale): the object is logged as Go encodes it.
 */
export function noteDecodedSubresource(c: Context, schema: z.ZodType, kind: string, obj: KubeObject): void {
  const obs = observationOf(c)
  if (!obs) return
  obs.requestObjectRef = refOf(obj)
  const type = goTypeOf(schema, `v1.${kind}`)
  if (atRequestLevel(obs)) obs.requestObject = inGoOrder(goEncoded(clone(obj), type), type)
}

const atRequestLevel = (obs: Observation) =>
  obs.audit !== undefined && LEVELS.indexOf(obs.audit.level) >= LEVELS.indexOf('Request')

/** What LogRequestObject takes from the object for the objectRef fields the request left empty. */
function refOf(obj: KubeObject): Observation['requestObjectRef'] {
  const meta = obj.metadata ?? {}
  return {
    name: meta.name || undefined,
    namespace: meta.namespace || undefined,
    uid: meta.uid || undefined,
    resourceVersion: meta.resourceVersion || undefined,
  }
}

/** The decoded object as LogRequestObject encodes it: defaulted, then as Go writes its type. */
function asLogged(def: ResourceDef, obj: KubeObject): unknown {
  const copy = clone(obj)
  def.strategy.applyDefaults(copy)
  if (def.unstructured) {
    // A custom resource is written as it was decoded (an Unstructured); its metadata went through ObjectMeta.
    if (copy.metadata) omitEmptyFields(copy.metadata, goTypeOf(ObjectMeta, 'v1.ObjectMeta'))
    return copy
  }
  return goEncoded(copy, goTypeOf(def.schema, `v1.${def.kind}`))
}

/** A decoded document as encoding/json writes its Go type back. */
function goEncoded(doc: unknown, type: GoType): unknown {
  const encoded = omitEmptyCopy(doc, type)
  withGoZeroes(encoded, type)
  return JSON.parse(encodeInGoOrder(encoded))
}

/** Go's kind of `struct.field` as the generated tag table has it ('struct', 'string', 'pointer'...), and omitempty. */
function goField(struct: string, field: string): { kind: string; omitEmpty: boolean } | null {
  const table = GO_JSON_FIELDS[struct]
  const tag = table?.[field]
  if (!tag) return null
  const [kind = '', option] = tag.split(',')
  return { kind, omitEmpty: option === 'omitempty' }
}

/**
 * Writes in, in place, what encoding/json writes for a value the document leaves out: a struct field (never empty to
 * omitempty) as its zero value ({} for a struct, null for a metav1.Time, "0" for a Quantity), and a field without
 * omitempty as its kind's zero ("" / false / 0, null for a slice, map or pointer).
 */
function withGoZeroes(doc: unknown, type: GoType): void {
  if (typeof doc !== 'object' || doc === null) return
  if (Array.isArray(doc)) {
    if (type.kind === 'slice') for (const item of doc) withGoZeroes(item, type.elem!)
    return
  }
  const o = doc as Record<string, unknown>
  if (type.kind === 'map') {
    for (const v of Object.values(o)) withGoZeroes(v, type.elem!)
    return
  }
  if (type.kind !== 'struct') return
  for (const [name, field] of type.fields) {
    if (o[name] !== undefined) {
      withGoZeroes(o[name], field.type)
      continue
    }
    const go = goField(type.struct, name)
    if (!go) continue
    const zero = goZero(go, field.type)
    if (zero !== undefined) o[name] = zero
  }
}

function goZero(go: { kind: string; omitEmpty: boolean }, type: GoType): unknown {
  if (go.kind === 'struct') {
    switch (type.kind) {
      case 'time':
      case 'microTime':
        return null
      case 'quantity':
        return '0'
      case 'intOrString':
        return 0
      case 'struct': {
        const z: Record<string, unknown> = {}
        withGoZeroes(z, type)
        return z
      }
      default:
        return undefined
    }
  }
  if (go.omitEmpty) return undefined
  switch (go.kind) {
    case 'string':
      return ''
    case 'bool':
      return false
    case 'number':
      return 0
    case 'slice':
    case 'map':
    case 'pointer':
    case 'interface':
      return null
    default:
      return undefined
  }
}

/**
 * A document's keys in its Go type's field order (the top level's TypeMeta kind and apiVersion first, as every kind
 * embeds it first), map keys sorted: for kinds the wire encoder has no plan of (a Binding, an Eviction, a Scale).
 */
function inGoOrder(doc: unknown, type: GoType, top = true): unknown {
  if (typeof doc !== 'object' || doc === null) return doc
  if (Array.isArray(doc)) return type.kind === 'slice' ? doc.map((x) => inGoOrder(x, type.elem!, false)) : doc
  const o = doc as Record<string, unknown>
  if (type.kind === 'map')
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, inGoOrder(o[k], type.elem!, false)]),
    )
  if (type.kind !== 'struct') return doc
  const keys = top ? ['kind', 'apiVersion'].filter((k) => type.fields.has(k)) : []
  for (const k of type.fields.keys()) if (!keys.includes(k)) keys.push(k)
  for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k)
  const out: Record<string, unknown> = {}
  for (const k of keys) if (o[k] !== undefined) out[k] = inGoOrder(o[k], type.fields.get(k)?.type ?? type, false)
  return out
}
