// Protobuf message descriptors of the review kinds kubectl 1.28+ sends as application/vnd.kubernetes.protobuf
// (`kubectl auth can-i`, `can-i --list`, `auth whoami`), and TokenReview, per k8s.io/api authorization/v1 and
// authentication/v1 generated.proto (release-1.33). Written in src/api/protobuf/messages.ts's notation, which
// spreads these tables into its own.
//
// Not here: SubjectAccessReview and LocalSubjectAccessReview, whose spec.extra is a map<string, ExtraValue> the
// descriptor notation cannot express; dropping it would change what the review echoes, so those bodies stay JSON-only
// (a protobuf one is refused with 400). UserInfo.extra (field 4) is left out for the same reason: it only occurs in
// the status of a SelfSubjectReview or TokenReview request, which the server never reads.

export const REVIEW_MESSAGES: Record<string, Record<number, string>> = {
  // authorization.k8s.io/v1
  SelfSubjectAccessReview: {
    1: 'metadata:ObjectMeta',
    2: 'spec:SelfSubjectAccessReviewSpec',
    3: 'status:SubjectAccessReviewStatus',
  },
  SelfSubjectAccessReviewSpec: {
    1: 'resourceAttributes:ResourceAttributes',
    2: 'nonResourceAttributes:NonResourceAttributes',
  },
  ResourceAttributes: {
    1: 'namespace:string',
    2: 'verb:string',
    3: 'group:string',
    4: 'version:string',
    5: 'resource:string',
    6: 'subresource:string',
    7: 'name:string',
    8: 'fieldSelector:FieldSelectorAttributes',
    9: 'labelSelector:LabelSelectorAttributes',
  },
  FieldSelectorAttributes: { 1: 'rawSelector:string', 2: 'requirements:[]FieldSelectorRequirement' },
  LabelSelectorAttributes: { 1: 'rawSelector:string', 2: 'requirements:[]LabelSelectorRequirement' },
  // meta/v1; only the selector attributes above use it.
  FieldSelectorRequirement: { 1: 'key:string!', 2: 'operator:string!', 3: 'values:[]string' },
  NonResourceAttributes: { 1: 'path:string', 2: 'verb:string' },
  SubjectAccessReviewStatus: {
    1: 'allowed:bool!',
    4: 'denied:bool',
    2: 'reason:string',
    3: 'evaluationError:string',
  },
  SelfSubjectRulesReview: {
    1: 'metadata:ObjectMeta',
    2: 'spec:SelfSubjectRulesReviewSpec',
    3: 'status:SubjectRulesReviewStatus',
  },
  SelfSubjectRulesReviewSpec: { 1: 'namespace:string' },
  SubjectRulesReviewStatus: {
    1: 'resourceRules:[]ResourceRule',
    2: 'nonResourceRules:[]NonResourceRule',
    3: 'incomplete:bool!',
    4: 'evaluationError:string',
  },
  ResourceRule: { 1: 'verbs:[]string', 2: 'apiGroups:[]string', 3: 'resources:[]string', 4: 'resourceNames:[]string' },
  NonResourceRule: { 1: 'verbs:[]string', 2: 'nonResourceURLs:[]string' },
  // authentication.k8s.io/v1
  SelfSubjectReview: { 1: 'metadata:ObjectMeta', 2: 'status:SelfSubjectReviewStatus' },
  SelfSubjectReviewStatus: { 1: 'userInfo:UserInfo' },
  UserInfo: { 1: 'username:string', 2: 'uid:string', 3: 'groups:[]string' },
  TokenReview: { 1: 'metadata:ObjectMeta', 2: 'spec:TokenReviewSpec', 3: 'status:TokenReviewStatus' },
  TokenReviewSpec: { 1: 'token:string', 2: 'audiences:[]string' },
  TokenReviewStatus: { 1: 'authenticated:bool', 2: 'user:UserInfo', 4: 'audiences:[]string', 3: 'error:string' },
}

/** Top-level message per "apiVersion kind". */
export const REVIEW_KINDS: Record<string, string> = {
  'authorization.k8s.io/v1 SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1 SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'authentication.k8s.io/v1 SelfSubjectReview': 'SelfSubjectReview',
  'authentication.k8s.io/v1 TokenReview': 'TokenReview',
}
