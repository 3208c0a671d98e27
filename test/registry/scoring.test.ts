// Scoring the feasible nodes (src/registry/scoring.ts) with kube-scheduler 1.33's preference plugins and weights:
// TaintToleration (PreferNoSchedule, 3), NodeAffinity (preferred terms, 2), InterPodAffinity (preferred terms, 2),
// PodTopologySpread (ScheduleAnyway, 2), NodeResourcesFit and BalancedAllocation (1 each); and through schedule(),
// which node wins.
import { describe, expect, it } from 'vitest'
import { type NodeCandidate, type PodNeeds, schedule } from '../../src/registry/scheduling'
import { scoreNodes } from '../../src/registry/scoring'

const node = (name: string, labels: Record<string, string> = {}, taints: NodeCandidate['taints'] = []) => ({
  name,
  labels: { 'kubernetes.io/hostname': name, ...labels },
  taints,
  unschedulable: false,
  ready: true,
  allocatable: { cpuMilli: 4000, memBytes: 8 * 1024 ** 3, pods: 110 },
  used: { cpuMilli: 0, memBytes: 0, pods: 0 },
})
const needs = (over: Partial<PodNeeds> = {}): PodNeeds => ({
  requests: { cpuMilli: 0, memBytes: 0 },
  nonZeroRequests: { cpuMilli: 100, memBytes: 200 * 1024 ** 2 },
  ...over,
})
const resources = (fit: number, balanced: number) => () => ({ fit, balanced })
const placed = (pod: PodNeeds, nodes: NodeCandidate[]) => {
  const r = schedule(pod, nodes)
  if (!r.ok) throw new Error(r.message)
  return r.node
}
const preferred = (weight: number, key: string, values: string[]) => ({
  nodeAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      { weight, preference: { matchExpressions: [{ key, operator: 'In', values }] } },
    ],
  },
})

describe('scoreNodes', () => {
  it('normalizes each plugin to 0-100 and weighs them 3 (taints), 2 (node and pod affinity), 1 (each resource score)', () => {
    const nodes = [node('a', { disk: 'ssd' }), node('b', {}, [{ key: 'old', effect: 'PreferNoSchedule' }]), node('c')]
    const scores = scoreNodes(
      {
        affinity: preferred(10, 'disk', ['ssd']),
        interPodAffinityScore: (l) => (l['kubernetes.io/hostname'] === 'c' ? 5 : -5),
      },
      nodes,
      resources(30, 20),
    )
    // a: 3×100 + 2×100 + 2×0 + 30 + 20; b: 3×0 + 0 + 0 + 50; c: 3×100 + 0 + 2×100 + 50.
    expect(scores).toEqual([550, 50, 550])
  })

  it('adds the PodTopologySpread scores it is given (already normalized) with weight 2', () => {
    const nodes = [node('a'), node('b')]
    // a: 3×100 (no taint) + 0 + 0 + 2×25 + 0; b: 300 + 2×100.
    expect(scoreNodes({ topologySpreadScore: () => [25, 100] }, nodes, resources(0, 0))).toEqual([350, 500])
  })

  it('a toleration of PreferNoSchedule (or of every effect) takes the taint out of the count', () => {
    const nodes = [node('a', {}, [{ key: 'k', effect: 'PreferNoSchedule' }]), node('b')]
    const full = resources(100, 0)
    expect(scoreNodes({ tolerations: [{ key: 'k', operator: 'Exists' }] }, nodes, full)).toEqual([400, 400])
    expect(scoreNodes({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }] }, nodes, full)).toEqual([
      100, 400,
    ])
  })
})

describe('schedule(): preferences', () => {
  it('preferred node affinity outweighs a fuller node; its weights decide between matching nodes', () => {
    const full = { ...node('b', { zone: 'x' }), used: { cpuMilli: 3000, memBytes: 0, pods: 50 } }
    expect(placed(needs({ affinity: preferred(1, 'zone', ['x']) }), [node('a'), full])).toBe('b')
    const pod = needs({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] } },
            { weight: 90, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['y'] }] } },
          ],
        },
      },
    })
    expect(placed(pod, [node('a', { zone: 'x' }), node('b', { zone: 'y' })])).toBe('b')
  })

  it('a PreferNoSchedule taint steers pods away unless nothing else fits', () => {
    const tainted = node('a', {}, [{ key: 'spot', value: 'true', effect: 'PreferNoSchedule' }])
    expect(placed(needs(), [tainted, node('b')])).toBe('b')
    expect(placed(needs(), [tainted])).toBe('a')
  })

  it('without preferences the least-allocated node wins, as before', () => {
    const busy = { ...node('a'), used: { cpuMilli: 1000, memBytes: 0, pods: 1 } }
    expect(placed(needs(), [busy, node('b')])).toBe('b')
  })
})
