// What kube's create handler does to a review's body before its REST Create runs (k8s.io/apiserver
// handlers/create.go): query options, the body decoded as every create body is (JSON, YAML or protobuf, kube's
// decoding errors, fieldValidation), ObjectMeta's system fields wiped, the namespace checked against the path's, and
// the requester's managedFields entry; and how a review answers: 201 with the object, or kube's 422 for reviews.
import type { Context } from 'hono'
import type { z } from 'zod'
import { decodeObject, handlingPrefix } from '../../registry/decode'
import type { FieldError } from '../../registry/field-errors'
import { type Status, StatusError, statuses } from '../../registry/status'
import { readBody } from '../body'
import { createOptions } from '../write-options'
import { addWarnings, json } from '../respond'
import { createdFields, field, goObjectMeta, isObject, type Json, type ManagedEntry } from './go-values'

type Ctx = Context<{ Bindings: Env }>

/** The kind a review endpoint decodes and answers. */
export interface ReviewKind {
  group: string
  kind: string
  schema: z.ZodType
  /** The subresource the endpoint is (TokenRequest is serviceaccounts/token); recorded in managedFields. */
  subresource?: string
}

interface ReviewRequest {
  kind: ReviewKind
  /** The decoded body. */
  object: Json
  /** Its metadata after the create handler: system fields wiped, namespace the path's (or none). */
  meta: Json
  /** Who the write is recorded under (fieldManager, else the User-Agent's name). */
  manager: string
  now: Date
}

const apiVersionOf = (k: ReviewKind) => `${k.group}/v1`

/** Reads a review's body for a request under `namespace` ('' for cluster-scoped endpoints). */
export async function readReview(c: Ctx, kind: ReviewKind, namespace: string): Promise<ReviewRequest> {
  const body = await readBody(c, handlingPrefix(kind.kind, 'v1'))
  // CreateOptions are checked as for any create; a review stores nothing, so a dry run changes nothing.
  const { fieldManager: manager, fieldValidation: validation } = createOptions(c)
  const decoded = decodeObject<Json>(
    { schema: kind.schema, group: kind.group, version: 'v1', kind: kind.kind },
    body,
    validation,
  )
  addWarnings(c, decoded.warnings)
  const object = decoded.value
  const meta: Json = isObject(object.metadata) ? { ...object.metadata } : {}
  // rest.EnsureObjectNamespaceMatchesRequestNamespace: a cluster-scoped endpoint clears it, a namespaced one fills it.
  const own = field(meta, 'namespace')
  if (namespace === '') delete meta.namespace
  else if (own === '') meta.namespace = namespace
  else if (own !== namespace) {
    throw new StatusError(
      statuses.badRequest('the namespace of the provided object does not match the namespace sent on the request'),
    )
  }
  return { kind, object, meta, manager, now: new Date() }
}

/** The managedFields entry the field manager adds for the request (`body` is the object without its metadata). */
export function managedFieldsOf(r: ReviewRequest, body: Json, zero: Json): ManagedEntry[] | undefined {
  return createdFields(body, r.meta, zero, {
    manager: r.manager,
    apiVersion: apiVersionOf(r.kind),
    time: r.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    subresource: r.kind.subresource,
  })
}

/** 201 with the review: TypeMeta, the request's metadata as kube echoes it (plus `meta`), then `body`. */
export function created(
  c: Ctx,
  r: ReviewRequest,
  managed: ManagedEntry[] | undefined,
  body: Json,
  meta: Json = {},
): Response {
  const metadata = { ...goObjectMeta(r.meta), ...meta, ...(managed ? { managedFields: managed } : {}) }
  return json(c, { kind: r.kind.kind, apiVersion: apiVersionOf(r.kind), metadata, ...body }, 201)
}

/**
 * kube's 422 for a review: NewInvalid(<group>.Kind(obj.Kind), name, errs). The internal object's Kind is empty (the
 * decoder's conversion to the internal version does not carry TypeMeta), so the message reads
 * `.authorization.k8s.io "" is invalid: ...` and details have neither kind nor name (both omitempty).
 */
export function invalid(group: string, errors: FieldError[], kind = '', name = ''): StatusError {
  const status: Status = statuses.invalid(kind, name, errors, group)
  const details = { ...status.details }
  if (!details.name) delete details.name
  if (!details.kind) delete details.kind
  return new StatusError({ ...status, details })
}
