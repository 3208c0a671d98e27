// zod shapes of the meta.k8s.io/v1 types that only operations use (Status, WatchEvent, the PATCH body) and of each
// kind's List, so the OpenAPI document describes them from zod like every kind. Decoding never uses these.
import { z } from 'zod'
import { int32, ListMeta } from '../../schema/meta'
import type { ResourceDef } from '../../registry/resource'

export const StatusCause = z
  .strictObject({
    reason: z.string().optional().describe('Machine-readable description of the cause, such as FieldValueInvalid'),
    message: z.string().optional().describe('Human-readable description of the cause'),
    field: z.string().optional().describe('Path of the field that caused the error, such as spec.containers[0].name'),
  })
  .describe('One reason an operation failed')

export const StatusDetails = z
  .strictObject({
    name: z.string().optional().describe('Name of the object the status is about'),
    group: z.string().optional().describe('API group of that object'),
    kind: z.string().optional().describe('Resource or kind of that object'),
    uid: z.string().optional().describe('UID of that object'),
    causes: z
      .array(StatusCause)
      .optional()
      .describe('Every cause of the error')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    retryAfterSeconds: int32.optional().describe('Seconds a client should wait before retrying'),
  })
  .describe('Structured detail of a Status')

export const Status = z
  .strictObject({
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    kind: z.string().optional().describe('Kind of this object: Status'),
    metadata: ListMeta.optional().describe('Standard list metadata'),
    status: z.string().optional().describe('Success or Failure'),
    message: z.string().optional().describe('Human-readable description of the outcome'),
    reason: z.string().optional().describe('Machine-readable CamelCase reason, such as NotFound or AlreadyExists'),
    details: StatusDetails.optional().describe('Structured detail; its shape depends on the reason'),
    code: int32.optional().describe('HTTP status code of the outcome'),
  })
  .describe('The outcome of an operation that returns no object, and every error')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }] })

export const WatchEvent = z
  .strictObject({
    type: z.string().describe('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR'),
    object: z
      .record(z.string(), z.unknown())
      .describe('The object after the change; the last state for DELETED, a Status for ERROR'),
  })
  .describe('One change in a watch stream')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', kind: 'WatchEvent', version: 'v1' }] })

// Any JSON object: what it means depends on the Content-Type of the PATCH request.
export const Patch = z
  .strictObject({})
  .describe('The body of a PATCH request, interpreted according to its Content-Type')

/** The List kind of a table row, built from the row's own item schema. */
export function listSchemaOf(def: ResourceDef) {
  return z
    .strictObject({
      apiVersion: z
        .string()
        .optional()
        .describe(`Schema version of this list: ${def.group ? `${def.group}/` : ''}${def.version}`),
      kind: z.string().optional().describe(`Kind of this list: ${def.listKind}`),
      metadata: ListMeta.optional().describe('Standard list metadata: resourceVersion and continue token'),
      items: z.array(def.schema).describe(`The ${def.plural}`),
    })
    .describe(`A list of ${def.plural}`)
    .meta({ 'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.listKind, version: def.version }] })
}
