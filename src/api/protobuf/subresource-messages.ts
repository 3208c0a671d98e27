// Protobuf message descriptors of the bodies clients post to subresources: policy/v1 Eviction (pods/eviction),
// autoscaling/v1 Scale (/scale), authentication.k8s.io/v1 TokenRequest (serviceaccounts/token, kubectl create token),
// per k8s.io/api generated.proto, in ./messages.ts's notation; that file spreads these tables into its own.

export const SUBRESOURCE_MESSAGES: Record<string, Record<number, string>> = {
  // policy/v1
  Eviction: { 1: 'metadata:ObjectMeta', 2: 'deleteOptions:DeleteOptions' },
  // autoscaling/v1
  Scale: { 1: 'metadata:ObjectMeta', 2: 'spec:ScaleSpec', 3: 'status:ScaleStatus' },
  ScaleSpec: { 1: 'replicas:int32' },
  ScaleStatus: { 1: 'replicas:int32!', 2: 'selector:string' },
  // authentication.k8s.io/v1 (kubectl create token)
  TokenRequest: { 1: 'metadata:ObjectMeta', 2: 'spec:TokenRequestSpec', 3: 'status:TokenRequestStatus' },
  TokenRequestSpec: {
    1: 'audiences:[]string',
    4: 'expirationSeconds:int64!',
    3: 'boundObjectRef:BoundObjectReference',
  },
  BoundObjectReference: { 1: 'kind:string', 2: 'apiVersion:string', 3: 'name:string', 4: 'uid:string' },
  TokenRequestStatus: { 1: 'token:string!', 2: 'expirationTimestamp:Time' },
}
