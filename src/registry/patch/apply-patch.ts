// Applies a PATCH body of any of the three patch types to the current object and checks the result's shape with
// fieldValidation, as kube-apiserver's patcher does before handing the object to the update path.
import type { ResourceDef } from '../resource'
import type { KubeObject } from '../../schema/meta'
import { fail, ok, statuses, StatusError, type Result } from '../status'
import { fieldError } from '../field-errors'
import { checkShape, handlingPrefix, parseBodyText, type FieldValidation } from '../decode'
import { apiVersionOf } from '../resource'
import { node } from '../schema-walk'
import { jsonPatch } from './json-patch'
import { mergePatch, type Json } from './merge-patch'
import { strategicMergePatch } from './strategic-merge-patch'
import { PatchError } from './patch-error'

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply'

export function applyPatch(
  def: ResourceDef,
  current: KubeObject,
  type: PatchType,
  body: string,
  validation: FieldValidation,
): Result<{ object: KubeObject; warnings: string[] }> {
  let patch: Json
  try {
    patch = JSON.parse(body) as Json
  } catch (e) {
    return fail(statuses.badRequest(`error decoding patch: ${(e as Error).message}`))
  }
  let patched: Json
  try {
    const doc = structuredClone(current) as unknown as Json
    if (type === 'apply') throw new PatchError('apply patches are not applied here', 400)
    if (type === 'json') patched = jsonPatch(doc, patch)
    else if (type === 'merge') patched = mergePatch(doc, patch)
    else patched = strategicMergePatch(doc, patch, node(def.schema))
  } catch (e) {
    if (e instanceof PatchError) {
      if (e.code === 400) return fail(statuses.badRequest(e.message))
      // kube wraps a patch that does not apply in a generic 422 with a fixed message (handlers/patch.go).
      return fail({ ...statuses.invalid(def.kind, current.metadata.name ?? '', []), message: 'the server rejected our request due to an error in our request', details: {} })
    }
    throw e
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    return fail(statuses.badRequest('the patch did not produce an object'))
  }
  try {
    const checked = checkShape<KubeObject>(def.schema, patched, handlingPrefix(def.kind, def.version), validation, null)
    checked.value.metadata ??= {}
    return ok({ object: checked.value, warnings: checked.warnings })
  } catch (e) {
    if (!(e instanceof StatusError)) throw e
    // Strict decoding of a patched object is an Invalid "patch" field in kube, not the BadRequest a body gets.
    const strict = e.status.message?.indexOf('strict decoding error:') ?? -1
    if (strict >= 0) {
      return fail(statuses.invalid(def.kind, current.metadata.name ?? '', [fieldError.invalid('patch', body, e.status.message!.slice(strict))], def.group || undefined))
    }
    return fail(e.status)
  }
}

/** Parses and shape-checks a server-side apply body (YAML or JSON). It must name its apiVersion and kind. */
export function decodeApplied(def: ResourceDef, body: string, validation: FieldValidation): Result<{ object: KubeObject; warnings: string[] }> {
  const prefix = handlingPrefix(def.kind, def.version)
  try {
    const raw = parseBodyText(body, 'application/yaml', prefix)
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail(statuses.badRequest(`${prefix}: the apply body must be an object`))
    const r = raw as Record<string, unknown>
    if (!r.apiVersion) return fail(statuses.badRequest(`${prefix}: Object 'apiVersion' is missing in '${body.slice(0, 200)}'`))
    if (r.apiVersion !== apiVersionOf(def)) {
      return fail(statuses.badRequest(`the API version in the data (${String(r.apiVersion)}) does not match the expected API version (${apiVersionOf(def)})`))
    }
    if ((r.metadata as Record<string, unknown> | undefined)?.managedFields !== undefined) {
      return fail(statuses.badRequest('metadata.managedFields must be nil'))
    }
    if (!r.kind) return fail(statuses.badRequest(`${prefix}: Object 'Kind' is missing in '${body.slice(0, 200)}'`))
    const checked = checkShape<KubeObject>(def.schema, raw, prefix, validation, body.trimStart().startsWith('{') ? body : null)
    checked.value.metadata ??= {}
    delete checked.value.metadata.managedFields
    return ok({ object: checked.value, warnings: checked.warnings })
  } catch (e) {
    if (e instanceof StatusError) return fail(e.status)
    throw e
  }
}
