// Projected service account tokens as kubelet's token manager keeps them: one TokenRequest per audience and lifetime,
// bound to the pod and asked as the node, reused until 80% of its life has passed, then asked again.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PodTokens } from '../../../agent/volumes/pod-tokens.ts'

describe('PodTokens', () => {
  it('asks once per audience and lifetime, and again at 80% of the token life', async (t) => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    t.mock.method(Date, 'now', () => now)
    const asked = []
    const client = {
      async request(method, path, body) {
        asked.push({ method, path, body })
        return {
          status: {
            token: `t${asked.length}`,
            expirationTimestamp: new Date(now + body.spec.expirationSeconds * 1000).toISOString(),
          },
        }
      },
    }
    const pod = { metadata: { name: 'p', namespace: 'n', uid: 'u1' }, spec: { serviceAccountName: 'builder' } }
    const tokens = new PodTokens(client)
    assert.equal(await tokens.get(pod, undefined, 3600), 't1')
    assert.equal(await tokens.get(pod, undefined, 3600), 't1')
    assert.equal(await tokens.get(pod, 'vault', 3600), 't2')
    assert.deepEqual(asked[0], {
      method: 'POST',
      path: '/api/v1/namespaces/n/serviceaccounts/builder/token',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' } },
      },
    })
    assert.deepEqual(asked[1].body.spec.audiences, ['vault'])
    now += 2879_000
    assert.equal(await tokens.get(pod, undefined, 3600), 't1')
    now += 2_000
    assert.equal(await tokens.get(pod, undefined, 3600), 't3')
  })
})
