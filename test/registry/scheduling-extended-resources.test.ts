// NodeResourcesFit past cpu and memory (src/registry/scheduling.ts): ephemeral-storage and extended resources are
// fitted against the node's allocatable as kube-scheduler 1.33's fitsRequest does, with its `Insufficient <name>`
// reasons in the FitError histogram; the nodes short of them are ones preemption could help.
import { describe, expect, it } from 'vitest'
import { nodeAllocatable, schedule, type NodeCandidate, type PodNeeds } from '../../src/registry/scheduling'

function node(name: string, other?: Record<string, number>, used?: Record<string, number>): NodeCandidate {
  return {
    name,
    labels: {},
    taints: [],
    unschedulable: false,
    ready: true,
    allocatable: { cpuMilli: 4000, memBytes: 8 * 1024 ** 3, pods: 110, ...(other ? { other } : {}) },
    used: { cpuMilli: 0, memBytes: 0, pods: 0, ...(used ? { other: used } : {}) },
  }
}
const wants = (other: Record<string, number>): PodNeeds => ({
  requests: { cpuMilli: 0, memBytes: 0, other },
  nonZeroRequests: { cpuMilli: 100, memBytes: 200 * 1024 ** 2 },
})

describe('schedule(): ephemeral-storage and extended resources', () => {
  it('a pod asking for a GPU no node offers stays Pending with Insufficient nvidia.com/gpu on each node', () => {
    const r = schedule(wants({ 'nvidia.com/gpu': 1 }), [node('node-1'), node('node-2'), node('node-3')])
    expect(r).toEqual({
      ok: false,
      message:
        '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    })
  })

  it('goes to the node that has enough left, counting what its pods hold', () => {
    const nodes = [
      node('node-1', { 'nvidia.com/gpu': 4 }, { 'nvidia.com/gpu': 3 }),
      node('node-2', { 'nvidia.com/gpu': 2 }),
    ]
    expect(schedule(wants({ 'nvidia.com/gpu': 2 }), nodes)).toEqual({ ok: true, node: 'node-2' })
    expect(schedule(wants({ 'nvidia.com/gpu': 1 }), [nodes[0]!])).toEqual({ ok: true, node: 'node-1' })
    expect(schedule(wants({ 'nvidia.com/gpu': 3 }), nodes).ok).toBe(false)
  })

  it('ephemeral-storage is fitted like memory, and each short resource is its own reason', () => {
    const nodes = [node('node-1', { 'ephemeral-storage': 100 }, { 'ephemeral-storage': 90 }), node('node-2', {})]
    const r = schedule(wants({ 'ephemeral-storage': 20, 'example.com/dongle': 1 }), nodes)
    expect(r).toEqual({
      ok: false,
      message:
        '0/2 nodes are available: 2 Insufficient ephemeral-storage, 2 Insufficient example.com/dongle. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    })
  })

  it('hugepages are counted as scalars, and a node listing them takes the pod', () => {
    expect(schedule(wants({ 'hugepages-2Mi': 2 * 1024 ** 2 }), [node('node-1')]).ok).toBe(false)
    expect(
      schedule(wants({ 'hugepages-2Mi': 2 * 1024 ** 2 }), [
        node('node-1'),
        node('node-2', { 'hugepages-2Mi': 1024 ** 3 }),
      ]),
    ).toEqual({ ok: true, node: 'node-2' })
  })

  it("a node's allocatable lists the scalar names it has", () => {
    expect(nodeAllocatable({ allocatable: { cpu: '1', memory: '1Ki', 'example.com/dongle': '4', pods: '3' } })).toEqual(
      {
        cpuMilli: 1000,
        memBytes: 1024,
        pods: 3,
        other: { 'example.com/dongle': 4 },
      },
    )
  })
})
