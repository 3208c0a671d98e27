// core/v1 Namespace.
import { z } from 'zod'
import { ObjectMeta, Time } from './meta'

export const NamespaceCondition = z
  .strictObject({
    type: z.string().describe('Type of namespace condition'),
    status: z.enum(['True', 'False', 'Unknown']).describe('Status of the condition'),
    lastTransitionTime: Time.optional().describe('When the condition last changed'),
    reason: z.string().optional().describe('Machine-readable reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of one aspect of a namespace')

export const NamespaceSpec = z
  .strictObject({
    finalizers: z
      .array(z.string())
      .optional()
      .describe('Conditions that must be cleared before the namespace is removed from storage')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .describe('The desired state of a namespace')

export const NamespaceStatus = z
  .strictObject({
    phase: z.enum(['Active', 'Terminating']).optional().describe('Whether the namespace is in use or being removed'),
    conditions: z
      .array(NamespaceCondition)
      .optional()
      .describe('Observations of the namespace state')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
  })
  .describe('The observed state of a namespace')

export const Namespace = z
  .strictObject({
    kind: z.string().optional().describe('REST resource this object represents'),
    apiVersion: z.string().optional().describe('Versioned schema of this representation'),
    metadata: ObjectMeta.optional(),
    spec: NamespaceSpec.optional(),
    status: NamespaceStatus.optional(),
  })
  .describe('A scope for names: most objects live in exactly one namespace')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Namespace' }] })

export type Namespace = z.infer<typeof Namespace>
