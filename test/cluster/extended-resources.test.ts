// Extended resources and ephemeral-storage on virtual nodes, as kube's "advertise extended resources for a node"
// recipe uses them: a status patch adds `example.com/dongle` to a node's capacity, the simulated kubelet makes it
// allocatable, and the scheduler places pods asking for it there only, counting what its pods hold; a pod that fits
// nowhere waits with kube's `Insufficient <name>` message. The kubelet's own admission of a pod bound by name leaves
// out extended resources its node does not list (removeMissingExtendedResources) and rejects one its node has too
// few of as `OutOf<name>`.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, podPath, req, waitFor } from '../helpers'

type Obj = Record<string, any>

const DONGLE = 'example.com/dongle'

const asking = (name: string, requests: Record<string, string>, extra: Obj = {}) => {
  const p = pod(name, {}, extra)
  // Extended resources are not overcommitted: requests equal limits (the API defaults requests from limits).
  ;(p.spec.containers[0] as Obj).resources = { limits: requests }
  return p
}

async function virtualNodes(): Promise<string[]> {
  const nodes = (await req('GET', '/api/v1/nodes')).json.items as Obj[]
  return nodes
    .filter((n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')
    .map((n) => n.metadata.name as string)
}

const nodeOf = (ns: string, name: string): Promise<string> =>
  waitFor(`${name} bound`, async () => (await req('GET', podPath(ns, name))).json.spec?.nodeName || undefined)

const phaseOf = (ns: string, name: string, phase: string): Promise<Obj> =>
  waitFor(`${name} ${phase}`, async () => {
    const p = (await req('GET', podPath(ns, name))).json
    return p.status?.phase === phase ? p : undefined
  })

async function failedScheduling(ns: string, name: string, since = ''): Promise<string> {
  return waitFor(`${name} FailedScheduling`, async () => {
    const events = (await req('GET', `/api/v1/namespaces/${ns}/events`)).json.items as Obj[]
    const message = events.find((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name)?.message
    return message && message !== since ? message : undefined
  })
}

const patchStatus = (node: string, ops: Obj[]) =>
  req('PATCH', `/api/v1/nodes/${node}/status`, ops, { 'content-type': 'application/json-patch+json' })

const allocatableOf = async (node: string) => (await req('GET', `/api/v1/nodes/${node}`)).json.status.allocatable

describe('extended resources on virtual nodes', () => {
  it('a dongle no node has keeps the pod Pending until a node advertises it; then it is counted there', async () => {
    const ns = await makeNamespace('dongles')
    const nodes = await virtualNodes()
    const n = nodes.length
    expect((await req('POST', podPath(ns), asking('first', { [DONGLE]: '1' }))).status).toBe(201)
    expect(await failedScheduling(ns, 'first')).toBe(
      `0/${n} nodes are available: ${n} Insufficient ${DONGLE}. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )

    // kube's recipe: a JSON patch adding the resource to the node's capacity; the kubelet makes it allocatable.
    const node = nodes[1]!
    expect(
      (await patchStatus(node, [{ op: 'add', path: '/status/capacity/example.com~1dongle', value: '2' }])).status,
    ).toBe(200)
    expect(await waitFor('allocatable dongles', async () => (await allocatableOf(node))[DONGLE])).toBe('2')
    expect(await nodeOf(ns, 'first')).toBe(node)

    // One of two is taken: a pod asking for two more waits, one asking for one goes to the same node.
    expect((await req('POST', podPath(ns), asking('two', { [DONGLE]: '2' }))).status).toBe(201)
    expect(await failedScheduling(ns, 'two')).toContain(`${n} Insufficient ${DONGLE}`)
    expect((await req('POST', podPath(ns), asking('one', { [DONGLE]: '1' }))).status).toBe(201)
    expect(await nodeOf(ns, 'one')).toBe(node)

    // The first going frees one, not two: `two` still waits; both going lets it in.
    expect((await req('DELETE', `${podPath(ns, 'first')}?gracePeriodSeconds=0`)).status).toBe(200)
    expect((await req('DELETE', `${podPath(ns, 'one')}?gracePeriodSeconds=0`)).status).toBe(200)
    expect(await nodeOf(ns, 'two')).toBe(node)

    // Gone from capacity, gone from allocatable.
    expect((await patchStatus(node, [{ op: 'remove', path: '/status/capacity/example.com~1dongle' }])).status).toBe(200)
    await waitFor('dongles gone from allocatable', async () =>
      (await allocatableOf(node))[DONGLE] === undefined ? true : undefined,
    )
  })

  it('ephemeral-storage is fitted against the node’s allocatable', async () => {
    const ns = await makeNamespace('storage')
    const n = (await virtualNodes()).length
    expect((await req('POST', podPath(ns), asking('huge', { 'ephemeral-storage': '500Gi' }))).status).toBe(201)
    expect(await failedScheduling(ns, 'huge')).toBe(
      `0/${n} nodes are available: ${n} Insufficient ephemeral-storage. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
    expect((await req('POST', podPath(ns), asking('small', { 'ephemeral-storage': '1Gi' }))).status).toBe(201)
    await phaseOf(ns, 'small', 'Running')
  })

  it('the kubelet admits a pod bound by name asking for a resource its node does not list, rejects one short of it', async () => {
    const ns = await makeNamespace('dongle-admit')
    // Not the node the first test gave dongles (its pods still hold them).
    const [plain, , dongled] = await virtualNodes()
    // Not listed at all: a cluster-level resource, which the kubelet leaves out of its admission.
    expect(
      (await req('POST', podPath(ns), asking('unlisted', { 'vendor.io/thing': '3' }, { nodeName: plain }))).status,
    ).toBe(201)
    await phaseOf(ns, 'unlisted', 'Running')
    // Listed as 0: counted, and short.
    expect(
      (await patchStatus(dongled!, [{ op: 'add', path: '/status/capacity/example.com~1dongle', value: '0' }])).status,
    ).toBe(200)
    await waitFor('allocatable 0 dongles', async () => (await allocatableOf(dongled!))[DONGLE])
    expect((await req('POST', podPath(ns), asking('short', { [DONGLE]: '2' }, { nodeName: dongled }))).status).toBe(201)
    const p = await phaseOf(ns, 'short', 'Failed')
    expect(p.status.reason).toBe(`OutOf${DONGLE}`)
    expect(p.status.message).toBe(
      `Pod was rejected: Node didn't have enough resource: ${DONGLE}, requested: 2, used: 0, capacity: 0`,
    )
  })
})
