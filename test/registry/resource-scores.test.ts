// kube-scheduler's resource scores (src/registry/resource-scores.ts) on the cases of kube's least_allocated_test.go
// and balanced_allocation_test.go (default resources: cpu and memory, weight 1). `requested` is the node's pods plus
// the incoming pod, as the plugins sum them; the units are kube's test units (the ratios are what count).
import { describe, expect, it } from 'vitest'
import { balancedAllocationScore, leastAllocatedScore } from '../../src/registry/resource-scores'

const r = (cpuMilli: number, memBytes: number) => ({ cpuMilli, memBytes })

describe('leastAllocatedScore (NodeResourcesFit, LeastAllocated)', () => {
  it.each([
    ['nothing scheduled, nothing requested', r(0, 0), r(4000, 10000), 100],
    ['nothing scheduled, resources requested: node1', r(3000, 5000), r(4000, 10000), 37],
    ['nothing scheduled, resources requested: the bigger node2', r(3000, 5000), r(6000, 10000), 50],
    ['no resources requested, pods scheduled with resources: node1', r(6000, 0), r(10000, 20000), 70],
    ['no resources requested, pods scheduled with resources: node2', r(6000, 5000), r(10000, 20000), 57],
    ['resources requested, pods scheduled with resources: node2', r(6000, 10000), r(10000, 20000), 45],
    ['the same, differently sized node2', r(6000, 10000), r(10000, 50000), 60],
    ['requested resources exceed node capacity: node1', r(6000, 0), r(4000, 10000), 50],
    ['requested resources exceed node capacity: node2', r(6000, 5000), r(4000, 10000), 25],
    ['zero node resources', r(3000, 0), r(0, 0), 0],
  ])('%s', (_name, requested, allocatable, score) => {
    expect(leastAllocatedScore(requested, allocatable)).toBe(score)
  })

  it('a resource the node has none of is left out of the average, not scored 0', () => {
    expect(leastAllocatedScore(r(1000, 5000), r(4000, 0))).toBe(75)
  })
})

describe('balancedAllocationScore (NodeResourcesBalancedAllocation)', () => {
  it.each([
    ['nothing scheduled, resources requested, differently sized nodes: node1', r(3000, 5000), r(4000, 10000), 87],
    ['the same: node2 (cpu and memory both at 50%)', r(3000, 5000), r(6000, 10000), 100],
    ['resources requested, pods scheduled with resources: node1', r(6000, 5000), r(10000, 20000), 82],
    ['resources requested, pods scheduled with resources: node2', r(6000, 10000), r(10000, 20000), 95],
    ['the same, differently sized node2', r(6000, 10000), r(10000, 50000), 80],
    ['requested resources at node capacity: node1', r(6000, 0), r(6000, 10000), 50],
    ['requested resources at node capacity: node2', r(6000, 5000), r(6000, 10000), 75],
  ])('%s', (_name, requested, allocatable, score) => {
    expect(balancedAllocationScore(requested, allocatable)).toBe(score)
  })

  it('a fraction above 1 counts as 1; a single resource has no deviation', () => {
    expect(balancedAllocationScore(r(8000, 0), r(4000, 10000))).toBe(50)
    expect(balancedAllocationScore(r(3000, 5000), r(4000, 0))).toBe(100)
  })
})
