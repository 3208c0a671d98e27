// Pod IPs under load: 500 pods created at once across five namespaces against three virtual nodes (110 pods each,
// pod CIDRs 10.244.<i>.0/24). Every running pod gets a distinct address inside its node's CIDR (never .0, .1 or the
// broadcast address); the pods that do not fit stay Pending with "Too many pods"; deleting running pods frees their
// addresses and capacity, the waiting pods are scheduled and reuse exactly the freed addresses.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, sleep } from '../helpers'

const V1 = ['', 'api', 'v1'].join('/')
type Obj = Record<string, any>

const NAMESPACES = 5
const PER_NAMESPACE = 100
const TOTAL = NAMESPACES * PER_NAMESPACE

/** Polls fn until it answers {done}; a string answer says what was seen instead (for the timeout message). */
async function waitFor<T>(what: string, fn: () => Promise<{ done: T } | string>, ms: number): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (typeof v !== 'string') return v.done
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last seen: ${v})`)
    await sleep(200)
  }
}

async function allPods(namespaces: string[]): Promise<Obj[]> {
  const out: Obj[] = []
  for (const ns of namespaces) {
    const r = await req('GET', `${V1}/namespaces/${ns}/pods`)
    expect(r.status, r.text).toBe(200)
    out.push(...r.json.items)
  }
  return out
}

interface NodeInfo {
  cidrBase: number
  prefix: number
  hostIP: string
  capacity: number
}

const ipToInt = (ip: string) => ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0)

async function nodes(): Promise<Map<string, NodeInfo>> {
  const r = await req('GET', `${V1}/nodes`)
  expect(r.status).toBe(200)
  const out = new Map<string, NodeInfo>()
  for (const n of r.json.items as Obj[]) {
    const [base, prefix] = (n.spec.podCIDR as string).split('/')
    out.set(n.metadata.name, {
      cidrBase: ipToInt(base!),
      prefix: Number(prefix),
      hostIP: (n.status.addresses as Obj[]).find((a) => a.type === 'InternalIP')!.address,
      capacity: Number(n.status.allocatable.pods),
    })
  }
  return out
}

/** Every running pod: a distinct IP inside its node's pod CIDR, usable host address, hostIP = the node's. */
function checkIPs(running: Obj[], info: Map<string, NodeInfo>) {
  const seen = new Map<string, string>()
  for (const p of running) {
    const key = `${p.metadata.namespace}/${p.metadata.name}`
    const ip = p.status.podIP as string
    expect(ip, key).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    expect(p.status.podIPs, key).toEqual([{ ip }])
    const node = info.get(p.spec.nodeName)!
    expect(node, `${key} on ${p.spec.nodeName}`).toBeDefined()
    expect(p.status.hostIP, key).toBe(node.hostIP)
    const size = 2 ** (32 - node.prefix)
    const offset = ipToInt(ip) - node.cidrBase
    expect(offset, `${key} ${ip} inside ${p.spec.nodeName}'s CIDR`).toBeGreaterThanOrEqual(2)
    expect(offset, `${key} ${ip} inside ${p.spec.nodeName}'s CIDR`).toBeLessThan(size - 1)
    const other = seen.get(ip)
    expect(other, `${ip} given to both ${other} and ${key}`).toBeUndefined()
    seen.set(ip, key)
  }
}

describe('pod IPs under 500 concurrent creates', () => {
  it("distinct IPs inside each node's pod CIDR; capacity respected; freed IPs are reused", {
    timeout: 240_000,
  }, async () => {
    const info = await nodes()
    expect(info.size).toBe(3)
    const capacity = [...info.values()].reduce((a, n) => a + n.capacity, 0)
    expect(capacity).toBe(330)

    const namespaces: string[] = []
    for (let i = 0; i < NAMESPACES; i++) namespaces.push(await makeNamespace('ips'))

    // All at once.
    const creates = await Promise.all(
      Array.from({ length: TOTAL }, (_, i) =>
        req('POST', `${V1}/namespaces/${namespaces[i % NAMESPACES]}/pods`, pod(`p-${i}`)),
      ),
    )
    const refused = creates.filter((r) => r.status !== 201)
    expect(refused.map((r) => `${r.status} ${r.text.slice(0, 200)}`)).toEqual([])

    // Settle: as many Running as fit, the rest Pending with the Unschedulable condition.
    const settled = await waitFor(
      'every pod to be Running or Unschedulable',
      async () => {
        const pods = await allPods(namespaces)
        const running = pods.filter((p) => p.status.phase === 'Running')
        const waiting = pods.filter(
          (p) =>
            p.status.phase === 'Pending' &&
            (p.status.conditions ?? []).some((c: Obj) => c.type === 'PodScheduled' && c.status === 'False'),
        )
        return running.length + waiting.length === TOTAL && running.length === capacity
          ? { done: { pods, running, waiting } }
          : `${running.length} running, ${waiting.length} waiting`
      },
      180_000,
    )
    expect(settled.pods).toHaveLength(TOTAL)
    expect(settled.running).toHaveLength(capacity)
    expect(settled.waiting).toHaveLength(TOTAL - capacity)
    checkIPs(settled.running, info)
    // Per node: exactly its pod capacity, addresses .2 … .(capacity+1) (lowest free first).
    for (const [name, node] of info) {
      const on = settled.running.filter((p) => p.spec.nodeName === name)
      expect(on, name).toHaveLength(node.capacity)
      const offsets = on.map((p) => ipToInt(p.status.podIP) - node.cidrBase).sort((a, b) => a - b)
      expect(offsets, name).toEqual(Array.from({ length: node.capacity }, (_, i) => i + 2))
    }
    for (const p of settled.waiting) {
      expect(p.spec.nodeName, p.metadata.name).toBeUndefined()
      expect(p.status.podIP).toBeUndefined()
      const c = (p.status.conditions as Obj[]).find((x) => x.type === 'PodScheduled')!
      expect(c.reason).toBe('Unschedulable')
      expect(c.message).toMatch(/^0\/3 nodes are available: 3 Too many pods\. preemption: 0\/3 nodes are available: /)
    }

    // Free 30 addresses (10 per node) by deleting running pods at once.
    const victims: Obj[] = []
    for (const name of info.keys())
      victims.push(...settled.running.filter((p) => p.spec.nodeName === name).slice(0, 10))
    const freed = new Set(victims.map((p) => p.status.podIP as string))
    const deletes = await Promise.all(
      victims.map((p) =>
        req('DELETE', `${V1}/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 }),
      ),
    )
    expect(deletes.map((r) => r.status)).toEqual(victims.map(() => 200))

    // 30 waiting pods take the room, with exactly the freed addresses.
    const waitingKeys = new Set(settled.waiting.map((p) => `${p.metadata.namespace}/${p.metadata.name}`))
    const after = await waitFor(
      'waiting pods to take the freed room',
      async () => {
        const pods = await allPods(namespaces)
        const running = pods.filter((p) => p.status.phase === 'Running')
        return running.length === capacity ? { done: { pods, running } } : `${running.length} running`
      },
      60_000,
    )
    expect(after.pods).toHaveLength(TOTAL - victims.length)
    checkIPs(after.running, info)
    const newcomers = after.running.filter((p) => waitingKeys.has(`${p.metadata.namespace}/${p.metadata.name}`))
    expect(newcomers).toHaveLength(victims.length)
    expect(new Set(newcomers.map((p) => p.status.podIP))).toEqual(freed)
    // Still nobody beyond capacity; the rest still wait.
    await sleep(500)
    const final = await allPods(namespaces)
    expect(final.filter((p) => p.status.phase === 'Running')).toHaveLength(capacity)
    expect(final.filter((p) => p.status.phase === 'Pending')).toHaveLength(TOTAL - victims.length - capacity)
  })

  it('a pod deleted gracefully gives its address back; the next pod on that node gets it', {
    timeout: 60_000,
  }, async () => {
    // Runs after the load test: every node is full, so make room on node-1 and watch one address cycle.
    const ns = await makeNamespace('ips')
    const holders = (
      await req('GET', `${V1}/pods?fieldSelector=${encodeURIComponent('spec.nodeName=node-1,status.phase=Running')}`)
    ).json.items as Obj[]
    expect(holders.length).toBeGreaterThan(0)
    // Delete every pending pod first, so nothing else competes for the room.
    const pending = (await req('GET', `${V1}/pods?fieldSelector=${encodeURIComponent('status.phase=Pending')}`)).json
      .items as Obj[]
    await Promise.all(
      pending.map((p) => req('DELETE', `${V1}/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`)),
    )
    const victim = holders[0]!
    const ip = victim.status.podIP
    expect(
      (await req('DELETE', `${V1}/namespaces/${victim.metadata.namespace}/pods/${victim.metadata.name}`)).status,
    ).toBe(200)
    await waitFor(
      'the victim to be gone',
      async () =>
        (await req('GET', `${V1}/namespaces/${victim.metadata.namespace}/pods/${victim.metadata.name}`)).status === 404
          ? { done: true }
          : 'still there',
      10_000,
    )
    expect((await req('POST', `${V1}/namespaces/${ns}/pods`, pod('reuse', {}, { nodeName: 'node-1' }))).status).toBe(
      201,
    )
    const running = await waitFor(
      'reuse to run',
      async () => {
        const p = (await req('GET', `${V1}/namespaces/${ns}/pods/reuse`)).json
        return p.status.phase === 'Running' ? { done: p } : String(p.status.phase)
      },
      10_000,
    )
    expect(running.status.podIP).toBe(ip)
  })
})
