// The /scale handlers of the kinds that serve it (src/api/dispatch.ts routes to them): GET answers the Scale view of
// the object; PUT and PATCH go to the owning host as writes through the `scale` subresource, planned there against the
// newest object (src/registry/scale-subresource.ts), and answer the Scale view of the result.
import { noteDecodedSubresource, noteDecodingRequest } from './audit-request-object'
import type { Context } from 'hono'
import { decodeObject } from '../registry/decode'
import type { PatchType } from '../registry/patch/apply-patch'
import { resourceKey, type ResourceDef } from '../registry/resource'
import { scaleOf, scaleRow } from '../registry/scale-subresource'
import { statuses, StatusError, type Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { Scale } from '../schema/replication-controller'
import { objectContentType, patchContentType, readBodyText } from './body'
import { call, hostFor } from './hosts'
import { patchOptions, updateOptions } from './write-options'
import { getResourceVersion } from './query'
import { addWarnings, json, negotiate, negotiated } from './respond'
import { resourceEndpoint } from './negotiation'
import { tableOptions, toTable } from './table'
import { partialOfObject } from './partial-metadata'
import { scaleTable } from '../registry/scale-table'

type Ctx = Context<{ Bindings: Env }>

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
}

/** Negotiated before anything is done, as for the object. */
const negotiateFor = (c: Ctx, def: ResourceDef) =>
  negotiate(c, resourceEndpoint({ table: true, custom: def.unstructured !== undefined }))

/**
 * The Scale of `obj`, its PartialObjectMetadata, or its one-row Table when the Accept clause asks for one
 * (ScaleREST.ConvertToTable: the scale printer's columns, src/registry/scale-table.ts), for reads and writes alike as
 * kube's transformResponseObject.
 */
function renderScale(c: Ctx, def: ResourceDef, obj: KubeObject): Response {
  const scale = scaleOf(obj, def)
  const convert = negotiated(c)?.convert
  if (convert?.kind !== 'Table') {
    // A 406 for a list names the Go type the scale storage answers: the internal *autoscaling.Scale, or a custom
    // resource's *v1.Scale (apiextensions converts to autoscaling/v1 itself).
    const scaleDef = { ...scaleRow(def), group: def.unstructured ? 'v1' : 'autoscaling' }
    return json(c, partialOfObject(scaleDef, scale, convert))
  }
  const include = tableOptions(c.req.query('includeObject'))
  const printer = { kind: 'Scale', strategy: { table: scaleTable(def) } }
  return json(
    c,
    toTable(printer, [scale], { resourceVersion: scale.metadata.resourceVersion }, include, convert.version),
  )
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

/** GET: the object's GetOptions apply (ScaleREST.Get hands them to the store), resourceVersion included. */
export async function getScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  negotiateFor(c, def)
  const minRv = getResourceVersion(c)
  return renderScale(c, def, unwrap(await call(() => hostFor(c.env, def, ns).get(resourceKey(def), name, minRv))))
}

export async function putScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  negotiateFor(c, def)
  noteDecodingRequest(c)
  const body = { format: objectContentType(c).includes('yaml') ? 'yaml' : 'json', text: await readBodyText(c) } as const
  const options = updateOptions(c)
  const decoded = decodeObject<KubeObject>(
    { schema: Scale, group: 'autoscaling', version: 'v1', kind: 'Scale' },
    body,
    options.fieldValidation,
  )
  addWarnings(c, decoded.warnings)
  noteDecodedSubresource(c, Scale, 'Scale', decoded.value)
  const opts = { dryRun: options.dryRun, fieldManager: options.fieldManager, subresource: 'scale' }
  const answer = unwrap(await call(() => hostFor(c.env, def, ns).update(resourceKey(def), name, decoded.value, opts)))
  return renderScale(c, def, answer.object)
}

export async function patchScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  const type = PATCH_TYPES[patchContentType(c)]
  if (!type) throw new StatusError(statuses.unsupportedMediaType(Object.keys(PATCH_TYPES)))
  negotiateFor(c, def)
  const body = await readBodyText(c)
  const { dryRun, fieldManager, fieldValidation } = patchOptions(c, false)
  const opts = { dryRun, fieldManager, fieldValidation, subresource: 'scale' }
  const answer = unwrap(await call(() => hostFor(c.env, def, ns).patch(resourceKey(def), name, type, body, opts)))
  addWarnings(c, answer.warnings ?? [])
  return renderScale(c, def, answer.object)
}
