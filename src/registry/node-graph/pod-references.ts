// What a pod names of other objects, walked as kube's visitors walk it (pkg/api/v1/pod/util.go VisitPodSecretNames and
// VisitPodConfigmapNames over every container, init and ephemeral included; the claims of persistentVolumeClaim and
// ephemeral volumes; spec.resourceClaims as resourceclaim.Name resolves them): the Node authorizer's edges from a pod,
// and what NodeRestriction forbids a mirror pod to name.

type Obj = Record<string, any>

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : [])
const named = (names: (string | undefined)[]): string[] => names.filter((n): n is string => !!n)

/** kube's AllContainers: init containers, containers, ephemeral containers. */
function allContainers(spec: Obj): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)]
}

/** Secret names a pod refers to (image pull secrets, env and envFrom, volumes), empty names skipped. */
export function podSecretNames(pod: Obj): string[] {
  const spec: Obj = pod.spec ?? {}
  const names: (string | undefined)[] = list(spec.imagePullSecrets).map((r) => r.name)
  for (const c of allContainers(spec)) {
    for (const from of list(c.envFrom)) if (from.secretRef) names.push(from.secretRef.name)
    for (const env of list(c.env)) if (env.valueFrom?.secretKeyRef) names.push(env.valueFrom.secretKeyRef.name)
  }
  for (const v of list(spec.volumes)) {
    // One source per volume, checked in kube's switch order.
    if (v.azureFile) names.push(v.azureFile.secretName)
    else if (v.cephfs) names.push(v.cephfs.secretRef?.name)
    else if (v.cinder) names.push(v.cinder.secretRef?.name)
    else if (v.flexVolume) names.push(v.flexVolume.secretRef?.name)
    else if (v.projected) for (const s of list(v.projected.sources)) names.push(s.secret ? s.secret.name : undefined)
    else if (v.rbd) names.push(v.rbd.secretRef?.name)
    else if (v.secret) names.push(v.secret.secretName)
    else if (v.scaleIO) names.push(v.scaleIO.secretRef?.name)
    else if (v.iscsi) names.push(v.iscsi.secretRef?.name)
    else if (v.storageos) names.push(v.storageos.secretRef?.name)
    else if (v.csi) names.push(v.csi.nodePublishSecretRef?.name)
  }
  return named(names)
}

/** ConfigMap names a pod refers to (env and envFrom, configMap and projected volumes), empty names skipped. */
export function podConfigMapNames(pod: Obj): string[] {
  const spec: Obj = pod.spec ?? {}
  const names: (string | undefined)[] = []
  for (const c of allContainers(spec)) {
    for (const from of list(c.envFrom)) if (from.configMapRef) names.push(from.configMapRef.name)
    for (const env of list(c.env)) if (env.valueFrom?.configMapKeyRef) names.push(env.valueFrom.configMapKeyRef.name)
  }
  for (const v of list(spec.volumes)) {
    if (v.projected) for (const s of list(v.projected.sources)) names.push(s.configMap ? s.configMap.name : undefined)
    else if (v.configMap) names.push(v.configMap.name)
  }
  return named(names)
}

/** PersistentVolumeClaim names: persistentVolumeClaim volumes and ephemeral ones (`<pod>-<volume>`). */
export function podClaimNames(pod: Obj): string[] {
  const names: string[] = []
  for (const v of list(pod.spec?.volumes)) {
    if (v.persistentVolumeClaim) names.push(v.persistentVolumeClaim.claimName ?? '')
    else if (v.ephemeral) names.push(`${pod.metadata?.name ?? ''}-${v.name ?? ''}`)
  }
  return names.filter((n) => n !== '')
}

/**
 * ResourceClaim names of spec.resourceClaims as resourceclaim.Name resolves them: the claim named directly, or the
 * one status.resourceClaimStatuses records for a template; a template whose claim is not recorded yet names none.
 */
export function podResourceClaimNames(pod: Obj): string[] {
  const statuses = list(pod.status?.resourceClaimStatuses)
  const names: string[] = []
  for (const claim of list(pod.spec?.resourceClaims)) {
    if (claim.resourceClaimName) names.push(claim.resourceClaimName)
    else if (claim.resourceClaimTemplateName) {
      const recorded = statuses.find((s) => s.name === claim.name)
      if (recorded?.resourceClaimName) names.push(recorded.resourceClaimName)
    }
  }
  return names
}

/** Whether a projected volume of the pod carries a ClusterTrustBundle source. */
export function podProjectsClusterTrustBundle(pod: Obj): boolean {
  return list(pod.spec?.volumes).some((v) => list(v.projected?.sources).some((s) => s.clusterTrustBundle))
}

/** Whether a volume of the pod names a PersistentVolumeClaim (ephemeral volumes do not count, as in kube). */
export function podHasClaimVolume(pod: Obj): boolean {
  return list(pod.spec?.volumes).some((v) => v.persistentVolumeClaim)
}
