// The ServiceAccount plugin's mountable-secrets rule (kube 1.33 admission.go, limitSecretReferences and
// limitEphemeralContainerSecretReferences): a ServiceAccount annotated `kubernetes.io/enforce-mountable-secrets: "true"`
// admits only pods whose secret volumes and secret env / envFrom name secrets it lists in `secrets`, and whose
// imagePullSecrets it lists in its own `imagePullSecrets`.
import type { KubeObject } from '../../../schema/meta'
import type { PodSpec } from './pod-types'

const ENFORCE_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets'
/** strconv.ParseBool's true spellings; anything else (a bad value included) is false. */
const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True']

export type MountableSecretsAccount = KubeObject & {
  secrets?: { name?: string }[]
  imagePullSecrets?: { name?: string }[]
}

type Container = {
  name?: string
  env?: { name?: string; valueFrom?: { secretKeyRef?: { name?: string } } }[]
  envFrom?: { secretRef?: { name?: string } }[]
}

/** enforceMountableSecrets: whether the ServiceAccount asks for the rule. */
export function enforcesMountableSecrets(sa: MountableSecretsAccount): boolean {
  return TRUE.includes(sa.metadata.annotations?.[ENFORCE_ANNOTATION] ?? '')
}

const names = (refs: { name?: string }[] | undefined) => new Set((refs ?? []).map((r) => r.name ?? ''))

/** The first container env or envFrom naming a secret the ServiceAccount does not list; `kind` words the message. */
function containerRefusal(kind: string, containers: Container[], mountable: Set<string>, sa: string): string | null {
  const tail = `is not allowed because service account ${sa} does not reference that secret`
  for (const c of containers) {
    for (const env of c.env ?? []) {
      const secret = env.valueFrom?.secretKeyRef
      if (secret && !mountable.has(secret.name ?? ''))
        return `${kind} ${c.name ?? ''} with envVar ${env.name ?? ''} referencing secret.secretName="${secret.name ?? ''}" ${tail}`
    }
    for (const from of c.envFrom ?? []) {
      if (from.secretRef && !mountable.has(from.secretRef.name ?? ''))
        return `${kind} ${c.name ?? ''} with envFrom referencing secret.secretName="${from.secretRef.name ?? ''}" ${tail}`
    }
  }
  return null
}

/** limitSecretReferences, on a create: the first reference the ServiceAccount does not allow, or null. */
export function limitSecretReferences(sa: MountableSecretsAccount, spec: PodSpec): string | null {
  const name = sa.metadata.name ?? ''
  const mountable = names(sa.secrets)
  for (const v of spec.volumes ?? []) {
    const secret = v.secret?.secretName ?? ''
    if (v.secret && !mountable.has(secret))
      return `volume with secret.secretName="${secret}" is not allowed because service account ${name} does not reference that secret`
  }
  const refused =
    containerRefusal('init container', (spec.initContainers ?? []) as Container[], mountable, name) ??
    containerRefusal('container', (spec.containers ?? []) as Container[], mountable, name)
  if (refused) return refused
  const pullable = names(sa.imagePullSecrets)
  const pulls = spec.imagePullSecrets ?? []
  for (let i = 0; i < pulls.length; i++) {
    const secret = pulls[i]?.name ?? ''
    if (!pullable.has(secret))
      return `imagePullSecrets[${i}].name="${secret}" is not allowed because service account ${name} does not reference that imagePullSecret`
  }
  return null
}

/** limitEphemeralContainerSecretReferences' rule: ephemeral containers' env and envFrom only. */
export function limitEphemeralSecretReferences(sa: MountableSecretsAccount, spec: PodSpec): string | null {
  const containers = (spec.ephemeralContainers ?? []) as Container[]
  return containerRefusal('ephemeral container', containers, names(sa.secrets), sa.metadata.name ?? '')
}
