// The identity APIs' routes: the access reviews and SelfSubjectRulesReview (authorization.k8s.io/v1), TokenReview
// and SelfSubjectReview (authentication.k8s.io/v1), TokenRequest (serviceaccounts/token) and the issuer's OIDC
// discovery. The review kinds are rows of the kind table (discovery, OpenAPI); only their create is served, here.
import type { Hono } from 'hono'
import { registerOidc } from './oidc'
import {
  createLocalSubjectAccessReview,
  createSelfSubjectAccessReview,
  createSubjectAccessReview,
} from './reviews/access-review'
import { createSelfSubjectRulesReview } from './reviews/rules-review'
import { createSelfSubjectReview } from './reviews/self-subject-review'
import { createTokenReview } from './reviews/token-review'
import { registerTokenRequest } from './token-request'

const AUTHORIZATION = '/apis/authorization.k8s.io/v1'
const AUTHENTICATION = '/apis/authentication.k8s.io/v1'

export function registerIdentityApis(app: Hono<{ Bindings: Env }>) {
  registerOidc(app)
  app.post(`${AUTHORIZATION}/selfsubjectaccessreviews`, createSelfSubjectAccessReview)
  app.post(`${AUTHORIZATION}/subjectaccessreviews`, createSubjectAccessReview)
  app.post(`${AUTHORIZATION}/namespaces/:namespace/localsubjectaccessreviews`, createLocalSubjectAccessReview)
  app.post(`${AUTHORIZATION}/selfsubjectrulesreviews`, createSelfSubjectRulesReview)
  app.post(`${AUTHENTICATION}/selfsubjectreviews`, createSelfSubjectReview)
  app.post(`${AUTHENTICATION}/tokenreviews`, createTokenReview)
  registerTokenRequest(app)
}
