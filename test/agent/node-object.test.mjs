// The Node the agent registers: no virtual-node annotation, capacity from the host, kubelet-style conditions whose
// heartbeat moves while their transition time stays.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { initialNode, nodeConditions, nodeStatus, VIRTUAL_NODE_ANNOTATION } from '../../agent/node-object.ts'

const facts = {
  hostname: 'box',
  internalIP: '192.0.2.3',
  cpus: 8,
  memoryBytes: 16 * 2 ** 30,
  storageBytes: 100 * 2 ** 30,
  kernelVersion: '6.1.0',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  machineID: 'm',
  bootID: 'b',
  operatingSystem: 'linux',
  architecture: 'amd64',
}

describe('node object', () => {
  it('registers a real node', () => {
    const n = initialNode('edge-1', facts, { zone: 'a' }, 50, '2026-01-01T00:00:00Z')
    assert.equal(n.metadata.annotations[VIRTUAL_NODE_ANNOTATION], undefined)
    assert.equal(n.metadata.labels['kubernetes.io/hostname'], 'edge-1')
    assert.equal(n.metadata.labels.zone, 'a')
    assert.deepEqual(n.status.capacity, {
      cpu: '8',
      memory: '16777216Ki',
      pods: '50',
      'ephemeral-storage': '104857600Ki',
    })
    assert.deepEqual(n.status.allocatable, n.status.capacity)
    assert.deepEqual(n.status.addresses, [
      { type: 'InternalIP', address: '192.0.2.3' },
      { type: 'Hostname', address: 'box' },
    ])
    assert.match(n.status.nodeInfo.kubeletVersion, /^v1\.33\./)
    assert.equal(n.status.nodeInfo.osImage, facts.osImage)
    const ready = n.status.conditions.find((c) => c.type === 'Ready')
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ['True', 'KubeletReady', 'kubelet is posting ready status'],
    )
  })

  it('moves heartbeats and keeps transitions', () => {
    const before = nodeStatus(facts, 110, undefined, 't0').conditions
    const after = nodeConditions(before, 't1')
    for (const c of after) assert.deepEqual([c.lastHeartbeatTime, c.lastTransitionTime], ['t1', 't0'])
    const fromUnknown = nodeConditions([{ type: 'Ready', status: 'Unknown', lastTransitionTime: 't0' }], 't2')
    assert.equal(fromUnknown.find((c) => c.type === 'Ready').lastTransitionTime, 't2')
  })

  it('keeps what someone advertised in capacity, makes it allocatable, and drops an extended resource gone from it', () => {
    const before = nodeStatus(facts, 110, undefined, 't0')
    // `kubectl patch node --subresource=status` added a dongle, and someone wrote cpu the host does not have.
    const advertised = { ...before, capacity: { ...before.capacity, 'example.com/dongle': '4', cpu: '64' } }
    const next = nodeStatus(facts, 110, advertised, 't1')
    assert.equal(next.capacity['example.com/dongle'], '4')
    assert.equal(next.capacity.cpu, '8')
    assert.deepEqual(next.allocatable, next.capacity)
    // Removed from capacity: a merge patch deletes it from allocatable (null); other names are never dropped.
    const removed = { ...next, capacity: before.capacity, allocatable: { ...next.allocatable, 'hugepages-2Mi': '0' } }
    const after = nodeStatus(facts, 110, removed, 't2')
    assert.equal(after.capacity['example.com/dongle'], undefined)
    assert.equal(after.allocatable['example.com/dongle'], null)
    assert.equal('hugepages-2Mi' in after.allocatable, false)
  })
})
