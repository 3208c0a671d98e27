// The 403 Forbidden Status: kube's NewForbidden (apimachinery api/errors) and the authorization filter's wording of
// a refused request (apiserver endpoints/handlers/responsewriters/errors.go).
import { goQuote } from '../go-strings'
import type { Status, StatusDetails } from '../status'
import type { Attributes } from './attributes'

/**
 * NewForbidden(GroupResource, name, err): `forbidden: why` without a resource, `<res[.group]> is forbidden: why`
 * without a name, `<res[.group]> "<name>" is forbidden: why` with one. Details carry name, group and kind (the
 * resource), each only when set, so a non-resource refusal has `details: {}`.
 */
export function newForbidden(group: string, resource: string, name: string, why: string): Status {
  const qualified = group ? `${resource}.${group}` : resource
  const message =
    qualified === ''
      ? `forbidden: ${why}`
      : name === ''
        ? `${qualified} is forbidden: ${why}`
        : `${qualified} ${goQuote(name)} is forbidden: ${why}`
  const details: StatusDetails = {}
  if (name) details.name = name
  if (group) details.group = group
  if (resource) details.kind = resource
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details,
    code: 403,
  }
}

// Kube escapes these in the request part of the message so it cannot read as HTML; the reason is left as it is.
const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** forbiddenMessage: what the user may not do, on a path, in a namespace, or at the cluster scope. */
function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user.name)
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource
  const what = `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)}`
  return a.namespace ? `${what} in the namespace ${goQuote(a.namespace)}` : `${what} at the cluster scope`
}

/**
 * The Status of a request authorization refused: `reason` is the authorizer's (appended after `: ` when not empty).
 * The response also carries `X-Content-Type-Options: nosniff`, and `apiVersion` is v1 whatever the request's group.
 */
export function forbiddenStatus(attrs: Attributes, reason: string): Status {
  const message = sanitize(forbiddenMessage(attrs))
  const why = reason ? `${message}: ${reason}` : message
  // The group and resource are the request's (no subresource), empty for non-resource requests.
  return newForbidden(attrs.apiGroup, attrs.resource, attrs.name, why)
}
