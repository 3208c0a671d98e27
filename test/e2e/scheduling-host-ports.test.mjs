// kube-scheduler's NodePorts filter through kubectl: with one pod per virtual node holding hostPort 8080, one more
// stays Pending with kube's FailedScheduling message, and is placed once a holder is deleted.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { api, kubectl, podManifest, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('hostports')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const withHostPort = (name, spec = {}) => {
  const p = podManifest(name, { namespace: ns, spec })
  p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }]
  return p
}

describe('NodePorts (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('a host port every node holds keeps the pod Pending with kube’s message until a holder goes', async () => {
    const nodes = (await api('GET', '/api/v1/nodes')).body.items.filter(
      (n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    )
    const holders = nodes.map((n, i) =>
      withHostPort(`holder-${i}`, { nodeSelector: { 'kubernetes.io/hostname': n.metadata.name } }),
    )
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: holders }) })
    await k(['wait', '--for=condition=PodScheduled', 'pod', '--all', '--timeout=60s'])
    await k(['apply', '-f', '-'], { input: JSON.stringify(withHostPort('late')) })
    const n = nodes.length
    const message = await waitFor('FailedScheduling', async () => {
      const out = await k([
        'get',
        'events',
        '--field-selector',
        'reason=FailedScheduling,involvedObject.name=late',
        '-o',
        'jsonpath={.items[0].message}',
      ])
      return out.stdout || undefined
    })
    assert.equal(
      message,
      `0/${n} nodes are available: ${n} node(s) didn't have free ports for the requested pod ports. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
    await k(['delete', 'pod', 'holder-0', '--grace-period=0', '--force'])
    await k(['wait', '--for=condition=PodScheduled', 'pod/late', '--timeout=60s'])
    const late = JSON.parse((await k(['get', 'pod', 'late', '-o', 'json'])).stdout)
    assert.equal(late.spec.nodeName, nodes[0].metadata.name)
  })
})
