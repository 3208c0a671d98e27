// One audit.k8s.io/v1 Event as kube's log backend writes it: one JSON line, fields in Go struct order, empty optional
// fields left out, MicroTime timestamps (RFC 3339 with microseconds, UTC), <, > and & escaped as Go escapes them.
import type { UserInfo } from '../registry/user-info'
import type { Level, Stage } from './policy'

/** audit.k8s.io/v1 ObjectReference. */
interface ObjectRef {
  resource?: string
  namespace?: string
  name?: string
  uid?: string
  apiGroup?: string
  apiVersion?: string
  resourceVersion?: string
  subresource?: string
}

export interface AuditEventInput {
  level: Exclude<Level, 'None'>
  auditID: string
  stage: Stage
  requestURI: string
  verb: string
  /** The authenticated user; absent when authentication failed (kube writes an empty user then). */
  user?: UserInfo
  impersonatedUser?: UserInfo
  sourceIPs: string[]
  userAgent?: string
  objectRef?: ObjectRef
  /** The answer's Status (an error's), or just its code. */
  responseStatus?: { status?: string; message?: string; reason?: string; details?: unknown; code: number }
  requestObject?: unknown
  responseObject?: unknown
  /** ms since the epoch. */
  requestReceivedTimestamp: number
  stageTimestamp: number
  annotations?: Record<string, string>
}

/**
 * metav1.MicroTime: `2006-01-02T15:04:05.000000Z` (we know milliseconds; the last three digits are zeros). toISOString
 * always ends in three digits of milliseconds and `Z`; two per request are written, so no regex.
 */
export const microTime = (ms: number) => `${new Date(ms).toISOString().slice(0, -1)}000Z`

/** authentication/v1 UserInfo: username, uid, groups, extra, each left out when empty. */
function userJson(u: UserInfo | undefined): Record<string, unknown> {
  if (!u) return {}
  const out: Record<string, unknown> = {}
  if (u.name) out.username = u.name
  if (u.uid) out.uid = u.uid
  if (u.groups.length > 0) out.groups = u.groups
  if (u.extra && Object.keys(u.extra).length > 0)
    out.extra = Object.fromEntries(
      Object.keys(u.extra)
        .sort()
        .map((k) => [k, u.extra![k]]),
    )
  return out
}

function statusJson(s: NonNullable<AuditEventInput['responseStatus']>): Record<string, unknown> {
  const out: Record<string, unknown> = { metadata: {} }
  if (s.status) out.status = s.status
  if (s.message) out.message = s.message
  if (s.reason) out.reason = s.reason
  if (s.details) out.details = s.details
  out.code = s.code
  return out
}

function refJson(r: ObjectRef): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of [
    'resource',
    'namespace',
    'name',
    'uid',
    'apiGroup',
    'apiVersion',
    'resourceVersion',
    'subresource',
  ] as const)
    if (r[k]) out[k] = r[k]
  return out
}

/** Go's encoding/json escapes these even in strings that need no escaping in JSON. */
const goEscape = (s: string) =>
  s.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** The event as one line of JSON (no trailing newline: console.log adds one). */
export function auditEventLine(e: AuditEventInput): string {
  const ev: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: e.level,
    auditID: e.auditID,
    stage: e.stage,
    requestURI: e.requestURI,
    verb: e.verb,
    user: userJson(e.user),
  }
  if (e.impersonatedUser) ev.impersonatedUser = userJson(e.impersonatedUser)
  if (e.sourceIPs.length > 0) ev.sourceIPs = e.sourceIPs
  if (e.userAgent) ev.userAgent = e.userAgent
  if (e.objectRef) ev.objectRef = refJson(e.objectRef)
  if (e.responseStatus) ev.responseStatus = statusJson(e.responseStatus)
  if (e.requestObject !== undefined) ev.requestObject = e.requestObject
  if (e.responseObject !== undefined) ev.responseObject = e.responseObject
  ev.requestReceivedTimestamp = microTime(e.requestReceivedTimestamp)
  ev.stageTimestamp = microTime(e.stageTimestamp)
  if (e.annotations && Object.keys(e.annotations).length > 0)
    ev.annotations = Object.fromEntries(
      Object.keys(e.annotations)
        .sort()
        .map((k) => [k, e.annotations![k]]),
    )
  return goEscape(JSON.stringify(ev))
}
