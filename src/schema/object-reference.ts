// core/v1 ObjectReference: points at another object (Events' involvedObject, Endpoints' targetRef, Bindings).
import { z } from 'zod'

export const ObjectReference = z
  .strictObject({
    kind: z.string().optional().describe('Kind of the referent'),
    namespace: z.string().optional().describe('Namespace of the referent'),
    name: z.string().optional().describe('Name of the referent'),
    uid: z.string().optional().describe('UID of the referent'),
    apiVersion: z.string().optional().describe('API version of the referent'),
    resourceVersion: z.string().optional().describe('The referent resourceVersion this reference was made for'),
    fieldPath: z.string().optional().describe('A field within the referent, e.g. spec.containers{name}'),
  })
  .describe('A reference to another object')
  // +structType=atomic (core/v1 types.go): server-side apply owns a reference whole.
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export type ObjectReference = z.infer<typeof ObjectReference>
