// The pure scheduler (src/registry/scheduling.ts): kube-scheduler's default filters (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodeResourcesFit), the resource scores (NodeResourcesFit's LeastAllocated and
// BalancedAllocation), kube's FitError message, and a pod's effective requests. Expected values are kube's (pkg/scheduler, component-helpers nodeaffinity, resourcehelper).
import { describe, expect, it } from 'vitest'
import {
  nodeAllocatable,
  podNonZeroRequests,
  podRequests,
  schedule,
  type NodeCandidate,
  type PodNeeds,
} from '../../src/registry/scheduling'

const GiB = 1024 ** 3

/** A 4-cpu / 8Gi / 110-pod node, Ready, untainted, schedulable, empty; `over` replaces any part. */
function node(name: string, over: Partial<NodeCandidate> = {}): NodeCandidate {
  return {
    name,
    labels: { 'kubernetes.io/hostname': name },
    taints: [],
    unschedulable: false,
    ready: true,
    allocatable: { cpuMilli: 4000, memBytes: 8 * GiB, pods: 110 },
    used: { cpuMilli: 0, memBytes: 0, pods: 0 },
    ...over,
  }
}

const MiB = 1024 ** 2

/** A pod of one container: what it does not ask for counts at kube's defaults (100m, 200 MiB) for NonZeroRequested. */
function needs(over: Partial<PodNeeds> = {}): PodNeeds {
  const requests = over.requests ?? { cpuMilli: 0, memBytes: 0 }
  const nonZeroRequests = { cpuMilli: requests.cpuMilli || 100, memBytes: requests.memBytes || 200 * MiB }
  return { requests, nonZeroRequests, ...over }
}
const three = (f: (n: NodeCandidate) => NodeCandidate = (n) => n) =>
  ['node-1', 'node-2', 'node-3'].map((n) => f(node(n)))

/** kube's FitError text when every node was rejected for a reason preemption cannot fix. */
const notHelpful = (n: number, filters: string) =>
  `0/${n} nodes are available: ${filters}. preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`

function placed(pod: PodNeeds, nodes: NodeCandidate[]): string {
  const r = schedule(pod, nodes)
  if (!r.ok) throw new Error(`expected the pod to be scheduled, got: ${r.message}`)
  return r.node
}
function refused(pod: PodNeeds, nodes: NodeCandidate[]): string {
  const r = schedule(pod, nodes)
  if (r.ok) throw new Error(`expected the pod to be refused, got node ${r.node}`)
  return r.message
}

const AFFINITY_MISMATCH = "node(s) didn't match Pod's node affinity/selector"
const required = (...nodeSelectorTerms: object[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
})
const expr = (key: string, operator: string, values?: string[]) => ({ key, operator, ...(values ? { values } : {}) })

describe('schedule(): NodeName', () => {
  it('spec.nodeName picks exactly that node (even when it is not the emptiest)', () => {
    const nodes = three((n) =>
      n.name === 'node-2' ? { ...n, used: { cpuMilli: 3000, memBytes: 6 * GiB, pods: 50 } } : n,
    )
    expect(placed(needs({ nodeName: 'node-2' }), nodes)).toBe('node-2')
  })

  it('a nodeName no node has: every node says so', () => {
    expect(refused(needs({ nodeName: 'elsewhere' }), three())).toBe(
      notHelpful(3, "3 node(s) didn't match the requested node name"),
    )
  })
})

describe('schedule(): nodeSelector and required node affinity', () => {
  const labelled = () => [
    node('node-1', { labels: { zone: 'a', disk: 'ssd', gen: '3' } }),
    node('node-2', { labels: { zone: 'b', disk: 'hdd', gen: '5' } }),
    node('node-3', { labels: { zone: 'c', gen: '10' } }),
  ]

  const cases: { name: string; pod: PodNeeds; fits: string[] }[] = [
    { name: 'nodeSelector equality', pod: needs({ nodeSelector: { disk: 'ssd' } }), fits: ['node-1'] },
    { name: 'nodeSelector: every pair must match', pod: needs({ nodeSelector: { disk: 'ssd', zone: 'b' } }), fits: [] },
    { name: 'nodeSelector on a missing label', pod: needs({ nodeSelector: { gpu: 'true' } }), fits: [] },
    { name: 'empty nodeSelector matches all', pod: needs({ nodeSelector: {} }), fits: ['node-1', 'node-2', 'node-3'] },
    {
      name: 'In',
      pod: needs({ affinity: required({ matchExpressions: [expr('zone', 'In', ['a', 'c'])] }) }),
      fits: ['node-1', 'node-3'],
    },
    {
      name: 'In on a missing label',
      pod: needs({ affinity: required({ matchExpressions: [expr('disk', 'In', ['ssd', 'hdd'])] }) }),
      fits: ['node-1', 'node-2'],
    },
    {
      name: 'NotIn (a node without the label matches)',
      pod: needs({ affinity: required({ matchExpressions: [expr('disk', 'NotIn', ['hdd'])] }) }),
      fits: ['node-1', 'node-3'],
    },
    {
      name: 'Exists',
      pod: needs({ affinity: required({ matchExpressions: [expr('disk', 'Exists')] }) }),
      fits: ['node-1', 'node-2'],
    },
    {
      name: 'DoesNotExist',
      pod: needs({ affinity: required({ matchExpressions: [expr('disk', 'DoesNotExist')] }) }),
      fits: ['node-3'],
    },
    // Gt/Lt compare integers, not strings: "10" > "5".
    {
      name: 'Gt (integer comparison)',
      pod: needs({ affinity: required({ matchExpressions: [expr('gen', 'Gt', ['4'])] }) }),
      fits: ['node-2', 'node-3'],
    },
    {
      name: 'Lt (integer comparison)',
      pod: needs({ affinity: required({ matchExpressions: [expr('gen', 'Lt', ['5'])] }) }),
      fits: ['node-1'],
    },
    {
      name: 'Gt on a missing label',
      pod: needs({ affinity: required({ matchExpressions: [expr('cores', 'Gt', ['0'])] }) }),
      fits: [],
    },
    {
      name: 'expressions of one term are ANDed',
      pod: needs({ affinity: required({ matchExpressions: [expr('disk', 'Exists'), expr('zone', 'NotIn', ['a'])] }) }),
      fits: ['node-2'],
    },
    {
      name: 'terms are ORed',
      pod: needs({
        affinity: required(
          { matchExpressions: [expr('zone', 'In', ['a'])] },
          { matchExpressions: [expr('gen', 'Gt', ['9'])] },
        ),
      }),
      fits: ['node-1', 'node-3'],
    },
    {
      name: 'matchFields metadata.name In',
      pod: needs({ affinity: required({ matchFields: [expr('metadata.name', 'In', ['node-2'])] }) }),
      fits: ['node-2'],
    },
    {
      name: 'matchFields metadata.name NotIn',
      pod: needs({ affinity: required({ matchFields: [expr('metadata.name', 'NotIn', ['node-1', 'node-2'])] }) }),
      fits: ['node-3'],
    },
    {
      name: 'matchExpressions and matchFields in one term are ANDed',
      pod: needs({
        affinity: required({
          matchExpressions: [expr('gen', 'Exists')],
          matchFields: [expr('metadata.name', 'In', ['node-1', 'node-3'])],
        }),
      }),
      fits: ['node-1', 'node-3'],
    },
    {
      name: 'nodeSelector and affinity must both match',
      pod: needs({
        nodeSelector: { zone: 'a' },
        affinity: required({ matchExpressions: [expr('disk', 'In', ['hdd'])] }),
      }),
      fits: [],
    },
    {
      name: 'preferred affinity does not filter',
      pod: needs({
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, preference: { matchExpressions: [expr('zone', 'In', ['z'])] } },
            ],
          },
        },
      }),
      fits: ['node-1', 'node-2', 'node-3'],
    },
  ]

  for (const c of cases) {
    it(c.name, () => {
      // Which nodes are feasible: schedule against each node alone.
      const feasible = labelled().filter((n) => schedule(c.pod, [n]).ok)
      expect(feasible.map((n) => n.name)).toEqual(c.fits)
      if (c.fits.length === 0) expect(refused(c.pod, labelled())).toBe(notHelpful(3, `3 ${AFFINITY_MISMATCH}`))
      else expect(c.fits).toContain(placed(c.pod, labelled()))
    })
  }

  // kube (labels.Requirement.Matches) parses the node's label value with strconv.ParseInt(v, 10, 64); a value that is not
  // a base-10 integer never matches Gt/Lt. scheduling.ts:matchExpression uses Number(), so "1.5" > 1 and "" < 5 match.
  it('Gt/Lt: a label value that is not an integer never matches (kube: strconv.ParseInt)', () => {
    const nodes = [
      node('node-1', { labels: { gen: '1.5' } }),
      node('node-2', { labels: { gen: '' } }),
      node('node-3', { labels: { gen: '0x10' } }),
    ]
    for (const n of nodes) {
      expect(
        schedule(needs({ affinity: required({ matchExpressions: [expr('gen', 'Gt', ['1'])] }) }), [n]).ok,
        `Gt 1 on ${JSON.stringify(n.labels)}`,
      ).toBe(false)
      expect(
        schedule(needs({ affinity: required({ matchExpressions: [expr('gen', 'Lt', ['20'])] }) }), [n]).ok,
        `Lt 20 on ${JSON.stringify(n.labels)}`,
      ).toBe(false)
    }
  })

  // kube (component-helpers nodeaffinity.NewNodeSelector): "nil or empty term selects no objects". A term with neither
  // matchExpressions nor matchFields matches no node; scheduling.ts:matchesAffinity's `[].every(...)` makes it match all.
  it('an empty nodeSelectorTerm matches no node (kube: nil or empty term selects no objects)', () => {
    expect(refused(needs({ affinity: required({}) }), three())).toBe(notHelpful(3, `3 ${AFFINITY_MISMATCH}`))
  })
})

describe('schedule(): taints and tolerations', () => {
  const tainted = (key: string, value: string | undefined, effect: string) =>
    node('node-1', { taints: [{ key, ...(value !== undefined ? { value } : {}), effect }] })

  const cases: { name: string; node: NodeCandidate; tolerations?: object[]; fits: boolean }[] = [
    { name: 'NoSchedule, no toleration', node: tainted('dedicated', 'gpu', 'NoSchedule'), fits: false },
    { name: 'NoExecute, no toleration', node: tainted('dedicated', 'gpu', 'NoExecute'), fits: false },
    { name: 'PreferNoSchedule never filters', node: tainted('dedicated', 'gpu', 'PreferNoSchedule'), fits: true },
    {
      name: 'Equal with the same key and value',
      node: tainted('dedicated', 'gpu', 'NoSchedule'),
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      fits: true,
    },
    {
      name: 'operator defaults to Equal',
      node: tainted('dedicated', 'gpu', 'NoSchedule'),
      tolerations: [{ key: 'dedicated', value: 'gpu' }],
      fits: true,
    },
    {
      name: 'Equal with another value',
      node: tainted('dedicated', 'gpu', 'NoSchedule'),
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }],
      fits: false,
    },
    {
      name: 'Equal with another key',
      node: tainted('dedicated', 'gpu', 'NoSchedule'),
      tolerations: [{ key: 'other', operator: 'Equal', value: 'gpu' }],
      fits: false,
    },
    {
      name: 'Equal with an empty value tolerates a valueless taint',
      node: tainted('maint', undefined, 'NoSchedule'),
      tolerations: [{ key: 'maint', operator: 'Equal', value: '' }],
      fits: true,
    },
    {
      name: 'Exists with the key (any value)',
      node: tainted('dedicated', 'gpu', 'NoExecute'),
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      fits: true,
    },
    {
      name: 'Exists with another key',
      node: tainted('dedicated', 'gpu', 'NoSchedule'),
      tolerations: [{ key: 'other', operator: 'Exists' }],
      fits: false,
    },
    {
      name: 'Exists with an empty key tolerates every taint',
      node: tainted('dedicated', 'gpu', 'NoExecute'),
      tolerations: [{ operator: 'Exists' }],
      fits: true,
    },
    {
      name: 'a toleration for another effect does not tolerate',
      node: tainted('dedicated', 'gpu', 'NoExecute'),
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
      fits: false,
    },
    {
      name: 'a toleration with an empty effect matches every effect',
      node: tainted('dedicated', 'gpu', 'NoExecute'),
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu' }],
      fits: true,
    },
    {
      name: 'every NoSchedule/NoExecute taint must be tolerated',
      node: node('node-1', {
        taints: [
          { key: 'a', value: '1', effect: 'NoSchedule' },
          { key: 'b', value: '2', effect: 'NoExecute' },
        ],
      }),
      tolerations: [{ key: 'a', operator: 'Exists' }],
      fits: false,
    },
    {
      name: 'both taints tolerated',
      node: node('node-1', {
        taints: [
          { key: 'a', value: '1', effect: 'NoSchedule' },
          { key: 'b', value: '2', effect: 'NoExecute' },
        ],
      }),
      tolerations: [
        { key: 'a', operator: 'Exists' },
        { key: 'b', operator: 'Equal', value: '2', effect: 'NoExecute' },
      ],
      fits: true,
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(schedule(needs({ tolerations: c.tolerations }), [c.node]).ok).toBe(c.fits)
    })
  }

  it('the message names the first untolerated taint as {key: value}', () => {
    const nodes = three((n) => ({ ...n, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }))
    expect(refused(needs(), nodes)).toBe(notHelpful(3, '3 node(s) had untolerated taint {dedicated: gpu}'))
    const valueless = three((n) => ({ ...n, taints: [{ key: 'maint', effect: 'NoExecute' }] }))
    expect(refused(needs(), valueless)).toBe(notHelpful(3, '3 node(s) had untolerated taint {maint: }'))
  })

  it('a NotReady node counts as tainted node.kubernetes.io/not-ready:NoSchedule, unless tolerated', () => {
    const nodes = three((n) => ({ ...n, ready: false }))
    expect(refused(needs(), nodes)).toBe(
      notHelpful(3, '3 node(s) had untolerated taint {node.kubernetes.io/not-ready: }'),
    )
    expect(
      schedule(
        needs({ tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }] }),
        nodes,
      ).ok,
    ).toBe(true)
    // The admission-added NoExecute toleration (tolerationSeconds 300) does not cover the NoSchedule taint.
    expect(
      schedule(
        needs({
          tolerations: [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          ],
        }),
        nodes,
      ).ok,
    ).toBe(false)
  })

  // kube's default filter order is NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, ..., NodeResourcesFit
  // (pkg/scheduler/apis/config/v1/default_plugins.go) and RunFilterPlugins stops at a node's first failure, so a node
  // that is both tainted and mismatched is counted under the taint. scheduling.ts:rejection checks affinity first.
  it('a node that is tainted and does not match the selector is counted under the taint (kube filter order)', () => {
    const nodes = three((n) => ({ ...n, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }))
    expect(refused(needs({ nodeSelector: { disk: 'ssd' } }), nodes)).toBe(
      notHelpful(3, '3 node(s) had untolerated taint {dedicated: gpu}'),
    )
  })
})

describe('schedule(): unschedulable (cordoned) nodes', () => {
  it('a cordoned node takes no pods', () => {
    const nodes = three((n) => (n.name === 'node-1' ? n : { ...n, unschedulable: true }))
    for (let i = 0; i < 5; i++) expect(placed(needs(), nodes)).toBe('node-1')
    expect(
      refused(
        needs(),
        three((n) => ({ ...n, unschedulable: true })),
      ),
    ).toBe(notHelpful(3, '3 node(s) were unschedulable'))
  })

  it('the node.kubernetes.io/unschedulable:NoSchedule toleration (or a blanket Exists) lets a pod onto it', () => {
    const nodes = [node('node-1', { unschedulable: true })]
    expect(
      schedule(
        needs({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
        nodes,
      ),
    ).toEqual({ ok: true, node: 'node-1' })
    expect(schedule(needs({ tolerations: [{ operator: 'Exists' }] }), nodes)).toEqual({ ok: true, node: 'node-1' })
    expect(
      schedule(
        needs({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }] }),
        nodes,
      ).ok,
    ).toBe(false)
  })

  it('mixed reasons are counted per node, one reason per rejected node', () => {
    const nodes = [
      node('node-1', { unschedulable: true }),
      node('node-2', { labels: {} }),
      node('node-3', { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] }),
    ]
    expect(refused(needs({ nodeSelector: { 'kubernetes.io/hostname': 'node-3' } }), nodes)).toBe(
      notHelpful(3, `1 ${AFFINITY_MISMATCH}, 1 node(s) had untolerated taint {k: v}, 1 node(s) were unschedulable`),
    )
  })
})

describe('schedule(): resources', () => {
  const cpu = (cpuMilli: number) => needs({ requests: { cpuMilli, memBytes: 0 } })

  it('fits when used + request <= allocatable (the boundary fits)', () => {
    const n = node('node-1', { used: { cpuMilli: 3000, memBytes: 7 * GiB, pods: 10 } })
    expect(schedule(needs({ requests: { cpuMilli: 1000, memBytes: 1 * GiB } }), [n]).ok).toBe(true)
    expect(schedule(needs({ requests: { cpuMilli: 1001, memBytes: 0 } }), [n]).ok).toBe(false)
    expect(schedule(needs({ requests: { cpuMilli: 0, memBytes: 1 * GiB + 1 } }), [n]).ok).toBe(false)
  })

  it('a pod with no requests fits a full node (only the pod count limits it)', () => {
    const full = node('node-1', { used: { cpuMilli: 4000, memBytes: 8 * GiB, pods: 109 } })
    expect(schedule(needs(), [full]).ok).toBe(true)
    expect(schedule(needs(), [{ ...full, used: { ...full.used, pods: 110 } }]).ok).toBe(false)
  })

  it('the emptier node wins when another is too full', () => {
    const nodes = [
      node('node-1', { used: { cpuMilli: 3500, memBytes: 0, pods: 3 } }),
      node('node-2', { used: { cpuMilli: 3800, memBytes: 0, pods: 3 } }),
      node('node-3'),
    ]
    expect(placed(cpu(1000), nodes)).toBe('node-3')
  })

  it('a request larger than any node is refused with Insufficient cpu / memory on every node', () => {
    // A request above a node's whole allocatable is Unresolvable in kube too: preemption cannot help.
    expect(refused(needs({ requests: { cpuMilli: 64000, memBytes: 0 } }), three())).toMatch(
      /^0\/3 nodes are available: 3 Insufficient cpu\. preemption: /,
    )
    expect(refused(needs({ requests: { cpuMilli: 0, memBytes: 64 * GiB } }), three())).toMatch(
      /^0\/3 nodes are available: 3 Insufficient memory\. preemption: /,
    )
    expect(refused(needs({ requests: { cpuMilli: 64000, memBytes: 64 * GiB } }), three())).toMatch(
      /^0\/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory\. preemption: /,
    )
  })

  it('Too many pods: the pod-count limit', () => {
    const nodes = three((n) => ({
      ...n,
      allocatable: { ...n.allocatable, pods: 2 },
      used: { cpuMilli: 0, memBytes: 0, pods: 2 },
    }))
    expect(refused(needs(), nodes)).toMatch(/^0\/3 nodes are available: 3 Too many pods\. preemption: /)
  })

  // kube's preemption (DefaultPreemption.SelectVictimsOnNode) reports "No preemption victims found for incoming pod" for
  // nodes that failed only for resources (Unschedulable, not UnschedulableAndUnresolvable) when no lower-priority pod
  // could make room, and "Preemption is not helpful for scheduling" only for the other nodes. Real 1.2x output:
  //   0/5 nodes are available: 1 Insufficient cpu, 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/5
  //   nodes are available: 1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.
  // scheduling.ts:schedule always writes "<n> Preemption is not helpful for scheduling.".
  it('preemption part: nodes full of equal-priority pods say "No preemption victims found for incoming pod"', () => {
    const nodes = three((n) =>
      n.name === 'node-1' ? { ...n, used: { cpuMilli: 3500, memBytes: 0, pods: 5 } } : { ...n, labels: {} },
    )
    expect(
      refused(
        needs({ nodeSelector: { 'kubernetes.io/hostname': 'node-1' }, requests: { cpuMilli: 1000, memBytes: 0 } }),
        nodes,
      ),
    ).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, 2 ${AFFINITY_MISMATCH}. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`,
    )
  })

  // kube's FitError.Error() formats "<count> <reason>" strings and then sort.Strings them: the count is part of the
  // sort key. scheduling.ts:schedule sorts by the reason alone, so "2 Insufficient cpu" comes before "1 node(s) ...".
  it('the histogram is sorted as kube sorts it: by the formatted "<count> <reason>" string', () => {
    const nodes = three(
      (n): NodeCandidate =>
        n.name === 'node-3'
          ? { ...n, labels: {} }
          : { ...n, labels: { pool: 'x' }, used: { cpuMilli: 3900, memBytes: 0, pods: 1 } },
    )
    const message = refused(needs({ nodeSelector: { pool: 'x' }, requests: { cpuMilli: 500, memBytes: 0 } }), nodes)
    expect(message.split('. preemption: ')[0]).toBe(
      `0/3 nodes are available: 1 ${AFFINITY_MISMATCH}, 2 Insufficient cpu`,
    )
  })

  // kube's schedulePod answers ErrNoNodesAvailable before filtering when the snapshot has no nodes; its text is the
  // FailedScheduling message. scheduling.ts:schedule formats "0/0 nodes are available: preemption: 0/0 ...".
  it('no nodes at all: "no nodes available to schedule pods" (kube ErrNoNodesAvailable)', () => {
    expect(refused(needs(), [])).toBe('no nodes available to schedule pods')
  })
})

describe('schedule(): resource scores', () => {
  it('picks the node with the lowest share in use after placing the pod', () => {
    const nodes = [
      node('node-1', { used: { cpuMilli: 2000, memBytes: 1 * GiB, pods: 4 } }),
      node('node-2', { used: { cpuMilli: 500, memBytes: 1 * GiB, pods: 4 } }),
      node('node-3', { used: { cpuMilli: 1000, memBytes: 4 * GiB, pods: 4 } }),
    ]
    expect(placed(needs({ requests: { cpuMilli: 100, memBytes: 0 } }), nodes)).toBe('node-2')
  })

  it('a bigger node with the same usage is less allocated', () => {
    const nodes = [
      node('node-1', { used: { cpuMilli: 1000, memBytes: 0, pods: 1 } }),
      node('node-2', {
        allocatable: { cpuMilli: 16000, memBytes: 32 * GiB, pods: 110 },
        used: { cpuMilli: 1000, memBytes: 0, pods: 1 },
      }),
    ]
    expect(placed(needs({ requests: { cpuMilli: 100, memBytes: 0 } }), nodes)).toBe('node-2')
  })

  it('equal scores go to the first node by name', () => {
    expect(placed(needs(), [node('node-c'), node('node-a'), node('node-b')])).toBe('node-a')
  })

  it('placing identical pods one after another spreads them evenly', () => {
    const nodes = three()
    const pod = needs({ requests: { cpuMilli: 250, memBytes: 256 * 1024 ** 2 } })
    const counts: Record<string, number> = {}
    for (let i = 0; i < 12; i++) {
      const name = placed(pod, nodes)
      counts[name] = (counts[name] ?? 0) + 1
      const n = nodes.find((x) => x.name === name)!
      n.used = { cpuMilli: n.used.cpuMilli + 250, memBytes: n.used.memBytes + 256 * 1024 ** 2, pods: n.used.pods + 1 }
    }
    expect(counts).toEqual({ 'node-1': 4, 'node-2': 4, 'node-3': 4 })
  })

  it("best-effort pods spread by the defaults NonZeroRequested counts for them (kube's 100m, 200 MiB)", () => {
    const nodes = three()
    const seen: string[] = []
    for (let i = 0; i < 6; i++) {
      const name = placed(needs(), nodes)
      seen.push(name)
      const used = nodes.find((x) => x.name === name)!.used
      used.pods++
      used.nonZero = {
        cpuMilli: (used.nonZero?.cpuMilli ?? 0) + 100,
        memBytes: (used.nonZero?.memBytes ?? 0) + 200 * MiB,
      }
    }
    expect(seen).toEqual(['node-1', 'node-2', 'node-3', 'node-1', 'node-2', 'node-3'])
  })

  it('a node full of pods that ask for nothing is not empty to NodeResourcesFit', () => {
    const nodes = [
      // Ten best-effort pods: no requests, 1000m and 2000 MiB of NonZeroRequested.
      node('node-1', {
        used: { cpuMilli: 0, memBytes: 0, pods: 10, nonZero: { cpuMilli: 1000, memBytes: 2000 * MiB } },
      }),
      node('node-2', { used: { cpuMilli: 500, memBytes: 512 * MiB, pods: 1 } }),
    ]
    // node-1: cpu (4000−1100)×100/4000 = 72, memory (8192−2200)×100/8192 = 73, fit 72; node-2: 85 and 91, fit 88.
    expect(placed(needs(), nodes)).toBe('node-2')
  })

  it('BalancedAllocation prefers the node whose cpu and memory shares end up closer, for pods that request them', () => {
    // node-1 holds memory, node-2 cpu and memory; the pod's amounts are the same requested or defaulted, so
    // NodeResourcesFit scores both pods alike: node-1 78, node-2 72.
    const nodes = [
      node('node-1', { used: { cpuMilli: 0, memBytes: 3 * GiB, pods: 1 } }),
      node('node-2', { used: { cpuMilli: 1000, memBytes: 2 * GiB, pods: 1 } }),
    ]
    // Requesting 100m and 200 MiB: balance node-1 (0.025 vs 0.40) 81, node-2 (0.275 vs 0.27) 99; node-2 wins 171 to 159.
    expect(placed(needs({ requests: { cpuMilli: 100, memBytes: 200 * MiB } }), nodes)).toBe('node-2')
    // Requesting nothing, BalancedAllocation skips the pod (kube #129138): NodeResourcesFit alone picks node-1.
    expect(placed(needs(), nodes)).toBe('node-1')
  })
})

describe('podRequests', () => {
  const c = (cpu?: string, memory?: string, extra: object = {}) => ({
    name: `c${Math.random().toString(36).slice(2, 7)}`,
    image: 'x',
    ...(cpu || memory ? { resources: { requests: { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) } } } : {}),
    ...extra,
  })

  it('no spec, no containers, no requests: zero', () => {
    expect(podRequests(undefined)).toEqual({ cpuMilli: 0, memBytes: 0 })
    expect(podRequests({ containers: [c()] })).toEqual({ cpuMilli: 0, memBytes: 0 })
  })

  it('regular containers are summed; quantities in every notation', () => {
    expect(podRequests({ containers: [c('100m', '64Mi'), c('0.5', '1G'), c('1', '128974848')] })).toEqual({
      cpuMilli: 1600,
      memBytes: 64 * 1024 ** 2 + 1e9 + 128974848,
    })
  })

  it('fractional millicores round up, as kube does (MilliValue)', () => {
    expect(podRequests({ containers: [c('0.0001')] }).cpuMilli).toBe(1)
  })

  it('limits are not requests (requests are defaulted from limits by the API, not here)', () => {
    expect(
      podRequests({ containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '2', memory: '1Gi' } } }] }),
    ).toEqual({ cpuMilli: 0, memBytes: 0 })
  })

  it('init containers: the largest one counts if it exceeds the sum of the regular containers (per resource)', () => {
    const spec = {
      initContainers: [c('2', '100Mi'), c('500m', '3Gi')],
      containers: [c('300m', '1Gi'), c('200m', '1Gi')],
    }
    expect(podRequests(spec)).toEqual({ cpuMilli: 2000, memBytes: 3 * GiB })
    expect(podRequests({ ...spec, initContainers: [c('100m', '10Mi')] })).toEqual({ cpuMilli: 500, memBytes: 2 * GiB })
  })

  it('sidecars (init containers with restartPolicy Always) add to the regular containers', () => {
    const spec = { initContainers: [c('250m', '256Mi', { restartPolicy: 'Always' })], containers: [c('500m', '512Mi')] }
    expect(podRequests(spec)).toEqual({ cpuMilli: 750, memBytes: 768 * 1024 ** 2 })
  })

  // kube (resourcehelper.AggregateContainerRequests): a regular init container runs while the sidecars declared before
  // it are already running, so its effective request is its own plus theirs:
  //   init = [sidecar 500m (Always), setup 1 cpu], containers = [app 100m]
  //   regular = 100m + 500m = 600m; setup phase = 1000m + 500m = 1500m; pod = max(600m, 1500m) = 1500m.
  // scheduling.ts:podRequests compares the init container's own 1000m only and answers 1000m.
  it('a regular init container after a sidecar counts the sidecar too (kube: 1500m)', () => {
    const spec = {
      initContainers: [c('500m', undefined, { restartPolicy: 'Always' }), c('1')],
      containers: [c('100m')],
    }
    expect(podRequests(spec).cpuMilli).toBe(1500)
  })

  it('an init container before the sidecars does not add them', () => {
    const spec = {
      initContainers: [c('1'), c('500m', undefined, { restartPolicy: 'Always' })],
      containers: [c('100m')],
    }
    expect(podRequests(spec).cpuMilli).toBe(1000)
  })

  it('pod overhead is added on top', () => {
    const spec = { containers: [c('100m', '100Mi')], overhead: { cpu: '250m', memory: '120Mi' } }
    expect(podRequests(spec)).toEqual({ cpuMilli: 350, memBytes: 220 * 1024 ** 2 })
    const withInit = {
      initContainers: [c('2', '1Gi')],
      containers: [c('100m', '100Mi')],
      overhead: { cpu: '250m', memory: '120Mi' },
    }
    expect(podRequests(withInit)).toEqual({ cpuMilli: 2250, memBytes: GiB + 120 * 1024 ** 2 })
  })
})

describe('podNonZeroRequests (NonZeroRequested: NonMissingContainerRequests of 100m and 200 MiB)', () => {
  const c = (requests?: Record<string, string>, extra: object = {}) => ({
    name: `c${Math.random().toString(36).slice(2, 7)}`,
    image: 'x',
    ...(requests ? { resources: { requests } } : {}),
    ...extra,
  })

  it('each container that names no cpu or no memory counts the default for it', () => {
    expect(podNonZeroRequests({ containers: [c()] })).toEqual({ cpuMilli: 100, memBytes: 200 * MiB })
    expect(podNonZeroRequests({ containers: [c({ cpu: '500m' }), c()] })).toEqual({
      cpuMilli: 600,
      memBytes: 400 * MiB,
    })
    expect(podNonZeroRequests({ containers: [c({ memory: '1Gi' })] })).toEqual({ cpuMilli: 100, memBytes: GiB })
  })

  it('a request of "0" is named, so it counts 0', () => {
    expect(podNonZeroRequests({ containers: [c({ cpu: '0' })] })).toEqual({ cpuMilli: 0, memBytes: 200 * MiB })
  })

  it('init containers and sidecars get the defaults too; overhead is added as it is', () => {
    // The init container's defaulted 100m is less than the container's 1 cpu; its 2 cpu is more.
    expect(podNonZeroRequests({ containers: [c({ cpu: '1', memory: '1Gi' })], initContainers: [c()] })).toEqual({
      cpuMilli: 1000,
      memBytes: GiB,
    })
    expect(
      podNonZeroRequests({ containers: [c({ cpu: '1', memory: '1Gi' })], initContainers: [c({ cpu: '2' })] }),
    ).toEqual({ cpuMilli: 2000, memBytes: GiB })
    // A sidecar asking for nothing adds the defaults beside the regular containers.
    expect(
      podNonZeroRequests({
        containers: [c({ cpu: '1', memory: '1Gi' })],
        initContainers: [c(undefined, { restartPolicy: 'Always' })],
        overhead: { cpu: '250m' },
      }),
    ).toEqual({ cpuMilli: 1350, memBytes: GiB + 200 * MiB })
  })
})

describe('nodeAllocatable', () => {
  it('reads allocatable, falls back to capacity, and defaults pods to 110', () => {
    expect(
      nodeAllocatable({
        allocatable: { cpu: '3500m', memory: '7Gi', pods: '50' },
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      }),
    ).toEqual({
      cpuMilli: 3500,
      memBytes: 7 * GiB,
      pods: 50,
    })
    expect(nodeAllocatable({ capacity: { cpu: '2', memory: '1Gi' } })).toEqual({
      cpuMilli: 2000,
      memBytes: GiB,
      pods: 110,
    })
    expect(nodeAllocatable(undefined)).toEqual({ cpuMilli: 0, memBytes: 0, pods: 110 })
  })
})
