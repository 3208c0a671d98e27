// A minimal valid object of each stored kind the sweep knows, quiet enough that no controller rewrites it (no
// replicas, suspended jobs, daemon sets no node matches): the hostile cases are variations of these.
type Obj = Record<string, any>

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
})
const selector = (app: string) => ({ matchLabels: { app } })
/** A pod template no node takes (daemon sets): its node selector names a label nothing carries. */
const nowhere = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], nodeSelector: { 'hostile.example.com/none': 'x' } },
})
const jobTemplate = {
  spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } },
}

/** Everything but apiVersion, kind and metadata, per kind. */
const BODIES: Record<string, (name: string, ns: string) => Obj> = {
  Namespace: () => ({ spec: { finalizers: ['kubernetes'] } }),
  Pod: () => ({ spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } }),
  Node: () => ({ spec: { unschedulable: true } }),
  // Without an eventTime, kube wants the involved object in the event's namespace (legacyValidateEvent).
  Event: (_, ns) => ({
    involvedObject: { kind: 'Pod', name: 'somebody', namespace: ns, apiVersion: 'v1' },
    reason: 'Tested',
    message: 'first',
    type: 'Normal',
  }),
  Service: () => ({ spec: { ports: [{ port: 80, targetPort: 8080 }], selector: { app: 'x' } } }),
  Endpoints: () => ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] }),
  ReplicationController: (n) => ({ spec: { replicas: 0, selector: { app: n }, template: template(n) } }),
  ServiceAccount: () => ({ automountServiceAccountToken: false }),
  ConfigMap: () => ({ data: { a: 'b' }, binaryData: { c: 'AAE=' } }),
  Secret: () => ({ type: 'Opaque', data: { a: 'Yg==' } }),
  PersistentVolumeClaim: () => ({
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }),
  PersistentVolume: () => ({
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
  }),
  Deployment: (n) => ({ spec: { replicas: 0, selector: selector(n), template: template(n) } }),
  ReplicaSet: (n) => ({ spec: { replicas: 0, selector: selector(n), template: template(n) } }),
  ControllerRevision: () => ({ data: { spec: { template: { $patch: 'replace' } } }, revision: 1 }),
  DaemonSet: (n) => ({ spec: { selector: selector(n), template: nowhere(n) } }),
  StatefulSet: (n) => ({ spec: { replicas: 0, serviceName: 'svc', selector: selector(n), template: template(n) } }),
  CronJob: () => ({ spec: { schedule: '*/5 * * * *', suspend: true, jobTemplate } }),
  Job: () => ({ spec: { suspend: true, ...jobTemplate.spec } }),
  EndpointSlice: () => ({
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  }),
  PodDisruptionBudget: (n) => ({ spec: { minAvailable: 1, selector: selector(n) } }),
  // Valid in autoscaling/v2 and v1 alike (v2 defaults the CPU metric); the target need not exist.
  HorizontalPodAutoscaler: (n) => ({
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: n }, minReplicas: 1, maxReplicas: 3 },
  }),
  ClusterRole: () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
  Role: () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
  ClusterRoleBinding: () => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'hostile' }],
  }),
  RoleBinding: () => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'hostile' }],
  }),
  Lease: () => ({ spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } }),
  // Bounds and a quota nothing the other sweeps create in the same namespace comes near (storage: a Quantity, which
  // takes a JSON number too, as the type sweep knows of .storage fields).
  LimitRange: () => ({ spec: { limits: [{ type: 'PersistentVolumeClaim', max: { storage: '1Pi' } }] } }),
  ResourceQuota: () => ({ spec: { hard: { 'requests.storage': '1Ei' } } }),
  IngressClass: () => ({ spec: { controller: 'example.com/ingress' } }),
  PriorityClass: () => ({ value: 1000, description: 'hostile' }),
  StorageClass: () => ({ provisioner: 'example.com/hostile', parameters: { type: 'x' } }),
  NetworkPolicy: () => ({
    spec: { podSelector: { matchLabels: { app: 'db' } }, ingress: [{ ports: [{ port: 80 }] }] },
  }),
  Ingress: () => ({
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
  }),
  CustomResourceDefinition: (n) => {
    const [plural, ...group] = n.split('.')
    return {
      spec: {
        group: group.join('.'),
        scope: 'Namespaced',
        names: { plural, kind: 'Hostile', singular: plural },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } },
          },
        ],
      },
    }
  },
}

/** Request bodies of the create-only kinds (reviews, and subresource bodies), per kind. */
const CREATE_ONLY: Record<string, (ns: string) => Obj> = {
  SelfSubjectReview: () => ({}),
  TokenReview: () => ({ spec: { token: 'not-a-token' } }),
  SelfSubjectAccessReview: () => ({ spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }),
  SelfSubjectRulesReview: () => ({ spec: { namespace: 'default' } }),
  SubjectAccessReview: () => ({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } }),
  LocalSubjectAccessReview: (ns) => ({
    spec: { user: 'alice', resourceAttributes: { namespace: ns, verb: 'get', resource: 'pods' } },
  }),
}

/** Examples of kinds only a test knows (custom resources it installs), by kind. */
const REGISTERED = new Map<string, (name: string, ns: string) => Obj>()

/** Lets the sweeps build examples of a kind a test defines (a custom resource): everything but the type and metadata. */
export function registerExample(kind: string, body: (name: string, ns: string) => Obj) {
  REGISTERED.set(kind, body)
}

/** A name the kind accepts, unique to the run (CRDs are named <plural>.<group>). */
export function nameFor(kind: string, base: string): string {
  if (kind === 'CustomResourceDefinition') return `${base.replace(/[^a-z0-9]/g, '')}s.hostile.example.com`
  return base
}

/** A valid object of `kind` named `name` (to be created in `ns`), or null when the sweep has none for it. */
export function validObject(groupVersion: string, kind: string, name: string, ns = 'default'): Obj | null {
  const review = CREATE_ONLY[kind]
  // Reviews carry no metadata of their own: kube refuses one with a name.
  if (review) return { apiVersion: groupVersion, kind, metadata: {}, ...review(ns) }
  const body = BODIES[kind] ?? REGISTERED.get(kind)
  if (!body) return null
  // A label, so every kind has metadata fields for the field sweep to replace.
  return { apiVersion: groupVersion, kind, metadata: { name, labels: { hostile: 'example' } }, ...body(name, ns) }
}
