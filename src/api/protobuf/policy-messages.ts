// Protobuf message descriptors of policy/v1 PodDisruptionBudget (`kubectl create poddisruptionbudget` sends it as
// application/vnd.kubernetes.protobuf), per k8s.io/api policy/v1 generated.proto (release-1.33), in
// ./messages.ts's notation; that file spreads these tables into its own. The status's disruptedPods map (of Time)
// is not described: a create resets status, and no client sends it.

export const POLICY_MESSAGES: Record<string, Record<number, string>> = {
  PodDisruptionBudget: {
    1: 'metadata:ObjectMeta',
    2: 'spec:PodDisruptionBudgetSpec',
    3: 'status:PodDisruptionBudgetStatus',
  },
  PodDisruptionBudgetSpec: {
    1: 'minAvailable:IntOrString',
    2: 'selector:LabelSelector',
    3: 'maxUnavailable:IntOrString',
    4: 'unhealthyPodEvictionPolicy:string',
  },
  PodDisruptionBudgetStatus: {
    1: 'observedGeneration:int64',
    3: 'disruptionsAllowed:int32!',
    4: 'currentHealthy:int32!',
    5: 'desiredHealthy:int32!',
    6: 'expectedPods:int32!',
    7: 'conditions:[]Condition',
  },
}

/** Top-level message per "apiVersion kind". */
export const POLICY_KINDS: Record<string, string> = {
  'policy/v1 PodDisruptionBudget': 'PodDisruptionBudget',
}
