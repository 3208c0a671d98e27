// Deployments for the controller tests, and waiting for a rollout to finish as `kubectl rollout status` judges it.
import { req, waitFor } from '../helpers'

export const deployment = (
  name: string,
  replicas: number,
  image = 'nginx:1.25',
  spec: Record<string, unknown> = {},
) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    ...spec,
  },
})

export const dPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`
export const rsPath = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/replicasets${name ? `/${name}` : ''}`
export const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`

const MERGE = { 'content-type': 'application/merge-patch+json' }
const STRATEGIC = { 'content-type': 'application/strategic-merge-patch+json' }

export const mergePatch = (path: string, body: unknown) => req('PATCH', path, body, MERGE)

/** What `kubectl set image deployment/<name> c=<image>` sends. */
export const setImage = (ns: string, name: string, image: string) =>
  req('PATCH', dPath(ns, name), { spec: { template: { spec: { containers: [{ name: 'c', image }] } } } }, STRATEGIC)

/** Waits until the rollout is done as kubectl rollout status sees it (and the Progressing reason says so). */
export function rolledOut(ns: string, name: string, ms = 15_000) {
  return waitFor(
    `${name} rolled out`,
    async () => {
      const d = (await req('GET', dPath(ns, name))).json
      const s = d.status ?? {}
      const want = d.spec.replicas
      const progressing = (s.conditions ?? []).find((c: any) => c.type === 'Progressing')
      const done =
        (s.observedGeneration ?? 0) >= d.metadata.generation &&
        (s.updatedReplicas ?? 0) === want &&
        (s.replicas ?? 0) === want &&
        (s.availableReplicas ?? 0) === want &&
        progressing?.reason === 'NewReplicaSetAvailable'
      return done ? d : undefined
    },
    ms,
  )
}

/** The Deployment's ReplicaSets, oldest revision first. */
export async function replicaSets(ns: string) {
  const items = (await req('GET', rsPath(ns))).json.items as any[]
  const rev = (rs: any) => Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0)
  return items.sort((a, b) => rev(a) - rev(b))
}
