// scheduling.k8s.io/v1 PriorityClass: a name pods give (spec.priorityClassName) for the priority the Priority
// admission plugin writes into them; the scheduler tries pods of higher priority first.
import { z } from 'zod'
import { ObjectMeta, int32 } from './meta'

export const PriorityClass = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: PriorityClass'),
    apiVersion: z.string().optional().describe('Schema version of this object: scheduling.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    value: int32.describe('The priority pods of this class get'),
    globalDefault: z.boolean().optional().describe('Whether pods naming no class get this one (at most one default)'),
    description: z.string().optional().describe('When this class should be used'),
    preemptionPolicy: z
      .string()
      .optional()
      .describe('Never or PreemptLowerPriority (the default)')
      .meta({ default: 'PreemptLowerPriority' }),
  })
  .describe('A priority class: a name for a pod priority value')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' }] })

export type PriorityClass = z.infer<typeof PriorityClass>
