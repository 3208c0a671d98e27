// Who sent a request: kube-apiserver's authenticator chain (digest §1.1, §1.4) over the credentials we accept: bearer
// tokens from the Authorization header or the WebSocket protocol, checked against static tokens then ServiceAccount
// tokens; the authenticated-group adder; anonymous last, only for requests that presented nothing.
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from '../registry/user-info'
import { aggregate } from './aggregate-error'
import { readAuthorization, readWebSocketProtocol } from './bearer'
import type { ServiceAccountVerifier } from './service-account-token'
import type { StaticTokens } from './token-file'

/** The request headers authentication reads (absent headers as undefined or null). */
export interface AuthRequest {
  authorization?: string | null
  /** Upgrade and Connection decide whether the WebSocket protocol authenticator runs at all. */
  upgrade?: string | null
  connection?: string | null
  websocketProtocol?: string | null
}

export interface AuthChain {
  tokens: StaticTokens | null
  serviceAccounts: ServiceAccountVerifier | null
  /** --anonymous-auth: whether a request with no credential becomes system:anonymous (else 401). */
  anonymous: boolean
}

type AuthOutcome =
  | {
      ok: true
      user: UserInfo
      /** Sent as `Warning: 299 - "<text>"` headers. */
      warnings: string[]
      /** How the user was established. */
      via: 'bearer' | 'websocket' | 'anonymous'
      /** After a WebSocket-protocol token: Sec-WebSocket-Protocol without it, what the upgrade negotiates from. */
      websocketProtocol?: string
    }
  | {
      ok: false
      /** kube's error text, for logs only: the client gets the one 401 Status whatever the cause. Never a token. */
      reason: string
      warnings: string[]
    }

type TokenResult = { user: UserInfo } | { errors: string[] }

/**
 * kube's token union (not fail-fast): the first authenticator that knows the token wins; errors are kept and only
 * reported when none does. Static tokens have an opinion only on their own tokens and never err.
 */
async function authenticateToken(token: string, chain: AuthChain): Promise<TokenResult> {
  const errors: string[] = []
  if (chain.tokens) {
    const user = await chain.tokens.authenticate(token)
    if (user) return { user }
  }
  if (chain.serviceAccounts) {
    const verdict = await chain.serviceAccounts.verify(token)
    if (verdict.status === 'authenticated') return { user: verdict.user }
    if (verdict.status === 'rejected') errors.push(verdict.reason)
  }
  return { errors }
}

/** The authenticated-group adder: system:authenticated appended unless the user is anonymous or already grouped. */
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS_USER) return user
  if (user.groups.some((g) => g === AUTHENTICATED_GROUP || g === UNAUTHENTICATED_GROUP)) return user
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] }
}

/**
 * The chain: union(bearer, websocket protocol) behind the group adder, then anonymous through a fail-on-error union.
 * A token nobody accepts is an error (`invalid bearer token`, or the authenticators' own errors), so the request is
 * refused (401), never downgraded to anonymous; only when no authenticator had an opinion does anonymous apply.
 */
export async function authenticate(req: AuthRequest, chain: AuthChain): Promise<AuthOutcome> {
  const warnings: string[] = []
  const errors: string[] = []

  const bearer = readAuthorization(req.authorization)
  if (bearer.warning) warnings.push(bearer.warning)
  if (bearer.token !== null) {
    const r = await authenticateToken(bearer.token, chain)
    if ('user' in r) return { ok: true, user: withAuthenticatedGroup(r.user), warnings, via: 'bearer' }
    errors.push(...(r.errors.length > 0 ? r.errors : ['invalid bearer token']))
  }

  const ws = readWebSocketProtocol({
    upgrade: req.upgrade,
    connection: req.connection,
    protocol: req.websocketProtocol,
  })
  if ('error' in ws) errors.push(ws.error)
  else if (ws.token !== null) {
    const r = await authenticateToken(ws.token, chain)
    if ('user' in r) {
      const user = withAuthenticatedGroup(r.user)
      return { ok: true, user, warnings, via: 'websocket', websocketProtocol: ws.protocols }
    }
    errors.push(...(r.errors.length > 0 ? r.errors : ['invalid bearer token']))
  }

  if (errors.length > 0) return { ok: false, reason: aggregate(errors), warnings }
  if (!chain.anonymous) return { ok: false, reason: 'no credentials presented and anonymous auth is off', warnings }
  return { ok: true, user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] }, warnings, via: 'anonymous' }
}
