// List and map metadata tags (k8s.io/api's patchStrategy/patchMergeKey/listType/listMapKey) and other small
// helpers the core/v1 schemas share. Not re-exported as schemas: the OpenAPI generator names every exported schema.
import { Time } from './meta'

/** The list is replaced as a whole by every kind of patch. */
export const atomic = { 'x-kubernetes-list-type': 'atomic' } as const
/** A list of unique scalars; server-side apply merges it as a set. */
export const set = { 'x-kubernetes-list-type': 'set' } as const
/** A list of objects keyed by `keys`; strategic merge patch merges entries by the first key. */
export function keyed(keys: [string, ...string[]], strategy: 'merge' | 'merge,retainKeys' = 'merge') {
  return {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': keys,
    'x-kubernetes-patch-merge-key': keys[0],
    'x-kubernetes-patch-strategy': strategy,
  } as const
}
/** A keyed list for server-side apply that strategic merge patch still replaces wholesale (no patch tags upstream). */
export function applyKeyed(keys: [string, ...string[]]) {
  return { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys } as const
}
/** A map or struct that server-side apply treats as one value (+mapType=atomic / +structType=atomic). */
export const atomicMap = { 'x-kubernetes-map-type': 'atomic' } as const

/** Timestamps that Go serializes as `null` when unset (non-pointer metav1.Time), so null must round-trip. */
export const NullableTime = Time.nullable()
