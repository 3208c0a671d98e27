// Reading a PATCH body as kube-apiserver's patcher reads each type (handlers/patch.go): the JSON patch operations
// (strictly decoded into []handlers.jsonPatchOp first when fieldValidation is Strict or Warn, then by
// jsonpatch.DecodePatch), the merge patch and the strategic merge patch (map[string]interface{}), with the 400
// messages each step gives and the strict errors (unknown and duplicate fields) it collects.
import { statuses, type Status } from '../status'
import { parseGoJson, type FieldValidation } from '../decode'
import { duplicateFields } from '../json-scan'
import { unwrapRawNumbers } from '../decoding/go-json-numbers'
import type { Json } from './patch-value'

type TextPatchType = 'json' | 'merge' | 'strategic'

type ReadPatch = { ok: true; patch: Json; strict: string[] } | { ok: false; status: Status }

/** kube's cap on JSON patch operations (handlers/patch.go maxJSONPatchOperations). */
const MAX_OPERATIONS = 10000

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return 'number'
  if (typeof v === 'boolean') return 'bool'
  return Array.isArray(v) ? 'array' : 'object'
}

const bad = (message: string): ReadPatch => ({ ok: false, status: statuses.badRequest(message) })
const duplicates = (body: string, prefix = '') =>
  duplicateFields(body).map((d) => `${prefix}duplicate field ${JSON.stringify(d)}`)

/** Reads a JSON, merge or strategic merge patch body. */
export function readPatch(type: TextPatchType, body: string, validation: FieldValidation): ReadPatch {
  const strictMode = validation !== 'Ignore'
  const parsed = parseGoJson(body)
  if ('error' in parsed) {
    if (type === 'strategic') return bad(parsed.error)
    if (strictMode) return bad(`error decoding patch: ${parsed.error}`)
    return bad(type === 'merge' ? 'Invalid JSON Patch' : parsed.error)
  }
  // Patches are merged as values (Go keeps a number's literal; rarely visible).
  const patch = unwrapRawNumbers(parsed.value) as Json
  if (type === 'json') return readJsonPatch(patch, body, strictMode)
  if (patch !== null && (typeof patch !== 'object' || Array.isArray(patch))) {
    const message = `json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`
    if (type === 'strategic') return bad(message)
    if (strictMode) return bad(`error decoding patch: ${message}`)
    // Without strict decoding, MergePatch takes an array patch as the whole new document; anything else it refuses.
    if (!Array.isArray(patch)) return bad('Invalid JSON Patch')
    return { ok: true, patch, strict: [] }
  }
  if (patch === null && type === 'merge') return bad('Invalid JSON Patch')
  return { ok: true, patch: patch ?? {}, strict: strictMode ? duplicates(body) : [] }
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value'])

function readJsonPatch(patch: Json, body: string, strictMode: boolean): ReadPatch {
  const strict: string[] = []
  if (strictMode) {
    // UnmarshalStrict into []jsonPatchOp{Op, Path, From string; Value interface{}}.
    if (patch !== null && !Array.isArray(patch)) {
      return bad(
        `error decoding patch: json: cannot unmarshal ${jsonKind(patch)} into Go value of type []handlers.jsonPatchOp`,
      )
    }
    let typeError: string | null = null
    for (const [i, op] of (patch ?? []).entries()) {
      if (op === null) continue
      if (typeof op !== 'object' || Array.isArray(op)) {
        typeError ??= `json: cannot unmarshal ${jsonKind(op)} into Go value of type handlers.jsonPatchOp`
        continue
      }
      for (const [k, v] of Object.entries(op)) {
        if (!OP_FIELDS.has(k)) strict.push(`json patch unknown field ${JSON.stringify(`[${i}].${k}`)}`)
        else if (k !== 'value' && v !== null && typeof v !== 'string') {
          typeError ??= `json: cannot unmarshal ${jsonKind(v)} into Go struct field jsonPatchOp.${k} of type string`
        }
      }
    }
    if (typeError) return bad(`error decoding patch: ${typeError}`)
    strict.unshift(...duplicates(body, 'json patch '))
  }
  // jsonpatch.DecodePatch: a []Operation, each a map[string]*json.RawMessage (null is no operations at all).
  if (patch === null) return { ok: true, patch: [], strict }
  if (!Array.isArray(patch))
    return bad(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch`)
  const notObject = patch.find((op) => op !== null && (typeof op !== 'object' || Array.isArray(op)))
  if (notObject !== undefined)
    return bad(`json: cannot unmarshal ${jsonKind(notObject)} into Go value of type jsonpatch.Operation`)
  if (patch.length > MAX_OPERATIONS) {
    return {
      ok: false,
      status: statuses.tooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`,
      ),
    }
  }
  return { ok: true, patch, strict }
}
