// kube-scheduler's NodePorts filter: a pod asking for a host port a pod on the node holds (same protocol and port, on
// the same address or where either binds every address) does not go there; with every node taken it waits with
// kube's FailedScheduling message, and is placed once a holder goes. Pinned to one node by its hostname label (the
// test cluster has three virtual nodes).
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

const cluster = () => env.CLUSTER.getByName('cluster')
const podPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`

type Port = { containerPort: number; hostPort: number; protocol?: string; hostIP?: string }
const withPorts = (name: string, ports: Port[], extra: Record<string, unknown> = {}) => {
  const p = pod(name, {}, extra)
  ;(p.spec.containers[0] as Record<string, unknown>).ports = ports
  return p
}

async function nodeOf(ns: string, name: string): Promise<string> {
  return waitFor(`${name} bound`, async () => (await req('GET', podPath(ns, name))).json.spec?.nodeName || undefined)
}

async function failedScheduling(ns: string, name: string): Promise<string> {
  return waitFor(`${name} FailedScheduling`, async () => {
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as any[]
    return events.find((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name)?.message
  })
}

describe('NodePorts', () => {
  it('a host port taken on every node leaves the pod Pending with kube’s message until a holder goes', async () => {
    const ns = await makeNamespace('hostports')
    const nodes = ((await req('GET', '/api/v1/nodes')).json.items as any[]).filter(
      (n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    )
    const names = nodes.map((_, i) => `holder-${i}`)
    for (const [i, n] of nodes.entries()) {
      const pin = { nodeSelector: { 'kubernetes.io/hostname': n.metadata.name } }
      expect(
        (await req('POST', podPath(ns), withPorts(names[i]!, [{ containerPort: 80, hostPort: 8080 }], pin))).status,
      ).toBe(201)
    }
    for (const name of names) await nodeOf(ns, name)
    expect((await req('POST', podPath(ns), withPorts('late', [{ containerPort: 80, hostPort: 8080 }]))).status).toBe(
      201,
    )
    const n = nodes.length
    expect(await failedScheduling(ns, 'late')).toBe(
      `0/${n} nodes are available: ${n} node(s) didn't have free ports for the requested pod ports. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
    expect((await req('GET', podPath(ns, 'late'))).json.spec.nodeName).toBeUndefined()
    // Another protocol, or another port, fits anywhere.
    expect(
      (await req('POST', podPath(ns), withPorts('udp', [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }])))
        .status,
    ).toBe(201)
    expect((await req('POST', podPath(ns), withPorts('other', [{ containerPort: 80, hostPort: 8081 }]))).status).toBe(
      201,
    )
    await nodeOf(ns, 'udp')
    await nodeOf(ns, 'other')
    // A holder going frees its node's port: the waiting pod goes there.
    const freed = await nodeOf(ns, names[0]!)
    expect((await req('DELETE', `${podPath(ns, names[0])}?gracePeriodSeconds=0`)).status).toBe(200)
    expect(await nodeOf(ns, 'late')).toBe(freed)
  })

  it('ports on different host addresses share a node; one on every address conflicts with both', async () => {
    const ns = await makeNamespace('hostports')
    const node = ((await req('GET', '/api/v1/nodes')).json.items as any[]).find(
      (n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    ).metadata.name as string
    const pin = { nodeSelector: { 'kubernetes.io/hostname': node } }
    const on = (ip: string) => [{ containerPort: 80, hostPort: 9090, hostIP: ip }]
    expect((await req('POST', podPath(ns), withPorts('a', on('10.1.0.1'), pin))).status).toBe(201)
    expect((await req('POST', podPath(ns), withPorts('b', on('10.1.0.2'), pin))).status).toBe(201)
    expect(await nodeOf(ns, 'a')).toBe(node)
    expect(await nodeOf(ns, 'b')).toBe(node)
    expect(
      (await req('POST', podPath(ns), withPorts('all', [{ containerPort: 80, hostPort: 9090 }], pin))).status,
    ).toBe(201)
    expect(await failedScheduling(ns, 'all')).toMatch(
      /^0\/\d+ nodes are available: 1 node\(s\) didn't have free ports for the requested pod ports, /,
    )
  })

  it('a binding recorded elsewhere (spec.nodeName) holds its ports too', async () => {
    const ns = await makeNamespace('hostports')
    const node = ((await req('GET', '/api/v1/nodes')).json.items as any[]).find(
      (n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    ).metadata.name as string
    expect(
      (await req('POST', podPath(ns), withPorts('named', [{ containerPort: 80, hostPort: 7070 }], { nodeName: node })))
        .status,
    ).toBe(201)
    await waitFor('named running', async () =>
      (await req('GET', podPath(ns, 'named'))).json.status?.phase === 'Running' ? true : undefined,
    )
    const placed = await cluster().schedulePod({
      podKey: `${ns}/probe/${crypto.randomUUID()}`,
      ns,
      spec: {
        containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 7070 }] }],
        nodeSelector: { 'kubernetes.io/hostname': node },
      } as never,
    })
    expect(placed.ok).toBe(false)
  })
})
