// What a service update carries over and clears before validation (kube's service strategy PrepareForUpdate):
// allocated values a sparse PUT or PATCH left out, clusterIP/clusterIPs kept in sync, and fields a type change makes
// meaningless. Allocation and release themselves happen outside the strategy (src/namespace/service-allocation.ts).
import type { ServiceObject } from './service-types'
import { externallyAccessible, needsClusterIP, needsHealthCheck, needsNodePort, sameList } from './service-types'

/**
 * patchAllocatedValues: a client need not repeat what the server allocated for it (cluster IPs, node ports, the
 * health-check port) as long as the type keeps needing them.
 */
export function patchAllocatedValues(svc: ServiceObject, old: ServiceObject) {
  const spec = svc.spec
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!spec.clusterIP) spec.clusterIP = old.spec.clusterIP
    if (!spec.clusterIPs?.length && old.spec.clusterIPs?.length) spec.clusterIPs = [...old.spec.clusterIPs]
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = (s: ServiceObject) => new Set((s.spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0))
    const oldUsed = used(old)
    const newUsed = used(svc)
    // Ports both objects name cannot be patched in again.
    const taken = new Set([...oldUsed].filter((n) => newUsed.has(n)))
    // Node ports are matched by port name: the user may have changed anything else about the port.
    const byName = new Map((old.spec.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]))
    for (const p of spec.ports ?? []) {
      if (p.nodePort) continue
      const was = byName.get(p.name ?? '') ?? 0
      if (was !== 0 && !taken.has(was)) p.nodePort = was
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && !spec.healthCheckNodePort) {
    if (old.spec.healthCheckNodePort !== undefined) spec.healthCheckNodePort = old.spec.healthCheckNodePort
  }
}

/** NormalizeClusterIPs: clients may manage clusterIP (old ones) or both fields (new ones); make them agree. */
export function normalizeClusterIPs(svc: ServiceObject, old: ServiceObject | null) {
  const spec = svc.spec
  if (!old) {
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP]
    return
  }
  const sameIPs = () => sameList(old.spec.clusterIPs, spec.clusterIPs)
  // An old client patching something else dropped clusterIPs but kept clusterIP.
  if (
    old.spec.clusterIPs?.length &&
    !spec.clusterIPs?.length &&
    (old.spec.clusterIP ?? '') === (spec.clusterIP ?? '')
  ) {
    spec.clusterIPs = [...old.spec.clusterIPs]
  }
  if ((old.spec.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    // Clearing clusterIP while leaving clusterIPs alone clears both.
    if (old.spec.clusterIP && !spec.clusterIP && sameIPs()) delete spec.clusterIPs
    // Changing clusterIP while leaving clusterIPs alone moves both (validation then refuses the change).
    if (spec.clusterIP && sameIPs()) spec.clusterIPs = [spec.clusterIP]
  }
}

/**
 * dropTypeDependentFields: on a type change, clears what the new type does not use, but only where the client left
 * the old value unchanged (it may have asked for something on purpose, which validation then judges).
 */
export function dropTypeDependentFields(svc: ServiceObject, old: ServiceObject) {
  const spec = svc.spec
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (sameList(old.spec.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP
      delete spec.clusterIPs
    }
    if (sameList(old.spec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies
    if (old.spec.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy
  }
  const sameNodePorts =
    (old.spec.ports ?? []).length === (spec.ports ?? []).length &&
    (old.spec.ports ?? []).every((p, i) => (p.nodePort ?? 0) === (spec.ports?.[i]?.nodePort ?? 0))
  if (needsNodePort(old) && !needsNodePort(svc) && sameNodePorts) {
    for (const p of spec.ports ?? []) delete p.nodePort
  }
  if (
    needsHealthCheck(old) &&
    !needsHealthCheck(svc) &&
    (old.spec.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)
  ) {
    delete spec.healthCheckNodePort
  }
  if (old.spec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (
      spec.allocateLoadBalancerNodePorts !== undefined &&
      spec.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts
    ) {
      delete spec.allocateLoadBalancerNodePorts
    }
    if (spec.loadBalancerClass === old.spec.loadBalancerClass) delete spec.loadBalancerClass
    // The load balancer of the old type is gone; do not leave its address behind.
    if (svc.status) svc.status = { ...svc.status, loadBalancer: {} }
  }
  if (
    externallyAccessible(old) &&
    !externallyAccessible(svc) &&
    spec.externalTrafficPolicy === old.spec.externalTrafficPolicy
  ) {
    delete spec.externalTrafficPolicy
  }
}
