// A Deployment held to a pods quota, with kubectl: `kubectl create quota --hard=pods=2`, `kubectl create deployment
// --replicas=3` makes two pods, `kubectl describe rs` shows the ReplicaFailure condition and kube's FailedCreate event,
// and once `kubectl edit quota` (then `kubectl patch quota`) raises the quota the missing pods are made and the
// condition goes.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('retries')

before(async () => {
  await kubectl(V, ['create', 'namespace', ns])
})
after(async () => {
  await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Polls `fn` (every 200 ms, up to 20 s) until it answers something truthy; answers that, or fails naming `what`. */
async function until(what, fn) {
  for (let i = 0; i < 100; i++) {
    const v = await fn()
    if (v) return v
    await sleep(200)
  }
  assert.fail(`timed out waiting for ${what}`)
}

const podCount = async () =>
  JSON.parse((await kubectl(V, ['get', 'pods', '-n', ns, '-l', 'app=web', '-o', 'json'])).stdout).items.length

const describeRs = async () => (await kubectl(V, ['describe', 'rs', '-n', ns, '-l', 'app=web'])).stdout

describe('a Deployment held to a quota, with kubectl', () => {
  it('makes two of three pods and says why in describe rs', async () => {
    await kubectl(V, ['create', 'quota', 'q', '--hard=pods=2', '-n', ns])
    await kubectl(V, ['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3', '-n', ns])
    await until('two pods', async () => (await podCount()) === 2)
    const described = await until('the ReplicaFailure condition', async () => {
      const out = await describeRs()
      return /^\s+ReplicaFailure\s+True\s+FailedCreate$/m.test(out) && out
    })
    assert.match(described, /^Replicas:\s+2 current \/ 3 desired$/m)
    assert.match(
      described,
      /^\s+Warning\s+FailedCreate\s+.+\s+replicaset-controller\s+Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/m,
    )
    // Still two: the controller backs off, it does not overshoot or spin.
    await sleep(1000)
    assert.equal(await podCount(), 2)
    const d = JSON.parse((await kubectl(V, ['get', 'deployment', 'web', '-n', ns, '-o', 'json'])).stdout)
    const failure = d.status.conditions.find((c) => c.type === 'ReplicaFailure')
    assert.equal(failure?.reason, 'FailedCreate')
  })

  it('kubectl edit quota raises it and the third pod comes; the condition goes', async () => {
    const editor = process.env.KUBE_EDITOR
    // The editor kubectl runs: the quota's spec (not its status) gets pods: "3".
    process.env.KUBE_EDITOR = `sed -i '/^spec:/,/^status:/s/pods: "2"/pods: "3"/'`
    try {
      await kubectl(V, ['edit', 'quota', 'q', '-n', ns])
    } finally {
      if (editor === undefined) delete process.env.KUBE_EDITOR
      else process.env.KUBE_EDITOR = editor
    }
    await until('three pods', async () => (await podCount()) === 3)
    const described = await until('the condition gone', async () => {
      const out = await describeRs()
      return /^Replicas:\s+3 current \/ 3 desired$/m.test(out) && !/ReplicaFailure/.test(out) && out
    })
    assert.match(described, /^\s+Normal\s+SuccessfulCreate\s+.+\s+replicaset-controller\s+Created pod: web-/m)
  })

  it('kubectl scale past the quota is held again, and kubectl patch quota lets it through', async () => {
    await kubectl(V, ['scale', 'deployment', 'web', '--replicas=4', '-n', ns])
    await until('the ReplicaFailure condition again', async () =>
      /^\s+ReplicaFailure\s+True\s+FailedCreate$/m.test(await describeRs()),
    )
    assert.equal(await podCount(), 3)
    await kubectl(V, ['patch', 'quota', 'q', '-n', ns, '-p', '{"spec":{"hard":{"pods":"4"}}}'])
    await until('four pods', async () => (await podCount()) === 4)
    await until('the condition gone', async () => !/ReplicaFailure/.test(await describeRs()))
  })
})
