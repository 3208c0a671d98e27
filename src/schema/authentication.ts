// authentication.k8s.io/v1: TokenReview, SelfSubjectReview and TokenRequest (the serviceaccounts/token subresource's
// body), fields in the order of k8s.io/api authentication/v1/types.go (release-1.33). Nothing here is ever stored.
import { z } from 'zod'
import { int64, ObjectMeta, Time } from './meta'
import { atomic } from './schema-helpers'

const GROUP = 'authentication.k8s.io'
const gvk = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: GROUP, kind, version: 'v1' }] })
const strings = () => z.array(z.string())

/** Extra values of a user (ExtraValue is a []string of its own name upstream). */
export const ExtraValue = strings().describe('Values of one extra attribute of a user')

export const UserInfo = z
  .strictObject({
    username: z.string().optional().describe('Name that identifies the user among all active users'),
    uid: z.string().optional().describe('Identifier that stays the same for the user over time'),
    groups: strings().optional().describe('Groups the user belongs to').meta(atomic),
    extra: z
      .record(z.string(), ExtraValue)
      .optional()
      .describe('Further attributes the authenticator found, such as the pod a token is bound to'),
  })
  .describe('Who a user is, as the authenticator found them')

const TokenReviewSpec = z
  .strictObject({
    token: z.string().optional().describe('The bearer token to authenticate'),
    audiences: strings()
      .optional()
      .describe("Audiences the token must be meant for; empty means the API server's")
      .meta(atomic),
  })
  .describe('The token to authenticate')

const TokenReviewStatus = z
  .strictObject({
    authenticated: z.boolean().optional().describe('Whether the token authenticates a user'),
    user: UserInfo.optional().describe('The user the token authenticates'),
    audiences: strings()
      .optional()
      .describe('The requested audiences the token is valid for (the API server audiences when none were asked)')
      .meta(atomic),
    error: z.string().optional().describe('Why the token does not authenticate'),
  })
  .describe('The outcome of a token review')

export const TokenReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: TokenReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authentication.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: TokenReviewSpec.describe('The token to authenticate'),
    status: TokenReviewStatus.optional().describe('The outcome, filled in by the server'),
  })
  .describe('Authenticates a token, as the API server would authenticate a request carrying it')
  .meta(gvk('TokenReview'))

const SelfSubjectReviewStatus = z
  .strictObject({
    userInfo: UserInfo.optional().describe('The user making the request'),
  })
  .describe('Who the requester is')

export const SelfSubjectReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: SelfSubjectReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authentication.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    status: SelfSubjectReviewStatus.optional().describe('The user, filled in by the server'),
  })
  .describe('Tells the requester who the API server takes them for, after impersonation')
  .meta(gvk('SelfSubjectReview'))

export const BoundObjectReference = z
  .strictObject({
    kind: z.string().optional().describe('Kind of the object: Pod, Secret or Node'),
    apiVersion: z.string().optional().describe('API version of the object'),
    name: z.string().optional().describe('Name of the object'),
    uid: z.string().optional().describe('UID of the object; when given, it must match'),
  })
  .describe('The object a token is bound to: the token stops working when the object goes')

export const TokenRequestSpec = z
  .strictObject({
    // No omitempty upstream: written as null when the request left them out and nothing defaulted them.
    audiences: strings()
      .nullable()
      .describe("Audiences the token is meant for; empty means the API server's")
      .meta(atomic),
    expirationSeconds: int64
      .nullable()
      .optional()
      .describe('Requested lifetime of the token in seconds; at least 600, 3600 by default'),
    boundObjectRef: BoundObjectReference.nullable().optional().describe('The object the token is bound to'),
  })
  .describe('What token to issue')

export const TokenRequestStatus = z
  .strictObject({
    token: z.string().describe('The token'),
    expirationTimestamp: Time.nullable().describe('When the token expires'),
  })
  .describe('The issued token')

export const TokenRequest = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: TokenRequest'),
    apiVersion: z.string().optional().describe('Schema version of this object: authentication.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata; name and namespace are the service account'),
    spec: TokenRequestSpec.describe('What token to issue'),
    status: TokenRequestStatus.optional().describe('The token, filled in by the server'),
  })
  .describe('Requests a token for a service account (the serviceaccounts/token subresource)')
  .meta(gvk('TokenRequest'))

export type TokenRequestSpec = z.infer<typeof TokenRequestSpec>
