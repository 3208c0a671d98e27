// The agent's admission (kube 1.33's predicateAdmitHandler): a pod that does not fit the node as the API has it and
// the pods admitted before it is rejected before anything starts: a Warning event, its status Failed with kube's
// reason and `Pod was rejected: ` message, and no worker.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { admission, rejectionPatch } from '../../agent/pod-admission.ts'
import { PodManager } from '../../agent/pod-manager.ts'

const until = async (what, cond, ms = 10_000) => {
  const t0 = Date.now()
  while (!(await cond())) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const node = {
  metadata: { name: 'edge', labels: { 'kubernetes.io/hostname': 'edge', 'kubernetes.io/os': 'linux' } },
  spec: {
    taints: [
      { key: 'soon-gone', effect: 'NoExecute' },
      { key: 'busy', effect: 'NoSchedule' },
    ],
  },
  status: { allocatable: { cpu: '2', memory: '4Gi', pods: '3' } },
}
const tolerant = [{ key: 'soon-gone', operator: 'Exists' }]

const pod = (name, extra = {}, container = {}) => ({
  metadata: { name, namespace: 'n', uid: `uid-${name}`, resourceVersion: '1' },
  spec: { nodeName: 'edge', tolerations: tolerant, containers: [{ name: 'c', image: 'x', ...container }], ...extra },
  status: { phase: 'Pending' },
})

describe('admission', () => {
  it('admits what fits, and reports the first failure in kube’s order', () => {
    assert.equal(admission(pod('ok', {}, { resources: { requests: { cpu: '0.1', memory: '1Gi' } } }), node, []), null)
    // Exactly the allocatable fits ("0.1" is 100 milli, not 101).
    const tenth = pod('tenth', {}, { resources: { requests: { cpu: '0.1' } } })
    const rest = pod('rest', {}, { resources: { requests: { cpu: '1900m' } } })
    assert.equal(admission(tenth, node, [rest]), null)
    assert.deepEqual(admission(pod('big', {}, { resources: { requests: { cpu: '3' } } }), node, [rest]), {
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 3000, used: 1900, capacity: 2000",
    })
    assert.deepEqual(admission(pod('fourth'), node, [pod('a'), pod('b'), pod('c')]), {
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    })
    assert.equal(admission(pod('picky', { nodeSelector: { disk: 'ssd' } }), node, [])?.reason, 'NodeAffinity')
    const port = { ports: [{ containerPort: 80, hostPort: 8080 }] }
    assert.deepEqual(admission(pod('second', {}, port), node, [pod('first', {}, port)]), {
      reason: 'NodePorts',
      message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    })
    assert.equal(
      admission(pod('udp', {}, { ports: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }] }), node, [
        pod('first', {}, port),
      ]),
      null,
    )
    assert.deepEqual(admission(pod('intolerant', { tolerations: [] }), node, []), {
      reason: 'TaintToleration',
      message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate",
    })
    assert.equal(admission(pod('win', { os: { name: 'windows' } }), node, [])?.reason, 'PodOSNotSupported')
  })

  it('counts ephemeral-storage and the extended resources its node lists; leaves out those it does not', () => {
    const gpus = {
      ...node,
      status: { allocatable: { ...node.status.allocatable, 'nvidia.com/gpu': '2', 'ephemeral-storage': '10Gi' } },
    }
    const gpu = (name, n) =>
      pod(
        name,
        {},
        { resources: { limits: { 'nvidia.com/gpu': String(n) }, requests: { 'nvidia.com/gpu': String(n) } } },
      )
    assert.equal(admission(gpu('one', 1), gpus, [gpu('held', 1)]), null)
    assert.deepEqual(admission(gpu('two', 2), gpus, [gpu('held', 1)]), {
      reason: 'OutOfnvidia.com/gpu',
      message: "Node didn't have enough resource: nvidia.com/gpu, requested: 2, used: 1, capacity: 2",
    })
    // The plain node lists no GPUs: a cluster-level resource to the kubelet, not counted.
    assert.equal(admission(gpu('anywhere', 5), node, []), null)
    const disk = pod('disk', {}, { resources: { requests: { 'ephemeral-storage': '11Gi' } } })
    assert.deepEqual(admission(disk, gpus, []), {
      reason: 'OutOfephemeral-storage',
      message: `Node didn't have enough resource: ephemeral-storage, requested: ${11 * 2 ** 30}, used: 0, capacity: ${10 * 2 ** 30}`,
    })
  })

  it('its status patch is Failed, the message prefixed, the kubelet’s own conditions deleted and others kept', () => {
    const bound = pod('bound')
    bound.status = {
      phase: 'Pending',
      qosClass: 'BestEffort',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'example.com/gate', status: 'True' },
      ],
    }
    const patch = rejectionPatch(bound, { reason: 'OutOfpods', message: 'm' })
    assert.deepEqual(patch.metadata, { uid: 'uid-bound' })
    assert.equal(patch.status.phase, 'Failed')
    assert.equal(patch.status.reason, 'OutOfpods')
    assert.equal(patch.status.message, 'Pod was rejected: m')
    assert.match(patch.status.startTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    assert.equal(patch.status.qosClass, undefined)
    assert.deepEqual(patch.status.conditions, [
      { type: 'example.com/gate', status: 'True' },
      { type: 'PodScheduled', $patch: 'delete' },
    ])
  })
})

describe('pod manager: admission', () => {
  it('rejects a pod that does not fit before starting anything: event, Failed status, no worker', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'admission-'))
    const big = pod('big', {}, { resources: { requests: { cpu: '8' } } })
    const picky = pod('picky', { nodeSelector: { disk: 'ssd' } })
    picky.metadata.creationTimestamp = '2026-01-01T00:00:02Z'
    big.metadata.creationTimestamp = '2026-01-01T00:00:01Z'
    const patches = []
    const api = {
      async request(method, path, body) {
        if (method === 'PATCH') patches.push({ path, body })
        return {}
      },
      async get(path) {
        if (path.startsWith('/api/v1/pods')) return { items: [picky, big], metadata: { resourceVersion: '5' } }
        if (path === '/api/v1/nodes/edge') return node
        throw new Error(`no ${path} here`)
      },
      async *watch(_path, signal) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
      },
    }
    const events = []
    const manager = new PodManager({
      config: { dataDir, nodeName: 'edge', imageDefaults: new Map(), backoffInitialMs: 100, backoffMaxMs: 400 },
      client: api,
      hostIP: '127.0.0.1',
      allocatable: node.status.allocatable,
      event: (p, type, reason, message) => events.push({ name: p.metadata.name, type, reason, message }),
      log: () => {},
    })
    void manager.run()
    try {
      await until('both rejections written', () => patches.length === 2)
      // Oldest first, as kubelet's HandlePodAdditions.
      assert.deepEqual(events, [
        {
          name: 'big',
          type: 'Warning',
          reason: 'OutOfcpu',
          message: "Node didn't have enough resource: cpu, requested: 8000, used: 0, capacity: 2000",
        },
        {
          name: 'picky',
          type: 'Warning',
          reason: 'NodeAffinity',
          message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
        },
      ])
      assert.equal(patches[0].path, '/api/v1/namespaces/n/pods/big/status')
      assert.equal(patches[0].body.status.phase, 'Failed')
      assert.equal(patches[0].body.status.reason, 'OutOfcpu')
      assert.equal(
        patches[0].body.status.message,
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 8000, used: 0, capacity: 2000",
      )
      assert.equal(manager.workers.size, 0)
      assert.ok(!existsSync(join(dataDir, 'pods', 'uid-big')))
    } finally {
      await manager.stop(false)
    }
  })
})
