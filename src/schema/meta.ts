// ObjectMeta and the other meta.k8s.io/v1 shapes every kind embeds. Objects are strict: unknown fields surface as
// `unrecognized_keys` issues, which the decoder turns into fieldValidation warnings or errors. Every schema declares
// its fields in the Go type's order (TypeMeta's kind, apiVersion first): responses are written in that order.
import { z } from 'zod'

/** RFC 3339 timestamp as kube writes it (second precision, UTC). */
export const Time = z.string().describe('RFC 3339 date and time in UTC')
/** RFC 3339 timestamp with microseconds, used by Events and managedFields. */
export const MicroTime = z.string().describe('RFC 3339 date and time with microseconds')

export const int32 = z.number().int().min(-2147483648).max(2147483647)
export const int64 = z.number().int()
export const IntOrString = z.union([z.number().int(), z.string()]).describe('an integer or a string')
export const StringMap = z.record(z.string(), z.string())

export const OwnerReference = z
  .strictObject({
    apiVersion: z.string().describe('API version of the referent'),
    kind: z.string().describe('Kind of the referent'),
    name: z.string().describe('Name of the referent'),
    uid: z.string().describe('UID of the referent'),
    controller: z.boolean().optional().describe('Whether this reference points to the managing controller'),
    blockOwnerDeletion: z
      .boolean()
      .optional()
      .describe('Whether foreground deletion of the owner waits for this object to be removed'),
  })
  .describe('Points at an object that owns this one; owned objects are garbage-collected with their owner')
  // +structType=atomic (meta/v1 types.go): server-side apply owns a reference whole.
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export const ManagedFieldsEntry = z
  .strictObject({
    manager: z.string().optional().describe('Name of the workflow managing these fields'),
    operation: z.string().optional().describe('Apply or Update: the kind of operation that recorded this entry'),
    apiVersion: z.string().optional().describe('Version of the resource the field set applies to'),
    time: Time.optional().describe('When the entry was last changed'),
    fieldsType: z.string().optional().describe('Format of the field set; only FieldsV1 exists'),
    fieldsV1: z.record(z.string(), z.unknown()).optional().describe('The set of fields this manager owns'),
    subresource: z.string().optional().describe('The subresource that recorded this entry, if any'),
  })
  .describe('Fields owned by one manager and operation')

export const ObjectMeta = z
  .strictObject({
    name: z.string().optional().describe('Unique name within the namespace (or the cluster for cluster-scoped kinds)'),
    generateName: z
      .string()
      .optional()
      .describe('Prefix from which the server generates a unique name when name is empty'),
    namespace: z.string().optional().describe('Namespace the object lives in'),
    selfLink: z.string().optional().describe('Deprecated and unset'),
    uid: z.string().optional().describe('Unique identifier in time and space, set by the server'),
    resourceVersion: z
      .string()
      .optional()
      .describe('Opaque version of this object, used for optimistic concurrency and watches'),
    generation: int64.optional().describe('Sequence number of the desired state'),
    creationTimestamp: Time.optional().describe('When the object was created, set by the server'),
    deletionTimestamp: Time.optional().describe('When the object will be removed; set by a graceful delete'),
    deletionGracePeriodSeconds: int64.optional().describe('Seconds allowed for graceful termination'),
    labels: StringMap.optional().describe('Key/value pairs used to select and organise objects'),
    annotations: StringMap.optional().describe('Arbitrary non-identifying metadata'),
    ownerReferences: z
      .array(OwnerReference)
      .optional()
      .describe('Objects this one depends on')
      .meta({
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['uid'],
      }),
    finalizers: z
      .array(z.string())
      .optional()
      .describe('Conditions that must be cleared before the object is removed')
      .meta({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' }),
    managedFields: z
      .array(ManagedFieldsEntry)
      .optional()
      .describe('Which manager owns which fields')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .describe('Standard object metadata')

export type ObjectMeta = z.infer<typeof ObjectMeta>

/** The envelope every stored object shares. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
  [k: string]: unknown
}

export const ListMeta = z.strictObject({
  selfLink: z.string().optional(),
  resourceVersion: z.string().optional(),
  continue: z.string().optional(),
  remainingItemCount: int64.optional(),
})

export const Preconditions = z.strictObject({
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
})

export const DeleteOptions = z.strictObject({
  kind: z.string().optional(),
  apiVersion: z.string().optional(),
  gracePeriodSeconds: int64.optional(),
  preconditions: Preconditions.optional(),
  orphanDependents: z.boolean().optional(),
  propagationPolicy: z.enum(['Orphan', 'Background', 'Foreground']).optional(),
  dryRun: z.array(z.string()).optional(),
  ignoreStoreReadErrorWithClusterBreakingPotential: z.boolean().optional(),
})
export type DeleteOptions = z.infer<typeof DeleteOptions>

/** metav1.Condition, used by Service status and others. */
export const Condition = z.strictObject({
  type: z.string().describe('Type of condition in CamelCase'),
  status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
  observedGeneration: int64.optional().describe('The generation the condition was set for'),
  lastTransitionTime: Time.describe('When the condition last changed status'),
  reason: z.string().describe('Machine-readable CamelCase reason for the last transition'),
  message: z.string().describe('Human-readable message about the transition'),
})
