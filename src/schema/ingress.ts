// networking.k8s.io/v1 Ingress (HTTP routing to services, with TLS) and IngressClass (which controller implements a
// class of ingresses). No ingress controller runs here: an Ingress keeps whatever status a client writes.
import { z } from 'zod'
import { ObjectMeta, int32 } from './meta'
import { Protocol, TypedLocalObjectReference } from './pod-common'
import { atomic } from './schema-helpers'

export const ServiceBackendPort = z
  .strictObject({
    name: z.string().optional().describe('Name of the service port'),
    number: int32.optional().describe('Number of the service port'),
  })
  .describe('A port of a service, by name or number')
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export const IngressServiceBackend = z
  .strictObject({
    name: z.string().describe('Name of the service'),
    // A struct in Go: always written ({} when unset).
    port: ServiceBackendPort.describe('Port of the service'),
  })
  .describe('A service as a backend')

export const IngressBackend = z
  .strictObject({
    service: IngressServiceBackend.optional().describe('A service to send traffic to'),
    resource: TypedLocalObjectReference.optional().describe('Another object to send traffic to'),
  })
  .describe('Where traffic goes')

export const HTTPIngressPath = z
  .strictObject({
    path: z.string().optional().describe('Path matched against the request path'),
    pathType: z.string().describe('Exact, Prefix or ImplementationSpecific'),
    backend: IngressBackend.describe('Where matching traffic goes'),
  })
  .describe('A path and the backend its traffic goes to')

export const HTTPIngressRuleValue = z
  .strictObject({
    paths: z.array(HTTPIngressPath).describe('Paths and their backends').meta(atomic),
  })
  .describe('HTTP routes of a rule')

export const IngressRule = z
  .strictObject({
    host: z.string().optional().describe('Host the rule applies to (a DNS name, possibly a *. wildcard)'),
    http: HTTPIngressRuleValue.optional().describe('HTTP routes'),
  })
  .describe('Routes for one host')

export const IngressTLS = z
  .strictObject({
    hosts: z.array(z.string()).optional().describe('Hosts the certificate covers').meta(atomic),
    secretName: z.string().optional().describe('Secret holding the certificate and key'),
  })
  .describe('TLS for some hosts')

export const IngressSpec = z
  .strictObject({
    ingressClassName: z.string().optional().describe('The IngressClass of this ingress'),
    defaultBackend: IngressBackend.optional().describe('Where traffic no rule matches goes'),
    tls: z.array(IngressTLS).optional().describe('TLS configuration').meta(atomic),
    rules: z.array(IngressRule).optional().describe('Host rules').meta(atomic),
  })
  .describe('The desired state of an ingress')

export const IngressPortStatus = z
  .strictObject({
    port: int32.describe('Port number'),
    protocol: Protocol.describe('Protocol of the port'),
    error: z.string().optional().describe('Problem with the port, CamelCase'),
  })
  .describe('The status of an ingress port')

export const IngressLoadBalancerIngress = z
  .strictObject({
    ip: z.string().optional().describe('IP address of the ingress point'),
    hostname: z.string().optional().describe('Host name of the ingress point'),
    ports: z.array(IngressPortStatus).optional().describe('Ports of the ingress point').meta(atomic),
  })
  .describe('An ingress point of the load balancer')

export const IngressLoadBalancerStatus = z
  .strictObject({
    ingress: z.array(IngressLoadBalancerIngress).optional().describe('Ingress points').meta(atomic),
  })
  .describe('The status of the load balancer')

export const IngressStatus = z
  .strictObject({
    loadBalancer: IngressLoadBalancerStatus.describe('The load balancer of the ingress'),
  })
  .describe('The observed state of an ingress')

export const Ingress = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Ingress'),
    apiVersion: z.string().optional().describe('Schema version of this object: networking.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: IngressSpec.optional().describe('The desired state of the ingress'),
    status: IngressStatus.optional().describe('The observed state of the ingress'),
  })
  .describe('Rules for routing outside HTTP(S) traffic to services')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' }] })

export type Ingress = z.infer<typeof Ingress>

export const IngressClassParametersReference = z
  .strictObject({
    apiGroup: z.string().optional().describe('API group of the referent'),
    kind: z.string().describe('Kind of the referent'),
    name: z.string().describe('Name of the referent'),
    scope: z.string().optional().describe('Cluster (default) or Namespace'),
    namespace: z.string().optional().describe('Namespace of the referent, when scope is Namespace'),
  })
  .describe('The object holding a class controller parameters')

export const IngressClassSpec = z
  .strictObject({
    controller: z.string().optional().describe('The controller implementing the class (a domain-prefixed path)'),
    parameters: IngressClassParametersReference.optional().describe('Parameters for the controller'),
  })
  .describe('The desired state of an ingress class')

export const IngressClass = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: IngressClass'),
    apiVersion: z.string().optional().describe('Schema version of this object: networking.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: IngressClassSpec.optional().describe('The desired state of the class'),
  })
  .describe('A class of ingresses and the controller implementing it')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'IngressClass' }] })

export type IngressClass = z.infer<typeof IngressClass>
