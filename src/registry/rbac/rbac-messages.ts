// Protobuf message descriptors of the RBAC kinds (`kubectl create role/clusterrole/rolebinding/clusterrolebinding`
// sends them as application/vnd.kubernetes.protobuf since 1.28), per k8s.io/api rbac/v1 generated.proto
// (release-1.33), in src/api/protobuf/messages.ts's notation; that file spreads these tables into its own.
// A `!` marks the fields whose JSON tag has no omitempty (Subject.kind/name, every RoleRef field).

export const RBAC_MESSAGES: Record<string, Record<number, string>> = {
  Role: { 1: 'metadata:ObjectMeta', 2: 'rules:[]PolicyRule' },
  ClusterRole: { 1: 'metadata:ObjectMeta', 2: 'rules:[]PolicyRule', 3: 'aggregationRule:AggregationRule' },
  PolicyRule: {
    1: 'verbs:[]string',
    2: 'apiGroups:[]string',
    3: 'resources:[]string',
    4: 'resourceNames:[]string',
    5: 'nonResourceURLs:[]string',
  },
  AggregationRule: { 1: 'clusterRoleSelectors:[]LabelSelector' },
  RoleBinding: { 1: 'metadata:ObjectMeta', 2: 'subjects:[]Subject', 3: 'roleRef:RoleRef' },
  ClusterRoleBinding: { 1: 'metadata:ObjectMeta', 2: 'subjects:[]Subject', 3: 'roleRef:RoleRef' },
  Subject: { 1: 'kind:string!', 2: 'apiGroup:string', 3: 'name:string!', 4: 'namespace:string' },
  RoleRef: { 1: 'apiGroup:string!', 2: 'kind:string!', 3: 'name:string!' },
}

/** Top-level message per "apiVersion kind". */
export const RBAC_KINDS: Record<string, string> = {
  'rbac.authorization.k8s.io/v1 Role': 'Role',
  'rbac.authorization.k8s.io/v1 ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1 RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1 ClusterRoleBinding': 'ClusterRoleBinding',
}
