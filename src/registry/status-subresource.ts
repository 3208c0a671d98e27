// The /status subresource, for any kind whose resource row declares it: the same store and objects, planned with a
// strategy that keeps everything from the stored object except status, labels and annotations. The main resource's
// strategies do the opposite (they keep the old status), so each side only ever changes its own half.
import type { ResourceDef } from './resource'
import type { Strategy } from './strategy'
import type { KubeObject } from '../schema/meta'
import { clone } from './deep-equal'

/** Top-level fields a status write may change besides status (the envelope and metadata are handled apart). */
const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata', 'status'])
/**
 * Metadata a status write may change (labels, annotations), plus what the store itself manages on every update, and
 * the uid: kube's status strategies never reset it (metav1.ResetObjectMetaForStatus leaves it), so a foreign one is
 * refused as on the main resource (a PUT's body uid is its precondition, 409; a patch's, immutable, 422).
 */
const KEPT_META = new Set(['labels', 'annotations', 'resourceVersion', 'managedFields', 'uid'])

function statusStrategy<T extends KubeObject>(base: Strategy<T>): Strategy<T> {
  return {
    ...base,
    prepareForUpdate(obj, old, ctx) {
      for (const k of Object.keys(obj)) if (!ENVELOPE.has(k)) delete obj[k]
      for (const k of Object.keys(old)) if (!ENVELOPE.has(k)) (obj as KubeObject)[k] = clone(old[k])
      // In place: the store holds on to this metadata object.
      const meta = obj.metadata as Record<string, unknown>
      const oldMeta = old.metadata as Record<string, unknown>
      for (const k of Object.keys(meta)) if (!KEPT_META.has(k)) delete meta[k]
      for (const [k, v] of Object.entries(oldMeta)) if (!KEPT_META.has(k)) meta[k] = clone(v)
      base.prepareForStatusUpdate?.(obj, old, ctx)
    },
    validateUpdate: (obj, old) => base.validateStatusUpdate?.(obj, old) ?? [],
  }
}

const cache = new WeakMap<ResourceDef, ResourceDef>()

/** The resource row as the /status subresource writes it, or undefined when the kind does not serve /status. */
export function statusDefOf(def: ResourceDef): ResourceDef | undefined {
  if (!def.subresources?.some((s) => s.name === 'status')) return undefined
  let found = cache.get(def)
  if (!found) {
    found = { ...def, strategy: statusStrategy(def.strategy) }
    cache.set(def, found)
  }
  return found
}
