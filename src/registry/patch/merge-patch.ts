// JSON merge patch (RFC 7386): `application/merge-patch+json`, what kubectl label/annotate and --type=merge send,
// merged as kube's evanphx/json-patch v4 merges (merge, mergeDocs, pruneNulls).
import { own, setOwn } from '../own-fields'
import { copyValue, type Json } from './patch-value'

export const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The target merged with the patch; neither is changed. Recursion follows only the maps both have (as deep as the
 * stored object); a patch value placed whole is copied without recursion.
 */
export function mergePatch(target: Json | undefined, patch: Json): Json {
  // merge(): a patch merges only into a map; into anything else it is placed with its maps' nulls pruned.
  if (!isObject(target)) return copyValue(patch, { dropNullMembers: true })!
  if (!isObject(patch)) return copyValue(patch)!
  const out: Record<string, Json> = { ...target }
  for (const k of Object.keys(patch)) {
    const v = patch[k]!
    if (v === null) delete out[k]
    else {
      const cur = own(out, k)
      setOwn(out, k, cur === undefined || cur === null ? copyValue(v, { dropNullMembers: true })! : mergePatch(cur, v))
    }
  }
  return out
}
