// JSON merge patch (RFC 7386): `application/merge-patch+json`, what kubectl label/annotate and --type=merge send.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

export const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch
  const out: Record<string, Json> = isObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}
