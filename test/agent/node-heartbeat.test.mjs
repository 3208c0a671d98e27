// The node heartbeat's pieces: the kubelet's "status changed" test (heartbeat times aside) and the node Lease's
// create / renew / conflict handling against a recording API.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { KubeError } from '../../agent/kube-client.ts'
import { statusChanged } from '../../agent/node-heartbeat.ts'
import { microTime, NodeLease } from '../../agent/node-lease.ts'
import { nodeStatus } from '../../agent/node-object.ts'

const facts = {
  hostname: 'h',
  internalIP: '192.0.2.1',
  cpus: 2,
  memoryBytes: 2 ** 30,
  storageBytes: 0,
  kernelVersion: 'k',
  osImage: 'o',
  machineID: 'm',
  bootID: 'b',
  operatingSystem: 'linux',
  architecture: 'amd64',
}

describe('statusChanged', () => {
  it('ignores heartbeat times, sees anything else', () => {
    const before = nodeStatus(facts, 110, undefined, 't0')
    assert.equal(statusChanged(before, nodeStatus(facts, 110, before, 't1')), false)
    assert.equal(statusChanged(before, nodeStatus({ ...facts, cpus: 4 }, 110, before, 't1')), true)
    const unknown = {
      ...before,
      conditions: before.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c)),
    }
    assert.equal(statusChanged(unknown, nodeStatus(facts, 110, unknown, 't1')), true)
  })
})

const notFound = (kind) => new KubeError(404, { kind: 'Status', code: 404, details: kind ? { kind } : {} }, '')

describe('NodeLease', () => {
  it('knows whether Leases are served', async () => {
    const served = new NodeLease({ get: async () => Promise.reject(notFound('leases')) }, 'n', 40_000)
    assert.equal(await served.served(), true)
    const absent = new NodeLease({ get: async () => Promise.reject(notFound()) }, 'n', 40_000)
    assert.equal(await absent.served(), false)
  })

  it('creates the lease, renews it, and re-reads after a conflict', async () => {
    const calls = []
    let stored = null
    let conflictOnce = false
    const client = {
      async get() {
        calls.push('GET')
        if (!stored) throw notFound('leases')
        return stored
      },
      async request(method, _path, body) {
        calls.push(method)
        if (method === 'PUT' && conflictOnce) {
          conflictOnce = false
          throw new KubeError(409, { kind: 'Status', code: 409 }, '')
        }
        stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(calls.length) } }
        return stored
      },
    }
    const lease = new NodeLease(client, 'edge', 40_000)
    await lease.renew('node-uid')
    assert.deepEqual(calls, ['GET', 'POST'])
    assert.deepEqual(stored.spec.holderIdentity, 'edge')
    assert.equal(stored.spec.leaseDurationSeconds, 40)
    assert.match(stored.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    assert.deepEqual(stored.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Node', name: 'edge', uid: 'node-uid' },
    ])
    await lease.renew('node-uid')
    assert.deepEqual(calls.slice(2), ['PUT'])
    conflictOnce = true
    await lease.renew('node-uid')
    assert.deepEqual(calls.slice(3), ['PUT', 'GET', 'PUT'])
  })

  it('writes MicroTime with microseconds', () => {
    assert.equal(microTime(new Date('2026-01-02T03:04:05.678Z')), '2026-01-02T03:04:05.678000Z')
  })
})
