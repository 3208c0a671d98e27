// @kubernetes/client-node 2.x AppsV1Api against the server: a Deployment created, rolled out, patched to a new image,
// scaled through /scale, read back with its ReplicaSets, and deleted.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node'
import { uniqueNs } from './helpers.mjs'

const kc = new KubeConfig()
kc.loadFromFile(process.env.KUBECONFIG)
const core = kc.makeApiClient(CoreV1Api)
const apps = kc.makeApiClient(AppsV1Api)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function rolledOut(namespace, name) {
  const until = Date.now() + 30_000
  for (;;) {
    const d = await apps.readNamespacedDeployment({ name, namespace })
    const s = d.status ?? {}
    if (
      (s.observedGeneration ?? 0) >= d.metadata.generation &&
      s.updatedReplicas === d.spec.replicas &&
      s.availableReplicas === d.spec.replicas &&
      s.replicas === d.spec.replicas
    )
      return d
    if (Date.now() > until) assert.fail(`${name} did not roll out`)
    await sleep(200)
  }
}

describe('@kubernetes/client-node AppsV1Api', () => {
  const namespace = uniqueNs('cnapps')
  after(async () => {
    await core.deleteNamespace({ name: namespace }).catch(() => {})
  })

  it('creates, rolls out, patches, scales and deletes a Deployment', async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } })
    const created = await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
          },
        },
      },
    })
    assert.equal(created.spec?.strategy?.type, 'RollingUpdate')
    assert.equal(created.spec?.progressDeadlineSeconds, 600)
    let d = await rolledOut(namespace, 'web')
    assert.equal(d.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1')

    await apps.patchNamespacedDeployment(
      {
        name: 'web',
        namespace,
        body: { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    )
    d = await rolledOut(namespace, 'web')
    assert.equal(d.metadata?.annotations?.['deployment.kubernetes.io/revision'], '2')
    const rss = await apps.listNamespacedReplicaSet({ namespace, labelSelector: 'app=web' })
    assert.deepEqual(rss.items.map((rs) => [rs.spec?.template?.spec?.containers[0]?.image, rs.spec?.replicas]).sort(), [
      ['nginx:1.25', 0],
      ['nginx:1.26', 2],
    ])

    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace })
    assert.equal(scale.status?.selector, 'app=web')
    await apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace,
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'web', namespace },
        spec: { replicas: 4 },
      },
    })
    d = await rolledOut(namespace, 'web')
    assert.equal(d.status?.availableReplicas, 4)

    await apps.deleteNamespacedDeployment({ name: 'web', namespace })
    await assert.rejects(apps.readNamespacedDeployment({ name: 'web', namespace }), (e) => e.code === 404)
  })
})
