// The configuration and storage kinds in the OpenAPI v3 documents under the component names kube publishes, so
// kubectl explain and typed clients find the nested types (secret references of volumes, ingress backends, ...).
import { describe, expect, it } from 'vitest'
import { req } from '../../helpers'

const CORE = 'io.k8s.api.core.v1'
const NETWORKING = 'io.k8s.api.networking.v1'

const EXPECTED: [doc: string, names: string[]][] = [
  [
    '/openapi/v3/api/v1',
    [
      `${CORE}.ConfigMap`,
      `${CORE}.Secret`,
      `${CORE}.PersistentVolumeClaim`,
      `${CORE}.PersistentVolumeClaimStatus`,
      `${CORE}.PersistentVolume`,
      `${CORE}.PersistentVolumeSpec`,
      `${CORE}.SecretReference`,
      `${CORE}.GlusterfsPersistentVolumeSource`,
      `${CORE}.RBDPersistentVolumeSource`,
      `${CORE}.ISCSIPersistentVolumeSource`,
      `${CORE}.CinderPersistentVolumeSource`,
      `${CORE}.CephFSPersistentVolumeSource`,
      `${CORE}.FlexPersistentVolumeSource`,
      `${CORE}.AzureFilePersistentVolumeSource`,
      `${CORE}.ScaleIOPersistentVolumeSource`,
      `${CORE}.LocalVolumeSource`,
      `${CORE}.StorageOSPersistentVolumeSource`,
      `${CORE}.CSIPersistentVolumeSource`,
      `${CORE}.VolumeNodeAffinity`,
    ],
  ],
  [
    '/openapi/v3/apis/coordination.k8s.io/v1',
    ['io.k8s.api.coordination.v1.Lease', 'io.k8s.api.coordination.v1.LeaseSpec'],
  ],
  [
    '/openapi/v3/apis/networking.k8s.io/v1',
    [
      `${NETWORKING}.Ingress`,
      `${NETWORKING}.IngressSpec`,
      `${NETWORKING}.IngressBackend`,
      `${NETWORKING}.IngressServiceBackend`,
      `${NETWORKING}.ServiceBackendPort`,
      `${NETWORKING}.HTTPIngressRuleValue`,
      `${NETWORKING}.IngressTLS`,
      `${NETWORKING}.IngressStatus`,
      `${NETWORKING}.IngressLoadBalancerStatus`,
      `${NETWORKING}.IngressLoadBalancerIngress`,
      `${NETWORKING}.IngressPortStatus`,
      `${NETWORKING}.IngressClass`,
      `${NETWORKING}.IngressClassSpec`,
      `${NETWORKING}.IngressClassParametersReference`,
    ],
  ],
]

describe('OpenAPI v3 components of the configuration and storage kinds', () => {
  for (const [doc, names] of EXPECTED) {
    it(doc, async () => {
      const r = await req('GET', doc)
      expect(r.status).toBe(200)
      const components = Object.keys(r.json.components.schemas)
      for (const name of names) expect(components, name).toContain(name)
    })
  }
})
