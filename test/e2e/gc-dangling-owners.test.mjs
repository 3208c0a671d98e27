// The garbage collector and owners that are not there, through kubectl: a ConfigMap applied with an ownerReference to
// a Deployment uid that does not exist is collected at once (kube's graph builder checks an owner it has not
// observed), and one that also names a real Deployment stays and loses only the dangling reference.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('gc-dangling')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)
const MISSING = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone', uid: '4f1c3b2a-0000-4000-8000-00000000d00d' }
const configMap = (name, owners) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ownerReferences: owners },
})

async function waitFor(what, check, timeout = 20_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('garbage collector and owners that do not exist (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('a ConfigMap owned by a Deployment uid that does not exist is gone soon after kubectl apply', async () => {
    const applied = await k(['apply', '-f', '-'], { input: JSON.stringify(configMap('orphan', [MISSING])) })
    assert.match(applied.stdout, /configmap\/orphan created/)
    const notFound = await waitFor('the ConfigMap to be collected', async () => {
      const r = await k(['get', 'cm', 'orphan', '-o', 'name'], { allowFail: true })
      return r.code === 0 ? undefined : r
    })
    assert.equal(notFound.code, 1)
    assert.match(notFound.stderr, /Error from server \(NotFound\): configmaps "orphan" not found/)
  })

  it('one that also names a real Deployment stays and loses only the dangling reference', async () => {
    await k(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=0'])
    const web = JSON.parse((await k(['get', 'deployment', 'web', '-o', 'json'])).stdout)
    const solid = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: web.metadata.uid }
    await k(['apply', '-f', '-'], { input: JSON.stringify(configMap('shared', [solid, MISSING])) })
    const kept = await waitFor('the dangling reference to be removed', async () => {
      const cm = JSON.parse((await k(['get', 'cm', 'shared', '-o', 'json'])).stdout)
      return cm.metadata.ownerReferences.length === 1 ? cm : undefined
    })
    assert.deepEqual(kept.metadata.ownerReferences, [solid])
    assert.equal(kept.metadata.deletionTimestamp, undefined)
  })
})
