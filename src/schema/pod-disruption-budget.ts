// policy/v1 PodDisruptionBudget: how many of a set of pods must stay up through voluntary disruptions (evictions),
// and what the disruption controller observes of them; fields in Go order (k8s.io/api policy/v1 types.go,
// release-1.33).
import { z } from 'zod'
import { Condition, IntOrString, ObjectMeta, Time, int32, int64 } from './meta'
import { LabelSelector } from './pod-common'

export const PodDisruptionBudgetSpec = z
  .strictObject({
    minAvailable: IntOrString.optional().describe(
      'Pods that must still be available after an eviction: a number or a percentage of the expected pods',
    ),
    selector: LabelSelector.optional()
      .describe('Label query over the pods the budget guards; {} selects every pod of the namespace, null none')
      .meta({ 'x-kubernetes-patch-strategy': 'replace' }),
    maxUnavailable: IntOrString.optional().describe(
      'Pods that may be unavailable after an eviction: a number or a percentage; exclusive with minAvailable',
    ),
    unhealthyPodEvictionPolicy: z
      .string()
      .optional()
      .describe('When running but not ready pods may be evicted: IfHealthyBudget (the default) or AlwaysAllow'),
  })
  .describe('The pods a budget guards and how many of them must stay available')

export const PodDisruptionBudgetStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('The generation the disruption controller last acted on'),
    disruptedPods: z
      .record(z.string(), Time)
      .optional()
      .describe('Pods an eviction was allowed for and that the controller has not yet seen go, with when'),
    disruptionsAllowed: int32.describe('Pod disruptions currently allowed'),
    currentHealthy: int32.describe('Healthy pods now'),
    desiredHealthy: int32.describe('Healthy pods the budget requires'),
    expectedPods: int32.describe('Pods the budget counts (from their controllers when it speaks in percentages)'),
    conditions: z
      .array(Condition)
      .optional()
      .describe('Latest observations: DisruptionAllowed')
      .meta({
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
  })
  .describe('What the disruption controller last observed of the guarded pods')
export type PodDisruptionBudgetStatus = z.infer<typeof PodDisruptionBudgetStatus>

export const PodDisruptionBudget = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: PodDisruptionBudget'),
    apiVersion: z.string().optional().describe('Schema version of this object: policy/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: PodDisruptionBudgetSpec.optional().describe('Desired behaviour of the budget'),
    status: PodDisruptionBudgetStatus.optional().describe('Observed state, written by the disruption controller'),
  })
  .describe('The most disruption a collection of pods may suffer at once')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' }] })
export type PodDisruptionBudget = z.infer<typeof PodDisruptionBudget>
