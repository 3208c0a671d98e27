// The /api/v1beta1 routes: list, create, get, replace and delete pods, replicationControllers and services, converted
// at the edge to and from the v1 objects the namespace Durable Objects store (one store for both versions).
import type { Context, Hono } from 'hono'
import { statuses, StatusError, type Result } from '../../registry/status'
import { resourceByPlural } from '../../registry/resources'
import type { ResourceDef } from '../../registry/resource'
import type { DeleteOptions, KubeObject } from '../../schema/meta'
import { fieldPath, handlingPrefix, parseBodyText, stripNulls } from '../../registry/decode'
import { selectorsOf } from '../query'
import { mediaType, readBodyText } from '../body'
import { json, statusResponse } from '../respond'
import { call, hostFor } from '../hosts'
import { requesterOption } from '../request-writer'
import { createOptions, updateOptions } from '../write-options'
import { BETA_KINDS, betaStatus, toBetaList, toBetaObject, type BetaKind } from '../../registry/v1beta1/kinds'
import { convertedBeta } from '../../registry/v1beta1/replace'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>
type Json = Record<string, unknown>

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
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new StatusError(statuses.badRequest(`${prefix}: the body must be an object`))
  const bodyKind = (raw as Json).kind
  if (typeof bodyKind === 'string' && bodyKind !== '' && bodyKind !== kind.kind) {
    throw new StatusError(
      statuses.badRequest(`${prefix}: the kind in the body (${bodyKind}) does not match ${kind.kind}`),
    )
  }
  const parsed = kind.schema.safeParse(stripNulls(raw))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = fieldPath(issue.path)
    throw new StatusError(statuses.badRequest(`${prefix}: ${where ? `${where}: ` : ''}${issue.message}`))
  }
  return parsed.data as Json
}

async function list(c: Ctx, kind: BetaKind) {
  const def = defOf(kind)
  const ns = namespaceOf(c)
  // 2014 clients name the selectors `labels` and `fields`; later ones labelSelector and fieldSelector.
  const labelSelector = c.req.query('labelSelector') || c.req.query('labels') || undefined
  const fieldSelector = c.req.query('fieldSelector') || c.req.query('fields') || undefined
  const selectors = selectorsOf(def, labelSelector, fieldSelector)
  const page = unwrap(
    kind,
    await call(() => hostFor(c.env, def, ns).list(def.plural, { mode: { kind: 'latest' }, selectors })),
  )
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
  const obj = unwrap(kind, convertedBeta(kind, def, beta))
  const idempotencyKey = c.req.header('idempotency-key') || undefined
  if (idempotencyKey && idempotencyKey.length > 256)
    throw new StatusError(statuses.badRequest('Idempotency-Key must be at most 256 characters'))
  const answer = unwrap(
    kind,
    await call(async () =>
      hostFor(c.env, def, ns).create(def.plural, obj, {
        fieldManager: createOptions(c).fieldManager,
        idempotencyKey,
        ...(await requesterOption(c, def)),
      }),
    ),
  )
  return json(c, toBetaObject(kind, answer.object), 201)
}

/**
 * PUT replaces desiredState and labels (an omitted field is deleted, currentState is ignored) over the stored object,
 * so fields v1beta1 cannot express survive: the host converts the body onto its newest object when it plans the write
 * (src/registry/v1beta1/replace.ts). A stale resourceVersion is a 409; without one the write is unconditional.
 */
async function replace(c: Ctx, kind: BetaKind, name: string) {
  const def = defOf(kind)
  const beta = await decodeBeta(c, kind)
  const opts = {
    fieldManager: updateOptions(c).fieldManager,
    codec: 'v1beta1' as const,
    ...(await requesterOption(c, def)),
  }
  const answer = unwrap(
    kind,
    await call(() => hostFor(c.env, def, namespaceOf(c)).update(def.plural, name, beta as KubeObject, opts)),
  )
  return json(c, toBetaObject(kind, answer.object))
}

async function remove(c: Ctx, kind: BetaKind, name: string) {
  const def = defOf(kind)
  const options: DeleteOptions = {}
  const policy = c.req.query('propagationPolicy')
  if (policy) {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
      throw new StatusError(
        statuses.badRequest(
          `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`,
        ),
      )
    }
    options.propagationPolicy = policy
  }
  const writer = await requesterOption(c, def)
  unwrap(kind, await call(() => hostFor(c.env, def, namespaceOf(c)).delete(def.plural, name, options, writer)))
  return json(c, DELETED)
}

const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, {
    ...statuses.methodNotSupported({ resource: '' }, ''),
    message: 'the server does not allow this method on the requested resource',
    details: {},
  })

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
