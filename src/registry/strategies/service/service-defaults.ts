// Service defaulting: the scheme defaults (SetDefaults_Service), run on every decoded body, and the IP-family fields
// kube's service allocator initializes on create and update (initIPFamilyFields), for our single-stack IPv4 cluster.
import type { ServiceObject } from './service-types'
import { CLUSTER_IP_NONE, externallyAccessible, hasSelector, sameList } from './service-types'
import { ipFamily } from '../pod/pod-validation-formats'

/** The families this cluster serves: the service CIDR is IPv4 only (see src/cluster/allocators/ip-range.ts). */
export const CLUSTER_IP_FAMILIES = ['IPv4'] as const
const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800

export function applyServiceDefaults(svc: ServiceObject) {
  const spec = (svc.spec ??= {})
  spec.sessionAffinity ??= 'None'
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } }
  }
  spec.type ??= 'ClusterIP'
  for (const p of spec.ports ?? []) {
    p.protocol ??= 'TCP'
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port
  }
  if (externallyAccessible(svc)) spec.externalTrafficPolicy ??= 'Cluster'
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
    spec.internalTrafficPolicy ??= 'Cluster'
  if (spec.type === 'LoadBalancer') {
    spec.allocateLoadBalancerNodePorts ??= true
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip && !ing.ipMode) ing.ipMode = 'VIP'
  }
  // An empty selector does not survive kube's storage round trip: it reads back as no selector.
  if (spec.selector && Object.keys(spec.selector).length === 0) delete spec.selector
}

const familyOf = (ip: string) => (ipFamily(ip) === 6 ? 'IPv6' : 'IPv4')

/**
 * initIPFamilyFields: infers ipFamilyPolicy and ipFamilies from what the caller gave (and, on update, from the old
 * object). Best effort: contradictions are left for validation (validateIPFamilyConfig) to report.
 */
export function initIPFamilyFields(svc: ServiceObject, old: ServiceObject | null) {
  const spec = svc.spec
  if (spec.type === 'ExternalName') return
  const headlessSelectorless = spec.clusterIP === CLUSTER_IP_NONE && !hasSelector(svc)
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.spec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack'
  }
  if (old && spec.ipFamilyPolicy === 'SingleStack') {
    // Asking for single-stack while leaving the lists alone is clear intent to drop the secondary entries.
    if (sameList(old.spec.clusterIPs, spec.clusterIPs) && (spec.clusterIPs?.length ?? 0) > 1)
      spec.clusterIPs = spec.clusterIPs!.slice(0, 1)
    if (sameList(old.spec.ipFamilies, spec.ipFamilies) && (spec.ipFamilies?.length ?? 0) > 1)
      spec.ipFamilies = spec.ipFamilies!.slice(0, 1)
  }
  const families = [...(spec.ipFamilies ?? [])]
  for (const [i, ip] of (spec.clusterIPs ?? []).entries()) {
    if (ip === CLUSTER_IP_NONE) break
    if (i >= families.length && ipFamily(ip) !== null) {
      // Only a configured family may be inferred; validation reports an IP of another family.
      if (!(CLUSTER_IP_FAMILIES as readonly string[]).includes(familyOf(ip))) break
      families.push(familyOf(ip) as 'IPv4')
    }
  }
  if (headlessSelectorless) {
    // Headless services without a selector may carry both families even on a single-stack cluster.
    if (families.length === 0) families.push(CLUSTER_IP_FAMILIES[0])
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack')
      families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4')
  }
  if (families.length === 0) families.push(CLUSTER_IP_FAMILIES[0])
  spec.ipFamilies = families
}
