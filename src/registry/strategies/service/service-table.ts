// The service table as kubectl prints it (printService): NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
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
      description: NAME_DOC,
      priority: 0,
    },
    {
      name: 'Type',
      type: 'string',
      format: '',
      description:
        'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
      priority: 0,
    },
    {
      name: 'Cluster-IP',
      type: 'string',
      format: '',
      description:
        'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
      priority: 0,
    },
    {
      name: 'External-IP',
      type: 'string',
      format: '',
      description:
        'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
      priority: 0,
    },
    {
      name: 'Port(s)',
      type: 'string',
      format: '',
      description:
        'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
    {
      name: 'Selector',
      type: 'string',
      format: '',
      description:
        'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
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
