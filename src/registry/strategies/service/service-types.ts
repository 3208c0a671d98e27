// The service object shape the service strategy works on, and the predicates kube's service code keeps asking
// (which types need a cluster IP, node ports, a health-check port; headless; externally accessible).
import type { ObjectMeta } from '../../../schema/meta'
import type { Service, ServicePort, ServiceSpec, ServiceStatus } from '../../../schema/service'

export type { ServicePort, ServiceSpec, ServiceStatus }

/** A decoded, null-stripped Service as the strategy sees it: metadata always, spec once applyDefaults has run. */
export type ServiceObject = Omit<Service, 'metadata' | 'spec'> & { metadata: ObjectMeta; spec: ServiceSpec }

export const CLUSTER_IP_NONE = 'None'

/** Every type but ExternalName gets cluster IPs (or None). */
export const needsClusterIP = (s: ServiceObject) => s.spec.type !== 'ExternalName'

/** NodePort and LoadBalancer services expose node ports. */
export const needsNodePort = (s: ServiceObject) => s.spec.type === 'NodePort' || s.spec.type === 'LoadBalancer'

/** Whether unset node ports are allocated (a LoadBalancer may opt out; specific requests are honoured anyway). */
export const shouldAllocateNodePorts = (s: ServiceObject) =>
  s.spec.type === 'NodePort' || (s.spec.type === 'LoadBalancer' && s.spec.allocateLoadBalancerNodePorts !== false)

/** A LoadBalancer with the Local external policy needs a health-check node port. */
export const needsHealthCheck = (s: ServiceObject) =>
  s.spec.type === 'LoadBalancer' && s.spec.externalTrafficPolicy === 'Local'

/** clusterIPs is exactly ["None"]. */
export const isHeadless = (s: ServiceObject) =>
  s.spec.clusterIPs?.length === 1 && s.spec.clusterIPs[0] === CLUSTER_IP_NONE

/** Reachable from outside the cluster: node ports, a load balancer, or external IPs (apiservice.ExternallyAccessible). */
export const externallyAccessible = (s: ServiceObject) =>
  s.spec.type === 'LoadBalancer' ||
  s.spec.type === 'NodePort' ||
  (s.spec.type === 'ClusterIP' && (s.spec.externalIPs?.length ?? 0) > 0)

/** Whether a selector selects anything at all: an empty map is stored as no selector, as an etcd round trip does. */
export const hasSelector = (s: ServiceObject) => Object.keys(s.spec.selector ?? {}).length > 0

export const sameList = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
  (a?.length ?? 0) === (b?.length ?? 0) && (a ?? []).every((v, i) => v === b?.[i])
