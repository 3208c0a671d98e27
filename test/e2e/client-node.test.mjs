// @kubernetes/client-node 2.x (object-parameter style) against a real `wrangler dev` server.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import { podManifest, uniqueNs, waitFor } from './helpers.mjs'

const kc = new KubeConfig()
kc.loadFromFile(process.env.KUBECONFIG)
const core = kc.makeApiClient(CoreV1Api)

/** Run fn, expect an ApiException; return {code, status} with the Status body parsed (client-node hands back text). */
async function expectApiError(fn) {
  let err
  try {
    await fn()
  } catch (e) {
    err = e
  }
  assert.ok(err, 'expected the call to fail')
  assert.equal(typeof err.code, 'number', `not an ApiException: ${err?.stack ?? err}`)
  let status = err.body
  if (typeof status === 'string') {
    try {
      status = JSON.parse(status)
    } catch {
      assert.fail(`error body is not JSON: ${status}`)
    }
  }
  return { code: err.code, status }
}

describe('@kubernetes/client-node CoreV1Api', () => {
  const namespace = uniqueNs('cn')
  const names = ['p-c', 'p-a', 'p-e', 'p-b', 'p-d'] // created out of order on purpose

  after(async () => {
    await core.deleteNamespace({ name: namespace }).catch(() => {})
  })

  it('creates a namespace', async () => {
    const ns = await core.createNamespace({ body: { metadata: { name: namespace } } })
    assert.equal(ns.metadata?.name, namespace)
  })

  it('creates pods', async () => {
    for (const name of names) {
      const p = await core.createNamespacedPod({ namespace, body: podManifest(name, { labels: { app: 'paged' } }) })
      assert.equal(p.metadata?.name, name)
      assert.equal(p.metadata?.namespace, namespace)
      assert.ok(p.metadata?.uid)
      assert.match(p.metadata?.resourceVersion ?? '', /^\d+$/)
      assert.equal(p.status?.phase, 'Pending')
    }
  })

  it('lists in pages of 2 with _continue: all 5 seen once, in name order', async () => {
    const seen = []
    const pages = []
    let _continue
    for (let i = 0; i < 10; i++) {
      const list = await core.listNamespacedPod({ namespace, limit: 2, ...(_continue ? { _continue } : {}) })
      assert.ok(list.items.length <= 2, `page ${i} has ${list.items.length} items`)
      pages.push(list.items.length)
      seen.push(...list.items.map((p) => p.metadata?.name))
      _continue = list.metadata?._continue
      if (!_continue) break
    }
    assert.deepEqual(seen, [...names].sort())
    assert.deepEqual(pages, [2, 2, 1])
  })

  it('replace with a stale resourceVersion is 409 Conflict; with the fresh one it succeeds', async () => {
    const name = 'p-a'
    // The simulated scheduler and kubelet write the pod until it runs; a read-modify-write before then races them
    // (and would get 409 from kube too), so start from the settled pod.
    const original = await waitFor(`${name} running and ready`, async () => {
      const pod = await core.readNamespacedPod({ name, namespace })
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
      return pod.status?.phase === 'Running' && ready && pod
    })
    const staleRv = original.metadata?.resourceVersion
    assert.ok(staleRv)

    // Move the object on: replace with the current resourceVersion.
    const first = structuredClone(original)
    first.metadata.labels = { ...first.metadata.labels, step: 'one' }
    const updated = await core.replaceNamespacedPod({ name, namespace, body: first })
    assert.equal(updated.metadata?.labels?.step, 'one')
    assert.notEqual(updated.metadata?.resourceVersion, staleRv)

    // The stale copy must now be refused.
    const stale = structuredClone(original)
    stale.metadata.labels = { ...stale.metadata.labels, step: 'stale' }
    const { code, status } = await expectApiError(() => core.replaceNamespacedPod({ name, namespace, body: stale }))
    assert.equal(code, 409)
    assert.equal(status.kind, 'Status')
    assert.equal(status.status, 'Failure')
    assert.equal(status.reason, 'Conflict')
    assert.equal(status.code, 409)
    assert.match(status.message ?? '', /the object has been modified/)

    // With the fresh resourceVersion it goes through.
    const fresh = await core.readNamespacedPod({ name, namespace })
    assert.equal(fresh.metadata?.resourceVersion, updated.metadata?.resourceVersion)
    assert.equal(fresh.metadata?.labels?.step, 'one')
    fresh.metadata.labels = { ...fresh.metadata.labels, step: 'two' }
    const again = await core.replaceNamespacedPod({ name, namespace, body: fresh })
    assert.equal(again.metadata?.labels?.step, 'two')
    assert.notEqual(again.metadata?.resourceVersion, updated.metadata?.resourceVersion)
  })
})
