// The generic resource routes: every request under /api and /apis that no more specific route took is read as kube
// reads it (request-info.ts), its kind looked up in the kind table as it is now, and handed to the shared verb
// handlers. A kind registered while the server runs is served by the same path as the built-in ones.
import type { Context } from 'hono'
import type { ResourceDef } from '../registry/resource'
import { kinds } from '../registry/resources'
import { statuses } from '../registry/status'
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handleGet,
  handleList,
  handlePatch,
  handleUpdate,
} from './handlers'
import { requestInfo, type RequestInfo } from './request-info'
import { requestUrl } from './request-url'
import { statusResponse } from './respond'
import { getScale, patchScale, putScale } from './scale'

type Ctx = Context<{ Bindings: Env }>

const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, {
    ...statuses.methodNotSupported({ resource: '' }, ''),
    message: 'the server does not allow this method on the requested resource',
    details: {},
  })
const notFound = (c: Ctx) => statusResponse(c, statuses.pathNotFound())
const terminatingCreate = (c: Ctx, def: ResourceDef) =>
  statusResponse(c, {
    ...statuses.methodNotSupported({ group: def.group, resource: def.plural }, 'create'),
    message: 'create not allowed while custom resource definition is terminating',
  })

/** Subresources every kind that declares them gets: planned with a wrapping strategy, served like the object. */
const GENERIC_SUBRESOURCES = new Set(['status', 'ephemeralcontainers'])

/** The request as kube reads it; the router, authorization and audit all use this one reading. */
function readRequest(c: Ctx): RequestInfo | null {
  return requestInfo(c.req.method, requestUrl(c).pathname, (k) => c.req.query(k))
}

export async function dispatch(c: Ctx): Promise<Response> {
  const info = readRequest(c)
  if (!info?.isResourceRequest) return notFound(c)
  const def = kinds.served(info.apiGroup, info.apiVersion, info.resource)
  if (!def) return notFound(c)
  // A namespaced kind has no items outside a namespace, and a cluster-scoped one none inside.
  if (
    def.namespaced
      ? info.namespace === '' && info.parts.length > 1
      : info.namespace !== '' && info.resource !== 'namespaces'
  )
    return notFound(c)
  const ns = def.namespaced ? info.namespace : ''
  // A kind that is never stored is served only by its own routes (its create); every other verb is refused here.
  if (def.home === 'none') return info.subresource ? notFound(c) : methodNotAllowed(c)
  if (info.verbViaPathPrefix) return info.verb === 'watch' ? deprecatedWatch(c, def, info) : notFound(c)
  if (info.parts.length > 3) return notFound(c)
  if (info.subresource) return subresource(c, def, ns, info)
  const method = c.req.method
  if (info.parts.length === 1) {
    if (method === 'GET') return handleList(c, def, def.namespaced && info.namespace === '' ? null : ns)
    if (method === 'POST' && def.verbs.includes('create') && (ns !== '' || !def.namespaced))
      return handleCreate(c, def, ns)
    // A custom resource's create is gone only while its CRD terminates: kube's crdHandler says so.
    if (method === 'POST' && def.unstructured && !def.verbs.includes('create')) return terminatingCreate(c, def)
    if (method === 'DELETE' && def.verbs.includes('deletecollection') && (ns !== '' || !def.namespaced))
      return handleDeleteCollection(c, def, ns)
    return methodNotAllowed(c)
  }
  const name = info.parts[1]!
  if (method === 'GET') return handleGet(c, def, ns, name)
  if (method === 'PUT' && def.verbs.includes('update')) return handleUpdate(c, def, ns, name)
  if (method === 'PATCH' && def.verbs.includes('patch')) return handlePatch(c, def, ns, name)
  if (method === 'DELETE' && def.verbs.includes('delete')) return handleDelete(c, def, ns, name)
  return methodNotAllowed(c)
}

async function subresource(c: Ctx, def: ResourceDef, ns: string, info: RequestInfo): Promise<Response> {
  const sub = def.subresources?.find((s) => s.name === info.subresource)
  if (!sub) return notFound(c)
  const name = info.name
  const method = c.req.method
  if (GENERIC_SUBRESOURCES.has(sub.name)) {
    if (method === 'GET') return handleGet(c, def, ns, name)
    if (method === 'PUT' && sub.verbs.includes('update')) return handleUpdate(c, def, ns, name, sub.name)
    if (method === 'PATCH' && sub.verbs.includes('patch')) return handlePatch(c, def, ns, name, sub.name)
    return methodNotAllowed(c)
  }
  if (sub.name === 'scale') {
    if (method === 'GET') return getScale(c, def, ns, name)
    if (method === 'PUT') return putScale(c, def, ns, name)
    if (method === 'PATCH') return patchScale(c, def, ns, name)
    return methodNotAllowed(c)
  }
  return notFound(c)
}

/** /watch/... (deprecated): the collection watch; with a name, narrowed by fieldSelector=metadata.name=<name>. */
function deprecatedWatch(c: Ctx, def: ResourceDef, info: RequestInfo): Promise<Response> | Response {
  if (c.req.method !== 'GET' || info.parts.length > 2) return notFound(c)
  if (info.parts.length === 2) {
    const url = new URL(c.req.url)
    const existing = url.searchParams.get('fieldSelector')
    url.searchParams.set(
      'fieldSelector',
      existing ? `${existing},metadata.name=${info.parts[1]}` : `metadata.name=${info.parts[1]}`,
    )
    c.req.raw = new Request(url, c.req.raw)
  }
  const ns = def.namespaced ? (info.namespace === '' ? null : info.namespace) : ''
  return handleList(c, def, ns, true)
}
