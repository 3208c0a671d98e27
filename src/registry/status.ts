// Status: every API error is built here, with kube-apiserver's reasons, codes, details and message wording.
import { renderFieldError, type FieldError } from './field-errors'

export interface StatusCause {
  reason?: string
  message?: string
  field?: string
}

export interface StatusDetails {
  name?: string
  group?: string
  kind?: string
  uid?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}

/** metav1.Status as it goes on the wire. */
export interface Status {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: { continue?: string; resourceVersion?: string; selfLink?: string }
  status: 'Success' | 'Failure'
  message?: string
  reason?: string
  details?: StatusDetails
  code: number
}

/** The outcome of a store operation: errors cross the Durable Object RPC boundary as values, never as throws. */
export type Result<T> = { ok: true; value: T } | { ok: false; status: Status }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = <T = never>(status: Status): Result<T> => ({ ok: false, status })

/** Thrown inside the Worker (never across RPC) to short-circuit a request with a Status; rendered by the error handler. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
  }
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }
  if (details) s.details = details
  return s
}

/** A qualified resource: `pods`, or `scales.autoscaling` for a group. */
export interface Resource {
  resource: string
  group?: string
}
const qualified = (r: Resource) => (r.group ? `${r.resource}.${r.group}` : r.resource)
const resourceDetails = (r: Resource, name?: string): StatusDetails => {
  const d: StatusDetails = {}
  if (name !== undefined && name !== '') d.name = name
  if (r.group) d.group = r.group
  d.kind = r.resource
  return d
}

export const statuses = {
  notFound: (r: Resource, name: string) =>
    failure(404, 'NotFound', `${qualified(r)} ${JSON.stringify(name)} not found`, resourceDetails(r, name)),

  /** The path names nothing we serve. */
  pathNotFound: () => failure(404, 'NotFound', 'the server could not find the requested resource', {}),

  alreadyExists: (r: Resource, name: string) =>
    failure(409, 'AlreadyExists', `${qualified(r)} ${JSON.stringify(name)} already exists`, resourceDetails(r, name)),

  generateNameConflict: (r: Resource, name: string) =>
    failure(
      409,
      'AlreadyExists',
      `${qualified(r)} ${JSON.stringify(name)} already exists, the server was not able to generate a unique name for the object`,
      { ...resourceDetails(r, name), retryAfterSeconds: 1 },
    ),

  conflict: (r: Resource, name: string, why: string) =>
    failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(r)} ${JSON.stringify(name)}: ${why}`,
      resourceDetails(r, name),
    ),

  /** The optimistic-concurrency failure clients retry on, worded exactly as kube words it. */
  modified: (r: Resource, name: string) =>
    statuses.conflict(
      r,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    ),

  invalid: (kind: string, name: string, errors: FieldError[], group?: string) => {
    const messages = [...new Set(errors.map(renderFieldError))]
    const qualifiedKind = group ? `${kind}.${group}` : kind
    const head = `${qualifiedKind} ${JSON.stringify(name)} is invalid`
    const message =
      messages.length === 0
        ? head
        : messages.length === 1
          ? `${head}: ${messages[0]}`
          : `${head}: [${messages.join(', ')}]`
    const details: StatusDetails = { name }
    if (group) details.group = group
    details.kind = kind
    details.causes = errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }))
    return failure(422, 'Invalid', message, details)
  },

  badRequest: (message: string) => failure(400, 'BadRequest', message),

  methodNotSupported: (r: Resource, action: string) =>
    failure(
      405,
      'MethodNotAllowed',
      `${action} is not supported on resources of kind ${JSON.stringify(qualified(r))}`,
      {
        ...(r.group ? { group: r.group } : {}),
        kind: r.resource,
      },
    ),

  unsupportedMediaType: (accepted: readonly string[]) =>
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),

  notAcceptable: (accepted: readonly string[]) =>
    failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`),

  tooLarge: (what: string) => failure(413, 'RequestEntityTooLarge', `Request entity too large: ${what}`),

  expired: (message: string) => failure(410, 'Expired', message),

  tooOldResourceVersion: (requested: number, oldest: number) =>
    statuses.expired(`too old resource version: ${requested} (${oldest})`),

  tooLargeResourceVersion: (requested: number, current: number) =>
    failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),

  serviceUnavailable: (message: string) => failure(503, 'ServiceUnavailable', message),

  internal: (message: string) =>
    failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),

  /** kube's one answer to a failed authentication, whatever the cause (no WWW-Authenticate, no details). */
  unauthorized: () => failure(401, 'Unauthorized', 'Unauthorized'),

  tooManyRequests: (message: string, retryAfterSeconds?: number) =>
    failure(429, 'TooManyRequests', message, retryAfterSeconds ? { retryAfterSeconds } : undefined),

  forbidden: (r: Resource, name: string, why: string) =>
    failure(
      403,
      'Forbidden',
      name ? `${qualified(r)} ${JSON.stringify(name)} is forbidden: ${why}` : `${qualified(r)} is forbidden: ${why}`,
      resourceDetails(r, name),
    ),

  /**
   * NamespaceLifecycle's refusal of a create in a namespace being deleted: admission.NewForbidden names the object
   * created (its generateName when it has no name yet), with a NamespaceTerminating cause clients look for.
   */
  namespaceTerminating: (r: Resource, name: string, namespace: string): Status => {
    const s = statuses.forbidden(
      r,
      name,
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    )
    s.details = {
      ...s.details,
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    }
    return s
  },

  success: (details?: StatusDetails, code?: number): Status => {
    const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: code ?? 200 }
    if (details) s.details = details
    return s
  },
}
