// kube-scheduler's InterPodAffinity filter through the API, on the test cluster's virtual nodes: pods with required
// anti-affinity by hostname spread one per node and the one too many waits with kube's FailedScheduling message (also
// when a ReplicaSet creates them all in one commit) until a placed one goes; a pod with required affinity goes where
// its peer is, and one whose peer appears by a relabel is tried again, as kube requeues waiting pods on a pod update;
// an existing pod's anti-affinity keeps others out. PodTopologySpread's DoNotSchedule constraints refuse a domain too
// far ahead and nodes without the topology key, and count no terminating pod. Preferred pod and node affinity draw pods to the nodes they name.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, podPath, req, waitFor } from '../helpers'

type Obj = Record<string, any>

const HOSTNAME = 'kubernetes.io/hostname'
const required = (labels: Record<string, string>) => [{ labelSelector: { matchLabels: labels }, topologyKey: HOSTNAME }]
const antiAffinity = (labels: Record<string, string>) => ({
  podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required(labels) },
})

async function virtualNodeCount(): Promise<number> {
  const nodes = (await req('GET', '/api/v1/nodes')).json.items as Obj[]
  return nodes.filter((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true').length
}

const nodeOf = (ns: string, name: string): Promise<string> =>
  waitFor(`${name} bound`, async () => (await req('GET', podPath(ns, name))).json.spec?.nodeName || undefined)

const failedScheduling = (ns: string, name: string): Promise<string> =>
  waitFor(`${name} FailedScheduling`, async () => {
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
    return events.find((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name)?.message
  })

const unplaced = (n: number, reason: string, preemption: string) =>
  `0/${n} nodes are available: ${n} ${reason}. preemption: 0/${n} nodes are available: ${n} ${preemption}.`

describe('InterPodAffinity', () => {
  it('required anti-affinity spreads pods one per node; one too many waits until a placed pod goes', async () => {
    const ns = await makeNamespace('anti')
    const n = await virtualNodeCount()
    const names = Array.from({ length: n + 1 }, (_, i) => `web-${i}`)
    for (const name of names)
      expect(
        (await req('POST', podPath(ns), pod(name, { app: 'web' }, { affinity: antiAffinity({ app: 'web' }) }))).status,
      ).toBe(201)
    const placed = new Map<string, string>()
    let waiting = ''
    await waitFor('all but one placed', async () => {
      const pods = (await req('GET', podPath(ns))).json.items as Obj[]
      const bound = pods.filter((p) => p.spec.nodeName)
      if (bound.length < n) return undefined
      for (const p of bound) placed.set(p.metadata.name, p.spec.nodeName)
      waiting = pods.find((p) => !p.spec.nodeName)?.metadata.name
      return waiting ? true : undefined
    })
    expect(new Set(placed.values()).size).toBe(n)
    expect(await failedScheduling(ns, waiting)).toBe(
      unplaced(n, "node(s) didn't match pod anti-affinity rules", 'No preemption victims found for incoming pod'),
    )
    // A placed pod going frees its node for the waiting one.
    const [gone, node] = [...placed.entries()][0]!
    expect((await req('DELETE', `${podPath(ns, gone)}?gracePeriodSeconds=0`)).status).toBe(200)
    expect(await nodeOf(ns, waiting)).toBe(node)
  })

  it('a ReplicaSet whose pods repel each other: one per node even when created in one commit', async () => {
    const ns = await makeNamespace('anti-rs')
    const n = await virtualNodeCount()
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'spread' },
      spec: {
        replicas: n + 1,
        selector: { matchLabels: { app: 'spread' } },
        template: {
          metadata: { labels: { app: 'spread' } },
          spec: { affinity: antiAffinity({ app: 'spread' }), containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status).toBe(201)
    const pods = await waitFor('replicas scheduled or refused', async () => {
      const items = (await req('GET', podPath(ns))).json.items as Obj[]
      const settled = items.filter(
        (p) => p.spec.nodeName || p.status?.conditions?.some((c: Obj) => c.type === 'PodScheduled'),
      )
      return items.length === n + 1 && settled.length === n + 1 ? items : undefined
    })
    const nodes = pods.map((p) => p.spec.nodeName).filter(Boolean)
    expect(nodes.length).toBe(n)
    expect(new Set(nodes).size).toBe(n)
  })

  it('required affinity follows the peer’s node; an existing pod’s anti-affinity keeps matching pods off its node', async () => {
    const ns = await makeNamespace('affinity')
    const n = await virtualNodeCount()
    expect((await req('POST', podPath(ns), pod('cache', { app: 'cache' }))).status).toBe(201)
    const cacheNode = await nodeOf(ns, 'cache')
    const near = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required({ app: 'cache' }) } }
    for (const name of ['near-1', 'near-2'])
      expect((await req('POST', podPath(ns), pod(name, {}, { affinity: near }))).status).toBe(201)
    expect(await nodeOf(ns, 'near-1')).toBe(cacheNode)
    expect(await nodeOf(ns, 'near-2')).toBe(cacheNode)
    // No pod matches this affinity anywhere (and the pod does not match it itself).
    const nowhere = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required({ app: 'none' }) } }
    expect((await req('POST', podPath(ns), pod('lonely', {}, { affinity: nowhere }))).status).toBe(201)
    expect(await failedScheduling(ns, 'lonely')).toBe(
      unplaced(n, "node(s) didn't match pod affinity rules", 'Preemption is not helpful for scheduling'),
    )
    // A placed pod relabelled to match: the waiting pod is tried again (kube requeues on a pod update) and follows it.
    const relabel = { metadata: { labels: { app: 'none' } } }
    const patched = await req('PATCH', podPath(ns, 'cache'), relabel, {
      'content-type': 'application/strategic-merge-patch+json',
    })
    expect(patched.status).toBe(200)
    expect(await nodeOf(ns, 'lonely')).toBe(cacheNode)
    // A pod whose peer does not exist yet waits; the peer's binding tries it again (kube's queueing hint).
    const late = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required({ app: 'late' }) } }
    expect((await req('POST', podPath(ns), pod('early', {}, { affinity: late }))).status).toBe(201)
    await failedScheduling(ns, 'early')
    expect((await req('POST', podPath(ns), pod('peer', { app: 'late' }))).status).toBe(201)
    expect(await nodeOf(ns, 'early')).toBe(await nodeOf(ns, 'peer'))
    // The guard repels app=intruder from its node: pinned there, one waits with kube's message.
    expect(
      (await req('POST', podPath(ns), pod('guard', {}, { affinity: antiAffinity({ app: 'intruder' }) }))).status,
    ).toBe(201)
    const guardNode = await nodeOf(ns, 'guard')
    const pinned = { nodeSelector: { [HOSTNAME]: guardNode } }
    expect((await req('POST', podPath(ns), pod('intruder', { app: 'intruder' }, pinned))).status).toBe(201)
    expect(await failedScheduling(ns, 'intruder')).toBe(
      `0/${n} nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, ${n - 1} node(s) didn't match Pod's node affinity/selector. preemption: 0/${n} nodes are available: 1 No preemption victims found for incoming pod, ${n - 1} Preemption is not helpful for scheduling.`,
    )
  })

  it('matchLabelKeys and mismatchLabelKeys join the labelSelector at create; the scheduler then reads the selector', async () => {
    const ns = await makeNamespace('label-keys')
    const node = ((await req('GET', '/api/v1/nodes')).json.items as Obj[])[0]!.metadata.name as string
    const term = {
      labelSelector: { matchLabels: { app: 'web' } },
      matchLabelKeys: ['version'],
      mismatchLabelKeys: ['track', 'absent'],
      topologyKey: HOSTNAME,
    }
    const spread = (name: string, version: string, track = 'stable') =>
      pod(
        name,
        { app: 'web', version, track },
        {
          nodeSelector: { [HOSTNAME]: node },
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
        },
      )
    const created = await req('POST', podPath(ns), spread('v1-a', 'v1'))
    expect(created.status).toBe(201)
    expect(
      created.json.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector,
    ).toEqual({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'version', operator: 'In', values: ['v1'] },
        { key: 'track', operator: 'NotIn', values: ['stable'] },
      ],
    })
    expect(await nodeOf(ns, 'v1-a')).toBe(node)
    // Another version is not repelled (its selector asks for version v2), nor the same track (NotIn its own track);
    // the same version on another track is.
    expect((await req('POST', podPath(ns), spread('v2-a', 'v2'))).status).toBe(201)
    expect(await nodeOf(ns, 'v2-a')).toBe(node)
    expect((await req('POST', podPath(ns), spread('v1-b', 'v1'))).status).toBe(201)
    expect(await nodeOf(ns, 'v1-b')).toBe(node)
    expect((await req('POST', podPath(ns), spread('v1-c', 'v1', 'canary'))).status).toBe(201)
    expect(await failedScheduling(ns, 'v1-c')).toContain("1 node(s) didn't match pod anti-affinity rules")
  })

  it('topologySpreadConstraints (DoNotSchedule): a domain too far ahead is refused; nodes without the key are', async () => {
    const ns = await makeNamespace('spread')
    const n = await virtualNodeCount()
    const node = ((await req('GET', '/api/v1/nodes')).json.items as Obj[])[0]!.metadata.name as string
    const pinned = { nodeSelector: { [HOSTNAME]: node } }
    for (const name of ['w-1', 'w-2'])
      expect((await req('POST', podPath(ns), pod(name, { app: 'web' }, pinned))).status).toBe(201)
    await nodeOf(ns, 'w-2')
    const spread = (over: object) => ({
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: HOSTNAME,
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
          ...over,
        },
      ],
    })
    // Every node a domain (the node selector ignored): the pinned node is 2 ahead of the others.
    expect(
      (
        await req(
          'POST',
          podPath(ns),
          pod('ahead', { app: 'web' }, { ...pinned, ...spread({ nodeAffinityPolicy: 'Ignore' }) }),
        )
      ).status,
    ).toBe(201)
    expect(await failedScheduling(ns, 'ahead')).toBe(
      `0/${n} nodes are available: 1 node(s) didn't match pod topology spread constraints, ${n - 1} node(s) didn't match Pod's node affinity/selector. preemption: 0/${n} nodes are available: 1 No preemption victims found for incoming pod, ${n - 1} Preemption is not helpful for scheduling.`,
    )
    // Honouring the selector (the default), the pinned node is the only domain: it takes the pod.
    expect((await req('POST', podPath(ns), pod('honoured', { app: 'web' }, { ...pinned, ...spread({}) }))).status).toBe(
      201,
    )
    expect(await nodeOf(ns, 'honoured')).toBe(node)
    // No virtual node has a zone label.
    expect((await req('POST', podPath(ns), pod('zoned', { app: 'web' }, spread({ topologyKey: 'zone' })))).status).toBe(
      201,
    )
    expect(await failedScheduling(ns, 'zoned')).toBe(
      unplaced(
        n,
        "node(s) didn't match pod topology spread constraints (missing required label)",
        'Preemption is not helpful for scheduling',
      ),
    )
  })

  it('topologySpreadConstraints count no terminating pod: a deletion under way lets a refused pod in', async () => {
    const ns = await makeNamespace('spreadgo')
    // A node no kubelet runs: pods bound to it stay, and deleted with a grace period they stay terminating.
    const real = `spread-real-${ns.slice(-5)}`
    const mk = await req('POST', '/api/v1/nodes', { metadata: { name: real, labels: { [HOSTNAME]: real } } })
    expect(mk.status, mk.text).toBe(201)
    try {
      for (const name of ['t-1', 't-2'])
        expect((await req('POST', podPath(ns), pod(name, { app: 'web' }, { nodeName: real }))).status).toBe(201)
      const spec = {
        nodeSelector: { [HOSTNAME]: real },
        // A node that never reported Ready carries kube's not-ready taint.
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: HOSTNAME,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'web' } },
            nodeAffinityPolicy: 'Ignore',
          },
        ],
      }
      expect((await req('POST', podPath(ns), pod('waits', { app: 'web' }, spec))).status).toBe(201)
      expect(await failedScheduling(ns, 'waits')).toMatch(/1 node\(s\) didn't match pod topology spread constraints/)
      for (const name of ['t-1', 't-2']) {
        const d = await req('DELETE', `${podPath(ns, name)}?gracePeriodSeconds=300`)
        expect(d.json.metadata?.deletionTimestamp, d.text).toBeTruthy()
      }
      // Still there (terminating), no longer counted: the waiting pod goes to the node they hold.
      expect(await nodeOf(ns, 'waits')).toBe(real)
      expect((await req('GET', podPath(ns, 't-1'))).json.metadata.deletionTimestamp).toBeTruthy()
    } finally {
      await req('DELETE', `/api/v1/nodes/${real}`)
    }
  })

  it('preferences: preferred pod affinity and preferred node affinity draw pods to a fuller node', async () => {
    const ns = await makeNamespace('prefer')
    const nodes = ((await req('GET', '/api/v1/nodes')).json.items as Obj[])
      .filter((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')
      .map((n) => n.metadata.name as string)
    const busy = nodes.at(-1)!
    const pinned = { nodeSelector: { [HOSTNAME]: busy } }
    for (const name of ['cache', 'filler-1', 'filler-2'])
      expect(
        (await req('POST', podPath(ns), pod(name, { app: name === 'cache' ? 'cache' : 'filler' }, pinned))).status,
      ).toBe(201)
    await nodeOf(ns, 'filler-2')
    const nearCache = {
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 50, podAffinityTerm: { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: HOSTNAME } },
        ],
      },
    }
    expect((await req('POST', podPath(ns), pod('near', {}, { affinity: nearCache }))).status).toBe(201)
    expect(await nodeOf(ns, 'near')).toBe(busy)
    const preferBusy = {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: [busy] }] } },
        ],
      },
    }
    expect((await req('POST', podPath(ns), pod('there', {}, { affinity: preferBusy }))).status).toBe(201)
    expect(await nodeOf(ns, 'there')).toBe(busy)
  })
})
