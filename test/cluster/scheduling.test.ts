// The cluster object's scheduling answer: a pod placed on a virtual node gets its address in the same call (the
// simulated kubelet needs no second one), the same address when asked again; a pod placed on a real node gets none
// (its node agent reports the address), and the ledger keeps counting it.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'

const cluster = () => env.CLUSTER.getByName('cluster')
const spec = (extra: Record<string, unknown> = {}) =>
  ({ containers: [{ name: 'c', image: 'nginx' }], ...extra }) as Parameters<
    ReturnType<typeof cluster>['schedulePod']
  >[0]['spec']

describe('schedulePod', () => {
  it('answers a virtual node with the pod address from its pod CIDR, the same one when asked again', async () => {
    const podKey = `sched-test/p1/${crypto.randomUUID()}`
    const first = await cluster().schedulePod({ podKey, ns: 'sched-test', spec: spec() })
    expect(first.ok).toBe(true)
    if (!first.ok) return
    const facts = await cluster().nodeFacts(first.node)
    expect(facts?.virtual).toBe(true)
    expect(first.addresses?.hostIP).toBe(facts?.hostIP)
    const prefix = facts!.podCIDR.replace(/\.0\/24$/, '.')
    expect(first.addresses?.podIP.startsWith(prefix)).toBe(true)
    const again = await cluster().schedulePod({ podKey, ns: 'sched-test', spec: spec() })
    expect(again).toEqual(first)
    // The kubelet's admission of a pod the scheduler placed: admitted (it fit), with the same address.
    expect(await cluster().admitPods([{ podKey, ns: 'sched-test', spec: spec(), node: first.node }])).toEqual([
      { addresses: first.addresses },
    ])
    expect(await cluster().releasePod(podKey)).toBe(true)
  })

  it('answers a real node without an address', async () => {
    const name = `real-${Date.now().toString(36)}`
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      spec: { podCIDR: '10.250.0.0/24' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        addresses: [{ type: 'InternalIP', address: '192.168.7.7' }],
      },
    }
    const created = await req('POST', '/api/v1/nodes', node)
    expect(created.status, created.text).toBe(201)
    const podKey = `sched-test/p2/${crypto.randomUUID()}`
    const placed = await cluster().schedulePod({
      podKey,
      ns: 'sched-test',
      spec: spec({ nodeSelector: { 'kubernetes.io/hostname': name } }),
    })
    expect(placed).toEqual({ ok: true, node: name })
    expect(await cluster().releasePod(podKey)).toBe(true)
    expect((await req('DELETE', `/api/v1/nodes/${name}`)).status).toBe(200)
  })

  it('schedulePods answers several pods in one call, in order, as schedulePod would each', async () => {
    const keys = [1, 2, 3].map((i) => `sched-test/batch-${i}/${crypto.randomUUID()}`)
    const answers = await cluster().schedulePods([
      { podKey: keys[0]!, ns: 'sched-test', spec: spec() },
      { podKey: keys[1]!, ns: 'sched-test', spec: spec({ nodeSelector: { nowhere: 'true' } }) },
      { podKey: keys[2]!, ns: 'sched-test', spec: spec() },
    ])
    expect(answers.map((a) => a.ok)).toEqual([true, false, true])
    if (answers[1]!.ok) return
    expect(answers[1]!.message).toMatch(
      /^0\/\d+ nodes are available: \d+ node\(s\) didn't match Pod's node affinity\/selector\./,
    )
    // Placed pods keep their places: asking again answers the same.
    expect(await cluster().schedulePod({ podKey: keys[0]!, ns: 'sched-test', spec: spec() })).toEqual(answers[0])
    for (const k of [keys[0]!, keys[2]!]) expect(await cluster().releasePod(k)).toBe(true)
  })
})
