// SelfSubjectReview (pkg/registry/authentication/selfsubjectreview/rest.go, `kubectl auth whoami`): who the
// requester is after authentication and impersonation. kube answers a new object stamped with the time.
import type { Context } from 'hono'
import { rfc3339 } from '../../registry/time'
import type { UserInfo } from '../../registry/user-info'
import { SelfSubjectReview } from '../../schema/authentication'
import { type Json, omitEmpty } from './go-values'
import { created, readReview } from './review-request'

type Ctx = Context<{ Bindings: Env }>

/** authentication/v1 UserInfo as Go writes it: every field omitempty. */
export const goUserInfo = (u: UserInfo): Json =>
  omitEmpty({ username: u.name, uid: u.uid, groups: u.groups, extra: u.extra }, ['username', 'uid', 'groups', 'extra'])

/** POST /apis/authentication.k8s.io/v1/selfsubjectreviews. */
export async function createSelfSubjectReview(c: Ctx): Promise<Response> {
  const access = c.get('access')
  const r = await readReview(
    c,
    { group: 'authentication.k8s.io', kind: 'SelfSubjectReview', schema: SelfSubjectReview },
    '',
  )
  const status = { userInfo: goUserInfo(access.user) }
  return created(c, { ...r, meta: {} }, undefined, { status }, { creationTimestamp: rfc3339(r.now) })
}
