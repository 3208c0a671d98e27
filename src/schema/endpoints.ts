// core/v1 Endpoints: the addresses and ports behind a service, kept by the endpoints controller for services with a
// selector and written by hand (or another controller) for services without one.
import { z } from 'zod'
import { ObjectMeta, int32 } from './meta'
import { ObjectReference } from './object-reference'
import { Protocol } from './pod'

const atomic = { 'x-kubernetes-list-type': 'atomic' } as const
const atomicStruct = { 'x-kubernetes-map-type': 'atomic' } as const

export const EndpointAddress = z
  .strictObject({
    ip: z.string().describe('IP of the endpoint; not loopback, link-local or link-local multicast'),
    hostname: z.string().optional().describe('Hostname of the endpoint, a DNS label'),
    nodeName: z.string().optional().describe('Node hosting the endpoint'),
    targetRef: ObjectReference.optional().describe('The object (usually a pod) providing the endpoint'),
  })
  .describe('One address of an endpoint')
  .meta(atomicStruct)

export const EndpointPort = z
  .strictObject({
    name: z
      .string()
      .optional()
      .describe('Name of the port, matching the service port name; required with more than one port'),
    port: int32.describe('Port number of the endpoint'),
    protocol: Protocol.optional().describe('IP protocol of the port; TCP by default'),
    appProtocol: z.string().optional().describe('Application protocol of the port'),
  })
  .describe('One port of an endpoint')
  .meta(atomicStruct)

export const EndpointSubset = z
  .strictObject({
    addresses: z.array(EndpointAddress).optional().describe('Addresses ready to receive traffic').meta(atomic),
    notReadyAddresses: z
      .array(EndpointAddress)
      .optional()
      .describe('Addresses not ready yet, or recently failing their readiness checks')
      .meta(atomic),
    ports: z.array(EndpointPort).optional().describe('Ports every address of this subset offers').meta(atomic),
  })
  .describe('A group of addresses sharing the same ports')

export const Endpoints = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Endpoints'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    subsets: z.array(EndpointSubset).optional().describe('The addresses and ports of the service').meta(atomic),
  })
  .describe('The network endpoints behind a service')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Endpoints' }] })
export type Endpoints = z.infer<typeof Endpoints>
export type EndpointSubset = z.infer<typeof EndpointSubset>
export type EndpointAddress = z.infer<typeof EndpointAddress>
export type EndpointPort = z.infer<typeof EndpointPort>
