// core/v1 Service: spec, status and every type they embed, as of Kubernetes 1.33. Only shapes and types are checked
// here; defaults, required-ness, value rules and type transitions belong to the service strategy.
// List metadata mirrors the patchStrategy/patchMergeKey/listType tags of k8s.io/api core/v1 types.go.
import { z } from 'zod'
import { Condition, IntOrString, ObjectMeta, StringMap, int32 } from './meta'
import { Protocol } from './pod'

const atomic = { 'x-kubernetes-list-type': 'atomic' } as const
const atomicMap = { 'x-kubernetes-map-type': 'atomic' } as const

const ServiceType = z
  .enum(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'])
  .describe('How the service is exposed: a cluster IP, a port on every node, a load balancer, or a DNS alias')
const ServiceAffinity = z
  .enum(['ClientIP', 'None'])
  .describe('Whether connections from one client stick to one endpoint')
const TrafficPolicy = z
  .enum(['Cluster', 'Local'])
  .describe('Whether traffic may go to endpoints on any node or only the local one')
export const IPFamily = z.enum(['IPv4', 'IPv6']).describe('An IP address family')
const IPFamilyPolicy = z
  .enum(['SingleStack', 'PreferDualStack', 'RequireDualStack'])
  .describe('How many IP families the service wants')
const LoadBalancerIPMode = z.enum(['VIP', 'Proxy']).describe('How traffic reaches a load-balancer ingress IP')

export const ServicePort = z
  .strictObject({
    name: z
      .string()
      .optional()
      .describe('Name of the port, a DNS label unique within the service; required with more than one port'),
    protocol: Protocol.optional().describe('IP protocol of the port; TCP by default').meta({ default: 'TCP' }),
    appProtocol: z.string().optional().describe('Application protocol, an IANA service name or a domain-prefixed name'),
    port: int32.describe('Port the service exposes'),
    targetPort: IntOrString.optional().describe('Number or name of the port on the pods; the value of port by default'),
    nodePort: int32
      .optional()
      .describe('Port on every node for NodePort and LoadBalancer services; allocated when not given'),
  })
  .describe('One port a service exposes')

export const ClientIPConfig = z
  .strictObject({
    timeoutSeconds: int32
      .optional()
      .describe('How long a client stays with one endpoint, 1 to 86400 seconds; 10800 by default'),
  })
  .describe('Client-IP session affinity settings')

export const SessionAffinityConfig = z
  .strictObject({
    clientIP: ClientIPConfig.optional().describe('Settings of client-IP affinity'),
  })
  .describe('Session affinity settings')

export const ServiceSpec = z
  .strictObject({
    ports: z
      .array(ServicePort)
      .optional()
      .describe('Ports the service exposes')
      .meta({
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        'x-kubernetes-patch-merge-key': 'port',
        'x-kubernetes-patch-strategy': 'merge',
      }),
    selector: StringMap.optional()
      .describe('Pods with these labels receive the traffic; without it, endpoints are managed by someone else')
      .meta(atomicMap),
    clusterIP: z
      .string()
      .optional()
      .describe('Virtual IP of the service, allocated when empty; None makes it headless'),
    clusterIPs: z
      .array(z.string())
      .optional()
      .describe('Virtual IPs of the service, one per IP family; the first equals clusterIP')
      .meta(atomic),
    type: ServiceType.optional().describe('How the service is exposed; ClusterIP by default'),
    externalIPs: z
      .array(z.string())
      .optional()
      .describe('Extra IPs, managed outside the cluster, on which nodes accept traffic for the service')
      .meta(atomic),
    sessionAffinity: ServiceAffinity.optional().describe('Session affinity; None by default'),
    loadBalancerIP: z
      .string()
      .optional()
      .describe('Deprecated: IP the load balancer should use, if the provider supports it'),
    loadBalancerSourceRanges: z
      .array(z.string())
      .optional()
      .describe('Client CIDRs the load balancer admits, if the provider supports it')
      .meta(atomic),
    externalName: z.string().optional().describe('DNS name an ExternalName service aliases'),
    externalTrafficPolicy: TrafficPolicy.optional().describe(
      'Routing of traffic arriving on node ports, external and load-balancer IPs',
    ),
    healthCheckNodePort: int32
      .optional()
      .describe('Node port for load-balancer health checks (LoadBalancer with Local traffic policy)'),
    publishNotReadyAddresses: z.boolean().optional().describe('Publish endpoints of pods that are not ready'),
    sessionAffinityConfig: SessionAffinityConfig.optional().describe('Session affinity settings'),
    ipFamilies: z.array(IPFamily).optional().describe('IP families of the service, primary first').meta(atomic),
    ipFamilyPolicy: IPFamilyPolicy.optional().describe('Single- or dual-stack; SingleStack by default'),
    allocateLoadBalancerNodePorts: z
      .boolean()
      .optional()
      .describe('Whether LoadBalancer services get node ports; true by default'),
    loadBalancerClass: z.string().optional().describe('Load-balancer implementation this service belongs to'),
    internalTrafficPolicy: TrafficPolicy.optional().describe('Routing of traffic arriving on the cluster IP'),
    trafficDistribution: z
      .string()
      .optional()
      .describe('Preference for how traffic is spread over endpoints, e.g. PreferClose'),
  })
  .describe('The desired state of a service')
export type ServiceSpec = z.infer<typeof ServiceSpec>
export type ServicePort = z.infer<typeof ServicePort>

export const PortStatus = z
  .strictObject({
    port: int32.describe('Service port the record is about'),
    protocol: Protocol.describe('Protocol of the service port'),
    error: z.string().optional().describe('Problem with the port, a CamelCase reason'),
  })
  .describe('State of one service port on a load-balancer ingress')

export const LoadBalancerIngress = z
  .strictObject({
    ip: z.string().optional().describe('IP of an IP-based load-balancer ingress point'),
    hostname: z.string().optional().describe('DNS name of a DNS-based load-balancer ingress point'),
    ipMode: LoadBalancerIPMode.optional().describe('How traffic reaches the ingress IP: VIP or Proxy'),
    ports: z.array(PortStatus).optional().describe('State of each service port on this ingress').meta(atomic),
  })
  .describe('One load-balancer ingress point')

export const LoadBalancerStatus = z
  .strictObject({
    ingress: z.array(LoadBalancerIngress).optional().describe('Ingress points of the load balancer').meta(atomic),
  })
  .describe('State of a load balancer')

export const ServiceStatus = z
  .strictObject({
    loadBalancer: LoadBalancerStatus.optional().describe('State of the load balancer, if any'),
    conditions: z
      .array(Condition)
      .optional()
      .describe('Current conditions of the service')
      .meta({
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      }),
  })
  .describe('The observed state of a service')
export type ServiceStatus = z.infer<typeof ServiceStatus>

export const Service = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Service'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: ServiceSpec.optional().describe('Desired state of the service'),
    status: ServiceStatus.optional().describe(
      'Observed state, written by the control plane and load-balancer controllers',
    ),
  })
  .describe('A stable name, virtual IP and ports in front of a set of pods chosen by label')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Service' }] })
export type Service = z.infer<typeof Service>
