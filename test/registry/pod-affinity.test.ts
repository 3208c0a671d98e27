// kube-scheduler 1.33's InterPodAffinity filter, pure (src/registry/pod-affinity.ts): required pod affinity and
// anti-affinity terms counted per topology pair over the pods on nodes, the existing pods' anti-affinity against the
// incoming pod, the first pod of a self-affine group, namespaces by name and by selector, and the Filter's order.
import { describe, expect, it } from 'vitest'
import {
  AFFINITY_RULES,
  ANTI_AFFINITY_RULES,
  EXISTING_ANTI_AFFINITY_RULES,
  podTerms,
  interPodAffinity,
  preferredAffinityScore,
  type PlacedPod,
} from '../../src/registry/pod-affinity'

type Labels = Record<string, string>
const NODES: Record<string, Labels> = {
  a1: { 'kubernetes.io/hostname': 'a1', zone: 'a' },
  a2: { 'kubernetes.io/hostname': 'a2', zone: 'a' },
  b1: { 'kubernetes.io/hostname': 'b1', zone: 'b' },
  bare: { 'kubernetes.io/hostname': 'bare' },
}
const NAMESPACES: Record<string, Labels> = { web: { team: 'x' }, db: { team: 'y' }, other: {} }

const term = (labels: Labels, topologyKey: string, extra: object = {}) => ({
  labelSelector: { matchLabels: labels },
  topologyKey,
  ...extra,
})

const required = (affinity: object[] = [], anti: object[] = []) => ({
  podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity },
  podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti },
})

function judge(
  pod: { ns?: string; labels?: Labels; affinity?: object[]; anti?: object[] },
  placed: PlacedPod[],
  antiPlaced: (PlacedPod & { terms: object[] })[] = [],
) {
  const ns = pod.ns ?? 'web'
  const filter = interPodAffinity(
    { ns, labels: pod.labels ?? {}, terms: podTerms(ns, required(pod.affinity, pod.anti)) },
    {
      nodeLabels: (n) => NODES[n],
      nsLabels: (n) => NAMESPACES[n],
      placedPods: () => [...placed, ...antiPlaced],
      affinityPods: () => antiPlaced.map((p) => ({ ...p, terms: podTerms(p.ns, required([], p.terms)) })),
    },
  )
  if (!filter) return null
  return Object.fromEntries(Object.keys(NODES).map((n) => [n, filter(NODES[n]!)?.message ?? 'fits']))
}

describe('interPodAffinity', () => {
  it('skips a pod without terms when no existing pod has anti-affinity against it', () => {
    expect(judge({ labels: { app: 'web' } }, [{ ns: 'web', node: 'a1', labels: { app: 'web' } }])).toBeNull()
  })

  it('anti-affinity by hostname refuses the nodes holding a matching pod, by zone the whole zone', () => {
    const placed = [{ ns: 'web', node: 'a1', labels: { app: 'web' } }]
    expect(judge({ anti: [term({ app: 'web' }, 'kubernetes.io/hostname')] }, placed)).toEqual({
      a1: ANTI_AFFINITY_RULES,
      a2: 'fits',
      b1: 'fits',
      bare: 'fits',
    })
    expect(judge({ anti: [term({ app: 'web' }, 'zone')] }, placed)).toEqual({
      a1: ANTI_AFFINITY_RULES,
      a2: ANTI_AFFINITY_RULES,
      b1: 'fits',
      // A node without the topology label is never in the matching pod's domain.
      bare: 'fits',
    })
  })

  it('affinity needs a matching pod in the node’s domain, and the topology label on the node', () => {
    const placed = [{ ns: 'web', node: 'a1', labels: { app: 'cache' } }]
    expect(judge({ affinity: [term({ app: 'cache' }, 'zone')] }, placed)).toEqual({
      a1: 'fits',
      a2: 'fits',
      b1: AFFINITY_RULES,
      bare: AFFINITY_RULES,
    })
  })

  it('the first pod of a self-affine group goes anywhere with the topology label', () => {
    const self = { labels: { app: 'web' }, affinity: [term({ app: 'web' }, 'zone')] }
    expect(judge(self, [])).toEqual({ a1: 'fits', a2: 'fits', b1: 'fits', bare: AFFINITY_RULES })
    // Not when it does not match its own terms.
    expect(judge({ ...self, labels: { app: 'api' } }, [])?.a1).toBe(AFFINITY_RULES)
  })

  it("an existing pod's anti-affinity keeps a matching pod out of its domain", () => {
    const guard = {
      ns: 'db',
      node: 'b1',
      labels: { app: 'db' },
      terms: [term({ app: 'web' }, 'zone', { namespaces: ['web'] })],
    }
    expect(judge({ labels: { app: 'web' } }, [], [guard])).toEqual({
      a1: 'fits',
      a2: 'fits',
      b1: EXISTING_ANTI_AFFINITY_RULES,
      bare: 'fits',
    })
    // The term names the guard's own namespace by default: a pod elsewhere is not matched.
    const own = { ...guard, terms: [term({ app: 'web' }, 'zone')] }
    expect(judge({ labels: { app: 'web' } }, [], [own])).toBeNull()
  })

  it('namespaces: the pod’s own by default, named ones, or those a namespaceSelector picks ({} is every one)', () => {
    const placed = [{ ns: 'db', node: 'a1', labels: { app: 'web' } }]
    const anti = (extra: object) => judge({ anti: [term({ app: 'web' }, 'kubernetes.io/hostname', extra)] }, placed)?.a1
    expect(anti({})).toBe('fits')
    expect(anti({ namespaces: ['db'] })).toBe(ANTI_AFFINITY_RULES)
    expect(anti({ namespaceSelector: { matchLabels: { team: 'y' } } })).toBe(ANTI_AFFINITY_RULES)
    expect(anti({ namespaceSelector: { matchLabels: { team: 'x' } } })).toBe('fits')
    expect(anti({ namespaceSelector: {} })).toBe(ANTI_AFFINITY_RULES)
  })

  it('reports affinity before anti-affinity before the existing pods’ anti-affinity', () => {
    const placed = [{ ns: 'web', node: 'a1', labels: { app: 'web' } }]
    const guard = { ns: 'web', node: 'a1', labels: { app: 'g' }, terms: [term({ app: 'web' }, 'zone')] }
    const pod = { labels: { app: 'web' }, anti: [term({ app: 'web' }, 'kubernetes.io/hostname')] }
    expect(judge(pod, placed, [guard])).toEqual({
      a1: ANTI_AFFINITY_RULES,
      a2: EXISTING_ANTI_AFFINITY_RULES,
      b1: 'fits',
      bare: 'fits',
    })
    expect(judge({ ...pod, affinity: [term({ app: 'x' }, 'zone')] }, placed, [guard])?.a1).toBe(AFFINITY_RULES)
  })

  it('an existing pod must match every affinity term to count', () => {
    const placed: PlacedPod[] = [
      { ns: 'web', node: 'a1', labels: { app: 'cache' } },
      { ns: 'web', node: 'b1', labels: { app: 'cache', tier: 'hot' } },
    ]
    const both = [term({ app: 'cache' }, 'zone'), term({ tier: 'hot' }, 'zone')]
    expect(judge({ affinity: both }, placed)).toMatchObject({ a1: AFFINITY_RULES, b1: 'fits' })
  })
})

describe('preferredAffinityScore', () => {
  const world = (placed: PlacedPod[], holders: (PlacedPod & { affinity: object })[] = []) => ({
    nodeLabels: (n: string) => NODES[n],
    nsLabels: (n: string) => NAMESPACES[n],
    placedPods: () => [...placed, ...holders],
    affinityPods: () => holders.map((h) => ({ ...h, terms: podTerms(h.ns, h.affinity) })),
  })
  const weighted = (weight: number, labels: Labels, topologyKey: string) => ({
    weight,
    podAffinityTerm: term(labels, topologyKey),
  })
  const scores = (f: ((l: Labels) => number) | null) =>
    f ? Object.fromEntries(Object.keys(NODES).map((n) => [n, f(NODES[n]!)])) : null

  it('adds the weights of the pod’s preferred terms per domain holding matching pods, anti-affinity subtracting', () => {
    const affinity = {
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(10, { app: 'cache' }, 'zone')] },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, { app: 'web' }, 'kubernetes.io/hostname')],
      },
    }
    const placed = [
      { ns: 'web', node: 'a1', labels: { app: 'cache' } },
      { ns: 'web', node: 'a2', labels: { app: 'web' } },
      { ns: 'web', node: 'b1', labels: { app: 'web' } },
    ]
    const f = preferredAffinityScore({ ns: 'web', labels: {}, terms: podTerms('web', affinity) }, world(placed))
    expect(scores(f)).toEqual({ a1: 10, a2: 5, b1: -5, bare: 0 })
  })

  it("counts placed pods' required affinity (weight 1) and preferred terms that match the incoming pod", () => {
    const holder = {
      ns: 'web',
      node: 'b1',
      labels: {},
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' }, 'zone')],
          preferredDuringSchedulingIgnoredDuringExecution: [weighted(7, { app: 'web' }, 'kubernetes.io/hostname')],
        },
      },
    }
    const f = preferredAffinityScore(
      { ns: 'web', labels: { app: 'web' }, terms: podTerms('web', {}) },
      world([], [holder]),
    )
    expect(scores(f)).toEqual({ a1: 0, a2: 0, b1: 8, bare: 0 })
    expect(
      preferredAffinityScore({ ns: 'web', labels: { app: 'db' }, terms: podTerms('web', {}) }, world([], [holder])),
    ).toBeNull()
  })
})
