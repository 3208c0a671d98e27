// Routes generated from the resource table: every kind gets its collection, item, cluster-wide and deprecated
// watch paths, bound to the shared verb handlers. Methods a path does not serve answer 405.
import type { Context, Hono } from 'hono'
import { RESOURCES } from '../registry/resources'
import type { ResourceDef } from '../registry/resource'
import { statuses } from '../registry/status'
import { statusResponse } from './respond'
import { apiPrefix } from './openapi/operations'
import { handleCreate, handleDelete, handleDeleteCollection, handleGet, handleList, handlePatch, handleUpdate } from './handlers'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>

const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, {
    ...statuses.methodNotSupported({ resource: '' }, ''),
    message: 'the server does not allow this method on the requested resource',
    details: {},
  })

/** Collection and item routes for one kind under its group-version prefix (namespaced or cluster-wide). */
function bind(app: App, def: ResourceDef) {
  const has = (v: string) => def.verbs.includes(v as never)
  const ns = (c: Ctx) => (def.namespaced ? c.req.param('namespace')! : '')
  const root = apiPrefix(def) // `/api/v1`, or `/apis/<group>/<version>` for a named group
  const collection = def.namespaced ? `${root}/namespaces/:namespace/${def.plural}` : `${root}/${def.plural}`
  const item = `${collection}/:name`

  app.get(collection, (c) => handleList(c, def, def.namespaced ? c.req.param('namespace')! : ''))
  if (has('create')) app.post(collection, (c) => handleCreate(c, def, ns(c)))
  if (has('deletecollection')) app.delete(collection, (c) => handleDeleteCollection(c, def, ns(c)))
  app.all(collection, methodNotAllowed)

  app.get(item, (c) => handleGet(c, def, ns(c), c.req.param('name')!))
  if (has('update')) app.put(item, (c) => handleUpdate(c, def, ns(c), c.req.param('name')!))
  if (has('patch')) app.patch(item, (c) => handlePatch(c, def, ns(c), c.req.param('name')!))
  if (has('delete')) app.delete(item, (c) => handleDelete(c, def, ns(c), c.req.param('name')!))
  app.all(item, methodNotAllowed)

  // Subresources served generically: /status reads the object and writes only its status (and labels, annotations).
  for (const sub of def.subresources ?? []) {
    // Only these planned-with-another-strategy subresources are generic; the others have their own routes.
    if (sub.name !== 'status' && sub.name !== 'ephemeralcontainers') continue
    const path = `${item}/${sub.name}`
    app.get(path, (c) => handleGet(c, def, ns(c), c.req.param('name')!))
    if (sub.verbs.includes('update')) app.put(path, (c) => handleUpdate(c, def, ns(c), c.req.param('name')!, sub.name))
    if (sub.verbs.includes('patch')) app.patch(path, (c) => handlePatch(c, def, ns(c), c.req.param('name')!, sub.name))
    app.all(path, methodNotAllowed)
  }

  if (def.namespaced) {
    app.get(`${root}/${def.plural}`, (c) => handleList(c, def, null))
    app.all(`${root}/${def.plural}`, methodNotAllowed)
    app.get(`${root}/watch/namespaces/:namespace/${def.plural}`, (c) => handleList(c, def, c.req.param('namespace')!, true))
    app.get(`${root}/watch/namespaces/:namespace/${def.plural}/:name`, (c) => {
      withNameSelector(c)
      return handleList(c, def, c.req.param('namespace')!, true)
    })
    app.get(`${root}/watch/${def.plural}`, (c) => handleList(c, def, null, true))
  } else {
    app.get(`${root}/watch/${def.plural}`, (c) => handleList(c, def, '', true))
    app.get(`${root}/watch/${def.plural}/:name`, (c) => {
      withNameSelector(c)
      return handleList(c, def, '', true)
    })
  }
}

/** The deprecated single-object watch path is the collection watch with fieldSelector=metadata.name=<name>. */
function withNameSelector(c: Ctx) {
  const url = new URL(c.req.url)
  const name = c.req.param('name')!
  const existing = url.searchParams.get('fieldSelector')
  url.searchParams.set('fieldSelector', existing ? `${existing},metadata.name=${name}` : `metadata.name=${name}`)
  c.req.raw = new Request(url, c.req.raw)
}

export function registerResourceRoutes(app: App) {
  for (const def of RESOURCES) bind(app, def)
}
