// How the verb handlers answer objects and lists: in the version served (a custom resource's read defaults, a
// converting version's conversion), as a Table, as partial metadata, or as the host already encoded a write's answer.
import type { Context } from 'hono'
import type { WriteAnswer } from '../host/rpc-types'
import type { ListPage } from '../registry/list'
import { apiVersionOf, type ResourceDef } from '../registry/resource'
import type { KubeObject } from '../schema/meta'
import { partialOfList, partialOfObject } from './partial-metadata'
import { encodedJson, json, negotiated, relaysEncoded } from './respond'
import { tableOptions, toTable } from './table'

type Ctx = Context<{ Bindings: Env }>

/**
 * An object as its kind serves it: a custom resource gets its schema's defaults (kube defaults on read too), and one
 * read through a version served but not stored is answered in that version (conversion None: apiVersion only; a
 * converting version's own conversion, autoscaling/v1 HPAs).
 */
function inVersion(def: ResourceDef, obj: KubeObject): KubeObject {
  if (def.conversion && obj.kind === def.kind) return def.conversion.fromStored(obj)
  if (!def.unstructured) return obj
  if (def.unstructured.defaultsOnRead) def.strategy.applyDefaults(obj)
  if (def.storage === false && obj.kind === def.kind) obj.apiVersion = apiVersionOf(def)
  return obj
}

/**
 * Whether a write's answer may come encoded from the host (WriteOptions.encodeAnswer): the request wants the object
 * as stored, compact, and its kind serves objects as they are stored (inVersion changes nothing).
 */
export const relaysStored = (c: Ctx, def: ResourceDef) =>
  relaysEncoded(c) && !def.conversion && !def.unstructured?.defaultsOnRead && def.storage !== false

/** A write's answer: the host's encoding of the object when it sent one, else the object rendered here. */
export const renderAnswer = (c: Ctx, def: ResourceDef, answer: WriteAnswer, code: number) =>
  answer.json !== undefined ? encodedJson(c, answer.json, code) : renderObject(c, def, answer.object, code)

/** The version of the Table the negotiated Accept clause asks for (kubectl's human output does), if it asks. */
const tableVersion = (c: Ctx) => {
  const convert = negotiated(c)?.convert
  return convert?.kind === 'Table' ? convert.version : undefined
}

/**
 * A Table of objects as their kind prints them: from the stored objects (kube prints its internal version, whatever
 * version was asked for), each row's object, when asked for whole, in the requested version.
 */
function tableOf(c: Ctx, def: ResourceDef, stored: KubeObject[], shown: KubeObject[], meta: Record<string, unknown>) {
  const include = tableOptions(c.req.query('includeObject'))
  const t = toTable(def, def.conversion ? stored : shown, meta, include, tableVersion(c)!)
  if (def.conversion && include === 'Object') t.rows.forEach((row, i) => (row.object = shown[i]))
  return t
}

/** One object, as JSON, as a one-row Table or as its PartialObjectMetadata. */
export function renderObject(c: Ctx, def: ResourceDef, stored: KubeObject, code = 200): Response {
  const obj = inVersion(def, stored)
  if (tableVersion(c))
    return json(c, tableOf(c, def, [stored], [obj], { resourceVersion: obj.metadata.resourceVersion }), code)
  return json(c, partialOfObject(def, obj, negotiated(c)?.convert), code)
}

export function renderList(c: Ctx, def: ResourceDef, page: ListPage): Response {
  const stored = page.items
  page.items = stored.map((item) => inVersion(def, item))
  const meta: Record<string, unknown> = { resourceVersion: String(page.resourceVersion) }
  if (page.continue) meta.continue = page.continue
  if (page.remainingItemCount !== undefined) meta.remainingItemCount = page.remainingItemCount
  if (tableVersion(c)) return json(c, tableOf(c, def, stored, page.items, meta))
  const partial = partialOfList(def, { metadata: meta, items: page.items }, negotiated(c)?.convert)
  if (partial) return json(c, partial)
  return json(c, { kind: def.listKind, apiVersion: apiVersionOf(def), metadata: meta, items: page.items })
}
