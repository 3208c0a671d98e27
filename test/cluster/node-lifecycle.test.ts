// The node lifecycle controller for real nodes: a node whose heartbeat is older than the grace period (and whose Lease
// is not fresher) goes Unknown with the unreachable taints; its pods are marked not ready and evicted by their
// tolerations (also when the cluster object's alarm rang for other work before a toleration ended); a fresh Lease
// keeps a node Ready; a node reporting Ready again loses the taints; virtual nodes are left alone.
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
const conditions = (heartbeat: string) =>
  ['Ready', 'MemoryPressure'].map((type) => ({
    type,
    status: type === 'Ready' ? 'True' : 'False',
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: heartbeat,
    reason: type === 'Ready' ? 'KubeletReady' : 'KubeletHasSufficientMemory',
  }))

let counter = 0
const nodeName = () => `life-${Date.now().toString(36)}-${counter++}`

// Generous: the controller's passes are alarms, which a loaded machine (two test files at once) delays.
async function until<T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const t0 = Date.now()
  for (;;) {
    const v = await f()
    if (v) return v
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const getNode = async (name: string) => (await req('GET', `/api/v1/nodes/${name}`)).json
const ready = (n: any) => n.status.conditions.find((c: any) => c.type === 'Ready')

async function boundPod(ns: string, name: string, node: string, tolerations?: object[]) {
  const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }], ...(tolerations ? { tolerations } : {}) },
  })
  expect(r.status).toBe(201)
  // What the node's agent had reported while it lived.
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(100) }] }
  expect(
    (
      await req(
        'PATCH',
        `/api/v1/namespaces/${ns}/pods/${name}/status`,
        { status },
        { 'content-type': 'application/merge-patch+json' },
      )
    ).status,
  ).toBe(200)
}

describe('node lifecycle', { timeout: 120_000 }, () => {
  it('marks a silent node Unknown and tainted, and evicts its pods by their tolerations', async () => {
    const node = nodeName()
    const ns = await makeNamespace('life')
    await boundPod(ns, 'quick', node, [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 },
    ])
    await boundPod(ns, 'patient', node)
    expect(
      (await req('POST', '/api/v1/nodes', { metadata: { name: node }, status: { conditions: conditions(ago(120)) } }))
        .status,
    ).toBe(201)
    const n = await until('Unknown', async () => {
      const got = await getNode(node)
      return ready(got).status === 'Unknown' && got.spec.taints ? got : null
    })
    expect(ready(n)).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' })
    expect(n.status.conditions.find((c: any) => c.type === 'MemoryPressure').status).toBe('Unknown')
    // kubectl shows an Unknown node NotReady (printNode).
    const table = await req('GET', `/api/v1/nodes/${node}`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    expect(table.json.rows[0].cells[1]).toBe('NotReady')
    expect(n.spec.taints.map((t: any) => [t.key, t.effect, Boolean(t.timeAdded)])).toEqual([
      ['node.kubernetes.io/unreachable', 'NoSchedule', false],
      ['node.kubernetes.io/unreachable', 'NoExecute', true],
    ])
    const quick = await until('the eviction', async () => {
      const p = (await req('GET', `/api/v1/namespaces/${ns}/pods/quick`)).json
      return p.metadata.deletionTimestamp ? p : null
    })
    expect(quick.status.conditions.find((c: any) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    })
    // The default 300 s toleration keeps the other pod, not ready.
    const patient = await until('not ready', async () => {
      const p = (await req('GET', `/api/v1/namespaces/${ns}/pods/patient`)).json
      return p.status.conditions.find((c: any) => c.type === 'Ready').status === 'False' ? p : null
    })
    expect(patient.metadata.deletionTimestamp).toBeUndefined()

    // The agent reports Ready again: the taints go.
    const fresh = conditions(ago(0))
    const patched = await req(
      'PATCH',
      `/api/v1/nodes/${node}/status`,
      { status: { conditions: fresh } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(patched.status).toBe(200)
    await until('untainted', async () => !(await getNode(node)).spec?.taints)
  })

  it('evicts a pod by its toleration seconds when the cluster object’s alarm rang for other work before then', async () => {
    const node = nodeName()
    const ns = await makeNamespace('life')
    await boundPod(ns, 'brief', node, [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3 },
    ])
    expect(
      (await req('POST', '/api/v1/nodes', { metadata: { name: node }, status: { conditions: conditions(ago(120)) } }))
        .status,
    ).toBe(201)
    // Marked not ready: the taint manager's pass ran and the controller asked to be woken when the toleration ends.
    await until('not ready', async () => {
      const p = (await req('GET', `/api/v1/namespaces/${ns}/pods/brief`)).json
      return p.status.conditions.find((c: any) => c.type === 'Ready').status === 'False'
    })
    // The object's one alarm rings before that for something else (under npm start: the service allocation repair),
    // as workerd runs it: deleted, then the handler. The eviction must still come when the toleration ends.
    expect(await runDurableObjectAlarm(env.CLUSTER.getByName('cluster'))).toBe(true)
    const brief = await until('the eviction', async () => {
      const p = (await req('GET', `/api/v1/namespaces/${ns}/pods/brief`)).json
      return p.metadata.deletionTimestamp ? p : null
    })
    expect(brief.status.conditions.find((c: any) => c.type === 'DisruptionTarget')?.reason).toBe(
      'DeletionByTaintManager',
    )
  })

  it('keeps a node whose Lease is fresh Ready, and leaves virtual nodes alone', async () => {
    const node = nodeName()
    const lease = await req('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', {
      metadata: { name: node },
      spec: {
        holderIdentity: node,
        leaseDurationSeconds: 40,
        renewTime: new Date().toISOString().replace('Z', '000Z'),
      },
    })
    expect(lease.status).toBe(201)
    expect(
      (await req('POST', '/api/v1/nodes', { metadata: { name: node }, status: { conditions: conditions(ago(120)) } }))
        .status,
    ).toBe(201)
    await new Promise((r) => setTimeout(r, 1500))
    const n = await getNode(node)
    expect(ready(n).status).toBe('True')
    expect(n.spec?.taints).toBeUndefined()
    // Virtual nodes never heartbeat and never go Unknown.
    expect(ready(await getNode('node-1')).status).toBe('True')
  })
})
