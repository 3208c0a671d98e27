// The service account tokens of a pod's projected volumes, as kubelet's token manager keeps them: asked of the
// TokenRequest API as the node (the Node authorizer lets a node ask for the accounts of pods bound to it, bound to
// such a pod), one per audience and lifetime, asked again at 80% of its life (or after 24 h).
import type { KubeClient } from '../kube-client.ts'
import type { Obj } from '../obj.ts'

const DAY_MS = 24 * 3600 * 1000

export class PodTokens {
  private readonly cache = new Map<string, { token: string; refreshAt: number }>()
  private readonly client: KubeClient

  constructor(client: KubeClient) {
    this.client = client
  }

  /** A token of `pod`'s service account for `audience` (the API's own when none), bound to the pod. */
  async get(pod: Obj, audience: string | undefined, seconds: number): Promise<string> {
    const key = `${audience ?? ''}|${seconds}`
    const cached = this.cache.get(key)
    if (cached && Date.now() < cached.refreshAt) return cached.token
    const { namespace, name, uid } = pod.metadata
    const account = pod.spec?.serviceAccountName || 'default'
    const tr = await this.client.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        ...(audience ? { audiences: [audience] } : {}),
        expirationSeconds: seconds,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid },
      },
    })
    const token = String(tr.status?.token ?? '')
    const now = Date.now()
    const expires = Date.parse(tr.status?.expirationTimestamp ?? '') || now + seconds * 1000
    this.cache.set(key, { token, refreshAt: now + Math.min(0.8 * (expires - now), DAY_MS) })
    return token
  }
}
