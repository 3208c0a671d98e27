// Projected volumes: several sources combined into one directory.
import { z } from 'zod'
import { int32, int64, StringMap } from './meta'
import { atomic } from './schema-helpers'
import { LabelSelector } from './pod-common'
import { DownwardAPIVolumeFile, KeyToPath } from './pod-volumes-files'

export const SecretProjection = z
  .strictObject({
    name: z.string().optional().describe('Name of the Secret'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    optional: z.boolean().optional().describe('Whether a missing Secret or key is tolerated'),
  })
  .describe('Secret keys projected into a volume')

export const DownwardAPIProjection = z
  .strictObject({
    items: z.array(DownwardAPIVolumeFile).optional().describe('Files to create').meta(atomic),
  })
  .describe('Pod information projected into a volume')

export const ConfigMapProjection = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap or key is tolerated'),
  })
  .describe('ConfigMap keys projected into a volume')

export const ServiceAccountTokenProjection = z
  .strictObject({
    audience: z.string().optional().describe('Intended audience of the token; the API server by default'),
    expirationSeconds: int64.optional().describe('Requested lifetime of the token'),
    path: z.string().describe('Relative file path of the token'),
  })
  .describe('A service account token projected into a volume and rotated by the kubelet')

export const ClusterTrustBundleProjection = z
  .strictObject({
    name: z.string().optional().describe('Select one bundle by name'),
    signerName: z.string().optional().describe('Select all bundles of this signer'),
    labelSelector: LabelSelector.optional().describe("Narrow the signer's bundles by label"),
    optional: z.boolean().optional().describe('Start the pod even if nothing matches'),
    path: z.string().describe('Relative file path of the bundle'),
  })
  .describe('ClusterTrustBundle certificates projected into a volume')

export const PodCertificateProjection = z
  .strictObject({
    signerName: z.string().describe('Signer the certificate requests are sent to'),
    keyType: z
      .enum(['RSA3072', 'RSA4096', 'ECDSAP256', 'ECDSAP384', 'ECDSAP521', 'ED25519'])
      .describe('Type of key pair the kubelet generates'),
    maxExpirationSeconds: int32.optional().describe('Longest certificate lifetime accepted'),
    credentialBundlePath: z.string().optional().describe('File holding the key followed by the certificate chain'),
    keyPath: z.string().optional().describe('File holding only the private key'),
    certificateChainPath: z.string().optional().describe('File holding only the certificate chain'),
    userAnnotations: StringMap.optional().describe('Extra information passed through to the signer'),
  })
  .describe('A key and certificate issued to the pod and projected into a volume')

export const VolumeProjection = z
  .strictObject({
    secret: SecretProjection.optional().describe('Project Secret keys'),
    downwardAPI: DownwardAPIProjection.optional().describe('Project pod information'),
    configMap: ConfigMapProjection.optional().describe('Project ConfigMap keys'),
    serviceAccountToken: ServiceAccountTokenProjection.optional().describe('Project a service account token'),
    clusterTrustBundle: ClusterTrustBundleProjection.optional().describe('Project trust bundle certificates'),
    podCertificate: PodCertificateProjection.optional().describe('Project a pod certificate and key'),
  })
  .describe('One source of a projected volume; set exactly one')

export const ProjectedVolumeSource = z
  .strictObject({
    sources: z.array(VolumeProjection).optional().describe('Sources merged into the volume').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
  })
  .describe('Several sources combined into one directory')
