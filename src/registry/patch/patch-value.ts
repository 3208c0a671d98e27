// Copies of patch values, as the patch engines place them where nothing merges into them: without recursion (a
// patch nests as deep as Go's decoder reads, 10000 levels) and keeping every key an own field ("__proto__" is a
// valid ConfigMap key, which assignment would take for the prototype).
import { setOwn } from '../own-fields'

/** A decoded JSON value, what the patch engines work on. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

interface CopyRules {
  /** Go's pruneNulls (evanphx) and discardNullValuesFromPatch (strategic): maps lose their null members. */
  dropNullMembers?: boolean
  /** strategicpatch removeDirectives: a map carrying a $patch directive is dropped (from a map or a list). */
  dropDirectiveMaps?: boolean
}

const isMap = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)

function dropped(v: Json, rules: CopyRules): boolean {
  if (!rules.dropDirectiveMaps || !isMap(v) || !Object.hasOwn(v, '$patch')) return false
  // Nulls go first: a `$patch: null` is no directive once discarded.
  return !(rules.dropNullMembers && v.$patch === null)
}

/** A deep copy of `root` under `rules`; undefined when the root itself is dropped. */
export function copyValue(root: Json, rules: CopyRules = {}): Json | undefined {
  if (dropped(root, rules)) return undefined
  const fresh = (v: Json): Json => (Array.isArray(v) ? [] : isMap(v) ? {} : v)
  const out = fresh(root)
  const pending: [from: Json, to: Json][] = [[root, out]]
  while (pending.length > 0) {
    const [from, to] = pending.pop()!
    if (Array.isArray(from)) {
      for (const x of from) {
        if (dropped(x, rules)) continue
        const y = fresh(x)
        ;(to as Json[]).push(y)
        if (y !== x) pending.push([x, y])
      }
    } else if (isMap(from)) {
      for (const k of Object.keys(from)) {
        const x = from[k]!
        if ((x === null && rules.dropNullMembers) || dropped(x, rules)) continue
        const y = fresh(x)
        setOwn(to as Record<string, Json>, k, y)
        if (y !== x) pending.push([x, y])
      }
    }
  }
  return out
}
