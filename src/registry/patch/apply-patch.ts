// Applies a PATCH body of any of the three patch types to the current object and decodes the result as
// kube-apiserver's patcher does (handlers/patch.go) before handing the object to the update path: JSON and merge
// patches through the decoder, strategic merge patches through the unstructured converter. Their failures are 422
// `"" is invalid: patch: Invalid value: ...`, quoting the patched JSON or the patch itself.
import type { ResourceDef } from '../resource'
import type { KubeObject } from '../../schema/meta'
import { fail, ok, statuses, type Result, type Status } from '../status'
import type { FieldError } from '../field-errors'
import { checkTree, type FieldValidation, handlingPrefix } from '../decode'
import { duplicateFields } from '../json-scan'
import { goQuote } from '../go-strings'
import { TOO_DEEP, tooDeep } from '../nesting'
import { apiVersionOf } from '../resource'
import { node } from '../schema-walk'
import { decodeDocument } from '../decoding/decode-document'
import { goV } from '../decoding/go-format'
import { goTypeOf } from '../decoding/go-types'
import { goUnmarshal } from '../decoding/go-unmarshal'
import { parseKubeYaml } from '../decoding/kube-yaml'
import { typedApplyErrors } from '../decoding/typed-apply'
import { convertFromUnstructured } from '../decoding/unstructured-convert'
import { jsonPatch } from './json-patch'
import { mergePatch } from './merge-patch'
import type { Json } from './patch-value'
import { strategicMergePatch } from './strategic-merge-patch'
import { PatchError } from './patch-error'
import { readPatch } from './patch-body'
import { jsonPatchedText, mergePatchedText } from './patched-json'

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply'

type Patched = Result<{ object: KubeObject; warnings: string[] }>

/** errors.NewInvalid(schema.GroupKind{}, "", {field.Invalid("patch", value, detail)}): no kind, no name. */
function invalidPatch(value: string, detail: string): Status {
  const cause: FieldError = {
    type: 'FieldValueInvalid',
    field: 'patch',
    message: `Invalid value: ${goQuote(value)}: ${detail}`,
  }
  return {
    ...statuses.invalid('', '', [cause]),
    details: { causes: [{ reason: cause.type, message: cause.message, field: cause.field }] },
  }
}

/** A strategic merge patch, as `fmt.Sprintf("%+v", patchMap)` prints the map it was decoded into. */
const printedPatch = (patch: Json) => goV(patch, 'preserveInts')

const goTypeOfDef = (def: ResourceDef) => goTypeOf(def.schema, `v1.${def.kind}`)

export function applyPatch(
  def: ResourceDef,
  current: KubeObject,
  type: PatchType,
  body: string,
  validation: FieldValidation,
): Patched {
  const patched = patchObject(def, current, type, body, validation)
  if (!patched.ok) return patched
  // patcher.applyPatch ends with checkName: the patched object must still carry the name on the URL (one the patch
  // removed is no name: a JSON patch removing /metadata, a merge patch nulling it, a $patch: delete).
  const url = current.metadata.name ?? ''
  const named = patched.value.object.metadata.name ?? ''
  if (named !== url)
    return fail(statuses.badRequest(`the name of the object (${named}) does not match the name on the URL (${url})`))
  return patched
}

function patchObject(
  def: ResourceDef,
  current: KubeObject,
  type: PatchType,
  body: string,
  validation: FieldValidation,
): Patched {
  if (type === 'apply') return fail(statuses.badRequest('apply patches are not applied here'))
  const read = readPatch(type, body, validation)
  if (!read.ok) return fail(read.status)
  const { patch } = read
  let patched: Json
  try {
    const doc = structuredClone(current) as unknown as Json
    if (type === 'json') patched = jsonPatch(doc, patch)
    else if (type === 'merge') patched = mergePatch(doc, patch)
    else patched = strategicMergePatch(doc, patch, node(def.schema))
  } catch (e) {
    if (e instanceof PatchError) {
      if (e.code === 400) return fail(statuses.badRequest(e.message))
      // kube wraps a patch that does not apply in a generic 422 with a fixed message (handlers/patch.go).
      return fail({
        ...statuses.invalid(def.kind, current.metadata.name ?? '', []),
        message: 'the server rejected our request due to an error in our request',
        details: {},
      })
    }
    throw e
  }
  if (type === 'strategic') return convertStrategic(def, patched, patch, read.strict, validation)
  const patchedText = () =>
    type === 'json'
      ? jsonPatchedText(
          current as unknown as Json,
          goTypeOfDef(def),
          patch as { op: string; path: string; from?: string; value?: Json }[],
        )
      : mergePatchedText(current as unknown as Json, goTypeOfDef(def), patch)
  const target = {
    schema: def.schema,
    group: def.group,
    version: def.version,
    kind: def.kind,
    custom: def.unstructured,
  }
  const outcome = decodeDocument(target, patched, patchedText)
  if (!outcome.ok) return fail(invalidPatch(patchedText(), outcome.error))
  return finish(outcome.value as KubeObject, [...read.strict, ...outcome.strict], validation, patchedText)
}

/** Strict errors of a patch: warnings (Warn), or the patch's refusal (Strict). */
function finish(object: KubeObject, strict: string[], validation: FieldValidation, quoted: () => string): Patched {
  if (strict.length > 0 && validation === 'Strict')
    return fail(invalidPatch(quoted(), `strict decoding error: ${strict.join(', ')}`))
  object.metadata ??= {}
  return ok({ object, warnings: validation === 'Warn' ? strict : [] })
}

/** The merged map becomes the object through the unstructured converter (handlers/patch.go applyPatchToObject). */
function convertStrategic(
  def: ResourceDef,
  merged: Json,
  patch: Json,
  strict: string[],
  validation: FieldValidation,
): Patched {
  const doc = merged as Record<string, unknown>
  const type = goTypeOfDef(def)
  const converted = convertFromUnstructured(doc, type, 'preserveInts')
  if (converted.error !== null) return fail(invalidPatch(printedPatch(patch), converted.error))
  // The converter fills a typed object: what is left of the map's nulls and unknown fields goes, as in Go.
  goUnmarshal(doc, type)
  // The object is of the endpoint's kind whatever the map said (its TypeMeta is not read).
  doc.apiVersion = apiVersionOf(def)
  doc.kind = def.kind
  return finish(doc as KubeObject, [...strict, ...(validation === 'Ignore' ? [] : converted.strict)], validation, () =>
    printedPatch(patch),
  )
}

const groupVersionKind = (group: string, version: string, kind: string) => `${group}/${version}, Kind=${kind}`

/** The object the applied configuration names: Unstructured.GroupVersionKind(), empty when apiVersion is unreadable. */
function appliedKind(doc: Record<string, unknown>): string {
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : ''
  const kind = typeof doc.kind === 'string' ? doc.kind : ''
  const slashes = apiVersion.split('/').length - 1
  if (slashes > 1) return groupVersionKind('', '', '')
  if (slashes === 0) return groupVersionKind('', apiVersion, kind)
  const [group, version] = apiVersion.split('/') as [string, string]
  return groupVersionKind(group, version, kind)
}

/**
 * Parses and checks a server-side apply body (YAML or JSON) as the apply patcher and field manager do: YAML into a
 * map, the object type, managedFields, then the typed conversion and the conversion to the endpoint's Go type.
 */
export function decodeApplied(def: ResourceDef, body: string, validation: FieldValidation): Patched {
  const read = parseKubeYaml(body)
  if ('error' in read) return fail(statuses.badRequest(`error decoding YAML: ${read.error}`))
  const parsed = read.value
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed
    return fail(
      statuses.badRequest(
        `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
      ),
    )
  }
  const bad = checkTree(parsed)
  if (bad) return fail(statuses.badRequest(`error decoding YAML: ${bad}`))
  const doc = (parsed ?? {}) as Record<string, unknown>
  const gvk = appliedKind(doc)
  const expected = groupVersionKind(def.group, def.version, def.kind)
  if (gvk !== expected) return fail(statuses.badRequest(`invalid object type: ${gvk}`))
  const metadata = (doc.metadata ?? {}) as Record<string, unknown>
  if (metadata.managedFields !== undefined && metadata.managedFields !== null)
    return fail(statuses.badRequest('metadata.managedFields must be nil'))
  const type = goTypeOfDef(def)
  const named = `${typeof metadata.namespace === 'string' ? metadata.namespace : ''}/${typeof metadata.name === 'string' ? metadata.name : ''}; ${gvk}`
  const typed = typedApplyErrors(doc, type)
  // kube answers these with a 500 (kubernetes#122480); they are the client's mistake, so a 400 here.
  if (typed.length === 1)
    return fail(statuses.badRequest(`failed to create typed patch object (${named}): ${typed[0]}`))
  if (typed.length > 1)
    return fail(statuses.badRequest(`failed to create typed patch object (${named}): errors:\n  ${typed.join('\n  ')}`))
  // A custom resource has no Go type: its codec prunes (reporting unknown fields) and defaults, as kube's does.
  if (def.unstructured) return decodeAppliedCustom(def, doc, body, validation)
  const converted = convertFromUnstructured(doc, type, 'floats')
  if (converted.error !== null) {
    return fail(
      statuses.badRequest(
        `failed to convert new object (${named}) to proper version: unable to convert unstructured object to ${expected}: ${converted.error}`,
      ),
    )
  }
  // An applied configuration names only the fields its manager owns: no zero values are filled in.
  const decoded = goUnmarshal(doc, type, false)
  if (decoded.error === null && tooDeep(doc))
    return fail(statuses.badRequest(`${handlingPrefix(def.kind, def.version)}: ${TOO_DEEP}`))
  const strict =
    validation === 'Ignore'
      ? []
      : [
          ...(body.trimStart().startsWith('{')
            ? duplicateFields(body).map((d) => `duplicate field ${JSON.stringify(d)}`)
            : []),
          ...decoded.strict,
        ]
  if (strict.length > 0 && validation === 'Strict') {
    return fail(
      statuses.badRequest(
        `${def.kind} in version ${goQuote(def.version)} cannot be handled as a ${def.kind}: strict decoding error: ${strict.join(', ')}`,
      ),
    )
  }
  const object = doc as KubeObject
  object.metadata ??= {}
  delete object.metadata.managedFields
  return ok({ object, warnings: validation === 'Warn' ? strict : [] })
}

/** The end of decodeApplied for a custom resource: the codec instead of the Go type's conversion. */
function decodeAppliedCustom(
  def: ResourceDef,
  doc: Record<string, unknown>,
  body: string,
  validation: FieldValidation,
): Patched {
  // Without a Go type nothing bounds the depth (as decodeDocument's check for other bodies).
  if (tooDeep(doc)) return fail(statuses.badRequest(`${handlingPrefix(def.kind, def.version)}: ${TOO_DEEP}`))
  const decoded = def.unstructured!.decode(doc)
  if ('error' in decoded) return fail(statuses.badRequest(`${handlingPrefix(def.kind, def.version)}: ${decoded.error}`))
  const strict =
    validation === 'Ignore'
      ? []
      : [
          ...(body.trimStart().startsWith('{')
            ? duplicateFields(body).map((d) => `duplicate field ${JSON.stringify(d)}`)
            : []),
          ...decoded.strict,
        ]
  if (strict.length > 0 && validation === 'Strict')
    return fail(
      statuses.badRequest(`${handlingPrefix(def.kind, def.version)}: strict decoding error: ${strict.join(', ')}`),
    )
  const object = doc as KubeObject
  object.metadata ??= {}
  delete object.metadata.managedFields
  return ok({ object, warnings: validation === 'Warn' ? strict : [] })
}
