// How objects are stored as JSON everywhere (D1 and Durable Objects): in Go's field order (so an object read back
// is already in wire order and responses take the native encoder's fast path), without metadata.resourceVersion,
// which the row's rv column holds and readers put back in its place; objects of kinds encrypted at rest (Secrets)
// sealed here and opened in materialize, so every read, list, watch and catch-up sees them decrypted.
import { ObjectMeta, type KubeObject } from '../schema/meta'
import { encryptsAtRest, isSealed, open, seal } from './at-rest'
import { fieldNames, node } from './schema-walk'
import { encodeInGoOrder } from './wire-json'

/** An object as stored; `resource` names its kind's resource, whose objects may be stored encrypted. */
export function encodeStored(obj: KubeObject, resource?: string): string {
  const json = encodePlain(obj)
  return resource !== undefined && encryptsAtRest(resource) ? seal(obj, json) : json
}

function encodePlain(obj: KubeObject): string {
  const meta = obj.metadata
  const rv = meta.resourceVersion
  if (rv === undefined) return encodeInGoOrder(obj)
  // Hidden rather than deleted: deleting and restoring would move the field to the end of metadata.
  meta.resourceVersion = undefined
  try {
    return encodeInGoOrder(obj)
  } finally {
    meta.resourceVersion = rv
  }
}

/** Parses a stored object (decrypting it if it was sealed) and sets its resourceVersion from the row. */
export function materialize(json: string, rv: number): KubeObject {
  const obj = JSON.parse(isSealed(json) ? open(json) : json) as KubeObject
  obj.metadata = withResourceVersion(obj.metadata, String(rv))
  return obj
}

/** ObjectMeta's fields that Go writes after resourceVersion. */
const AFTER_RESOURCE_VERSION = (() => {
  const names = fieldNames(node(ObjectMeta))
  return new Set(names.slice(names.indexOf('resourceVersion') + 1))
})()

/** The metadata with resourceVersion where Go's ObjectMeta declares it, keeping the wire order of the rest. */
function withResourceVersion(meta: ObjectMeta, rv: string): ObjectMeta {
  const out: Record<string, unknown> = {}
  let placed = false
  for (const k in meta) {
    if (!placed && AFTER_RESOURCE_VERSION.has(k)) {
      out.resourceVersion = rv
      placed = true
    }
    if (k !== 'resourceVersion') out[k] = meta[k as keyof ObjectMeta]
  }
  if (!placed) out.resourceVersion = rv
  return out as ObjectMeta
}

/** What a change stores: its object and previous state as encoded JSON (prev null for ADDED). */
export interface StoredText {
  object: string
  prev: string | null
}

/**
 * A change's stored JSON, encoded once: the D1 commit encodes it and the local apply of the same change reuses it
 * (each encode of a pod costs about as much as a SQLite insert). Memoized on the change record, which is planned
 * and then never edited except for its resourceVersion, which the encoding leaves out.
 */
export function storedText(c: {
  resource: string
  object: KubeObject
  prev: KubeObject | null
  text?: StoredText
  prevText?: string
}): StoredText {
  return (c.text ??= {
    object: encodeStored(c.object, c.resource),
    prev: c.prev ? (c.prevText ?? encodeStored(c.prev, c.resource)) : null,
  })
}
