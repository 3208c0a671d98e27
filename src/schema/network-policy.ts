// networking.k8s.io/v1 NetworkPolicy: which traffic pods selected in a namespace may receive and send. Stored and
// validated as kube-apiserver does; enforcing it is a network plugin's work, and none runs here.
import { z } from 'zod'
import { IntOrString, ObjectMeta, int32 } from './meta'
import { LabelSelector, Protocol } from './pod-common'
import { atomic } from './schema-helpers'

export const NetworkPolicyPort = z
  .strictObject({
    protocol: Protocol.optional().describe('TCP, UDP or SCTP; TCP by default').meta({ default: 'TCP' }),
    port: IntOrString.optional().describe('A port number or named port; every port when unset'),
    endPort: int32.optional().describe('With a numeric port, the last port of the range starting there'),
  })
  .describe('A port or range of ports a rule allows')

export const IPBlock = z
  .strictObject({
    cidr: z.string().describe('The allowed range, as a CIDR'),
    except: z.array(z.string()).optional().describe('Ranges inside cidr left out').meta(atomic),
  })
  .describe('A range of IP addresses a rule allows')

export const NetworkPolicyPeer = z
  .strictObject({
    podSelector: LabelSelector.optional().describe('Pods allowed (in the policy namespace unless namespaceSelector)'),
    namespaceSelector: LabelSelector.optional().describe('Namespaces whose pods are allowed'),
    ipBlock: IPBlock.optional().describe('Addresses allowed; excludes the other two'),
  })
  .describe('Who a rule allows traffic from or to')

export const NetworkPolicyIngressRule = z
  .strictObject({
    ports: z.array(NetworkPolicyPort).optional().describe('Ports allowed; every port when empty').meta(atomic),
    from: z.array(NetworkPolicyPeer).optional().describe('Sources allowed; every source when empty').meta(atomic),
  })
  .describe('Traffic a selected pod may receive')

export const NetworkPolicyEgressRule = z
  .strictObject({
    ports: z.array(NetworkPolicyPort).optional().describe('Ports allowed; every port when empty').meta(atomic),
    to: z.array(NetworkPolicyPeer).optional().describe('Destinations allowed; every one when empty').meta(atomic),
  })
  .describe('Traffic a selected pod may send')

export const NetworkPolicySpec = z
  .strictObject({
    // A struct in Go: always written ({} selects every pod of the namespace).
    podSelector: LabelSelector.describe('Pods the policy applies to; an empty selector selects all'),
    ingress: z.array(NetworkPolicyIngressRule).optional().describe('Incoming traffic allowed').meta(atomic),
    egress: z.array(NetworkPolicyEgressRule).optional().describe('Outgoing traffic allowed').meta(atomic),
    policyTypes: z
      .array(z.string())
      .optional()
      .describe('Ingress, Egress or both: which directions the policy isolates')
      .meta(atomic),
  })
  .describe('The desired state of a network policy')

export const NetworkPolicy = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: NetworkPolicy'),
    apiVersion: z.string().optional().describe('Schema version of this object: networking.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: NetworkPolicySpec.optional().describe('The desired state of the policy'),
  })
  .describe('Which network traffic selected pods may receive and send')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy' }] })

export type NetworkPolicy = z.infer<typeof NetworkPolicy>
