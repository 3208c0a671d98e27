// autoscaling/v2 HorizontalPodAutoscaler, the stored version of HPAs: what to scale, the metrics that drive it, how
// fast it may move, and what the HPA controller last observed; fields in Go order (k8s.io/api autoscaling/v2
// types.go, release-1.33). Export names are the Go type names (OpenAPI and decoding name them so, package v2).
import { z } from 'zod'
import { ObjectMeta, Time, int32, int64 } from './meta'
import { LabelSelector } from './pod-common'
import { Quantity } from './quantity'
import { atomic, keyed } from './schema-helpers'

export const CrossVersionObjectReference = z
  .strictObject({
    kind: z.string().describe('Kind of the referent, e.g. Deployment'),
    name: z.string().describe('Name of the referent'),
    apiVersion: z.string().optional().describe('API version of the referent, e.g. apps/v1'),
  })
  .describe('Enough information to identify the referred object')

export const MetricIdentifier = z
  .strictObject({
    name: z.string().describe('Name of the metric'),
    selector: LabelSelector.optional().describe('Label selector narrowing the metric for more specific scaling'),
  })
  .describe('A metric by name and, optionally, selector')

export const MetricTarget = z
  .strictObject({
    type: z.string().describe('Utilization, Value or AverageValue'),
    value: Quantity.optional().describe('Target value of the metric'),
    averageValue: Quantity.optional().describe('Target value of the metric averaged over all relevant pods'),
    averageUtilization: int32
      .optional()
      .describe('Target value of the resource metric averaged over all pods, as a percentage of their requests'),
  })
  .describe('The target value, average value or average utilization of a metric')

export const MetricValueStatus = z
  .strictObject({
    value: Quantity.optional().describe('Current value of the metric'),
    averageValue: Quantity.optional().describe('Current value of the metric averaged over all relevant pods'),
    averageUtilization: int32
      .optional()
      .describe('Current value of the resource metric averaged over all pods, as a percentage of their requests'),
  })
  .describe('The current value of a metric')

export const ObjectMetricSource = z
  .strictObject({
    describedObject: CrossVersionObjectReference.describe('The object the metric describes'),
    target: MetricTarget.describe('The target value for the metric'),
    metric: MetricIdentifier.describe('The metric'),
  })
  .describe('A metric describing a single Kubernetes object')

export const PodsMetricSource = z
  .strictObject({
    metric: MetricIdentifier.describe('The metric'),
    target: MetricTarget.describe('The target value for the metric'),
  })
  .describe('A metric describing each pod of the scale target, averaged before comparison')

export const ResourceMetricSource = z
  .strictObject({
    name: z.string().describe('Name of the resource (cpu, memory)'),
    target: MetricTarget.describe('The target value for the resource'),
  })
  .describe('A resource (from requests and limits) of each pod of the scale target, averaged over them')

export const ContainerResourceMetricSource = z
  .strictObject({
    name: z.string().describe('Name of the resource (cpu, memory)'),
    target: MetricTarget.describe('The target value for the resource'),
    container: z.string().describe('Name of the container in the pods of the scale target'),
  })
  .describe('A resource of one container of each pod of the scale target, averaged over them')

export const ExternalMetricSource = z
  .strictObject({
    metric: MetricIdentifier.describe('The metric'),
    target: MetricTarget.describe('The target value for the metric'),
  })
  .describe('A metric not associated with any Kubernetes object')

export const MetricSpec = z
  .strictObject({
    type: z.string().describe('The metric source type: ContainerResource, External, Object, Pods or Resource'),
    object: ObjectMetricSource.optional().describe('A metric describing a single Kubernetes object'),
    pods: PodsMetricSource.optional().describe('A metric describing each pod of the scale target'),
    resource: ResourceMetricSource.optional().describe('A resource metric of each pod of the scale target'),
    containerResource: ContainerResourceMetricSource.optional().describe(
      'A resource metric of one container of each pod of the scale target',
    ),
    external: ExternalMetricSource.optional().describe('A global metric not associated with any Kubernetes object'),
  })
  .describe('One metric to scale on')

export const HPAScalingPolicy = z
  .strictObject({
    type: z.string().describe('Pods or Percent'),
    value: int32.describe('Amount of change the policy permits; greater than zero'),
    periodSeconds: int32.describe('Window the policy holds over, in seconds (1 to 1800)'),
  })
  .describe('A single policy that must hold for a period')

export const HPAScalingRules = z
  .strictObject({
    stabilizationWindowSeconds: int32
      .optional()
      .describe('Seconds of past recommendations considered while scaling (0 to 3600)'),
    selectPolicy: z.string().optional().describe('Which policy to use: Max (the default), Min or Disabled'),
    policies: z.array(HPAScalingPolicy).optional().describe('Policies that may be used while scaling').meta(atomic),
    tolerance: Quantity.optional().describe(
      'Deviation of the metric ratio tolerated before scaling (alpha HPAConfigurableTolerance, off in 1.33)',
    ),
  })
  .describe('Scaling behaviour in one direction')

export const HorizontalPodAutoscalerBehavior = z
  .strictObject({
    scaleUp: HPAScalingRules.optional().describe('Scaling up; by default at most 4 pods or 100% per 15 s'),
    scaleDown: HPAScalingRules.optional().describe('Scaling down; by default 100% per 15 s after 300 s of stability'),
  })
  .describe('How fast the target scales up and down')

export const HorizontalPodAutoscalerSpec = z
  .strictObject({
    scaleTargetRef: CrossVersionObjectReference.describe('The resource whose scale subresource is autoscaled'),
    minReplicas: int32.optional().describe('Lower limit of the replica count; 1 by default'),
    maxReplicas: int32.describe('Upper limit of the replica count; not less than minReplicas'),
    metrics: z
      .array(MetricSpec)
      .optional()
      .describe('Metrics the desired replica count is computed from (the largest wins); 80% CPU by default')
      .meta(atomic),
    behavior: HorizontalPodAutoscalerBehavior.optional().describe('Scaling behaviour up and down'),
  })
  .describe('The desired behaviour of an autoscaler')

export const ObjectMetricStatus = z
  .strictObject({
    metric: MetricIdentifier.describe('The metric'),
    current: MetricValueStatus.describe('Its current value'),
    describedObject: CrossVersionObjectReference.describe('The object the metric describes'),
  })
  .describe('The current value of a metric describing a single Kubernetes object')

export const PodsMetricStatus = z
  .strictObject({
    metric: MetricIdentifier.describe('The metric'),
    current: MetricValueStatus.describe('Its current value'),
  })
  .describe('The current value of a metric describing each pod')

export const ResourceMetricStatus = z
  .strictObject({
    name: z.string().describe('Name of the resource'),
    current: MetricValueStatus.describe('Its current value'),
  })
  .describe('The current value of a resource metric')

export const ContainerResourceMetricStatus = z
  .strictObject({
    name: z.string().describe('Name of the resource'),
    current: MetricValueStatus.describe('Its current value'),
    container: z.string().describe('Name of the container'),
  })
  .describe('The current value of a container resource metric')

export const ExternalMetricStatus = z
  .strictObject({
    metric: MetricIdentifier.describe('The metric'),
    current: MetricValueStatus.describe('Its current value'),
  })
  .describe('The current value of a global metric')

export const MetricStatus = z
  .strictObject({
    type: z.string().describe('The metric source type'),
    object: ObjectMetricStatus.optional().describe('An object metric'),
    pods: PodsMetricStatus.optional().describe('A pods metric'),
    resource: ResourceMetricStatus.optional().describe('A resource metric'),
    containerResource: ContainerResourceMetricStatus.optional().describe('A container resource metric'),
    external: ExternalMetricStatus.optional().describe('An external metric'),
  })
  .describe('The last read state of one metric')

export const HorizontalPodAutoscalerCondition = z
  .strictObject({
    type: z.string().describe('AbleToScale, ScalingActive or ScalingLimited'),
    status: z.string().describe('True, False or Unknown'),
    lastTransitionTime: Time.nullable().optional().describe('When the condition last changed status'),
    reason: z.string().optional().describe('Reason for the last transition'),
    message: z.string().optional().describe('Human-readable detail of the last transition'),
  })
  .describe('The state of an autoscaler at a point in time')

export const HorizontalPodAutoscalerStatus = z
  .strictObject({
    observedGeneration: int64.optional().describe('The most recent generation observed by this autoscaler'),
    lastScaleTime: Time.optional().describe('When the autoscaler last changed the number of pods'),
    currentReplicas: int32.optional().describe('Current number of replicas of pods managed by this autoscaler'),
    desiredReplicas: int32.describe('Desired number of replicas, as last calculated by the autoscaler'),
    currentMetrics: z
      .array(MetricStatus)
      .nullable()
      .optional()
      .describe('Last read state of the metrics used by this autoscaler')
      .meta(atomic),
    conditions: z
      .array(HorizontalPodAutoscalerCondition)
      .optional()
      .describe('Conditions needed for this autoscaler to scale its target')
      .meta(keyed(['type'])),
  })
  .describe('The current status of an autoscaler')

export const HorizontalPodAutoscaler = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: HorizontalPodAutoscaler'),
    apiVersion: z.string().optional().describe('Schema version of this object: autoscaling/v2'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: HorizontalPodAutoscalerSpec.optional().describe('The behaviour of the autoscaler'),
    status: HorizontalPodAutoscalerStatus.optional().describe('Current information about the autoscaler'),
  })
  .describe('Automatically manages the replica count of a resource that serves /scale, from the metrics given')
  .meta({
    'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }],
  })
export type HorizontalPodAutoscaler = z.infer<typeof HorizontalPodAutoscaler>
export type HorizontalPodAutoscalerStatus = z.infer<typeof HorizontalPodAutoscalerStatus>
export type MetricSpec = z.infer<typeof MetricSpec>
export type MetricStatus = z.infer<typeof MetricStatus>
export type HorizontalPodAutoscalerCondition = z.infer<typeof HorizontalPodAutoscalerCondition>
