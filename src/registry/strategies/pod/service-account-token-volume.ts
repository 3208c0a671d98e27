// The ServiceAccount admission's API access volume (plugin/pkg/admission/serviceaccount/admission.go of kube 1.33,
// mountServiceAccountToken and TokenVolumeSource): a projected `kube-api-access-<5 random>` volume holding a bound
// token, the cluster's CA and the namespace, mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in
// every init and regular container (ephemeral containers are added later, through a subresource kube's plugin
// ignores), so a program in the pod finds what client-go's InClusterConfig reads.
import { generateName } from '../../generate-name'
import type { PodSpec, ProjectedVolumeSource, VolumeMount } from './pod-types'

/** ServiceAccountVolumeName: the prefix of the volume's name. */
const API_ACCESS_VOLUME_PREFIX = 'kube-api-access-'
/** DefaultAPITokenMountPath. */
const API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount'
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and 7 s, a value no one would choose by hand. */
const WARN_ONLY_EXPIRATION_SECONDS = 3607
/** v1.ProjectedVolumeSourceDefaultMode (0644), set explicitly as kube does (#104464). */
const PROJECTED_DEFAULT_MODE = 420

/** TokenVolumeSource. */
function tokenVolumeSource(): ProjectedVolumeSource {
  return {
    defaultMode: PROJECTED_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: WARN_ONLY_EXPIRATION_SECONDS } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
  } as ProjectedVolumeSource
}

/**
 * mountServiceAccountToken: every init and regular container that mounts nothing at the token path gets the mount; the
 * volume is added when one did and the pod has no `kube-api-access-*` volume yet (an existing one is reused by name).
 */
export function mountServiceAccountToken(spec: PodSpec) {
  const existing = (spec.volumes ?? []).find((v) => v.name?.startsWith(API_ACCESS_VOLUME_PREFIX))
  const volumeName = existing?.name ?? generateName(API_ACCESS_VOLUME_PREFIX)
  let needsVolume = false
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const mounts: VolumeMount[] = container.volumeMounts ?? []
    if (mounts.some((m) => m.mountPath === API_TOKEN_MOUNT_PATH)) continue
    container.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: API_TOKEN_MOUNT_PATH }]
    needsVolume = true
  }
  if (!existing && needsVolume)
    spec.volumes = [...(spec.volumes ?? []), { name: volumeName, projected: tokenVolumeSource() }]
}
