// Acting as another user: kube's Impersonate-* headers (k8s.io/apiserver pkg/endpoints/filters/impersonation.go;
// digest §3) read into the authorization checks kube makes, in its order, and the user the request then runs as.
import { goQuote } from '../registry/go-strings'
import { type Status, statuses } from '../registry/status'
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from '../registry/user-info'
import { nameIsDNSSubdomain, validateNamespaceName } from '../registry/validation/names'

const USER_HEADER = 'impersonate-user'
const GROUP_HEADER = 'impersonate-group'
const UID_HEADER = 'impersonate-uid'
const EXTRA_PREFIX = 'impersonate-extra-'
const SA_PREFIX = 'system:serviceaccount:'
const AUTHENTICATION_V1 = 'authentication.k8s.io/v1'

/** One authorization check, as the attributes kube's filter builds: the requestor, verb impersonate, a resource. */
export interface ImpersonationCheck {
  verb: 'impersonate'
  apiGroup: string
  apiVersion: string
  resource: 'users' | 'serviceaccounts' | 'groups' | 'userextras' | 'uids'
  subresource: string
  namespace: string
  name: string
  resourceRequest: true
}

export type Impersonation =
  /** No Impersonate-* header: the request runs as its authenticated user. */
  | { impersonating: false }
  /** Every check must be allowed for the requestor (the first denial answers 403), then the request runs as `user`. */
  | { impersonating: true; checks: ImpersonationCheck[]; user: UserInfo }
  /** Groups, extras or a uid without Impersonate-User: answered 400 with kube's text (kube answers it as a 500). */
  | { impersonating: false; refused: Status }

/** kube's v1.ObjectReference for one requested item, kept to print the refusal as kube's %v does. */
interface Requested {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID'
  namespace: string
  name: string
  apiVersion: string
  fieldPath: string
}

/**
 * serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with exactly two parts after the prefix, a valid
 * namespace name (DNS label) and a valid ServiceAccount name (DNS subdomain); anything else is a plain user name.
 */
function splitServiceAccount(username: string): { namespace: string; name: string } | null {
  if (!username.startsWith(SA_PREFIX)) return null
  const parts = username.slice(SA_PREFIX.length).split(':')
  if (parts.length !== 2) return null
  const [namespace, name] = parts as [string, string]
  if (validateNamespaceName(namespace, false).length !== 0) return null
  if (nameIsDNSSubdomain(name, false).length !== 0) return null
  return { namespace, name }
}

/** url.PathUnescape: %XX to its byte (`+` stays); a malformed escape makes kube keep the key as it was. */
function pathUnescape(s: string): string {
  if (!/^(?:[^%]|%[0-9A-Fa-f]{2})*$/s.test(s)) return s
  const bytes: number[] = []
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16))
      i += 3
    } else {
      const cp = s.codePointAt(i)!
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp))) bytes.push(b)
      i += cp > 0xffff ? 2 : 1
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

/**
 * Header values as Go's http.Header keeps them. The runtime's Headers joins repeated lines with ", ", so repeated
 * Impersonate-Group and Impersonate-Extra-* lines are split back on ", " (kubectl and client-go send one line per
 * value; a single value that itself contains ", " cannot be told apart). Impersonate-User and -Uid take the value
 * whole (Go's Get takes the first line; a name like "Doe, Jane" is likelier than two user headers).
 */
function collect(headers: Iterable<[string, string]>) {
  let user: string | undefined
  let uid: string | undefined
  const groups: string[] = []
  const extras: [string, string[]][] = []
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase()
    if (name === USER_HEADER) user ??= value
    else if (name === UID_HEADER) uid ??= value
    else if (name === GROUP_HEADER) groups.push(...value.split(', '))
    else if (name.startsWith(EXTRA_PREFIX)) {
      // The key is the header name's suffix, lower-cased and then path-unescaped (so `%2F` gives `/`).
      const key = pathUnescape(name.slice(EXTRA_PREFIX.length))
      const entry = extras.find(([k]) => k === key)
      if (entry) entry[1].push(...value.split(', '))
      else extras.push([key, value.split(', ')])
    }
  }
  return { user, uid, groups, extras }
}

/** %v of a v1.ObjectReference: its seven fields, space-separated, in braces. */
const printRef = (r: Requested) => `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`

/** responsewriters' sanitizer over InternalError's text. */
const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * Reads the Impersonate-* headers. `requestURI` is the request target as sent (path and query), which kube quotes in
 * its refusal. The checks come in kube's order: the user (or ServiceAccount), each group, each extra value (kube
 * walks a Go map, so its extra order is random; here it is header order), then the uid.
 */
export function readImpersonation(headers: Iterable<[string, string]>, requestURI: string): Impersonation {
  const h = collect(headers)
  const requested: Requested[] = []
  const hasUser = h.user !== undefined && h.user !== ''
  if (hasUser) {
    const sa = splitServiceAccount(h.user!)
    requested.push(
      sa
        ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' }
        : { kind: 'User', namespace: '', name: h.user!, apiVersion: '', fieldPath: '' },
    )
  }
  for (const g of h.groups) requested.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' })
  for (const [key, values] of h.extras) {
    for (const v of values) {
      requested.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: AUTHENTICATION_V1, fieldPath: key })
    }
  }
  if (h.uid !== undefined && h.uid !== '') {
    requested.push({ kind: 'UID', namespace: '', name: h.uid, apiVersion: AUTHENTICATION_V1, fieldPath: '' })
  }

  if (!hasUser && requested.length > 0) {
    const err = `requested [${requested.map(printRef).join(' ')}] without impersonating a user`
    return {
      impersonating: false,
      refused: statuses.badRequest(sanitize(`Internal Server Error: ${goQuote(requestURI)}: ${err}`)),
    }
  }
  if (requested.length === 0) return { impersonating: false }
  return { impersonating: true, checks: requested.map(checkFor), user: userFrom(requested, h.groups.length > 0) }
}

function checkFor(r: Requested): ImpersonationCheck {
  const base = { verb: 'impersonate', subresource: '', namespace: '', name: r.name, resourceRequest: true } as const
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'serviceaccounts', namespace: r.namespace }
    case 'User':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'users' }
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'groups' }
    case 'UserExtra':
      return {
        ...base,
        apiGroup: 'authentication.k8s.io',
        apiVersion: 'v1',
        resource: 'userextras',
        subresource: r.fieldPath,
      }
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids' }
  }
}

/**
 * The user kube builds: the name; groups as given (or, for a ServiceAccount with no Impersonate-Group, its two
 * groups), then system:authenticated unless present or system:unauthenticated is (system:unauthenticated instead for
 * system:anonymous); extra and uid only from the headers, nothing kept from the requestor.
 */
function userFrom(requested: Requested[], groupsSpecified: boolean): UserInfo {
  let name = ''
  let groups: string[] = []
  let uid = ''
  const extra: Record<string, string[]> = {}
  for (const r of requested) {
    if (r.kind === 'ServiceAccount') {
      name = `${SA_PREFIX}${r.namespace}:${r.name}`
      if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`]
    } else if (r.kind === 'User') name = r.name
    else if (r.kind === 'Group') groups.push(r.name)
    else if (r.kind === 'UserExtra') (extra[r.fieldPath] ??= []).push(r.name)
    else uid = r.name
  }
  if (name !== ANONYMOUS_USER) {
    if (!groups.some((g) => g === AUTHENTICATED_GROUP || g === UNAUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP)
  } else if (!groups.includes(UNAUTHENTICATED_GROUP)) groups.push(UNAUTHENTICATED_GROUP)
  const user: UserInfo = { name, groups }
  if (uid !== '') user.uid = uid
  if (Object.keys(extra).length > 0) user.extra = extra
  return user
}
