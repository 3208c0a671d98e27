// The /api/v1beta1 routes: list, create, get, replace and delete pods, replicationControllers and services, converted
// at the edge to and from the v1 objects the namespace Durable Objects store (one store for both versions).
import type { Context, Hono } from 'hono'
import { statuses, StatusError, type Result, type Status } from '../../registry/status'
import { resourceByPlural } from '../../registry/resources'
import type { ResourceDef } from '../../registry/resource'
import type { DeleteOptions, KubeObject } from '../../schema/meta'
import { checkShape, fieldPath, handlingPrefix, parseBodyText, stripNulls } from '../../registry/decode'
import { selectorsOf } from '../query'
import { mediaType, readBodyText } from '../body'
import { json, statusResponse } from '../respond'
import { call, hostFor } from '../hosts'
import { fieldManager } from '../query'
import { BETA_KINDS, betaDecodeMessage, betaStatus, toBetaList, toBetaObject, toV1Object, type BetaKind } from './kinds'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>
type Json = Record<string, unknown>

/** How many times a PUT without a resourceVersion re-reads and retries when someone else wrote in between. */
const UNCONDITIONAL_RETRIES = 5

/** The v1beta1 success answer to DELETE, as the seed documents it. */
const DELETED = { success: true }

const namespaceOf = (c: Ctx) => c.req.query('namespace') || 'default'

function defOf(kind: BetaKind): ResourceDef {
  const def = resourceByPlural(kind.plural)
  if (!def) throw new StatusError(statuses.pathNotFound())
  return def
}

function unwrap<T>(kind: BetaKind, r: Result<T>): T {
  if (!r.ok) throw new StatusError(betaStatus(kind, r.status))
  return r.value
}

/** Decodes a v1beta1 body: JSON (or YAML), nulls dropped, unknown fields dropped silently (as the 2014 decoder did). */
async function decodeBeta(c: Ctx, kind: BetaKind): Promise<Json> {
  const prefix = handlingPrefix(kind.kind, 'v1beta1')
  // The 2014 server read JSON whatever the Content-Type (curl -d sends form-urlencoded); YAML when it says so.
  const contentType = mediaType(c).includes('yaml') ? 'application/yaml' : 'application/json'
  const raw = parseBodyText(await readBodyText(c), contentType, prefix)
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new StatusError(statuses.badRequest(`${prefix}: the body must be an object`))
  const bodyKind = (raw as Json).kind
  if (typeof bodyKind === 'string' && bodyKind !== '' && bodyKind !== kind.kind) {
    throw new StatusError(statuses.badRequest(`${prefix}: the kind in the body (${bodyKind}) does not match ${kind.kind}`))
  }
  const parsed = kind.schema.safeParse(stripNulls(raw))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = fieldPath(issue.path)
    throw new StatusError(statuses.badRequest(`${prefix}: ${where ? `${where}: ` : ''}${issue.message}`))
  }
  return parsed.data as Json
}

/** The v1 object a v1beta1 body converts to, shape-checked against the v1 schema like any v1 body. */
function converted(kind: BetaKind, def: ResourceDef, beta: Json, base?: KubeObject): KubeObject {
  const obj = toV1Object(kind, beta, base)
  try {
    return checkShape<KubeObject>(def.schema, obj, handlingPrefix(def.kind, 'v1'), 'Ignore', null).value
  } catch (e) {
    if (e instanceof StatusError) throw new StatusError({ ...e.status, message: betaDecodeMessage(kind, e.status.message ?? '') })
    throw e
  }
}

/** resourceVersion as a v1beta1 client sends it: an integer (or numeric string); 0 or absent is unconditional. */
function wantedVersion(beta: Json): string | undefined {
  const rv = beta.resourceVersion
  if (rv === undefined || rv === '' || Number(rv) === 0) return undefined
  return String(Number(rv))
}

async function list(c: Ctx, kind: BetaKind) {
  const def = defOf(kind)
  const ns = namespaceOf(c)
  // 2014 clients name the selectors `labels` and `fields`; later ones labelSelector and fieldSelector.
  const labelSelector = c.req.query('labelSelector') || c.req.query('labels') || undefined
  const fieldSelector = c.req.query('fieldSelector') || c.req.query('fields') || undefined
  const selectors = selectorsOf(def, labelSelector, fieldSelector)
  const page = unwrap(kind, await call(() => hostFor(c.env, def, ns).list(def.plural, { mode: { kind: 'latest' }, selectors })))
  return json(c, toBetaList(kind, ns, page.items, page.resourceVersion))
}

async function get(c: Ctx, kind: BetaKind, name: string) {
  const def = defOf(kind)
  const obj = unwrap(kind, await call(() => hostFor(c.env, def, namespaceOf(c)).get(def.plural, name)))
  return json(c, toBetaObject(kind, obj))
}

async function create(c: Ctx, kind: BetaKind) {
  const def = defOf(kind)
  const ns = namespaceOf(c)
  const beta = await decodeBeta(c, kind)
  // POST ignores currentState and any server-set fields: the table only writes what a client may set.
  const obj = converted(kind, def, beta)
  const idempotencyKey = c.req.header('idempotency-key') || undefined
  if (idempotencyKey && idempotencyKey.length > 256) throw new StatusError(statuses.badRequest('Idempotency-Key must be at most 256 characters'))
  const answer = unwrap(kind, await call(() => hostFor(c.env, def, ns).create(def.plural, obj, { fieldManager: fieldManager(c), idempotencyKey })))
  return json(c, toBetaObject(kind, answer.object), 201)
}

/**
 * PUT replaces desiredState and labels (an omitted field is deleted, currentState is ignored) over the stored object,
 * so fields v1beta1 cannot express survive. A stale resourceVersion is a 409; without one, the merge is retried
 * against the latest object when another write slips in between the read and the write.
 */
async function replace(c: Ctx, kind: BetaKind, name: string) {
  const def = defOf(kind)
  const ns = namespaceOf(c)
  const host = hostFor(c.env, def, ns)
  const beta = await decodeBeta(c, kind)
  const wanted = wantedVersion(beta)
  let last: Status | null = null
  for (let attempt = 0; attempt < UNCONDITIONAL_RETRIES; attempt++) {
    const current = unwrap(kind, await call(() => host.get(def.plural, name)))
    if (wanted !== undefined && wanted !== current.metadata.resourceVersion) {
      throw new StatusError(statuses.modified({ resource: def.plural }, name))
    }
    const obj = converted(kind, def, beta, current)
    obj.metadata.resourceVersion = current.metadata.resourceVersion
    const r = await call(() => host.update(def.plural, name, obj, { fieldManager: fieldManager(c) }))
    if (r.ok) return json(c, toBetaObject(kind, r.value.object))
    last = r.status
    if (wanted !== undefined || r.status.code !== 409 || r.status.reason !== 'Conflict') break
  }
  throw new StatusError(betaStatus(kind, last!))
}

async function remove(c: Ctx, kind: BetaKind, name: string) {
  const def = defOf(kind)
  const options: DeleteOptions = {}
  const policy = c.req.query('propagationPolicy')
  if (policy) {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
      throw new StatusError(statuses.badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`))
    }
    options.propagationPolicy = policy
  }
  unwrap(kind, await call(() => hostFor(c.env, def, namespaceOf(c)).delete(def.plural, name, options, {})))
  return json(c, DELETED)
}

const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, { ...statuses.methodNotSupported({ resource: '' }, ''), message: 'the server does not allow this method on the requested resource', details: {} })

export function registerV1beta1(app: App) {
  for (const kind of BETA_KINDS) {
    const collection = `/api/v1beta1/${kind.path}`
    const item = `${collection}/:id`
    app.get(collection, (c) => list(c, kind))
    app.post(collection, (c) => create(c, kind))
    app.all(collection, methodNotAllowed)
    app.get(item, (c) => get(c, kind, c.req.param('id')!))
    app.put(item, (c) => replace(c, kind, c.req.param('id')!))
    app.delete(item, (c) => remove(c, kind, c.req.param('id')!))
    app.all(item, methodNotAllowed)
  }
}
