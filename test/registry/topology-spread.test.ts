// kube-scheduler 1.33's PodTopologySpread filter, pure (src/registry/topology-spread.ts): DoNotSchedule constraints
// counted per domain over the eligible nodes, the skew against the global minimum, minDomains, matchLabelKeys, the
// node inclusion policies, and nodes without the topology key.
import { describe, expect, it } from 'vitest'
import type { PlacedPod } from '../../src/registry/pod-affinity'
import { SPREAD_CONSTRAINTS, SPREAD_MISSING_LABEL, topologySpread } from '../../src/registry/topology-spread'

type Labels = Record<string, string>
const node = (name: string, zone?: string, taints: { key: string; effect: string }[] = []) => ({
  name,
  labels: { 'kubernetes.io/hostname': name, ...(zone ? { zone } : {}) },
  taints,
})
const NODES = [node('a1', 'a'), node('a2', 'a'), node('b1', 'b'), node('c1', 'c'), node('bare')]

const constraint = (over: object = {}) => ({
  maxSkew: 1,
  topologyKey: 'zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
  ...over,
})

function judge(spec: object, placed: PlacedPod[], labels: Labels = { app: 'web' }, nodes = NODES) {
  const filter = topologySpread({ ns: 'ns', labels, spec }, nodes, (ns) => placed.filter((p) => p.ns === ns))
  if (!filter) return null
  return Object.fromEntries(nodes.map((n) => [n.name, filter(n.labels)?.message ?? 'fits']))
}
const web = (node: string, ns = 'ns', labels: Labels = { app: 'web' }): PlacedPod => ({ ns, node, labels })

describe('topologySpread', () => {
  it('has nothing to do without DoNotSchedule constraints', () => {
    expect(judge({}, [])).toBeNull()
    expect(judge({ topologySpreadConstraints: [constraint({ whenUnsatisfiable: 'ScheduleAnyway' })] }, [])).toBeNull()
  })

  it('counts no terminating pod (kube #87621)', () => {
    const spec = { topologySpreadConstraints: [constraint()] }
    const going = { ...web('a1'), terminating: true }
    // a: 1 (one of its two pods is terminating), b: 1, c: 1 -> every domain fits.
    expect(judge(spec, [going, web('a2'), web('b1'), web('c1')])).toMatchObject({ a1: 'fits', b1: 'fits', c1: 'fits' })
    expect(judge(spec, [web('a1'), web('a2'), web('b1'), web('c1')])).toMatchObject({ a1: SPREAD_CONSTRAINTS })
  })

  it('refuses the domains that would exceed the minimum by more than maxSkew; a node without the key as such', () => {
    const spec = { topologySpreadConstraints: [constraint()] }
    // a: 2, b: 1, c: 0 -> the minimum is 0: a (2+1-0) and b (1+1-0) exceed 1, c fits.
    expect(judge(spec, [web('a1'), web('a2'), web('b1')])).toEqual({
      a1: SPREAD_CONSTRAINTS,
      a2: SPREAD_CONSTRAINTS,
      b1: SPREAD_CONSTRAINTS,
      c1: 'fits',
      bare: SPREAD_MISSING_LABEL,
    })
    // maxSkew 2 lets b in.
    expect(
      judge({ topologySpreadConstraints: [constraint({ maxSkew: 2 })] }, [web('a1'), web('a2'), web('b1')]),
    ).toMatchObject({
      a1: SPREAD_CONSTRAINTS,
      b1: 'fits',
      c1: 'fits',
    })
  })

  it('counts only matching pods of the pod’s namespace on eligible nodes; a pod not matching itself adds nothing', () => {
    const spec = { topologySpreadConstraints: [constraint()] }
    const others = [web('a1', 'other'), web('a1', 'ns', { app: 'db' }), web('bare')]
    expect(judge(spec, others)).toMatchObject({ a1: 'fits', b1: 'fits', c1: 'fits' })
    // Not matching its own selector, the pod does not count for its domain: a one-pod lead is allowed.
    expect(judge(spec, [web('a1')], { app: 'other' })).toMatchObject({ a1: 'fits' })
  })

  it('an empty selector counts no pod (countPodsMatchSelector), though it matches the pod itself', () => {
    const spec = { topologySpreadConstraints: [constraint({ labelSelector: {} })] }
    expect(judge(spec, [web('a1'), web('a2'), web('b1')])).toMatchObject({ a1: 'fits', b1: 'fits', c1: 'fits' })
    // No selector at all matches nothing, itself included.
    expect(judge({ topologySpreadConstraints: [constraint({ labelSelector: undefined })] }, [web('a1')])).toMatchObject(
      {
        a1: 'fits',
      },
    )
  })

  it('minDomains: fewer eligible domains than asked make the minimum 0', () => {
    const twoZones = [node('a1', 'a'), node('b1', 'b')]
    const spec = (minDomains?: number) => ({
      topologySpreadConstraints: [constraint({ ...(minDomains ? { minDomains } : {}) })],
    })
    expect(judge(spec(), [web('a1'), web('b1')], undefined, twoZones)).toEqual({ a1: 'fits', b1: 'fits' })
    expect(judge(spec(3), [web('a1'), web('b1')], undefined, twoZones)).toEqual({
      a1: SPREAD_CONSTRAINTS,
      b1: SPREAD_CONSTRAINTS,
    })
  })

  it('matchLabelKeys narrows the selector to pods sharing the pod’s value', () => {
    const spec = { topologySpreadConstraints: [constraint({ matchLabelKeys: ['rev'] })] }
    const placed = [web('a1', 'ns', { app: 'web', rev: '1' }), web('a2', 'ns', { app: 'web', rev: '1' })]
    expect(judge(spec, placed, { app: 'web', rev: '2' })).toMatchObject({ a1: 'fits', b1: 'fits' })
    expect(judge(spec, placed, { app: 'web', rev: '1' })).toMatchObject({ a1: SPREAD_CONSTRAINTS, b1: 'fits' })
  })

  it('node inclusion: the pod’s node selector limits the domains (Honor), taints only when asked (Honor)', () => {
    const tainted = [node('a1', 'a'), node('b1', 'b', [{ key: 'gpu', effect: 'NoSchedule' }]), node('c1', 'c')]
    const placed = [web('a1')]
    // c is excluded by the node selector: domains a (1) and b (0).
    const selector = { nodeSelector: { zone: 'a' } }
    expect(judge({ ...selector, topologySpreadConstraints: [constraint()] }, placed, undefined, tainted)).toMatchObject(
      {
        a1: 'fits',
      },
    )
    // With the taint honoured, b is no domain: a alone holds the minimum (1), so a takes another.
    const honour = { topologySpreadConstraints: [constraint({ nodeTaintsPolicy: 'Honor' })] }
    expect(judge(honour, [web('a1'), web('c1')], undefined, tainted)).toMatchObject({ a1: 'fits', c1: 'fits' })
    expect(
      judge({ topologySpreadConstraints: [constraint()] }, [web('a1'), web('c1')], undefined, tainted),
    ).toMatchObject({
      a1: SPREAD_CONSTRAINTS,
      b1: 'fits',
    })
  })
})
