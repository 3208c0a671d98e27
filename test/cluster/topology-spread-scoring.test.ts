// PodTopologySpread's ScheduleAnyway score through the API, on the test cluster's virtual nodes: a node that already
// runs two of the pods the constraint selects loses to an emptier-by-count node that the resource score alone would
// rank lower, as kube's weights (spread 2, resources 1 each) make it; without the constraint the same pod goes by
// resources. A pod with no constraints of its own that a Service selects is spread by kube's system defaults.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, podPath, req, waitFor } from '../helpers'

type Obj = Record<string, any>
const HOSTNAME = 'kubernetes.io/hostname'

const nodeOf = (ns: string, name: string): Promise<string> =>
  waitFor(`${name} bound`, async () => (await req('GET', podPath(ns, name))).json.spec?.nodeName || undefined)

/** Required node affinity to these nodes. */
const onNodes = (...nodes: string[]) => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: nodes }] }],
    },
  },
})

async function virtualNodes(): Promise<string[]> {
  return ((await req('GET', '/api/v1/nodes')).json.items as Obj[])
    .filter((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')
    .map((n) => n.metadata.name as string)
    .sort()
}

describe('PodTopologySpread score', () => {
  it('ScheduleAnyway spreads a pod away from the node holding its peers, against the resource score', async () => {
    const ns = await makeNamespace('spreadscore')
    const nodes = await virtualNodes()
    expect(nodes.length).toBeGreaterThanOrEqual(2)
    const [crowded, busy] = nodes as [string, string]
    // busy: half its cpu and memory taken by a pod the constraint does not select; crowded: two selected pods.
    const heavy = { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '2', memory: '4Gi' } } }] }
    expect((await req('POST', podPath(ns), pod('heavy', { app: 'db' }, { ...heavy, nodeName: busy }))).status).toBe(201)
    for (const name of ['web-1', 'web-2'])
      expect((await req('POST', podPath(ns), pod(name, { app: 'web' }, { nodeName: crowded }))).status).toBe(201)
    const onTheTwo = onNodes(crowded, busy)
    const spread = [
      {
        maxSkew: 1,
        topologyKey: HOSTNAME,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: 'web' } },
      },
    ]
    // By resources alone, the crowded node (nothing requested) wins.
    expect((await req('POST', podPath(ns), pod('plain', { app: 'other' }, { affinity: onTheTwo }))).status).toBe(201)
    expect(await nodeOf(ns, 'plain')).toBe(crowded)
    const spreading = pod('web-3', { app: 'web' }, { affinity: onTheTwo, topologySpreadConstraints: spread })
    expect((await req('POST', podPath(ns), spreading)).status).toBe(201)
    expect(await nodeOf(ns, 'web-3')).toBe(busy)
  })

  it('system defaults: once a Service selects them, pods with no constraints spread away from their peers', async () => {
    const ns = await makeNamespace('defaultspread')
    const [crowded, busy] = (await virtualNodes()) as [string, string]
    // busy: a pod of no Service holds cpu and memory there (as does the test above's); crowded: two pods labelled app=api.
    const heavy = { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1', memory: '2Gi' } } }] }
    expect((await req('POST', podPath(ns), pod('heavy', { app: 'db' }, { ...heavy, nodeName: busy }))).status).toBe(201)
    for (const name of ['api-1', 'api-2'])
      expect((await req('POST', podPath(ns), pod(name, { app: 'api' }, { nodeName: crowded }))).status).toBe(201)
    const affinity = onNodes(crowded, busy)
    // Nothing selects app=api yet: no default spreading, so the resource scores pick the emptier crowded node.
    expect((await req('POST', podPath(ns), pod('before', { app: 'api' }, { affinity }))).status).toBe(201)
    expect(await nodeOf(ns, 'before')).toBe(crowded)
    const service = { metadata: { name: 'api' }, spec: { selector: { app: 'api' }, ports: [{ port: 80 }] } }
    expect((await req('POST', `/api/v1/namespaces/${ns}/services`, service)).status).toBe(201)
    // By hostname (maxSkew 3): crowded 3 × log(4) + 2 -> 6, busy 2; normalized 33 and 100, weighed 2.
    expect((await req('POST', podPath(ns), pod('after', { app: 'api' }, { affinity }))).status).toBe(201)
    expect(await nodeOf(ns, 'after')).toBe(busy)
  })

  it("system defaults: a ReplicaSet's selector alone spreads its replicas, against the resource scores", async () => {
    const ns = await makeNamespace('rsspread')
    const [crowded, , empty] = (await virtualNodes()) as [string, string, string]
    const labels = { app: 'rs-spread' }
    const rs = {
      metadata: { name: 'rs-spread' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { affinity: onNodes(crowded, empty), containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    }
    expect((await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status).toBe(201)
    const placed = await waitFor('both replicas bound', async () => {
      const pods = (await req('GET', `${podPath(ns)}?labelSelector=app%3Drs-spread`)).json.items as Obj[]
      const nodes = pods.map((p) => p.spec?.nodeName).filter(Boolean)
      return nodes.length === 2 ? nodes : undefined
    })
    // The first replica takes the empty node; the second would too by resources (95 to 82 with the tests above's pods
    // on the crowded node), but the empty node now holds one replica: spread 66 there, 100 on crowded, weighed 2.
    expect([...placed].sort()).toEqual([crowded, empty].sort())
  })
})
