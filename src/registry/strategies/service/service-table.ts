// The service table as kubectl prints it (printService): NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR.
import type { TableConvertor } from '../../strategy'
import { age } from '../../human-duration'
import { compareUtf8 } from '../../go-strings'
import type { ServiceObject } from './service-types'

/** labels.FormatLabels: k=v pairs in key order, or <none>. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareUtf8)
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',')
}

/** The load balancer's ingress IPs (or hostnames), sorted and unique; the server prints wide, so nothing is clipped. */
function loadBalancerAddresses(svc: ServiceObject): string[] {
  const out = new Set<string>()
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
    if (ing.ip) out.add(ing.ip)
    else if (ing.hostname) out.add(ing.hostname)
  }
  return [...out].sort(compareUtf8)
}

function externalIP(svc: ServiceObject): string {
  const external = svc.spec.externalIPs ?? []
  switch (svc.spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>'
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...external]
      return all.length > 0 ? all.join(',') : '<pending>'
    }
    case 'ExternalName':
      return svc.spec.externalName ?? ''
    default:
      return '<unknown>'
  }
}

/** makePortString: 80/TCP, or 80:30080/TCP with a node port. */
function portsCell(svc: ServiceObject): string {
  const ports = svc.spec.ports ?? []
  if (ports.length === 0) return '<none>'
  return ports.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',')
}

export const serviceTable: TableConvertor<ServiceObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: 'Name of the service, unique within its namespace',
      priority: 0,
    },
    { name: 'Type', type: 'string', format: '', description: 'How the service is exposed', priority: 0 },
    {
      name: 'Cluster-IP',
      type: 'string',
      format: '',
      description: 'Virtual IP of the service inside the cluster',
      priority: 0,
    },
    {
      name: 'External-IP',
      type: 'string',
      format: '',
      description: 'Addresses the service is reachable on from outside',
      priority: 0,
    },
    { name: 'Port(s)', type: 'string', format: '', description: 'Ports the service exposes', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: 'Time since the service was created', priority: 0 },
    {
      name: 'Selector',
      type: 'string',
      format: '',
      description: 'Labels of the pods that receive the traffic',
      priority: 1,
    },
  ],
  cells: (svc, now) => [
    svc.metadata.name,
    svc.spec.type ?? '',
    svc.spec.clusterIPs?.[0] ?? '<none>',
    externalIP(svc),
    portsCell(svc),
    age(svc.metadata.creationTimestamp, now),
    formatLabels(svc.spec.selector),
  ],
}
