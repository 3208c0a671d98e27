// How objects are stored as JSON everywhere (D1 and Durable Objects): without metadata.resourceVersion, which the
// row's rv column holds and readers put back.
import type { KubeObject } from '../schema/meta'

export function encodeStored(obj: KubeObject): string {
  const rv = obj.metadata.resourceVersion
  delete obj.metadata.resourceVersion
  const s = JSON.stringify(obj)
  if (rv !== undefined) obj.metadata.resourceVersion = rv
  return s
}

/** Parses a stored object and sets its resourceVersion from the row. */
export function materialize(json: string, rv: number): KubeObject {
  const obj = JSON.parse(json) as KubeObject
  obj.metadata.resourceVersion = String(rv)
  return obj
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
export function storedText(c: { object: KubeObject; prev: KubeObject | null; text?: StoredText }): StoredText {
  return (c.text ??= { object: encodeStored(c.object), prev: c.prev ? encodeStored(c.prev) : null })
}
