// Protobuf message descriptors of autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscaler (`kubectl autoscale`
// sends them as application/vnd.kubernetes.protobuf: kubectl 1.33 tries v2 first, 1.27 sends v1), per k8s.io/api
// autoscaling/v2 and v1 generated.proto (release-1.33), in ./messages.ts's notation; that file spreads these tables
// into its own. Messages whose name both versions use with another shape are prefixed (HPAv1..., HPAv2...). The
// status's currentMetrics are not described: a create resets status, and no client sends them.

export const AUTOSCALING_MESSAGES: Record<string, Record<number, string>> = {
  CrossVersionObjectReference: { 1: 'kind:string!', 2: 'name:string!', 3: 'apiVersion:string' },
  HPAv1: { 1: 'metadata:ObjectMeta', 2: 'spec:HPAv1Spec', 3: 'status:HPAv1Status' },
  HPAv1Spec: {
    1: 'scaleTargetRef:CrossVersionObjectReference',
    2: 'minReplicas:int32!',
    3: 'maxReplicas:int32!',
    4: 'targetCPUUtilizationPercentage:int32!',
  },
  HPAv1Status: {
    1: 'observedGeneration:int64!',
    2: 'lastScaleTime:Time',
    3: 'currentReplicas:int32!',
    4: 'desiredReplicas:int32!',
    5: 'currentCPUUtilizationPercentage:int32!',
  },
  HPAv2: { 1: 'metadata:ObjectMeta', 2: 'spec:HPAv2Spec', 3: 'status:HPAv2Status' },
  HPAv2Spec: {
    1: 'scaleTargetRef:CrossVersionObjectReference',
    2: 'minReplicas:int32!',
    3: 'maxReplicas:int32!',
    4: 'metrics:[]HPAv2MetricSpec',
    5: 'behavior:HorizontalPodAutoscalerBehavior',
  },
  HPAv2MetricSpec: {
    1: 'type:string!',
    2: 'object:HPAv2ObjectMetricSource',
    3: 'pods:HPAv2PodsMetricSource',
    4: 'resource:HPAv2ResourceMetricSource',
    7: 'containerResource:HPAv2ContainerResourceMetricSource',
    5: 'external:HPAv2ExternalMetricSource',
  },
  HPAv2ObjectMetricSource: {
    1: 'describedObject:CrossVersionObjectReference',
    2: 'target:MetricTarget',
    3: 'metric:MetricIdentifier',
  },
  HPAv2PodsMetricSource: { 1: 'metric:MetricIdentifier', 2: 'target:MetricTarget' },
  HPAv2ResourceMetricSource: { 1: 'name:string!', 2: 'target:MetricTarget' },
  HPAv2ContainerResourceMetricSource: { 1: 'name:string!', 2: 'target:MetricTarget', 3: 'container:string!' },
  HPAv2ExternalMetricSource: { 1: 'metric:MetricIdentifier', 2: 'target:MetricTarget' },
  MetricIdentifier: { 1: 'name:string!', 2: 'selector:LabelSelector' },
  MetricTarget: {
    1: 'type:string!',
    2: 'value:Quantity',
    3: 'averageValue:Quantity',
    4: 'averageUtilization:int32!',
  },
  HorizontalPodAutoscalerBehavior: { 1: 'scaleUp:HPAScalingRules', 2: 'scaleDown:HPAScalingRules' },
  HPAScalingRules: {
    3: 'stabilizationWindowSeconds:int32!',
    1: 'selectPolicy:string!',
    2: 'policies:[]HPAScalingPolicy',
    4: 'tolerance:Quantity',
  },
  HPAScalingPolicy: { 1: 'type:string!', 2: 'value:int32!', 3: 'periodSeconds:int32!' },
  HPAv2Status: {
    1: 'observedGeneration:int64!',
    2: 'lastScaleTime:Time',
    3: 'currentReplicas:int32',
    4: 'desiredReplicas:int32!',
    6: 'conditions:[]HorizontalPodAutoscalerCondition',
  },
  HorizontalPodAutoscalerCondition: {
    1: 'type:string!',
    2: 'status:string!',
    3: 'lastTransitionTime:Time',
    4: 'reason:string',
    5: 'message:string',
  },
}

/** Top-level message per "apiVersion kind". */
export const AUTOSCALING_KINDS: Record<string, string> = {
  'autoscaling/v2 HorizontalPodAutoscaler': 'HPAv2',
  'autoscaling/v1 HorizontalPodAutoscaler': 'HPAv1',
}
