// Builds the Hono app: one error handler, discovery and OpenAPI, and the resource routes generated from the table.
import { Hono } from 'hono'
import { StatusError, statuses } from './registry/status'
import { statusResponse } from './api/respond'
import { registerGroupDiscovery, serveApi, serveApis, serveApiV1 } from './api/discovery'
import { serveVersion } from './api/version'
import { serveOpenApiV2, serveOpenApiV3, serveOpenApiV3Index } from './api/openapi'
import { dispatch } from './api/dispatch'
import { registerPodSubresources } from './api/pod-subresources'
import { registerServiceProxy } from './api/service-proxy'
import { registerNodeTunnel } from './api/node-tunnel-routes'
import { registerV1beta1 } from './api/v1beta1/routes'
import { bootstrapGate } from './api/bootstrap-gate'
import { localMigrationsGate } from './api/local-migrations-gate'
import { access } from './identity/access'
import { registerIdentityApis } from './api/identity-apis'
import { customKindsGate } from './api/custom-kinds-gate'
import { registerHealth } from './api/health'
import { observe } from './api/observe'
import { requestUrl } from './api/request-url'
import { captureAuditBody } from './api/audit-log'
import { serveMetrics } from './api/metrics-endpoint'
import { configureEncryptionAtRest } from './registry/at-rest-config'
import { configureDefaultTolerationSeconds } from './registry/strategies/pod/default-toleration-seconds'

export function buildApp() {
  const app = new Hono<{ Bindings: Env }>({ strict: false })

  app.onError((err, c) => {
    if (err instanceof StatusError) return statusResponse(c, err.status)
    // Never a stack trace: an unexpected failure is an InternalError Status, logged for us.
    console.error('unhandled error', err)
    return statusResponse(c, statuses.internal(err instanceof Error ? err.message : String(err)))
  })
  app.notFound((c) => statusResponse(c, statuses.pathNotFound()))
  // A fresh local state gets its D1 schema from the first request (src/api/local-migrations-gate.ts).
  app.use('*', localMigrationsGate)
  // Secrets are stored encrypted (src/registry/at-rest.ts); the Worker reads them from D1 for cluster-wide lists. A
  // key kube-apiserver would refuse to start with (wrong length, not base64) is a 503 naming the setting.
  app.use('*', async (c, next) => {
    const problem = configureEncryptionAtRest(c.env)
    if (problem)
      return statusResponse(
        c,
        statuses.serviceUnavailable(`the server's encryption configuration is invalid: ${problem}`),
      )
    const admission = configureDefaultTolerationSeconds(c.env)
    if (admission)
      return statusResponse(
        c,
        statuses.serviceUnavailable(`the server's admission configuration is invalid: ${admission}`),
      )
    await next()
  })
  // Every request is audited and counted (src/api/observe.ts), then authenticated and authorized before it is
  // routed (src/identity/access.ts); a body the audit level records is copied before a handler reads it.
  app.use('*', observe)
  app.use('*', access)
  app.use('*', captureAuditBody)
  // Go decodes the whole path before splitting it, so an encoded slash separates segments there; here the router
  // would read it as part of one. Refusing such paths keeps routing and request-info.ts reading every path alike.
  app.use('*', async (c, next) => {
    if (/%2f/i.test(requestUrl(c).pathname)) return statusResponse(c, statuses.pathNotFound())
    await next()
  })

  // Custom resources' kinds come from CRDs: the table is brought up to date before anything reads it.
  app.use('/apis', customKindsGate)
  app.use('/apis/*', customKindsGate)
  app.use('/openapi/*', customKindsGate)
  app.get('/version', serveVersion)
  app.get('/api', serveApi)
  app.get('/apis', serveApis)
  app.get('/api/v1', serveApiV1)
  registerGroupDiscovery(app)
  app.get('/openapi/v3', serveOpenApiV3Index)
  // One document per group-version we serve: /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>.
  app.get('/openapi/v3/*', serveOpenApiV3)
  app.get('/openapi/v2', serveOpenApiV2)
  registerHealth(app)
  app.get('/metrics', serveMetrics)
  // Every route below reads or writes objects.
  app.use('/api/*', bootstrapGate)
  app.use('/apis/*', bootstrapGate)
  registerIdentityApis(app)
  registerPodSubresources(app)
  registerServiceProxy(app)
  registerNodeTunnel(app)
  registerV1beta1(app)
  // Everything else under /api and /apis: read as kube reads it, served for whatever kind the table holds now.
  app.all('/api/*', dispatch)
  app.all('/apis/*', dispatch)
  return app
}
