// JSON patch (RFC 6902): `application/json-patch+json`, applied with fast-json-patch.
import jsonpatch from 'fast-json-patch'
import type { Operation } from 'fast-json-patch'
import { PatchError } from './patch-error'
import type { Json } from './merge-patch'

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])

export function jsonPatch(doc: Json, patch: unknown): Json {
  if (!Array.isArray(patch))
    throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', 400)
  for (const op of patch) {
    if (typeof op !== 'object' || op === null || !OPS.has((op as { op?: string }).op ?? '')) {
      throw new PatchError(`Unexpected kind: ${JSON.stringify((op as { op?: unknown })?.op ?? null)}`, 400)
    }
  }
  try {
    return jsonpatch.applyPatch(doc, patch as Operation[], true, false).newDocument as Json
  } catch (e) {
    const err = e as { name?: string; message?: string; operation?: Operation }
    const op = err.operation?.op ?? 'patch'
    const path = err.operation?.path ?? ''
    if (err.name === 'TEST_OPERATION_FAILED') throw new PatchError(`testing value ${path} failed: test failed`)
    throw new PatchError(`jsonpatch ${op} operation does not apply: doc is missing path: ${path}`)
  }
}
