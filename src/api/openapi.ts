// OpenAPI documents generated from the resource table. kubectl needs /openapi/v3 (index + api/v1 with a PATCH
// operation carrying fieldValidation) to validate server-side, and kubectl 1.27/1.28 also fetch /openapi/v2.
// Until complete schemas are generated from the zod types, the v3 document carries paths only: kubectl treats a
// schema-less document as "use compiled-in types", while a partial schema would make client-side apply misbehave.
import type { Context } from 'hono'
import { RESOURCES } from '../registry/resources'
import type { ResourceDef } from '../registry/resource'
import { NO_CACHE, json } from './respond'
import { statuses } from '../registry/status'

type Op = Record<string, unknown>

const q = (name: string, type = 'string', description = '') => ({ name, in: 'query', description, schema: { type }, uniqueItems: true })
const WRITE_PARAMS = [
  q('dryRun', 'string', 'All: validate without persisting'),
  q('fieldManager', 'string', 'Name of the actor making the change'),
  q('fieldValidation', 'string', 'Ignore, Warn or Strict: what to do with unknown or duplicate fields'),
]
const LIST_PARAMS = [
  q('allowWatchBookmarks', 'boolean'),
  q('continue'),
  q('fieldSelector'),
  q('labelSelector'),
  q('limit', 'integer'),
  q('resourceVersion'),
  q('resourceVersionMatch'),
  q('sendInitialEvents', 'boolean'),
  q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
]
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, uniqueItems: true })

function op(def: ResourceDef, action: string, verb: string, scope: string, params: unknown[]): Op {
  const kind = def.kind
  return {
    operationId: `${verb}CoreV1${scope}${kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: def.group, version: def.version, kind },
    parameters: params,
    responses: { '200': { description: 'OK' }, '401': { description: 'Unauthorized' } },
    tags: ['core_v1'],
  }
}

export function openApiV3Document() {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const def of RESOURCES) {
    const ns = def.namespaced
    const scope = ns ? 'Namespaced' : ''
    const base = ns ? `/api/v1/namespaces/{namespace}/${def.plural}` : `/api/v1/${def.plural}`
    const nsParam = ns ? [pathParam('namespace')] : []
    const nameParams = [...nsParam, pathParam('name')]
    paths[base] = {
      get: op(def, 'list', 'list', scope, [...nsParam, ...LIST_PARAMS]),
      post: op(def, 'post', 'create', scope, [...nsParam, ...WRITE_PARAMS]),
      ...(def.verbs.includes('deletecollection') ? { delete: op(def, 'deletecollection', 'deleteCollection', scope, [...nsParam, ...LIST_PARAMS]) } : {}),
    }
    paths[`${base}/{name}`] = {
      get: op(def, 'get', 'read', scope, nameParams),
      put: op(def, 'put', 'replace', scope, [...nameParams, ...WRITE_PARAMS]),
      patch: op(def, 'patch', 'patch', scope, [...nameParams, ...WRITE_PARAMS, q('force', 'boolean')]),
      delete: op(def, 'delete', 'delete', scope, [...nameParams, q('dryRun'), q('gracePeriodSeconds', 'integer'), q('propagationPolicy')]),
    }
    if (ns) paths[`/api/v1/${def.plural}`] = { get: op(def, 'list', 'list', 'ForAllNamespaces', LIST_PARAMS) }
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.33.1' }, paths, components: { schemas: {} } }
}

let cached: { text: string; hash: string } | null = null

async function v3Doc() {
  if (!cached) {
    const text = JSON.stringify(openApiV3Document())
    const digest = await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text))
    const hash = [...new Uint8Array(digest)].slice(0, 32).map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase()
    cached = { text, hash }
  }
  return cached
}

export async function serveOpenApiV3Index(c: Context) {
  const { hash } = await v3Doc()
  return json(c, { paths: { 'api/v1': { serverRelativeURL: `/openapi/v3/api/v1?hash=${hash}` } } })
}

export async function serveOpenApiV3(c: Context) {
  const { text, hash } = await v3Doc()
  const hashed = c.req.query('hash') === hash
  return new Response(text, {
    headers: {
      'Content-Type': 'application/json',
      // A hashed URL names one immutable document, which kubectl caches on disk.
      'Cache-Control': hashed ? 'public, immutable' : NO_CACHE,
      Etag: `"${hash}"`,
    },
  })
}

/** kubectl 1.27/1.28 fetch v2 as protobuf first and abort on 404; an empty protobuf is a valid empty document. */
export function serveOpenApiV2(c: Context) {
  const accept = c.req.header('accept') ?? ''
  if (accept.includes('protobuf')) {
    return new Response(null, {
      status: 200,
      headers: { 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'Cache-Control': NO_CACHE },
    })
  }
  return json(c, statuses.pathNotFound(), 404)
}
