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
