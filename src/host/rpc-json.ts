// What crosses Workers RPC between the Worker's handlers and a host as JSON text rather than as a structured clone: a
// write's input object and, for a caller that relays it unchanged, its answer. V8's structured clone of an object of
// a few kilobytes costs several times JSON.stringify plus JSON.parse of it; a string is cloned as one block. Measured:
// a create's CPU fell by about 9 % (README, Performance).
import { ok, type Result } from '../registry/status'
import { encodeInGoOrder } from '../registry/wire-json'
import type { KubeObject } from '../schema/meta'
import type { WriteAnswer } from './rpc-types'

/** A write's input object, or that object as JSON text (what the Worker's handlers send). */
export type WriteInput = KubeObject | string

/** The input as the Worker sends it: the decoded object as JSON text (it holds only JSON values). */
export const encodeInput = (obj: KubeObject): string => JSON.stringify(obj)

/** The input object, whichever way it came. */
export const decodeInput = (input: WriteInput): KubeObject =>
  typeof input === 'string' ? (JSON.parse(input) as KubeObject) : input

/** The answer with `json` set and `object` cut down to what names it (WriteOptions.encodeAnswer). */
export function encodeAnswer(r: Result<WriteAnswer>): Result<WriteAnswer> {
  if (!r.ok) return r
  const { object } = r.value
  return ok({ ...r.value, json: encodeInGoOrder(object), object: identityOf(object) })
}

function identityOf(obj: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion } = obj.metadata
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace, uid, resourceVersion } }
}
