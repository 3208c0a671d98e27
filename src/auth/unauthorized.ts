// The one answer to a request that fails authentication: kube's 401 Status (filters/authentication.go Unauthorized,
// apierrors.NewUnauthorized("Unauthorized"); digest §1.5).
//
// Whatever the cause (no credential with anonymous off, an unknown, expired or revoked token, a wrong audience), the
// client sees the same body; the cause goes to the log only. Headers: the usual `Content-Type` of the negotiated
// serializer (JSON: application/json) and the global `Cache-Control: no-cache, private`; no WWW-Authenticate (there
// is none anywhere in k8s.io/apiserver). kube adds `Connection: close` on HTTP/2, which a Worker cannot set.
//
// status.ts builds its Statuses with a private `failure` helper and has no `unauthorized` entry; until it gains
// `unauthorized: () => failure(401, 'Unauthorized', 'Unauthorized')`, the Status is written out here.
import type { Status } from '../registry/status'

/** `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}` */
export function unauthorizedStatus(): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Unauthorized',
    reason: 'Unauthorized',
    code: 401,
  }
}
