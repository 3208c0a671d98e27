// The `deploy` phase of `npm run bench` (bench/run.mjs calls it): a 100-replica Deployment confined to 10 virtual
// nodes (required node affinity on kubernetes.io/hostname), timed from its create to 100 available pods, then a
// rolling update to a new image (the default 25% surge / 25% unavailable) timed to the rollout's end as
// `kubectl rollout status` judges it. The simulated kubelet keeps its wrangler.toml start and stop delays.
import { setTimeout as sleep } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'

const REPLICAS = 100
const NODES = Array.from({ length: 10 }, (_, i) => `node-${i + 1}`)

const manifest = (name) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: REPLICAS,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        containers: [{ name: 'web', image: 'nginx:1.25' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: NODES }] },
              ],
            },
          },
        },
      },
    },
  },
})

/** Polls the Deployment until `done(d)`; answers the seconds since `t0` and the last object, or null on timeout. */
async function until(request, path, done, t0, timeoutS) {
  for (;;) {
    const r = await request({ path })
    const d = r.status === 200 ? JSON.parse(r.body) : null
    if (d && done(d)) return { seconds: (performance.now() - t0) / 1000, d }
    if (performance.now() - t0 > timeoutS * 1000) return null
    await sleep(50)
  }
}

/** kubectl rollout status's "successfully rolled out", for the Deployment's current generation. */
const rolledOut = (d) => {
  const s = d.status ?? {}
  return (
    (s.observedGeneration ?? 0) >= d.metadata.generation &&
    s.updatedReplicas === REPLICAS &&
    s.replicas === REPLICAS &&
    s.availableReplicas === REPLICAS
  )
}

/**
 * Runs the phase in namespace `ns` with bench/run.mjs's `request`; answers
 * {create: {seconds, podsPerSecond}, rollout: {seconds, podsPerSecond}, nodes} or {error}.
 */
export async function deploymentPhase(request, ns, { timeoutS = 120 } = {}) {
  const path = `/apis/apps/v1/namespaces/${ns}/deployments`
  const t0 = performance.now()
  const c = await request({ method: 'POST', path, body: JSON.stringify(manifest('bench-web')) })
  if (c.status !== 201) return { error: `create: ${c.status} ${c.body.slice(0, 200)}` }
  const created = await until(request, `${path}/bench-web`, rolledOut, t0, timeoutS)
  if (!created) return { error: `not ${REPLICAS} available within ${timeoutS} s` }
  const t1 = performance.now()
  const patch = { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } }
  const p = await request({
    method: 'PATCH',
    path: `${path}/bench-web`,
    body: JSON.stringify(patch),
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
  })
  if (p.status !== 200) return { error: `set image: ${p.status} ${p.body.slice(0, 200)}` }
  const generation = JSON.parse(p.body).metadata.generation
  const rolled = await until(
    request,
    `${path}/bench-web`,
    (d) => d.metadata.generation >= generation && rolledOut(d),
    t1,
    timeoutS,
  )
  if (!rolled) return { error: `rolling update not done within ${timeoutS} s` }
  const pods = await request({ path: `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dbench-web` })
  const nodes = new Set(JSON.parse(pods.body).items.map((p) => p.spec.nodeName)).size
  const r2 = (x) => Math.round(x * 100) / 100
  return {
    create: { seconds: r2(created.seconds), podsPerSecond: r2(REPLICAS / created.seconds) },
    // A rolling update replaces every pod: REPLICAS created and REPLICAS deleted.
    rollout: { seconds: r2(rolled.seconds), podsPerSecond: r2(REPLICAS / rolled.seconds) },
    nodes,
  }
}
