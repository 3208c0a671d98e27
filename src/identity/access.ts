// Who may do what, decided for every request before it is routed, in kube-apiserver's filter order: the Host check
// (a local server's DNS-rebinding guard), authentication, impersonation, the per-identity rate limit, then
// authorization of the request's attributes. What a handler later needs (the user, the authorizer) rides on the
// context; a refused request ends here with kube's Status.
import type { Context, MiddlewareHandler } from 'hono'
import { authenticate } from '../auth/authenticate'
import { readImpersonation } from '../auth/impersonation'
import { verifyToken } from '../auth/service-account-token'
import type { Attributes } from '../registry/rbac/attributes'
import { forbiddenStatus, newForbidden } from '../registry/rbac/forbidden'
import { type Status, statuses } from '../registry/status'
import { ANONYMOUS_USER, MASTERS_GROUP, type UserInfo } from '../registry/user-info'
import { observationOf } from '../api/observation'
import { addWarnings, statusResponse } from '../api/respond'
import { requestUrl } from '../api/request-url'
import { Authorizer } from './authorizer'
import { hostAllowed } from './host-check'
import { type IdentityConfig, identityConfig } from './identity-config'
import { LiveObjects } from './live-objects'
import { rateLimited } from './rate-limit'
import { requestAttributes } from './request-attributes'

/** What the access decision leaves for the handlers of a request. */
interface RequestAccess {
  user: UserInfo
  config: IdentityConfig
  authorizer: Authorizer
  live: LiveObjects
  /** When the request arrived (ms since epoch). */
  arrivedAt: number
}

declare module 'hono' {
  interface ContextVariableMap {
    access: RequestAccess
  }
}

type Ctx = Context<{ Bindings: Env }>

/** A Status answer with the headers kube's refusals carry. */
function refuse(c: Ctx, status: Status, headers: Record<string, string> = {}): Response {
  const res = statusResponse(c, status)
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v)
  return res
}

const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' }

/** The ServiceAccount token verifier over this deployment's key and the live objects tokens name. */
function serviceAccounts(config: IdentityConfig, live: LiveObjects) {
  const key = config.signingKey
  if (!key) return null
  return {
    verify: (token: string) =>
      verifyToken(token, {
        keys: [{ kid: key.kid, publicKey: key.publicKey }],
        issuer: config.issuer,
        audiences: config.apiAudiences,
        lookup: live.serviceAccount,
        lookupPod: live.pod,
        lookupNode: live.node,
        now: new Date(),
      }),
  }
}

export const access: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const arrivedAt = Date.now()
  const loaded = await identityConfig(c.env)
  if (!loaded.ok) {
    console.error('identity configuration refused:', loaded.error)
    return refuse(c, statuses.serviceUnavailable(`the server's identity configuration is invalid: ${loaded.error}`))
  }
  const config = loaded.config
  if (!hostAllowed(c.req.header('host'), config.allowedHosts)) {
    return refuse(c, newForbidden('', '', '', 'this server does not answer to that Host header'))
  }
  const live = new LiveObjects(c.env)
  // What is learned here is also the audit log's and the request metrics' (src/api/observe.ts).
  const observed = observationOf(c) ?? { auditID: '', arrivedAt, requestURI: '' }
  const authn = await authenticate(
    {
      authorization: c.req.header('authorization'),
      upgrade: c.req.header('upgrade'),
      connection: c.req.header('connection'),
      websocketProtocol: c.req.header('sec-websocket-protocol'),
    },
    { tokens: config.tokens, serviceAccounts: serviceAccounts(config, live), anonymous: config.anonymous },
  )
  const client = c.req.header('cf-connecting-ip') ?? 'local'
  addWarnings(c, authn.warnings)
  if (!authn.ok) {
    // Guessing tokens is limited per client address; the answer is the one 401 whatever the cause.
    console.warn(`authentication failed for ${client}: ${authn.reason}`)
    const limited = config.rateLimited ? await rateLimited(c.env, `unauthenticated:${client}`) : null
    if (limited) observed.rateLimited = 'unauthenticated'
    if (limited) return refuse(c, limited.status, limited.headers)
    return refuse(c, statuses.unauthorized())
  }
  const authorizer = new Authorizer(c.env, config.alwaysAllow)
  let user = authn.user
  observed.authenticated = user
  const url = requestUrl(c)
  const impersonation = readImpersonation(c.req.raw.headers, url.pathname + url.search)
  if ('refused' in impersonation) return refuse(c, impersonation.refused)
  if (impersonation.impersonating) {
    for (const check of impersonation.checks) {
      const attrs: Attributes = { ...check, user, path: url.pathname }
      const decision = await authorizer.authorize(attrs, arrivedAt)
      if (!decision.allowed) observed.decision = decision
      if (!decision.allowed) return refuse(c, forbiddenStatus(attrs, decision.reason), NOSNIFF)
    }
    user = impersonation.user
    observed.impersonated = user
  }
  const attrs = requestAttributes(user, c.req.method, url.pathname, (k) => c.req.query(k))
  observed.attrs = attrs
  const [limited, decision] = await Promise.all([
    config.rateLimited ? rateLimited(c.env, rateKey(user, client)) : null,
    authorizer.authorize(attrs, arrivedAt),
  ])
  observed.decision = decision
  if (limited) observed.rateLimited = rateFlow(user)
  if (limited) return refuse(c, limited.status, limited.headers)
  if (!decision.allowed) return refuse(c, forbiddenStatus(attrs, decision.reason), NOSNIFF)
  c.set('access', { user, config, authorizer, live, arrivedAt })
  if (authn.websocketProtocol !== undefined) {
    // The token travelled as a subprotocol: what is negotiated from here on is the rest of them.
    const headers = new Headers(c.req.raw.headers)
    if (authn.websocketProtocol === '') headers.delete('sec-websocket-protocol')
    else headers.set('sec-websocket-protocol', authn.websocketProtocol)
    c.req.raw = new Request(c.req.raw, { headers })
  }
  await next()
}

/** The flow a rate-limited request was refused in, for apiserver_flowcontrol_rejected_requests_total. */
const rateFlow = (user: UserInfo) => (user.name === ANONYMOUS_USER ? 'anonymous' : 'user')

/** Whose budget a request spends: the user's; anonymous requests the client address's. */
function rateKey(user: UserInfo, client: string): string | null {
  // system:masters is exempt, as kube's API Priority and Fairness exempts it.
  if (user.groups.includes(MASTERS_GROUP)) return null
  return user.name === ANONYMOUS_USER ? `anonymous:${client}` : `user:${user.name}`
}
