// discovery.k8s.io/v1 EndpointSlice: a slice of the network endpoints behind a service, kept by the EndpointSlice
// controller for services with a selector (one slice per service here) and written by hand for others.
import { z } from 'zod'
import { ObjectMeta, int32 } from './meta'
import { ObjectReference } from './object-reference'
import { Protocol } from './pod'

const atomic = { 'x-kubernetes-list-type': 'atomic' } as const
const atomicStruct = { 'x-kubernetes-map-type': 'atomic' } as const

export const AddressType = z.enum(['IPv4', 'IPv6', 'FQDN']).describe('The type of address an EndpointSlice carries')

const EndpointConditions = z
  .strictObject({
    ready: z.boolean().optional().describe('The endpoint is ready to receive traffic; unknown when unset'),
    serving: z.boolean().optional().describe('The endpoint is serving, whether or not it is terminating'),
    terminating: z.boolean().optional().describe('The endpoint is terminating'),
  })
  .describe('The current condition of an endpoint')

const ForZone = z
  .strictObject({ name: z.string().describe('Name of the zone') })
  .describe('A zone that should consume this endpoint')
const ForNode = z
  .strictObject({ name: z.string().describe('Name of the node') })
  .describe('A node that should consume this endpoint')

const EndpointHints = z
  .strictObject({
    forZones: z.array(ForZone).optional().describe('Zones that should consume this endpoint').meta(atomic),
    forNodes: z.array(ForNode).optional().describe('Nodes that should consume this endpoint').meta(atomic),
  })
  .describe('Hints describing how an endpoint should be consumed')

const Endpoint = z
  .strictObject({
    addresses: z
      .array(z.string())
      .describe('The addresses of this endpoint, of the slice addressType; at least one')
      .meta({ 'x-kubernetes-list-type': 'set' }),
    conditions: EndpointConditions.optional().describe('The current state of the endpoint'),
    hostname: z.string().optional().describe('Hostname of this endpoint, a DNS label'),
    targetRef: ObjectReference.optional().describe('The object (usually a pod) providing the endpoint'),
    deprecatedTopology: z.record(z.string(), z.string()).optional().describe('Deprecated topology information'),
    nodeName: z.string().optional().describe('Node hosting the endpoint'),
    zone: z.string().optional().describe('Zone of the endpoint'),
    hints: EndpointHints.optional().describe('How the endpoint should be consumed'),
  })
  .describe('One endpoint of an EndpointSlice')

export const EndpointPort = z
  .strictObject({
    name: z.string().optional().describe('Name of the port, the service port name; unique in the slice'),
    protocol: Protocol.optional().describe('IP protocol of the port; TCP by default'),
    port: int32.optional().describe('Port number of the endpoint; unset means every port'),
    appProtocol: z.string().optional().describe('Application protocol of the port'),
  })
  .describe('One port of an EndpointSlice')
  .meta(atomicStruct)

export const EndpointSlice = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: EndpointSlice'),
    apiVersion: z.string().optional().describe('Schema version of this object: discovery.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    addressType: AddressType.describe('The type of the addresses of this slice: IPv4, IPv6 or FQDN'),
    endpoints: z.array(Endpoint).describe('The endpoints of this slice, at most 1000').meta(atomic),
    ports: z.array(EndpointPort).optional().describe('The ports every endpoint of this slice offers').meta(atomic),
  })
  .describe('A subset of the endpoints that implement a service')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' }] })

export type EndpointSlice = z.infer<typeof EndpointSlice>
export type SliceEndpoint = z.infer<typeof Endpoint>
export type SlicePort = z.infer<typeof EndpointPort>
