// The simulated kubelet's admission (kube 1.33's predicateAdmitHandler): a pod bound to a virtual node without the
// scheduler (spec.nodeName) that does not fit it is Failed with kube's reason and `Pod was rejected: ` message, a
// Warning event says why, it has no container statuses, and its room on the node is given back.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, podPath, req, waitFor } from '../helpers'

type Obj = Record<string, any>

const cluster = () => env.CLUSTER.getByName('cluster')

async function virtualNode(): Promise<string> {
  const nodes = (await req('GET', '/api/v1/nodes')).json.items as Obj[]
  return nodes.find((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')!.metadata.name
}

async function settled(ns: string, name: string): Promise<Obj> {
  return waitFor(`${name} Running or Failed`, async () => {
    const p = (await req('GET', podPath(ns, name))).json
    return p.status?.phase === 'Running' || p.status?.phase === 'Failed' ? p : undefined
  })
}

async function eventOf(ns: string, name: string, reason: string): Promise<Obj> {
  return waitFor(`${reason} event of ${name}`, async () => {
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
    return events.find((e) => e.reason === reason && e.involvedObject.name === name)
  })
}

const withCpu = (name: string, cpu: string, extra: Obj = {}) => {
  const p = pod(name, {}, extra)
  ;(p.spec.containers[0] as Obj).resources = { requests: { cpu } }
  return p
}

const withPort = (name: string, port: number, extra: Obj = {}) => {
  const p = pod(name, {}, extra)
  ;(p.spec.containers[0] as Obj).ports = [{ containerPort: 80, hostPort: port }]
  return p
}

describe('kubelet admission on virtual nodes', () => {
  it('a pod asking for more cpu than its node has is Failed OutOfcpu, with the event, and holds no room', async () => {
    const ns = await makeNamespace('admit')
    const node = await virtualNode()
    expect((await req('POST', podPath(ns), withCpu('big', '100', { nodeName: node }))).status).toBe(201)
    const p = await settled(ns, 'big')
    expect(p.status.phase).toBe('Failed')
    expect(p.status.reason).toBe('OutOfcpu')
    expect(p.status.message).toMatch(
      /^Pod was rejected: Node didn't have enough resource: cpu, requested: 100000, used: \d+, capacity: 4000$/,
    )
    expect(p.status.containerStatuses).toBeUndefined()
    expect(p.status.conditions).toBeUndefined()
    expect(p.status.startTime).toBeDefined()
    expect(p.status.qosClass).toBe('Burstable')
    const event = await eventOf(ns, 'big', 'OutOfcpu')
    expect(event.type).toBe('Warning')
    expect(event.message).toBe(p.status.message.replace(/^Pod was rejected: /, ''))
    expect(event.source).toEqual({ component: 'kubelet', host: node })
    // Failed: its reservation is released, as any Failed pod's.
    await waitFor('the reservation released', async () =>
      (await cluster().reservedPods(ns)).length === 0 ? true : undefined,
    )
  })

  it('of two pods bound to one node asking for one host port, the second is Failed NodePorts', async () => {
    const ns = await makeNamespace('admit')
    const node = await virtualNode()
    expect((await req('POST', podPath(ns), withPort('first', 6123, { nodeName: node }))).status).toBe(201)
    expect((await settled(ns, 'first')).status.phase).toBe('Running')
    expect((await req('POST', podPath(ns), withPort('second', 6123, { nodeName: node }))).status).toBe(201)
    const p = await settled(ns, 'second')
    expect(p.status).toMatchObject({
      phase: 'Failed',
      reason: 'NodePorts',
      message:
        "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    })
    expect((await eventOf(ns, 'second', 'NodePorts')).message).toBe(
      "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    )
    // The one admitted still runs, and the port is still its own: another pod asking for it is refused too.
    expect((await req('GET', podPath(ns, 'first'))).json.status.phase).toBe('Running')
    expect((await req('POST', podPath(ns), withPort('third', 6123, { nodeName: node }))).status).toBe(201)
    expect((await settled(ns, 'third')).status.reason).toBe('NodePorts')
    // Another port fits.
    expect((await req('POST', podPath(ns), withPort('fourth', 6124, { nodeName: node }))).status).toBe(201)
    expect((await settled(ns, 'fourth')).status.phase).toBe('Running')
  })

  it('a node selector the named node does not satisfy is NodeAffinity', async () => {
    const ns = await makeNamespace('admit')
    const node = await virtualNode()
    const body = pod('picky', {}, { nodeName: node, nodeSelector: { disktype: 'ssd-nowhere' } })
    expect((await req('POST', podPath(ns), body)).status).toBe(201)
    expect((await settled(ns, 'picky')).status).toMatchObject({
      phase: 'Failed',
      reason: 'NodeAffinity',
      message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
    })
  })

  it('an untolerated NoExecute taint is TaintToleration; a tolerated one and NoSchedule are admitted', async () => {
    const ns = await makeNamespace('admit')
    const name = `tainted-${Date.now().toString(36)}`
    const created = await req('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, annotations: { 'kubeflare.dev/virtual-node': 'true' } },
      spec: {
        podCIDR: '10.251.7.0/24',
        taints: [
          { key: 'gone', effect: 'NoExecute' },
          { key: 'busy', effect: 'NoSchedule' },
        ],
      },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.9.7.1' }],
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      },
    })
    expect(created.status).toBe(201)
    try {
      expect((await req('POST', podPath(ns), pod('plain', {}, { nodeName: name }))).status).toBe(201)
      expect((await settled(ns, 'plain')).status).toMatchObject({
        phase: 'Failed',
        reason: 'TaintToleration',
        message: "Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate",
      })
      const tolerant = pod('tolerant', {}, { nodeName: name, tolerations: [{ key: 'gone', operator: 'Exists' }] })
      expect((await req('POST', podPath(ns), tolerant)).status).toBe(201)
      expect((await settled(ns, 'tolerant')).status.phase).toBe('Running')
    } finally {
      await req('DELETE', `/api/v1/nodes/${name}`)
    }
  })

  it('a pod labelled for another OS is refused even where the scheduler placed it', async () => {
    const ns = await makeNamespace('admit')
    expect((await req('POST', podPath(ns), pod('win', { 'kubernetes.io/os': 'windows' }))).status).toBe(201)
    expect((await settled(ns, 'win')).status).toMatchObject({
      phase: 'Failed',
      reason: 'PodOSSelectorNodeLabelDoesNotMatch',
      message: "Pod was rejected: Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    })
  })
})
