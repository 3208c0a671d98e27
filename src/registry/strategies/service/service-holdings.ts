// What a stored service holds from the cluster-wide allocators, and who it is to them: the namespace host releases
// by it and the cluster host's repair pass compares the allocation table with it.
import type { ServiceObject } from './service-types'
import { CLUSTER_IP_NONE, needsClusterIP, needsHealthCheck, needsNodePort } from './service-types'

interface ServiceHoldings {
  clusterIPs: string[]
  nodePorts: number[]
}

/** Owner of a service's allocations: the uid makes a re-created service a different owner. */
export const ownerOf = (svc: ServiceObject) =>
  `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}/${svc.metadata.uid ?? ''}`

/** Only values the service's type actually has allocated (an ExternalName's stray nodePort was never allocated). */
export function holdingsOf(svc: ServiceObject | null): ServiceHoldings {
  if (!svc?.spec) return { clusterIPs: [], nodePorts: [] }
  const clusterIPs = needsClusterIP(svc)
    ? (svc.spec.clusterIPs ?? []).filter((ip) => ip !== '' && ip !== CLUSTER_IP_NONE)
    : []
  const ports = new Set<number>()
  if (needsNodePort(svc)) for (const p of svc.spec.ports ?? []) if (p.nodePort) ports.add(p.nodePort)
  if (needsHealthCheck(svc) && svc.spec.healthCheckNodePort) ports.add(svc.spec.healthCheckNodePort)
  return { clusterIPs, nodePorts: [...ports] }
}
