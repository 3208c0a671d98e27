// What is learned about a request as it passes the filters, for the audit log and the request metrics: created by
// the outermost middleware (src/api/observe.ts), filled by the access decision (src/identity/access.ts) as it goes,
// so a refused request is recorded with whatever was known when it was refused, and nothing is computed twice.
import type { Context } from 'hono'
import type { AuditConfig } from '../audit/policy'
import type { Attributes } from '../registry/rbac/attributes'
import type { UserInfo } from '../registry/user-info'

export interface Observation {
  /** kube's audit ID: the client's Audit-ID header when it sent a usable one, else a new UUID. */
  auditID: string
  /** When the request arrived (ms since the epoch). */
  arrivedAt: number
  /**
   * The path and query as the client sent them (the audit event's `requestURI`): a handler may replace the request
   * it serves (a deprecated /watch/ path becomes a list with watch), but kube logs the URI that arrived.
   */
  requestURI: string
  /** The user the credentials name (the audit event's `user`); absent when authentication failed. */
  authenticated?: UserInfo
  /** The user impersonated, when the request impersonates (the audit event's `impersonatedUser`). */
  impersonated?: UserInfo
  /** The authorization attributes, once read (as the impersonated user, when impersonating). */
  attrs?: Attributes
  /** The authorization decision, once made. */
  decision?: { allowed: boolean; reason: string }
  /** The flow whose rate limit refused the request (user, anonymous, unauthenticated). */
  rateLimited?: string
  /** The audit level and stages for this request, once its attributes are known. */
  audit?: AuditConfig
  /** The request body's text, captured when the audit level records it. */
  requestBody?: Promise<string | null>
  /** A create's or update's body as decoded and defaulted (src/api/audit-request-object.ts), at Request level. */
  requestObject?: unknown
  /** The handler decodes the body itself: requestObject is all the event records of it (none if decoding failed). */
  requestDecodedHere?: boolean
  /** What that decoded object says of itself, for the objectRef fields the request left empty (LogRequestObject). */
  requestObjectRef?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string }
}

declare module 'hono' {
  interface ContextVariableMap {
    observation: Observation
  }
}

/** The request's observation, when the observing middleware runs (it always does in the app; tests may skip it). */
export function observationOf(c: Context): Observation | undefined {
  return c.get('observation') as Observation | undefined
}
