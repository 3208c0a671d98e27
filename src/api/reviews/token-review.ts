// TokenReview (pkg/registry/authentication/tokenreview/storage.go): the token put in a fake request's
// `Authorization: Bearer <token>` and run through the same authenticator chain every request meets (static tokens,
// then ServiceAccount tokens, the authenticated-group adder, anonymous), with the review's audiences (else the API
// audiences) as the audiences asked for. Static tokens are audience-agnostic: they hold the API audiences.
import type { Context } from 'hono'
import { authenticate } from '../../auth/authenticate'
import { readAuthorization } from '../../auth/bearer'
import { type ServiceAccountVerifier, verifyToken } from '../../auth/service-account-token'
import type { IdentityConfig } from '../../identity/identity-config'
import type { LiveObjects } from '../../identity/live-objects'
import { StatusError, statuses } from '../../registry/status'
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP, type UserInfo } from '../../registry/user-info'
import { TokenReview } from '../../schema/authentication'
import { field, isObject, type Json, omitEmpty, stringsOf } from './go-values'
import { created, managedFieldsOf, readReview } from './review-request'
import { goUserInfo } from './self-subject-review'

type Ctx = Context<{ Bindings: Env }>

/** The Go zero value of a TokenReview, as the field manager compares a create against it. */
const ZERO = { spec: {}, status: { user: {} } }

type Reviewed = { ok: true; user: UserInfo; audiences: string[] } | { ok: false; error: string }

/** The chain's answer for `token`, and the audiences (resp.Audiences) the authenticator that took it vouches for. */
async function reviewToken(
  token: string,
  audiences: readonly string[],
  config: IdentityConfig,
  live: LiveObjects,
): Promise<Reviewed> {
  const authorization = `Bearer ${token}`
  if (readAuthorization(authorization).token === null) {
    // A token of blanks leaves the bearer authenticator without an opinion: anonymous, if enabled, whose response
    // carries no audiences; else no user and no error.
    if (!config.anonymous) return { ok: false, error: '' }
    return { ok: true, user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] }, audiences: [] }
  }
  const key = config.signingKey
  let accounts: string[] | null = null
  const serviceAccounts: ServiceAccountVerifier | null = key && {
    async verify(t) {
      const verdict = await verifyToken(t, {
        keys: [{ kid: key.kid, publicKey: key.publicKey }],
        issuer: config.issuer,
        audiences: config.apiAudiences,
        requestedAudiences: audiences,
        lookup: live.serviceAccount,
        lookupPod: live.pod,
        lookupNode: live.node,
        now: new Date(),
      })
      if (verdict.status === 'authenticated') accounts = verdict.audiences
      return verdict
    },
  }
  // WrapAudienceAgnosticToken: static tokens only answer for the API audiences, and answer with those asked for.
  const implicit = config.apiAudiences.filter((a) => audiences.includes(a))
  const outcome = await authenticate(
    { authorization },
    { tokens: implicit.length > 0 ? config.tokens : null, serviceAccounts, anonymous: config.anonymous },
  )
  if (!outcome.ok) return { ok: false, error: outcome.reason }
  return { ok: true, user: outcome.user, audiences: accounts ?? implicit }
}

/** The status a request carried, as Go holds it (the field manager saw it before the REST storage replaced it). */
function goSentStatus(v: unknown): Json {
  const s = isObject(v) ? v : {}
  const user = omitEmpty(s.user, ['username', 'uid', 'groups', 'extra'])
  return { ...omitEmpty(s, ['authenticated']), user, ...omitEmpty(s, ['audiences', 'error']) }
}

/** POST /apis/authentication.k8s.io/v1/tokenreviews. */
export async function createTokenReview(c: Ctx): Promise<Response> {
  const access = c.get('access')
  const r = await readReview(c, { group: 'authentication.k8s.io', kind: 'TokenReview', schema: TokenReview }, '')
  const spec = omitEmpty(r.object.spec, ['token', 'audiences'])
  const managed = managedFieldsOf(r, { spec, status: goSentStatus(r.object.status) }, ZERO)
  const token = field(spec, 'token')
  if (token === '') throw new StatusError(statuses.badRequest('token is required for TokenReview in authentication'))

  const asked = stringsOf(spec.audiences)
  const audiences = asked.length > 0 ? asked : access.config.apiAudiences
  const reviewed = await reviewToken(token, audiences, access.config, access.live)
  let status: Json
  if (reviewed.ok) {
    // An authenticator vouching for none of the audiences asked for is the server's fault, not the token's.
    if (audiences.length > 0 && !audiences.some((a) => reviewed.audiences.includes(a))) {
      console.error(
        `error validating audience. want=${JSON.stringify(audiences)} got=${JSON.stringify(reviewed.audiences)}`,
      )
      throw new StatusError(statuses.internal('error validating audiences'))
    }
    status = { authenticated: true, user: goUserInfo(reviewed.user), ...omitEmpty(reviewed, ['audiences']) }
  } else {
    status = { user: {}, ...omitEmpty({ error: reviewed.error }, ['error']) }
  }
  return created(c, r, managed, { spec, status })
}
