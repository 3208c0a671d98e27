// kube 1.33's ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go) as it judges pods:
// on a create, the pod's ServiceAccount must exist (its token volume and pull secrets come from it) and a mirror pod
// may name none, nor secrets or token projections; through pods/ephemeralcontainers, the pod's ServiceAccount must
// still exist; a ServiceAccount enforcing mountable secrets limits the secrets its pods use. Its refusals are
// Forbidden (the store wraps the reasons answered here).
import { goQuote } from '../../go-strings'
import { podSecretNames } from '../../node-graph/pod-references'
import type { StrategyContext } from '../../strategy'
import {
  enforcesMountableSecrets,
  limitEphemeralSecretReferences,
  limitSecretReferences,
  type MountableSecretsAccount,
} from './mountable-secrets'
import { MIRROR_POD_ANNOTATION } from './pod-validation-annotations'
import type { PodObject, PodSpec } from './pod-types'
import { mountServiceAccountToken } from './service-account-token-volume'

type ServiceAccountLike = MountableSecretsAccount & { automountServiceAccountToken?: boolean }

type Lookup = { sa: ServiceAccountLike } | { refused: string }

export const isMirrorPod = (pod: PodObject) => pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined

/**
 * getServiceAccount: the ServiceAccount as this host stores it now. kube reads its informer, then the API (ten times
 * over a second or two for `default`, which its controller should be making); here the namespace's own object makes
 * `default` before it plans a pod (NamespacePolicy.admitCreate), so the store is never behind a controller.
 */
function lookUp(name: string, ctx: StrategyContext): Lookup | null {
  if (!ctx.lookup) return null
  const sa = ctx.lookup('serviceaccounts', name) as ServiceAccountLike | null
  if (sa) return { sa }
  // errors.NewNotFound(api.Resource("serviceaccount"), name), wrapped with %w.
  return {
    refused: `error looking up service account ${ctx.namespace}/${name}: serviceaccount ${goQuote(name)} not found`,
  }
}

/**
 * Admit, on a create of a pod that is not a mirror pod (its serviceAccountName already defaulted to `default`): the
 * ServiceAccount must exist; then the API access volume unless the pod, else the ServiceAccount, says
 * `automountServiceAccountToken: false` (shouldAutomount), and the ServiceAccount's imagePullSecrets when the pod
 * names none. Answers the refusal, or null.
 */
export function admitServiceAccount(spec: PodSpec, ctx: StrategyContext): string | null {
  const found = lookUp(spec.serviceAccountName ?? '', ctx)
  if (found && 'refused' in found) return found.refused
  const sa = found?.sa
  const automount = spec.automountServiceAccountToken ?? sa?.automountServiceAccountToken ?? true
  if (automount) mountServiceAccountToken(spec)
  if (!spec.imagePullSecrets?.length && sa?.imagePullSecrets?.length)
    spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name }))
  return null
}

/** Validate's checks of a mirror pod (the kubelet makes it; it may name nothing the plugin hands out). */
function validateMirrorPod(pod: PodObject): string | null {
  const spec = pod.spec
  // The v1 `serviceAccount` field converts into serviceAccountName when that is empty.
  if (spec.serviceAccountName || spec.serviceAccount) return 'a mirror pod may not reference service accounts'
  if (podSecretNames(pod).length > 0) return 'a mirror pod may not reference secrets'
  if ((spec.volumes ?? []).some((v) => v.projected?.sources?.some((s) => s.serviceAccountToken)))
    return 'a mirror pod may not use ServiceAccountToken volume projections'
  return null
}

/**
 * Validate, after the pod validated: a mirror pod's restrictions on a create, and another pod's ServiceAccount must
 * allow the secrets it uses when it enforces mountable secrets (./mountable-secrets.ts); through
 * pods/ephemeralcontainers (limitEphemeralContainerSecretReferences), a pod naming no ServiceAccount (a mirror pod) or
 * one that is gone is refused, and the ephemeral containers' secrets are judged the same way. Other updates are not.
 */
export function validateServiceAccount(pod: PodObject, ctx: StrategyContext, old: PodObject | null): string | null {
  if (old === null && isMirrorPod(pod)) return validateMirrorPod(pod)
  if (old !== null && ctx.subresource !== 'ephemeralcontainers') return null
  const name = pod.spec.serviceAccountName ?? ''
  if (!name) return `no service account specified for pod ${ctx.namespace}/${pod.metadata?.name ?? ''}`
  const found = lookUp(name, ctx)
  if (!found) return null
  if ('refused' in found) return found.refused
  if (!enforcesMountableSecrets(found.sa)) return null
  return old === null ? limitSecretReferences(found.sa, pod.spec) : limitEphemeralSecretReferences(found.sa, pod.spec)
}
