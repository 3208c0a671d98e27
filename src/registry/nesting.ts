// How deep an object may nest once decoded, and the checks that keep deeper ones away from recursive code. kube's
// JSON decoders stop at 10000 levels; here an object crosses Workers RPC (V8's serializer, a few thousand levels at
// most) and recursive walks (validation, schemas, managed fields) on a stack of about 1 MiB. So bodies are read to
// Go's depth (a typed field's wrong type is kube's error at any depth), and only what survives decoding deeper than
// MAX_OBJECT_DEPTH (values kube keeps whole: preserved unknown fields, RawExtension, JSON) is refused.

/** The deepest a decoded object may nest (kube: 10000, its decoder's limit). */
export const MAX_OBJECT_DEPTH = 512

/** The message for a decoded object nested deeper than MAX_OBJECT_DEPTH. */
export const TOO_DEEP = `the object is nested deeper than ${MAX_OBJECT_DEPTH} levels`

/** Whether a value (a tree) nests deeper than `max` levels, counted as JSON counts them; without recursion. */
function nestsDeeper(root: unknown, max: number, skip: unknown = undefined): boolean {
  if (root === null || typeof root !== 'object') return false
  const values: unknown[] = [root]
  const depths: number[] = [1]
  while (values.length > 0) {
    const v = values.pop() as object
    const depth = depths.pop()!
    if (depth > max) return true
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (x === null || typeof x !== 'object' || x === skip) continue
      values.push(x)
      depths.push(depth + 1)
    }
  }
  return false
}

/**
 * Whether a decoded object nests deeper than MAX_OBJECT_DEPTH. Its managedFields are measured apart: an entry's
 * fieldsV1 names the object's fields, so it nests as deep as they do, a few levels below metadata.managedFields.
 */
export function tooDeep(object: Record<string, unknown>): boolean {
  const metadata = object.metadata as Record<string, unknown> | null | undefined
  const managed = metadata !== null && typeof metadata === 'object' ? metadata.managedFields : undefined
  if (!Array.isArray(managed)) return nestsDeeper(object, MAX_OBJECT_DEPTH)
  return nestsDeeper(object, MAX_OBJECT_DEPTH, managed) || managed.some((e) => nestsDeeper(e, MAX_OBJECT_DEPTH + 1))
}
