// The v1beta1 Service table: one port (port, protocol, containerPort), selector, createExternalLoadBalancer, portalIP
// and publicIPs, against core/v1 Service (its first port; further v1 ports are kept by a v1beta1 PUT).
import type { Row } from './fields'
import { ENVELOPE } from './pod'

export const SERVICE_ROWS: Row[] = [
  ...ENVELOPE,
  { beta: 'port', v1: 'spec.ports.0.port' },
  { beta: 'protocol', v1: 'spec.ports.0.protocol' },
  { beta: 'containerPort', v1: 'spec.ports.0.targetPort' },
  // Serialized even when empty; an empty v1beta1 selector is v1's "no selector" (endpoints managed elsewhere).
  {
    beta: 'selector',
    v1: 'spec.selector',
    toBeta: (v) => v ?? {},
    toV1: (v) => (v && typeof v === 'object' && Object.keys(v).length > 0 ? v : undefined),
  },
  // The 2014 flag is v1's LoadBalancer type; turning it off goes back to ClusterIP, other v1 types are left alone.
  {
    beta: 'createExternalLoadBalancer',
    v1: 'spec.type',
    mode: 'keep',
    toBeta: (v) => v === 'LoadBalancer',
    toV1: (v, _beta, base) => (v === true ? 'LoadBalancer' : base === 'LoadBalancer' ? 'ClusterIP' : base),
  },
  // Allocated by the master and immutable: a PUT without it keeps it.
  { beta: 'portalIP', v1: 'spec.clusterIP', mode: 'keep' },
  { beta: 'publicIPs', v1: 'spec.externalIPs' },
  { beta: 'sessionAffinity', v1: 'spec.sessionAffinity' },
]
