// kube 1.33's kubelet admission, pure: the pod-only checks in Admit's order, generalFilter's first failure in
// AdmissionCheck's order (pods, cpu, memory, ephemeral-storage and extended resources, NodeAffinity, NodeName,
// NodePorts, then NoExecute taints), and the status rejectPod leaves (kubelet-owned conditions gone, others kept).
import { describe, expect, it } from 'vitest'
import {
  type FilterFacts,
  filterRejection,
  podRejection,
  rejectedStatus,
  untoleratedNoExecute,
} from '../../src/registry/kubelet-admission'
import { tolerates } from '../../src/registry/node-match'

const fits: FilterFacts = {
  requests: { cpuMilli: 500, memBytes: 1024 },
  allocatable: { cpuMilli: 4000, memBytes: 8 * 1024 ** 3, pods: 110 },
  used: { cpuMilli: 3000, memBytes: 1024, pods: 3 },
  affinityMatches: true,
  nameMatches: true,
  portsFree: true,
  untoleratedNoExecute: false,
}

describe('podRejection', () => {
  it('checks the os label, then spec.os, then a Strict supplementalGroupsPolicy the node does not support', () => {
    expect(podRejection({ metadata: { labels: { 'kubernetes.io/os': 'linux' } }, spec: {} }, undefined)).toBeNull()
    expect(
      podRejection({ metadata: { labels: { 'kubernetes.io/os': 'windows' } }, spec: { os: { name: 'windows' } } }, {})
        ?.reason,
    ).toBe('PodOSSelectorNodeLabelDoesNotMatch')
    expect(podRejection({ metadata: {}, spec: { os: { name: 'windows' } } }, {})).toEqual({
      reason: 'PodOSNotSupported',
      message: "Failed to admit pod as the OS field doesn't match node OS",
    })
    const strict = { metadata: {}, spec: { securityContext: { supplementalGroupsPolicy: 'Strict' } } }
    expect(podRejection(strict, undefined)).toEqual({
      reason: 'SupplementalGroupsPolicyNotSupported',
      message: 'SupplementalGroupsPolicy=Strict is not supported in this node',
    })
    expect(podRejection(strict, { supplementalGroupsPolicy: true })).toBeNull()
    const merge = { metadata: {}, spec: { securityContext: { supplementalGroupsPolicy: 'Merge' } } }
    expect(podRejection(merge, undefined)).toBeNull()
  })
})

describe('filterRejection', () => {
  it('admits a pod that fits', () => {
    expect(filterRejection(fits)).toBeNull()
  })

  it('reports the first failure: pods before cpu before memory before the predicates', () => {
    const everything: FilterFacts = {
      requests: { cpuMilli: 5000, memBytes: 9 * 1024 ** 3 },
      allocatable: { cpuMilli: 4000, memBytes: 8 * 1024 ** 3, pods: 3 },
      used: { cpuMilli: 0, memBytes: 0, pods: 3 },
      affinityMatches: false,
      nameMatches: false,
      portsFree: false,
      untoleratedNoExecute: true,
    }
    expect(filterRejection(everything)).toEqual({
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    })
    const rooms = { ...everything, allocatable: { ...everything.allocatable, pods: 110 } }
    expect(filterRejection(rooms)).toEqual({
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000",
    })
    const cpu = { ...rooms, requests: { ...rooms.requests, cpuMilli: 100 } }
    expect(filterRejection(cpu)).toEqual({
      reason: 'OutOfmemory',
      message: `Node didn't have enough resource: memory, requested: ${9 * 1024 ** 3}, used: 0, capacity: ${8 * 1024 ** 3}`,
    })
    const resources = { ...cpu, requests: { cpuMilli: 100, memBytes: 0 } }
    expect(filterRejection(resources)?.reason).toBe('NodeAffinity')
    expect(filterRejection({ ...resources, affinityMatches: true })?.reason).toBe('NodeName')
    expect(filterRejection({ ...resources, affinityMatches: true, nameMatches: true })).toEqual({
      reason: 'NodePorts',
      message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    })
    expect(filterRejection({ ...fits, untoleratedNoExecute: true })).toEqual({
      reason: 'TaintToleration',
      message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate",
    })
  })

  it('counts cpu against what is left: exactly the rest fits, one milli more does not', () => {
    expect(filterRejection({ ...fits, requests: { cpuMilli: 1000, memBytes: 0 } })).toBeNull()
    expect(filterRejection({ ...fits, requests: { cpuMilli: 1001, memBytes: 0 } })?.message).toBe(
      "Node didn't have enough resource: cpu, requested: 1001, used: 3000, capacity: 4000",
    )
  })

  it('reports ephemeral-storage and extended resources after memory and before the predicates, as OutOf<name>', () => {
    const short = [
      { name: 'ephemeral-storage', requested: 20, used: 90, capacity: 100 },
      { name: 'nvidia.com/gpu', requested: 1, used: 0, capacity: 0 },
    ]
    const facts = { ...fits, otherShortages: short, affinityMatches: false }
    expect(filterRejection(facts)).toEqual({
      reason: 'OutOfephemeral-storage',
      message: "Node didn't have enough resource: ephemeral-storage, requested: 20, used: 90, capacity: 100",
    })
    expect(filterRejection({ ...facts, otherShortages: short.slice(1) })).toEqual({
      reason: 'OutOfnvidia.com/gpu',
      message: "Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0",
    })
    expect(filterRejection({ ...facts, requests: { cpuMilli: 9000, memBytes: 0 } })?.reason).toBe('OutOfcpu')
    expect(filterRejection({ ...facts, otherShortages: [] })?.reason).toBe('NodeAffinity')
  })
})

describe('untoleratedNoExecute', () => {
  it('looks at NoExecute taints only', () => {
    const by = (tolerations: Record<string, unknown>[]) => (t: { key: string; effect: string }) =>
      tolerates(tolerations, t)
    expect(untoleratedNoExecute([{ key: 'a', effect: 'NoSchedule' }], by([]))).toBe(false)
    expect(untoleratedNoExecute([{ key: 'a', effect: 'NoExecute' }], by([]))).toBe(true)
    expect(untoleratedNoExecute([{ key: 'a', effect: 'NoExecute' }], by([{ key: 'a', operator: 'Exists' }]))).toBe(
      false,
    )
  })
})

describe('rejectedStatus', () => {
  it('is Failed with the reason and message, keeps startTime, qosClass and conditions the kubelet does not own', () => {
    const current = {
      phase: 'Pending',
      qosClass: 'BestEffort',
      startTime: '2026-01-01T00:00:00Z',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'DisruptionTarget', status: 'True' },
      ],
    }
    expect(rejectedStatus(current, { reason: 'OutOfpods', message: 'm' }, '2026-02-02T00:00:00Z')).toEqual({
      phase: 'Failed',
      reason: 'OutOfpods',
      message: 'Pod was rejected: m',
      startTime: '2026-01-01T00:00:00Z',
      qosClass: 'BestEffort',
      conditions: [{ type: 'DisruptionTarget', status: 'True' }],
    })
    expect(rejectedStatus(undefined, { reason: 'R', message: 'm' }, '2026-02-02T00:00:00Z')).toEqual({
      phase: 'Failed',
      reason: 'R',
      message: 'Pod was rejected: m',
      startTime: '2026-02-02T00:00:00Z',
    })
  })
})
