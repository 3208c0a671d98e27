// kube-scheduler 1.33's PodTopologySpread score (src/registry/topology-spread-score.ts), on cases of kube's own
// scoring_test.go (TestPodTopologySpreadScore) with the scores it expects.
import { describe, expect, it } from 'vitest'
import type { PlacedPod } from '../../src/registry/pod-affinity'
import { topologySpreadScore } from '../../src/registry/topology-spread-score'

const HOSTNAME = 'kubernetes.io/hostname'
type Labels = Record<string, string>
const node = (name: string, labels: Labels = { [HOSTNAME]: name }) => ({ name, labels, taints: [] })
const soft = (maxSkew: number, topologyKey: string, labelSelector: object | null = { matchLabels: { foo: '' } }) => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable: 'ScheduleAnyway',
  labelSelector,
})
/** `spread` pods labelled foo on each node, by node name. */
const pods = (spread: Record<string, number>): PlacedPod[] =>
  Object.entries(spread).flatMap(([node, n]) =>
    Array.from({ length: n }, () => ({ ns: 'ns', node, labels: { foo: '' } })),
  )

function scores(
  constraints: object[],
  placed: PlacedPod[],
  candidates: ReturnType<typeof node>[],
  failed: ReturnType<typeof node>[] = [],
) {
  const score = topologySpreadScore(
    { ns: 'ns', labels: { foo: '' }, spec: { topologySpreadConstraints: constraints } },
    [...candidates, ...failed],
    (ns) => placed.filter((p) => p.ns === ns),
  )
  if (!score) return null
  const out = score(candidates)
  return Object.fromEntries(candidates.map((n, i) => [n.name, out[i]]))
}

const four = ['node-a', 'node-b', 'node-c', 'node-d'].map((n) => node(n))

describe('topologySpreadScore', () => {
  it('skips a pod without ScheduleAnyway constraints', () => {
    expect(scores([], [], four)).toBeNull()
    expect(scores([{ ...soft(1, HOSTNAME), whenUnsatisfiable: 'DoNotSchedule' }], [], four)).toBeNull()
  })

  it('one constraint on node: no pods, equal pods and a null selector score 100 everywhere', () => {
    const all100 = { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 }
    expect(scores([soft(1, HOSTNAME)], [], four)).toEqual(all100)
    expect(scores([soft(1, HOSTNAME)], pods({ 'node-a': 1, 'node-b': 1, 'node-c': 1, 'node-d': 1 }), four)).toEqual(
      all100,
    )
    expect(scores([soft(1, HOSTNAME, null)], pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }), four)).toEqual(all100)
  })

  it('one constraint on node over 4 candidates, by maxSkew', () => {
    const spread = pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 })
    expect(scores([soft(1, HOSTNAME)], spread, four)).toEqual({
      'node-a': 20,
      'node-b': 60,
      'node-c': 100,
      'node-d': 0,
    })
    expect(scores([soft(2, HOSTNAME)], spread, four)).toEqual({
      'node-a': 33,
      'node-b': 66,
      'node-c': 100,
      'node-d': 16,
    })
    expect(scores([soft(3, HOSTNAME)], pods({ 'node-a': 4, 'node-b': 3, 'node-c': 2, 'node-d': 1 }), four)).toEqual({
      'node-a': 44,
      'node-b': 66,
      'node-c': 77,
      'node-d': 100,
    })
  })

  it('one constraint on node, a node that failed the filters and one without the key', () => {
    const spread = pods({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 })
    const [a, b, x, y] = ['node-a', 'node-b', 'node-x', 'node-y'].map((n) => node(n))
    expect(scores([soft(1, HOSTNAME)], spread, [a!, b!, x!], [y!])).toEqual({
      'node-a': 33,
      'node-b': 83,
      'node-x': 100,
    })
    expect(scores([soft(1, HOSTNAME)], spread, [a!, node('node-b', { n: 'node-b' }), x!], [y!])).toEqual({
      'node-a': 16,
      'node-b': 0,
      'node-x': 100,
    })
  })

  it('one constraint on zone: pods on a node that failed the filters count in its zone', () => {
    const zoned = (name: string, zone: string) => node(name, { zone, [HOSTNAME]: name })
    const spread = pods({ 'node-a': 4, 'node-b': 2, 'node-x': 1, 'node-y': 3 })
    expect(
      scores(
        [soft(1, 'zone')],
        spread,
        [zoned('node-a', 'zone1'), zoned('node-b', 'zone1'), zoned('node-x', 'zone2')],
        [zoned('node-y', 'zone2')],
      ),
    ).toEqual({ 'node-a': 75, 'node-b': 75, 'node-x': 100 })
  })

  it('counts no terminating pod and no pod of another namespace', () => {
    const spread = [
      ...pods({ 'node-a': 2, 'node-b': 1, 'node-d': 3 }),
      ...pods({ 'node-c': 5 }).map((p) => ({ ...p, terminating: true })),
      ...pods({ 'node-c': 5 }).map((p) => ({ ...p, ns: 'other' })),
    ]
    expect(scores([soft(1, HOSTNAME)], spread, four)).toEqual({
      'node-a': 20,
      'node-b': 60,
      'node-c': 100,
      'node-d': 0,
    })
  })
})

describe('topologySpreadScore: kube’s system default constraints', () => {
  const ZONE = 'topology.kubernetes.io/zone'
  // kube's TestPreScoreStateEmptyNodes "system default constraints and a replicaset": nodes without a zone are a zone.
  const nodes = [
    node('node-a', { [HOSTNAME]: 'node-a', [ZONE]: 'mars' }),
    node('node-b', { [HOSTNAME]: 'node-b', [ZONE]: 'mars' }),
    node('node-c'),
    node('node-d'),
  ]
  const replicas = (spread: Record<string, number>): PlacedPod[] =>
    Object.entries(spread).flatMap(([node, n]) =>
      Array.from({ length: n }, () => ({ ns: 'ns', node, labels: { foo: 'tar', baz: 'sup' } })),
    )
  const scoreWithDefaults = (spec: object, placed: PlacedPod[], defaultSelector?: object) => {
    const score = topologySpreadScore(
      { ns: 'ns', labels: { foo: 'tar', baz: 'sup' }, spec, ...(defaultSelector ? { defaultSelector } : {}) },
      nodes,
      (ns) => placed.filter((p) => p.ns === ns),
    )
    if (!score) return null
    const out = score(nodes)
    return Object.fromEntries(nodes.map((n, i) => [n.name, out[i]]))
  }

  it('spreads by hostname (maxSkew 3) and zone (maxSkew 5); a node without a zone scores no zone part', () => {
    // Weights: hostname log(4 + 2), zone log(2 + 2) (domains "mars" and ""). Raw: a 2×1.79 + 2 + 2×1.39 + 4 = 12,
    // b 0 + 2 + 6.77 = 9, c 1.79 + 2 = 4, d 2; normalized 100 × (12 + 2 − raw) / 12.
    expect(scoreWithDefaults({}, replicas({ 'node-a': 2, 'node-c': 1 }), { matchLabels: { foo: 'tar' } })).toEqual({
      'node-a': 16,
      'node-b': 41,
      'node-c': 83,
      'node-d': 100,
    })
  })

  it('no default selector (nothing selects the pod), or constraints of its own, even DoNotSchedule only: no defaults', () => {
    expect(scoreWithDefaults({}, replicas({ 'node-a': 2 }))).toBeNull()
    const own = { topologySpreadConstraints: [{ ...soft(1, HOSTNAME), whenUnsatisfiable: 'DoNotSchedule' }] }
    expect(scoreWithDefaults(own, replicas({ 'node-a': 2 }), { matchLabels: { foo: 'tar' } })).toBeNull()
  })
})
