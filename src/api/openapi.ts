// The OpenAPI endpoints: /openapi/v3 (index), /openapi/v3/<group-version> (documents generated in ./openapi/ from
// the zod schemas and the resource table) and /openapi/v2 (the empty protobuf document kubectl 1.27/1.28 need).
import type { Context } from 'hono'
import { NO_CACHE, statusResponse, unnegotiatedJson } from './respond'
import { statuses } from '../registry/status'
import { servedDocuments, servedSwaggerV2 } from './openapi/document'

export async function serveOpenApiV3Index(c: Context) {
  const paths: Record<string, { serverRelativeURL: string }> = {}
  for (const [key, doc] of await servedDocuments())
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` }
  // kube-openapi's handler3 writes the index whatever the Accept header says.
  return unnegotiatedJson(c, { paths })
}

/** One group-version document; the path after /openapi/v3/ names it (`api/v1`, `apis/<group>/<version>`). */
export async function serveOpenApiV3(c: Context) {
  const key = c.req.path.replace(/^\/openapi\/v3\//, '').replace(/\/+$/, '')
  const doc = (await servedDocuments()).get(key)
  if (!doc) return statusResponse(c, statuses.pathNotFound())
  const etag = `"${doc.hash}"`
  const hash = c.req.query('hash')
  // As kube-openapi's handler3: a stale hash is redirected to the current document rather than served under it.
  if (hash !== undefined && hash !== doc.hash) {
    return new Response(null, {
      status: 301,
      headers: { Location: `/openapi/v3/${key}?hash=${doc.hash}`, 'Cache-Control': NO_CACHE },
    })
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Etag: etag, 'Cache-Control': NO_CACHE }
  if (hash !== undefined) {
    // A hashed URL names one immutable document, which kubectl caches on disk (~/.kube/cache/http).
    headers['Cache-Control'] = 'public, immutable'
    headers.Expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString()
    headers.Vary = 'Accept'
  }
  if (
    c.req
      .header('if-none-match')
      ?.split(',')
      .some((t) => t.trim() === etag)
  ) {
    return new Response(null, { status: 304, headers })
  }
  return new Response(doc.text, { headers })
}

/**
 * kubectl 1.27/1.28 fetch v2 as protobuf first and abort on 404 (or on JSON); an empty protobuf is a valid empty
 * document, after which they go on to v3. Anyone asking for JSON gets the v3 documents converted to Swagger 2.0.
 */
export async function serveOpenApiV2(c: Context) {
  const accept = c.req.header('accept') ?? ''
  if (accept.includes('protobuf')) {
    return new Response(null, {
      status: 200,
      // No literal '@' in the media type: client-go fails with "mime: unexpected content after media subtype".
      headers: {
        'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
        'Cache-Control': NO_CACHE,
      },
    })
  }
  return new Response(await servedSwaggerV2(), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': NO_CACHE },
  })
}
