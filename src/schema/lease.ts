// coordination.k8s.io/v1 Lease: a lock with a holder and a term, what client-go and controller-runtime leader
// election and node heartbeats write.
import { z } from 'zod'
import { MicroTime, ObjectMeta, int32 } from './meta'

export const LeaseSpec = z
  .strictObject({
    holderIdentity: z.string().optional().describe('Identity of the current holder of the lease'),
    leaseDurationSeconds: int32
      .optional()
      .describe('How long candidates wait after the last renewal before taking the lease over'),
    acquireTime: MicroTime.optional().describe('When the current holder acquired the lease'),
    renewTime: MicroTime.optional().describe('When the current holder last renewed the lease'),
    leaseTransitions: int32.optional().describe('How many times the lease changed holders'),
    strategy: z
      .string()
      .optional()
      .describe('Coordinated leader election strategy for picking the preferred holder (OldestEmulationVersion)'),
    preferredHolder: z
      .string()
      .optional()
      .describe('The holder coordinated leader election would like to hold the lease; requires strategy'),
  })
  .describe('The desired state of a lease')

export const Lease = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Lease'),
    apiVersion: z.string().optional().describe('Schema version of this object: coordination.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: LeaseSpec.optional().describe('Specification of the lease'),
  })
  .describe('A lease: leader election locks and node heartbeats')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }] })

export type Lease = z.infer<typeof Lease>
