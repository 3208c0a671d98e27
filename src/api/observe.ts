// The outermost filter: every request gets an audit ID (kube's Audit-Id response header), counts as in flight while
// it is handled, and when it is answered is counted in the request metrics and written to the audit log, refused or
// not. It reads what the access decision learned (src/api/observation.ts) instead of reading the request again.
import type { MiddlewareHandler } from 'hono'
import { auditPolicy } from '../audit/audit-config'
import { requestAttributes } from '../identity/request-attributes'
import type { Attributes } from '../registry/rbac/attributes'
import { statuses } from '../registry/status'
import { requestLabels } from '../metrics/request-labels'
import { auditConfigOf, captureAnswer, writeAudit } from './audit-log'
import { isolateMetrics } from './isolate-metrics'
import type { Observation } from './observation'
import { statusResponse } from './respond'
import { requestUrl } from './request-url'

/** A client's Audit-ID is kept when it is a plausible ID (kube keeps any; we keep it printable and short). */
const CLIENT_AUDIT_ID = /^[\w.:-]{1,64}$/

function keepAlive(c: Parameters<MiddlewareHandler>[0], p: Promise<unknown> | null) {
  if (!p) return
  try {
    c.executionCtx.waitUntil(p)
  } catch {
    // No execution context (a test calling the app directly): the promise runs on its own.
    p.catch(() => undefined)
  }
}

/** The response with one more header (responses whose headers are immutable are copied). */
function withHeader(res: Response, name: string, value: string): Response {
  try {
    res.headers.set(name, value)
    return res
  } catch {
    const headers = new Headers(res.headers)
    headers.set(name, value)
    return res.status === 101
      ? new Response(null, { status: 101, webSocket: res.webSocket, headers })
      : new Response(res.body, { status: res.status, statusText: res.statusText, headers })
  }
}

export const observe: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const arrivedAt = Date.now()
  const sent = c.req.header('audit-id')
  const url = requestUrl(c)
  const obs: Observation = {
    auditID: sent && CLIENT_AUDIT_ID.test(sent) ? sent : crypto.randomUUID(),
    arrivedAt,
    requestURI: url.pathname + url.search,
  }
  c.set('observation', obs)
  const policy = auditPolicy(c.env)
  if (!policy.ok) {
    console.error('audit policy refused:', policy.error)
    return withHeader(
      statusResponse(
        c,
        statuses.serviceUnavailable(`the server's audit policy (KUBEFLARE_AUDIT_POLICY) is invalid: ${policy.error}`),
      ),
      'Audit-Id',
      obs.auditID,
    )
  }
  const metrics = isolateMetrics(c.env)
  const kind = c.req.method === 'GET' || c.req.method === 'HEAD' ? 'readOnly' : 'mutating'
  metrics.inflight.start(kind)
  try {
    await next()
  } finally {
    metrics.inflight.end(kind)
  }
  const endedAt = Date.now()
  const res = withHeader(c.res, 'Audit-Id', obs.auditID)
  // Hono's setter copies the response it replaces (a new Response, every header again): only a copy needs setting.
  if (res !== c.res) c.res = res
  // A request refused before its attributes were read (a failed authentication) is read here, as nobody.
  const attrs: Attributes =
    obs.attrs ??
    requestAttributes(obs.authenticated ?? { name: '', groups: [] }, c.req.method, url.pathname, (k) => c.req.query(k))
  const labels = requestLabels(attrs, {
    method: c.req.method,
    queryAll: (name) => url.searchParams.getAll(name),
    contentType: c.req.header('content-type'),
  })
  metrics.request(labels, c.res.status, (endedAt - arrivedAt) / 1000, obs.rateLimited)
  const config = auditConfigOf(obs, policy.policy, attrs)
  if (config.level !== 'None') {
    const answer = captureAnswer(c.res, config, labels.longRunning)
    keepAlive(
      c,
      writeAudit(c, obs, config, attrs, answer, labels.longRunning, endedAt).catch((e: unknown) => {
        console.error('audit event failed', e)
      }),
    )
  }
  keepAlive(c, metrics.flushSoon(c.env))
}
