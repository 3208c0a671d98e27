// What kube-apiserver keeps in place from its first moment: the `kubernetes` service in `default`, with the
// Endpoints and EndpointSlice that point at the API server itself (kube's bootstrap and endpoint reconciler).
import type { KubeObject } from '../schema/meta'

/** The address the `kubernetes` endpoints give for the API server when APISERVER_ADDRESS is unset. */
export const DEFAULT_APISERVER_ADDRESS = '10.0.0.2'
/** The port kube-apiserver listens on behind the service's 443. */
const APISERVER_PORT = 6443

export const KUBERNETES_SERVICE = 'kubernetes'

/** The service as kube's controlplane creates it: the range's first address, https 443 → 6443, no selector. */
export function kubernetesService(clusterIP: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: KUBERNETES_SERVICE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: APISERVER_PORT }],
      sessionAffinity: 'None',
    },
  }
}

/** The Endpoints the endpoint reconciler writes; skip-mirror keeps the mirroring controller off it, as in kube. */
export function kubernetesEndpoints(address: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: KUBERNETES_SERVICE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port: APISERVER_PORT, protocol: 'TCP' }] }],
  }
}

/** The EndpointSlice the reconciler derives from those Endpoints (no managed-by label: no controller owns it). */
export function kubernetesEndpointSlice(address: string): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: KUBERNETES_SERVICE, labels: { 'kubernetes.io/service-name': KUBERNETES_SERVICE } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: [{ name: 'https', port: APISERVER_PORT, protocol: 'TCP' }],
  }
}
