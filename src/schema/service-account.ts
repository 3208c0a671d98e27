// core/v1 ServiceAccount: an identity for processes in pods, and what TokenRequest issues tokens for.
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { ObjectReference } from './object-reference'
import { LocalObjectReference } from './pod-common'

export const ServiceAccount = z
  .strictObject({
    kind: z.string().optional().describe('REST resource this object represents'),
    apiVersion: z.string().optional().describe('Versioned schema of this representation'),
    metadata: ObjectMeta.optional(),
    secrets: z
      .array(ObjectReference)
      .optional()
      .describe('Secrets in the same namespace that pods running as this account may use')
      .meta({
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      }),
    imagePullSecrets: z
      .array(LocalObjectReference)
      .optional()
      .describe('Secrets for pulling images of pods that use this account')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
    automountServiceAccountToken: z
      .boolean()
      .optional()
      .describe('Whether pods running as this account get an API token mounted'),
  })
  .describe('An identity for processes that run in a pod')

export type ServiceAccount = z.infer<typeof ServiceAccount>
