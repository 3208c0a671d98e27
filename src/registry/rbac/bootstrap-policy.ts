// kube-apiserver's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) as data: the cluster
// roles (admin, edit and view aggregated from the system:aggregate-to-* roles), their cluster role bindings, and the
// roles and bindings kube creates in kube-system and kube-public. The system:controller:* cluster roles of kube's
// controller-manager are left out: no such controllers run here, and their 38 roles and bindings would double the
// data. Transcribed from kube's testdata (cluster-roles.yaml of the 1.28-1.33 era; namespace roles from a slightly
// newer tree) via the research notes.
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../schema/rbac'

const GROUP = 'rbac.authorization.k8s.io'
const API_VERSION = `${GROUP}/v1`
/** Every bootstrap object carries these, so reconciliation and operators can tell them apart. */
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' }
/** "false" stops the reconciliation at startup from touching the object (see bootstrap-reconcile.ts). */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate'

const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin'
const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit'
const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view'

interface RoleSpec {
  namespace?: string
  name: string
  /** null for aggregated roles: the aggregation controller fills them. */
  rules: PolicyRule[] | null
  /** Aggregation labels the role carries (value "true"). */
  labels?: string[]
  /** The aggregation label whose roles this one gathers. */
  aggregate?: string
}

interface BindingSpec {
  namespace?: string
  name: string
  /** The role's name when it differs from the binding's. */
  role?: string
  subjects: Subject[]
}

const res = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources }
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs })
const user = (name: string): Subject => ({ kind: 'User', apiGroup: GROUP, name })
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: GROUP, name })
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace })

const CLUSTER_ROLES: RoleSpec[] = [
  { name: 'admin', rules: null, aggregate: AGGREGATE_TO_ADMIN },
  { name: 'cluster-admin', rules: [res(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'edit', rules: null, labels: [AGGREGATE_TO_ADMIN], aggregate: AGGREGATE_TO_EDIT },
  {
    name: 'system:aggregate-to-admin',
    rules: [
      res(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      res(
        ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        ['rbac.authorization.k8s.io'],
        ['rolebindings', 'roles'],
      ),
    ],
    labels: [AGGREGATE_TO_ADMIN],
  },
  {
    name: 'system:aggregate-to-edit',
    rules: [
      res(
        ['get', 'list', 'watch'],
        [''],
        ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
      ),
      res(['impersonate'], [''], ['serviceaccounts']),
      res(
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
        [''],
        ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'],
      ),
      res(['create'], [''], ['pods/eviction']),
      res(
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      res(['create'], [''], ['serviceaccounts/token']),
      res(
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
      ),
      res(['create', 'delete', 'deletecollection', 'patch', 'update'], ['autoscaling'], ['horizontalpodautoscalers']),
      res(['create', 'delete', 'deletecollection', 'patch', 'update'], ['batch'], ['cronjobs', 'jobs']),
      res(
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
      ),
      res(['create', 'delete', 'deletecollection', 'patch', 'update'], ['policy'], ['poddisruptionbudgets']),
      res(
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
        ['networking.k8s.io'],
        ['ingresses', 'networkpolicies'],
      ),
      res(
        ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        ['coordination.k8s.io'],
        ['leases'],
      ),
    ],
    labels: [AGGREGATE_TO_EDIT],
  },
  {
    name: 'system:aggregate-to-view',
    rules: [
      res(
        ['get', 'list', 'watch'],
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      res(
        ['get', 'list', 'watch'],
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      res(['get', 'list', 'watch'], [''], ['namespaces']),
      res(['get', 'list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
      res(
        ['get', 'list', 'watch'],
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      res(['get', 'list', 'watch'], ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      res(['get', 'list', 'watch'], ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      res(
        ['get', 'list', 'watch'],
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
      ),
      res(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      res(['get', 'list', 'watch'], ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    labels: [AGGREGATE_TO_VIEW],
  },
  {
    name: 'system:auth-delegator',
    rules: [
      res(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      res(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ],
  },
  {
    name: 'system:basic-user',
    rules: [
      res(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      res(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    rules: [res(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    rules: [res(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-approver',
    rules: [res(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client'])],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
    rules: [res(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet'])],
  },
  {
    name: 'system:certificates.k8s.io:kubelet-serving-approver',
    rules: [res(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kubelet-serving'])],
  },
  {
    name: 'system:certificates.k8s.io:legacy-unknown-approver',
    rules: [res(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/legacy-unknown'])],
  },
  {
    name: 'system:discovery',
    rules: [
      urls(
        ['get'],
        [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
      ),
    ],
  },
  {
    name: 'system:heapster',
    rules: [
      res(['get', 'list', 'watch'], [''], ['events', 'namespaces', 'nodes', 'pods']),
      res(['get', 'list', 'watch'], ['extensions'], ['deployments']),
    ],
  },
  { name: 'system:kube-aggregator', rules: [res(['get', 'list', 'watch'], [''], ['endpoints', 'services'])] },
  {
    name: 'system:kube-controller-manager',
    rules: [
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      res(['create'], ['coordination.k8s.io'], ['leases']),
      res(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
      res(['create'], [''], ['secrets', 'serviceaccounts']),
      res(['delete'], [''], ['secrets']),
      res(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      res(['update'], [''], ['secrets', 'serviceaccounts']),
      res(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      res(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      res(['list', 'watch'], ['*'], ['*']),
      res(['create'], [''], ['serviceaccounts/token']),
    ],
  },
  { name: 'system:kube-dns', rules: [res(['list', 'watch'], [''], ['endpoints', 'services'])] },
  {
    name: 'system:kube-scheduler',
    rules: [
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      res(['create'], ['coordination.k8s.io'], ['leases']),
      res(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
      res(['get', 'list', 'watch'], [''], ['nodes']),
      res(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      res(['create'], [''], ['bindings', 'pods/binding']),
      res(['patch', 'update'], [''], ['pods/status']),
      res(['get', 'list', 'watch'], [''], ['replicationcontrollers', 'services']),
      res(['get', 'list', 'watch'], ['apps', 'extensions'], ['replicasets']),
      res(['get', 'list', 'watch'], ['apps'], ['statefulsets']),
      res(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
      res(['get', 'list', 'watch'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      res(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      res(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['csinodes']),
      res(['get', 'list', 'watch'], [''], ['namespaces']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['csidrivers']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['csistoragecapacities']),
    ],
  },
  {
    name: 'system:kubelet-api-admin',
    rules: [
      res(['get', 'list', 'watch'], [''], ['nodes']),
      res(['proxy'], [''], ['nodes']),
      res(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
    ],
  },
  {
    name: 'system:monitoring',
    rules: [
      urls(
        ['get'],
        ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'],
      ),
    ],
  },
  {
    name: 'system:node',
    rules: [
      res(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      res(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
      res(['get', 'list', 'watch'], [''], ['services']),
      res(['create', 'get', 'list', 'watch'], [''], ['nodes']),
      res(['patch', 'update'], [''], ['nodes/status']),
      res(['patch', 'update'], [''], ['nodes']),
      res(['create', 'patch', 'update'], [''], ['events']),
      res(['get', 'list', 'watch'], [''], ['pods']),
      res(['create', 'delete'], [''], ['pods']),
      res(['patch', 'update'], [''], ['pods/status']),
      res(['create'], [''], ['pods/eviction']),
      res(['get', 'list', 'watch'], [''], ['configmaps', 'secrets']),
      res(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      res(['get'], [''], ['endpoints']),
      res(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      res(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
      res(['get'], ['storage.k8s.io'], ['volumeattachments']),
      res(['create'], [''], ['serviceaccounts/token']),
      res(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['csidrivers']),
      res(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
      res(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
    ],
  },
  {
    name: 'system:node-bootstrapper',
    rules: [res(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])],
  },
  {
    name: 'system:node-problem-detector',
    rules: [
      res(['get'], [''], ['nodes']),
      res(['patch'], [''], ['nodes/status']),
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  },
  {
    name: 'system:node-proxier',
    rules: [
      res(['list', 'watch'], [''], ['endpoints', 'services']),
      res(['get', 'list', 'watch'], [''], ['nodes']),
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      res(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ],
  },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      res(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
      res(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
      res(['watch'], [''], ['events']),
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  },
  {
    name: 'system:public-info-viewer',
    rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])],
  },
  {
    name: 'system:service-account-issuer-discovery',
    rules: [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])],
  },
  {
    name: 'system:volume-scheduler',
    rules: [
      res(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
      res(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
      res(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    ],
  },
  { name: 'view', rules: null, labels: [AGGREGATE_TO_EDIT], aggregate: AGGREGATE_TO_VIEW },
]

const NAMESPACE_ROLES: RoleSpec[] = [
  {
    namespace: 'kube-public',
    name: 'system:controller:bootstrap-signer',
    rules: [
      res(['get', 'list', 'watch'], [''], ['configmaps']),
      res(['update'], [''], ['configmaps'], ['cluster-info']),
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  },
  {
    namespace: 'kube-system',
    name: 'extension-apiserver-authentication-reader',
    rules: [res(['get', 'list', 'watch'], [''], ['configmaps'], ['extension-apiserver-authentication'])],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-controller-manager',
    rules: [
      res(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
      res(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
    ],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-scheduler',
    rules: [
      res(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
      res(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
    ],
  },
  {
    namespace: 'kube-system',
    name: 'system:controller:bootstrap-signer',
    rules: [res(['get', 'list', 'watch'], [''], ['secrets'])],
  },
  {
    namespace: 'kube-system',
    name: 'system:controller:cloud-provider',
    rules: [res(['create', 'get', 'list', 'watch'], [''], ['configmaps'])],
  },
  {
    namespace: 'kube-system',
    name: 'system:controller:token-cleaner',
    rules: [
      res(['delete', 'get', 'list', 'watch'], [''], ['secrets']),
      res(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  },
]

const CLUSTER_ROLE_BINDINGS: BindingSpec[] = [
  { name: 'cluster-admin', subjects: [group('system:masters')] },
  { name: 'system:basic-user', subjects: [group('system:authenticated')] },
  { name: 'system:discovery', subjects: [group('system:authenticated')] },
  { name: 'system:kube-controller-manager', subjects: [user('system:kube-controller-manager')] },
  { name: 'system:kube-dns', subjects: [sa('kube-system', 'kube-dns')] },
  { name: 'system:kube-scheduler', subjects: [user('system:kube-scheduler')] },
  { name: 'system:monitoring', subjects: [group('system:monitoring')] },
  { name: 'system:node', subjects: [] },
  { name: 'system:node-proxier', subjects: [user('system:kube-proxy')] },
  { name: 'system:public-info-viewer', subjects: [group('system:authenticated'), group('system:unauthenticated')] },
  { name: 'system:service-account-issuer-discovery', subjects: [group('system:serviceaccounts')] },
  { name: 'system:volume-scheduler', subjects: [user('system:kube-scheduler')] },
]

const NAMESPACE_ROLE_BINDINGS: BindingSpec[] = [
  {
    namespace: 'kube-public',
    name: 'system:controller:bootstrap-signer',
    subjects: [sa('kube-system', 'bootstrap-signer')],
  },
  {
    namespace: 'kube-system',
    name: 'system::extension-apiserver-authentication-reader',
    role: 'extension-apiserver-authentication-reader',
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-controller-manager',
    subjects: [
      user('system:kube-controller-manager'),
      sa('kube-system', 'kube-controller-manager'),
      sa('kube-system', 'leader-election-controller'),
    ],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-scheduler',
    subjects: [user('system:kube-scheduler'), sa('kube-system', 'kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    name: 'system:controller:bootstrap-signer',
    subjects: [sa('kube-system', 'bootstrap-signer')],
  },
  {
    namespace: 'kube-system',
    name: 'system:controller:cloud-provider',
    subjects: [sa('kube-system', 'cloud-provider')],
  },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', subjects: [sa('kube-system', 'token-cleaner')] },
]

function meta(spec: { namespace?: string; name: string }, extraLabels: string[] = []) {
  const labels: Record<string, string> = { ...LABELS }
  for (const l of extraLabels) labels[l] = 'true'
  return {
    name: spec.name,
    ...(spec.namespace ? { namespace: spec.namespace } : {}),
    labels,
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  }
}

export interface BootstrapPolicy {
  clusterRoles: ClusterRole[]
  clusterRoleBindings: ClusterRoleBinding[]
  roles: Role[]
  roleBindings: RoleBinding[]
}

/** The policy as objects to create (fresh copies each call), in the order kube reconciles them. */
export function bootstrapPolicy(): BootstrapPolicy {
  const clusterRoles = CLUSTER_ROLES.map((r): ClusterRole => {
    const role: ClusterRole = {
      kind: 'ClusterRole',
      apiVersion: API_VERSION,
      metadata: meta(r, r.labels),
      rules: r.rules,
    }
    if (r.aggregate) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [r.aggregate]: 'true' } }] }
    return role
  })
  const roles = NAMESPACE_ROLES.map(
    (r): Role => ({ kind: 'Role', apiVersion: API_VERSION, metadata: meta(r), rules: r.rules }),
  )
  const binding = <K extends 'ClusterRoleBinding' | 'RoleBinding'>(kind: K, b: BindingSpec) => ({
    kind,
    apiVersion: API_VERSION,
    metadata: meta(b),
    ...(b.subjects.length ? { subjects: b.subjects } : {}),
    roleRef: { apiGroup: GROUP, kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: b.role ?? b.name },
  })
  return structuredClone({
    clusterRoles,
    clusterRoleBindings: CLUSTER_ROLE_BINDINGS.map((b) => binding('ClusterRoleBinding', b)),
    roles,
    roleBindings: NAMESPACE_ROLE_BINDINGS.map((b) => binding('RoleBinding', b)),
  })
}
