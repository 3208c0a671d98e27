// autoscaling/v1 HorizontalPodAutoscaler: the first HPA version, a CPU-utilization target only, served by converting
// to and from the stored autoscaling/v2 object (src/registry/autoscaling/hpa-conversion.ts); fields in Go order
// (k8s.io/api autoscaling/v1 types.go, release-1.33). Export names are the Go type names (package v1).
import { z } from 'zod'
import { ObjectMeta, Time, int32, int64 } from './meta'

export const CrossVersionObjectReference = z
  .strictObject({
    kind: z.string().describe('Kind of the referent, e.g. Deployment'),
    name: z.string().describe('Name of the referent'),
    apiVersion: z.string().optional().describe('API version of the referent, e.g. apps/v1'),
  })
  .describe('Enough information to identify the referred object')
  // +structType=atomic in autoscaling/v1 only (v2's is granular).
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export const HorizontalPodAutoscalerSpec = z
  .strictObject({
    scaleTargetRef: CrossVersionObjectReference.describe('The resource whose scale subresource is autoscaled'),
    minReplicas: int32.optional().describe('Lower limit of the replica count; 1 by default'),
    maxReplicas: int32.describe('Upper limit of the replica count; not less than minReplicas'),
    targetCPUUtilizationPercentage: int32
      .optional()
      .describe('Target average CPU utilization over all the pods, as a percentage of requested CPU'),
  })
  .describe('The desired behaviour of an autoscaler')

export const HorizontalPodAutoscalerStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('The most recent generation observed by this autoscaler'),
    lastScaleTime: Time.optional().describe('When the autoscaler last changed the number of pods'),
    currentReplicas: int32.describe('Current number of replicas of pods managed by this autoscaler'),
    desiredReplicas: int32.describe('Desired number of replicas, as last calculated by the autoscaler'),
    currentCPUUtilizationPercentage: int32
      .optional()
      .describe('Current average CPU utilization over all the pods, as a percentage of requested CPU'),
  })
  .describe('The current status of an autoscaler')

export const HorizontalPodAutoscaler = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: HorizontalPodAutoscaler'),
    apiVersion: z.string().optional().describe('Schema version of this object: autoscaling/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: HorizontalPodAutoscalerSpec.optional().describe('The behaviour of the autoscaler'),
    status: HorizontalPodAutoscalerStatus.optional().describe('Current information about the autoscaler'),
  })
  .describe('Configuration of a horizontal pod autoscaler')
  .meta({
    'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' }],
  })
