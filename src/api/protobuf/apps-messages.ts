// Protobuf message descriptors of apps/v1 Deployment and ReplicaSet (`kubectl create deployment` 1.32+ sends a
// Deployment as application/vnd.kubernetes.protobuf), per k8s.io/api apps/v1 generated.proto (release-1.33), in
// ./messages.ts's notation; that file spreads these tables into its own. Pointer fields keep their zeros (`!`).

export const APPS_MESSAGES: Record<string, Record<number, string>> = {
  Deployment: { 1: 'metadata:ObjectMeta', 2: 'spec:DeploymentSpec', 3: 'status:DeploymentStatus' },
  DeploymentSpec: {
    1: 'replicas:int32!',
    2: 'selector:LabelSelector',
    3: 'template:PodTemplateSpec',
    4: 'strategy:DeploymentStrategy',
    5: 'minReadySeconds:int32',
    6: 'revisionHistoryLimit:int32!',
    7: 'paused:bool',
    9: 'progressDeadlineSeconds:int32!',
  },
  DeploymentStrategy: { 1: 'type:string', 2: 'rollingUpdate:RollingUpdateDeployment' },
  RollingUpdateDeployment: { 1: 'maxUnavailable:IntOrString', 2: 'maxSurge:IntOrString' },
  DeploymentStatus: {
    1: 'observedGeneration:int64',
    2: 'replicas:int32',
    3: 'updatedReplicas:int32',
    7: 'readyReplicas:int32',
    4: 'availableReplicas:int32',
    5: 'unavailableReplicas:int32',
    9: 'terminatingReplicas:int32!',
    6: 'conditions:[]DeploymentCondition',
    8: 'collisionCount:int32!',
  },
  DeploymentCondition: {
    1: 'type:string',
    2: 'status:string',
    6: 'lastUpdateTime:Time',
    7: 'lastTransitionTime:Time',
    4: 'reason:string',
    5: 'message:string',
  },
  ReplicaSet: { 1: 'metadata:ObjectMeta', 2: 'spec:ReplicaSetSpec', 3: 'status:ReplicaSetStatus' },
  ReplicaSetSpec: {
    1: 'replicas:int32!',
    4: 'minReadySeconds:int32',
    2: 'selector:LabelSelector',
    3: 'template:PodTemplateSpec',
  },
  ReplicaSetStatus: {
    1: 'replicas:int32!',
    2: 'fullyLabeledReplicas:int32',
    4: 'readyReplicas:int32',
    5: 'availableReplicas:int32',
    7: 'terminatingReplicas:int32!',
    3: 'observedGeneration:int64',
    6: 'conditions:[]ReplicaSetCondition',
  },
  ReplicaSetCondition: {
    1: 'type:string',
    2: 'status:string',
    3: 'lastTransitionTime:Time',
    4: 'reason:string',
    5: 'message:string',
  },
}

/** Top-level message per "apiVersion kind". */
export const APPS_KINDS: Record<string, string> = {
  'apps/v1 Deployment': 'Deployment',
  'apps/v1 ReplicaSet': 'ReplicaSet',
}
