// Extended resources through real clients, as kube's "advertise extended resources for a node" task does it: kubectl
// patches a virtual node's status capacity with a JSON patch, the simulated kubelet makes it allocatable, pods asking
// for it go to that node only, and one that fits nowhere waits with kube-scheduler's `Insufficient <name>` message;
// the python client does the same with patch_node_status.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { api, kubectl, podManifest, pythonChecks, uniqueNs, waitFor } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('dongles')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

const asking = (name, dongles) => {
  const p = podManifest(name, { namespace: ns })
  p.spec.containers[0].resources = { limits: { 'example.com/dongle': String(dongles) } }
  return p
}

const failedScheduling = (name) =>
  waitFor(`${name} FailedScheduling`, async () => {
    const field = `reason=FailedScheduling,involvedObject.name=${name}`
    return (await k(['get', 'events', '--field-selector', field, '-o', 'jsonpath={.items[0].message}'])).stdout
  })

describe('extended resources (kubectl, python)', () => {
  let nodes = []
  before(async () => {
    nodes = (await api('GET', '/api/v1/nodes')).body.items
      .filter((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')
      .map((n) => n.metadata.name)
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    const remove = '[{"op":"remove","path":"/status/capacity/example.com~1dongle"}]'
    await kubectl(V, ['patch', 'node', nodes.at(-1), '--subresource=status', '--type=json', '-p', remove], {
      allowFail: true,
    })
  })

  it('kubectl patch --subresource=status advertises dongles; pods asking for them go there, one too many waits', async () => {
    const node = nodes.at(-1)
    const add = '[{"op":"add","path":"/status/capacity/example.com~1dongle","value":"2"}]'
    await kubectl(V, ['patch', 'node', node, '--subresource=status', '--type=json', '-p', add])
    const allocatable = await waitFor('allocatable dongles', async () => {
      const path = 'jsonpath={.status.allocatable.example\\.com/dongle}'
      return (await kubectl(V, ['get', 'node', node, '-o', path])).stdout
    })
    assert.equal(allocatable, '2')
    await k(['apply', '-f', '-'], { input: JSON.stringify(asking('pair', 2)) })
    await k(['wait', '--for=condition=PodScheduled', 'pod/pair', '--timeout=60s'])
    assert.equal((await k(['get', 'pod', 'pair', '-o', 'jsonpath={.spec.nodeName}'])).stdout, node)
    await k(['apply', '-f', '-'], { input: JSON.stringify(asking('extra', 1)) })
    const n = nodes.length
    assert.equal(
      await failedScheduling('extra'),
      `0/${n} nodes are available: ${n} Insufficient example.com/dongle. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
    // The holder going frees the node's dongles: the waiting pod goes there.
    await k(['delete', 'pod', 'pair', '--grace-period=0', '--force'])
    await k(['wait', '--for=condition=PodScheduled', 'pod/extra', '--timeout=60s'])
    assert.equal((await k(['get', 'pod', 'extra', '-o', 'jsonpath={.spec.nodeName}'])).stdout, node)
  })

  it('the python client: patch_node_status, then a pod placed on the node and one more waiting', () => {
    const node = nodes[0]
    const checks = pythonChecks('extended_resources.py', [uniqueNs('py-dongles'), node])
    assert.deepEqual([checks.advertised.capacity, checks.advertised.allocatable], ['1', '1'])
    assert.equal(checks.scheduled.node, node)
    const n = nodes.length
    assert.equal(
      checks.scheduled.waiting,
      `0/${n} nodes are available: ${n} Insufficient example.com/py-dongle. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
  })
})
