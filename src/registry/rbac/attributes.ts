// What authorization judges about a request (k8s.io/apiserver authorizer.Attributes): who asks, and the verb and
// object (a resource request) or path (a non-resource request) that src/api/request-info.ts read from it.
import type { FieldRequirement } from '../field-selector'
import type { UserInfo } from '../user-info'

export interface Attributes {
  user: UserInfo
  /** get, list, watch, create, update, patch, delete, deletecollection, ... or the lowercased HTTP method. */
  verb: string
  /** Empty for cluster-scoped and non-resource requests. */
  namespace: string
  apiGroup: string
  apiVersion: string
  resource: string
  subresource: string
  name: string
  resourceRequest: boolean
  /** The URL path; what non-resource rules match. */
  path: string
  /**
   * A list's, watch's or deletecollection's field selector, parsed (kube's AuthorizeWithSelectors, on by default in
   * 1.33); absent when none was given or it did not parse. The Node authorizer reads it; RBAC does not.
   */
  fieldSelector?: FieldRequirement[]
}
