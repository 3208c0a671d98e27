// The verb handlers every resource shares: get, list, create, update, delete, deletecollection. Routes bind them
// to paths generated from the resource table; these functions only translate HTTP to host RPC and back (their answers
// are rendered by render-objects.ts).
import type { Context } from 'hono'
import type { ResourceDef } from '../registry/resource'
import { statuses, StatusError, type Result } from '../registry/status'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { ListPage } from '../registry/list'
import { listObjects } from '../registry/list'
import { selectorsFrom } from '../registry/selectors'
import { D1Log } from '../log/d1-log'
import { decodeObject, handlingPrefix } from '../registry/decode'
import { patchContentType, readBody, readBodyText } from './body'
import { getResourceVersion, listOptions, type ListOptions } from './query'
import { createOptions, deleteOptions, patchOptions, updateOptions } from './write-options'
import type { FieldValidation } from '../registry/decode'
import { addWarnings, json, negotiate } from './respond'
import { resourceEndpoint } from './negotiation'
import { call, hostFor } from './hosts'
import { resourceKey } from '../registry/resource'
import { serveWatch } from './watch'
import { relaysStored, renderAnswer, renderList, renderObject } from './render-objects'
import { encodeInput } from '../host/rpc-json'
import { noteWrite, requesterOption } from './request-writer'
import { noteDecodedRequest, noteDecodingRequest } from './audit-request-object'
import type { PatchType } from '../registry/patch/apply-patch'

type Ctx = Context<{ Bindings: Env }>

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

/** Writes through a version served but not stored are planned with that version's row. */
const versionOption = (def: ResourceDef) => (def.storage === false ? { version: def.version } : {})

/**
 * What a resource's handlers negotiate against (kube's RequestScope): every kind converts to a Table; a custom
 * resource is never answered as protobuf. Called before a handler does anything, so a 406 leaves nothing done.
 */
const negotiateFor = (c: Ctx, def: ResourceDef) =>
  negotiate(c, resourceEndpoint({ table: true, custom: def.unstructured !== undefined }))

export async function handleGet(c: Ctx, def: ResourceDef, ns: string, name: string) {
  negotiateFor(c, def)
  const minRv = getResourceVersion(c)
  const obj = unwrap(await call(() => hostFor(c.env, def, ns).get(resourceKey(def), name, minRv)))
  return renderObject(c, def, obj)
}

/** GET on a collection: a list, or a watch with watch=true. ns null = across all namespaces (served by D1). */
export async function handleList(c: Ctx, def: ResourceDef, ns: string | null, forcedWatch = false) {
  negotiateFor(c, def)
  const opts = listOptions(c, def, forcedWatch)
  if (opts.watch) return serveWatch(c, def, ns, opts)
  const page =
    ns === null && def.namespaced
      ? await listAcrossNamespaces(c.env, def, opts)
      : await listInHost(c.env, def, ns ?? '', opts)
  return renderList(c, def, unwrap(page))
}

function listInHost(env: Env, def: ResourceDef, ns: string, opts: ListOptions) {
  return call(() =>
    hostFor(env, def, ns).list(resourceKey(def), {
      mode: opts.mode,
      limit: opts.limit,
      selectors: opts.selectors,
      minRv: opts.minRv,
    }),
  )
}

async function listAcrossNamespaces(env: Env, def: ResourceDef, opts: ListOptions): Promise<Result<ListPage>> {
  const log = new D1Log(env.DB)
  let source = await log.listSource(resourceKey(def))
  if (opts.minRv !== undefined && opts.minRv > source.currentRv) {
    // kube waits a little for its cache before answering "too large".
    await new Promise((r) => setTimeout(r, 1000))
    source = await log.listSource(resourceKey(def))
    if (opts.minRv > source.currentRv)
      return { ok: false, status: statuses.tooLargeResourceVersion(opts.minRv, source.currentRv) }
  }
  const page = await listObjects(source, def.strategy, {
    mode: opts.mode,
    limit: opts.limit,
    ...selectorsFrom(opts.selectors),
  })
  if (page.ok && opts.minRv !== undefined) page.value.resourceVersion = Math.max(page.value.resourceVersion, opts.minRv)
  return page
}

/** Reads and decodes a create or update body; `options` judges the request's options between the two, as kube does. */
async function decodeBody<O extends { fieldValidation: FieldValidation }>(
  c: Ctx,
  def: ResourceDef,
  options: (c: Ctx) => O,
): Promise<{ obj: KubeObject; options: O }> {
  noteDecodingRequest(c)
  const body = await readBody(c, handlingPrefix(def.kind, def.version))
  const opts = options(c)
  const validation = opts.fieldValidation
  const decoded = decodeObject<KubeObject>(
    { schema: def.schema, group: def.group, version: def.version, kind: def.kind, custom: def.unstructured },
    body,
    validation,
  )
  addWarnings(c, decoded.warnings)
  const obj = decoded.value
  obj.metadata ??= {}
  noteDecodedRequest(c, def, obj)
  return { obj, options: opts }
}

export async function handleCreate(c: Ctx, def: ResourceDef, ns: string) {
  negotiateFor(c, def)
  const { obj, options } = await decodeBody(c, def, createOptions)
  const requester = await requesterOption(c, def)
  const idempotencyKey = c.req.header('idempotency-key') || undefined
  if (idempotencyKey && idempotencyKey.length > 256) {
    throw new StatusError(statuses.badRequest('Idempotency-Key must be at most 256 characters'))
  }
  const answer = unwrap(
    await call(() =>
      hostFor(c.env, def, ns).create(resourceKey(def), encodeInput(obj), {
        ...versionOption(def),
        dryRun: options.dryRun,
        fieldManager: options.fieldManager,
        idempotencyKey,
        encodeAnswer: relaysStored(c, def),
        ...requester,
      }),
    ),
  )
  noteWrite(c, def, ns, answer.object.metadata.name)
  addWarnings(c, answer.warnings ?? [])
  return renderAnswer(c, def, answer, 201)
}

/** PUT on an item, or on its subresource (`status`) when `subresource` is given. */
export async function handleUpdate(c: Ctx, def: ResourceDef, ns: string, name: string, subresource?: string) {
  negotiateFor(c, def)
  const { obj, options } = await decodeBody(c, def, updateOptions)
  const requester = await requesterOption(c, def)
  const answer = unwrap(
    await call(() =>
      hostFor(c.env, def, ns).update(resourceKey(def), name, encodeInput(obj), {
        ...versionOption(def),
        dryRun: options.dryRun,
        fieldManager: options.fieldManager,
        subresource,
        encodeAnswer: relaysStored(c, def),
        ...requester,
      }),
    ),
  )
  noteWrite(c, def, ns, name)
  addWarnings(c, answer.warnings ?? [])
  return renderAnswer(c, def, answer, answer.created ? 201 : 200)
}

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
}
/** In kube's order for built-in kinds, as its 415 message lists them. */
const ACCEPTED_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
]

/** What kube accepts for custom resources, in its 415 message's order. */
const CUSTOM_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
]

/** PATCH on an item, or on its subresource (`status`) when `subresource` is given. */
export async function handlePatch(c: Ctx, def: ResourceDef, ns: string, name: string, subresource?: string) {
  const type = PATCH_TYPES[patchContentType(c)]
  // Custom resources have no Go type to take strategic merge metadata from: kube lists what they accept.
  const accepted = def.unstructured ? CUSTOM_PATCH_TYPES : ACCEPTED_PATCH_TYPES
  if (!type || !accepted.includes(patchContentType(c))) throw new StatusError(statuses.unsupportedMediaType(accepted))
  negotiateFor(c, def)
  const body = await readBodyText(c)
  const options = patchOptions(c, type === 'apply')
  const requester = await requesterOption(c, def)
  const answer = unwrap(
    await call(() =>
      hostFor(c.env, def, ns).patch(resourceKey(def), name, type, body, {
        ...versionOption(def),
        dryRun: options.dryRun,
        fieldValidation: options.fieldValidation,
        fieldManager: options.fieldManager,
        subresource,
        force: options.force,
        encodeAnswer: relaysStored(c, def),
        ...requester,
      }),
    ),
  )
  noteWrite(c, def, ns, name)
  addWarnings(c, answer.warnings ?? [])
  return renderAnswer(c, def, answer, answer.created ? 201 : 200)
}

/** The kind's default propagation, when the options name none (kube's DefaultGarbageCollectionPolicy), warned. */
function withDefaultPropagation(c: Ctx, def: ResourceDef, opts: DeleteOptions): DeleteOptions {
  const fallback = def.defaultPropagation
  if (!fallback || opts.propagationPolicy !== undefined || opts.orphanDependents !== undefined) return opts
  addWarnings(c, [fallback.warning])
  return { ...opts, propagationPolicy: fallback.policy }
}

export async function handleDelete(c: Ctx, def: ResourceDef, ns: string, name: string) {
  negotiateFor(c, def)
  const opts = withDefaultPropagation(c, def, await deleteOptions(c))
  const isDryRun = (opts.dryRun?.length ?? 0) > 0
  const answer = unwrap(
    await call(async () =>
      hostFor(c.env, def, ns).delete(resourceKey(def), name, opts, {
        dryRun: isDryRun,
        ...(await requesterOption(c, def)),
      }),
    ),
  )
  noteWrite(c, def, ns, name)
  // A deletion left pending (finalizers, a grace period) answers the object with its deletionTimestamp, as kube does.
  if (def.returnDeletedObject || answer.pending) return renderObject(c, def, answer.object)
  return json(
    c,
    statuses.success({
      name,
      ...(def.group ? { group: def.group } : {}),
      kind: def.plural,
      uid: answer.object.metadata.uid,
    }),
  )
}

export async function handleDeleteCollection(c: Ctx, def: ResourceDef, ns: string) {
  negotiateFor(c, def)
  const opts = listOptions(c, def)
  const del = withDefaultPropagation(c, def, await deleteOptions(c))
  const isDryRun = (del.dryRun?.length ?? 0) > 0
  const page = unwrap(
    await call(async () =>
      hostFor(c.env, def, ns).deleteCollection(
        resourceKey(def),
        { mode: { kind: 'latest' }, selectors: opts.selectors },
        del,
        { dryRun: isDryRun, ...(await requesterOption(c, def)) },
      ),
    ),
  )
  noteWrite(c, def, ns)
  return renderList(c, def, page)
}
