// What authorization judges a request by (kube's authorizer attributes), read from the path as the router resolves
// it: the one RequestInfo reading (src/api/request-info.ts) for every path, with the v1beta1 API's own shape (its
// namespace rides in the query, its resource names are camelCase) mapped to the v1 resources it serves.
import { requestInfo } from '../api/request-info'
import { parseFieldSelector } from '../registry/field-selector'
import type { Attributes } from '../registry/rbac/attributes'
import type { UserInfo } from '../registry/user-info'
import { BETA_KINDS } from '../registry/v1beta1/kinds'

const BETA_RESOURCES = new Map(BETA_KINDS.map((k) => [k.path, k.plural]))
const SELECTOR_VERBS = new Set(['list', 'watch', 'deletecollection'])

/**
 * The attributes of a request by `user`. `pathname` is the URL's path after URL parsing (dot segments, `%2e%2e`
 * included, already resolved: the same path the router matches). A path RequestInfo cannot read (undecodable) is a
 * non-resource request for that path, which only a `*` non-resource rule allows.
 */
export function requestAttributes(
  user: UserInfo,
  method: string,
  pathname: string,
  query: (name: string) => string | undefined,
): Attributes {
  const info = requestInfo(method, pathname, query)
  if (!info?.isResourceRequest) {
    return {
      user,
      verb: method.toLowerCase(),
      namespace: '',
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      name: '',
      resourceRequest: false,
      path: info?.path ?? pathname,
    }
  }
  const attrs: Attributes = {
    user,
    verb: info.verb,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    resourceRequest: true,
    path: info.path,
  }
  // kube reads selectors for these verbs only, and not from the deprecated /watch/ paths (requestinfo.go).
  const selector = query('fieldSelector')
  if (selector && !info.verbViaPathPrefix && SELECTOR_VERBS.has(info.verb)) {
    const parsed = parseFieldSelector(selector)
    if (parsed.ok && parsed.selector.requirements.length > 0) attrs.fieldSelector = parsed.selector.requirements
  }
  if (info.apiPrefix === 'api' && info.apiVersion === 'v1beta1') {
    // /api/v1beta1/<kind>[/<id>]?namespace=<ns>: the routes serve `default` when the query names none.
    const plural = BETA_RESOURCES.get(info.resource)
    if (plural && info.namespace === '') {
      attrs.resource = plural
      attrs.namespace = query('namespace') || 'default'
    }
  }
  return attrs
}
