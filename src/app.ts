// Builds the Hono app: one error handler, discovery and OpenAPI, and the resource routes generated from the table.
import { Hono } from 'hono'
import { StatusError, statuses } from './registry/status'
import { statusResponse } from './api/respond'
import { groupVersions, registerGroupDiscovery, serveApi, serveApis, serveApiV1 } from './api/discovery'
import { documentKey } from './api/openapi/operations'
import { serveVersion } from './api/version'
import { serveOpenApiV2, serveOpenApiV3, serveOpenApiV3Index } from './api/openapi'
import { registerResourceRoutes } from './api/routes'
import { registerPodSubresources } from './api/pod-subresources'
import { registerScaleRoutes } from './api/scale'
import { registerV1beta1 } from './api/v1beta1/routes'
import { bootstrapGate } from './api/bootstrap-gate'

export function buildApp() {
  const app = new Hono<{ Bindings: Env }>({ strict: false })

  app.onError((err, c) => {
    if (err instanceof StatusError) return statusResponse(c, err.status)
    // Never a stack trace: an unexpected failure is an InternalError Status, logged for us.
    console.error('unhandled error', err)
    return statusResponse(c, statuses.internal(err instanceof Error ? err.message : String(err)))
  })
  app.notFound((c) => statusResponse(c, statuses.pathNotFound()))

  app.get('/version', serveVersion)
  app.get('/api', serveApi)
  app.get('/apis', serveApis)
  app.get('/api/v1', serveApiV1)
  registerGroupDiscovery(app)
  app.get('/openapi/v3', serveOpenApiV3Index)
  // One document per group-version we serve: /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>.
  for (const gv of groupVersions()) app.get(`/openapi/v3/${documentKey(gv)}`, serveOpenApiV3)
  app.get('/openapi/v2', serveOpenApiV2)
  app.get('/healthz', (c) => c.text('ok'))
  app.get('/livez', (c) => c.text('ok'))
  app.get('/readyz', (c) => c.text('ok'))
  // Every route below reads or writes objects.
  app.use('/api/*', bootstrapGate)
  app.use('/apis/*', bootstrapGate)
  registerPodSubresources(app)
  registerScaleRoutes(app)
  registerV1beta1(app)
  registerResourceRoutes(app)
  return app
}
