// Who a request is from, as kube's authenticators produce it (k8s.io/apiserver pkg/authentication/user): a name,
// a uid, groups and extra values. Authentication (src/auth/) makes it; authorization, reviews and audit read it.

export interface UserInfo {
  name: string
  uid?: string
  groups: string[]
  extra?: Record<string, string[]>
}

export const ANONYMOUS_USER = 'system:anonymous'
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated'
export const AUTHENTICATED_GROUP = 'system:authenticated'
export const MASTERS_GROUP = 'system:masters'
