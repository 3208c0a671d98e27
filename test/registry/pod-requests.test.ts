// A pod's requests past cpu and memory (src/registry/pod-requests.ts): ephemeral-storage and the scalar resources
// kube's scheduler Resource keeps (extended names, hugepages, kubernetes.io/ names), summed and maxed per resource as
// resourcehelper.PodRequests does, a node's allocatable as NodeInfo reads it, fitsRequest's shortages past memory, and
// the kubelet's removeMissingExtendedResources.
import { describe, expect, it } from 'vitest'
import {
  allocatableResources,
  effectiveRequests,
  isExtendedResource,
  missingExtended,
  otherShortages,
} from '../../src/registry/pod-requests'
import { podRequests } from '../../src/registry/scheduling'

const GiB = 1024 ** 3
const container = (requests: Record<string, string>, extra: object = {}) => ({
  name: 'c',
  image: 'x',
  resources: { requests },
  ...extra,
})

describe('effectiveRequests: other resources', () => {
  it('sums ephemeral-storage, extended, hugepages and kubernetes.io/ resources in whole units (Quantity.Value)', () => {
    const spec = {
      containers: [
        container({ cpu: '100m', 'ephemeral-storage': '1Gi', 'nvidia.com/gpu': '1', 'hugepages-2Mi': '4Mi' }),
        container({ 'ephemeral-storage': '500M', 'nvidia.com/gpu': '2', 'example.kubernetes.io/a': '1' }),
      ],
    }
    expect(podRequests(spec)).toEqual({
      cpuMilli: 100,
      memBytes: 0,
      other: {
        'ephemeral-storage': GiB + 500e6,
        'nvidia.com/gpu': 3,
        'hugepages-2Mi': 4 * 1024 ** 2,
        'example.kubernetes.io/a': 1,
      },
    })
  })

  it('a pod asking for none of them, or for 0, has no `other`', () => {
    expect(podRequests({ containers: [container({ cpu: '1', memory: '1Gi' })] })).toEqual({
      cpuMilli: 1000,
      memBytes: GiB,
    })
    expect(podRequests({ containers: [container({ 'example.com/dongle': '0' })] })).toEqual({
      cpuMilli: 0,
      memBytes: 0,
    })
  })

  it('init containers and sidecars count per resource, as for cpu', () => {
    const spec = {
      initContainers: [
        container({ 'example.com/dongle': '1' }, { restartPolicy: 'Always' }),
        container({ 'example.com/dongle': '3', 'ephemeral-storage': '1Gi' }),
      ],
      containers: [container({ 'example.com/dongle': '2', 'ephemeral-storage': '2Gi' })],
    }
    // dongle: regular 2 + sidecar 1 = 3, the init container's peak 3 + sidecar 1 = 4; storage: max(2Gi, 1Gi).
    expect(podRequests(spec).other).toEqual({ 'example.com/dongle': 4, 'ephemeral-storage': 2 * GiB })
  })

  it('pod overhead adds its own', () => {
    const spec = { containers: [container({ 'ephemeral-storage': '1Gi' })], overhead: { 'ephemeral-storage': '1Gi' } }
    expect(podRequests(spec).other).toEqual({ 'ephemeral-storage': 2 * GiB })
  })

  it('takes its quantity parsers from the caller (the node agent parses its own way)', () => {
    const spec = { containers: [container({ cpu: '2', 'example.com/x': '5' })] }
    expect(
      effectiveRequests(
        spec,
        () => 7,
        () => 9,
      ),
    ).toEqual({ cpuMilli: 7, memBytes: 0, other: { 'example.com/x': 9 } })
  })
})

describe('allocatableResources', () => {
  it('keeps every ephemeral-storage and scalar name the node lists, also at 0', () => {
    expect(
      allocatableResources(
        {
          cpu: '4',
          memory: '8Gi',
          pods: '110',
          'ephemeral-storage': '100Gi',
          'nvidia.com/gpu': '0',
          'hugepages-1Gi': '0',
        },
        (q) => Number(q) * 1000,
        (q) => (q === '8Gi' ? 8 * GiB : q === '100Gi' ? 100 * GiB : Number(q)),
      ),
    ).toEqual({
      cpuMilli: 4000,
      memBytes: 8 * GiB,
      pods: 110,
      other: { 'ephemeral-storage': 100 * GiB, 'nvidia.com/gpu': 0, 'hugepages-1Gi': 0 },
    })
  })
})

describe('otherShortages', () => {
  const node = { cpuMilli: 0, memBytes: 0, other: { 'ephemeral-storage': 10, 'b.com/y': 2, 'a.com/x': 4 } }

  it('checks ephemeral-storage first, then the scalar names in order, against what is left', () => {
    const used = { cpuMilli: 0, memBytes: 0, other: { 'ephemeral-storage': 5, 'a.com/x': 4 } }
    const wants = { cpuMilli: 0, memBytes: 0, other: { 'b.com/y': 3, 'a.com/x': 1, 'ephemeral-storage': 6 } }
    expect(otherShortages(wants, node, used)).toEqual([
      { name: 'ephemeral-storage', requested: 6, used: 5, capacity: 10 },
      { name: 'a.com/x', requested: 1, used: 4, capacity: 4 },
      { name: 'b.com/y', requested: 3, used: 0, capacity: 2 },
    ])
  })

  it('exactly what is left fits; a name the node does not list has nothing left', () => {
    const used = { cpuMilli: 0, memBytes: 0, other: { 'a.com/x': 1 } }
    expect(otherShortages({ cpuMilli: 0, memBytes: 0, other: { 'a.com/x': 3 } }, node, used)).toEqual([])
    expect(otherShortages({ cpuMilli: 0, memBytes: 0, other: { 'c.com/z': 1 } }, node, used)).toEqual([
      { name: 'c.com/z', requested: 1, used: 0, capacity: 0 },
    ])
    expect(otherShortages({ cpuMilli: 5, memBytes: 5 }, node, used)).toEqual([])
  })

  it("the kubelet's skip leaves out extended resources the node does not list at all, never others", () => {
    const wants = {
      cpuMilli: 0,
      memBytes: 0,
      other: { 'c.com/z': 1, 'a.com/x': 5, 'hugepages-2Mi': 2, 'example.kubernetes.io/n': 1 },
    }
    expect(otherShortages(wants, node, { cpuMilli: 0, memBytes: 0 }, missingExtended(node)).map((s) => s.name)).toEqual(
      ['a.com/x', 'example.kubernetes.io/n', 'hugepages-2Mi'],
    )
  })
})

describe('isExtendedResource', () => {
  it('is a name with a domain other than kubernetes.io', () => {
    expect(isExtendedResource('nvidia.com/gpu')).toBe(true)
    expect(isExtendedResource('example.kubernetes.io/a')).toBe(false)
    expect(isExtendedResource('kubernetes.io/a')).toBe(false)
    expect(isExtendedResource('hugepages-2Mi')).toBe(false)
    expect(isExtendedResource('ephemeral-storage')).toBe(false)
  })
})
