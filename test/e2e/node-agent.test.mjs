// A real node: the agent registers its Node, runs pods bound to it as host processes, restarts crashing ones with
// back-off, confirms graceful deletions; kubectl sees it all.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { startAgent, eventually } from './agent-process.mjs'
import { api, kubectl, uniqueNs } from './helpers.mjs'

const node = `agent-${randomBytes(3).toString('hex')}`
const namespace = uniqueNs('agent')
let agent

const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const podOn = (name, containers, spec = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { nodeName: node, terminationGracePeriodSeconds: 5, containers, ...spec },
})
const create = async (pod) => {
  const r = await api('POST', `/api/v1/namespaces/${namespace}/pods`, pod)
  assert.equal(r.status, 201, r.text)
}

describe('node agent', () => {
  before(async () => {
    agent = startAgent(node)
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await eventually('the node to register Ready', async () => {
      const n = (await api('GET', `/api/v1/nodes/${node}`)).body
      return n?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
    })
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    await agent?.stop()
  })

  it('registers a real Node kubectl lists', async () => {
    const n = (await api('GET', `/api/v1/nodes/${node}`)).body
    assert.equal(n.metadata.annotations?.['kubeflare.dev/virtual-node'], undefined)
    assert.equal(n.status.addresses.find((a) => a.type === 'InternalIP').address, '127.0.0.1')
    assert.match(n.status.nodeInfo.kubeletVersion, /^v1\.33\./)
    assert.ok(Number(n.status.capacity.cpu) >= 1)
    const r = await kubectl('1.33', ['get', 'node', node, '--no-headers'])
    assert.match(r.stdout, new RegExp(`^${node}\\s+Ready\\s`))
  })

  it('heartbeats with a Lease in kube-node-lease, owned by the Node', async () => {
    const n = (await api('GET', `/api/v1/nodes/${node}`)).body
    const lease = await eventually('the node lease', async () => {
      const r = await api('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}`)
      return r.status === 200 ? r.body : null
    })
    assert.equal(lease.spec.holderIdentity, node)
    assert.equal(lease.spec.leaseDurationSeconds, 40)
    assert.deepEqual(lease.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Node', name: node, uid: n.metadata.uid },
    ])
    assert.ok(Date.now() - Date.parse(lease.spec.renewTime) < 15_000)
  })

  it('runs a pod bound with nodeName as a process: Running, with the host address as its IP', async () => {
    await create(podOn('hello', [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo hello; sleep 600'] }]))
    const pod = await eventually('hello to run', async () => {
      const p = await getPod('hello')
      return p.status?.phase === 'Running' && p.status.containerStatuses?.[0]?.ready ? p : null
    })
    assert.equal(pod.status.podIP, '127.0.0.1')
    assert.equal(pod.status.hostIP, '127.0.0.1')
    assert.ok(pod.status.startTime)
    const types = pod.status.conditions.map((c) => `${c.type}=${c.status}`).sort()
    assert.deepEqual(types, [
      'ContainersReady=True',
      'Initialized=True',
      'PodReadyToStartContainers=True',
      'PodScheduled=True',
      'Ready=True',
    ])
    const r = await kubectl('1.33', ['-n', namespace, 'get', 'pod', 'hello', '--no-headers', '-o', 'wide'])
    assert.match(r.stdout, new RegExp(`^hello\\s+1/1\\s+Running\\s+0\\s.*127\\.0\\.0\\.1\\s+${node}\\s`))
  })

  it('places a pod whose nodeSelector names the node', async () => {
    await create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'selected', namespace },
      spec: {
        nodeSelector: { 'kubernetes.io/hostname': node },
        containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }],
      },
    })
    const pod = await eventually('selected to run', async () => {
      const p = await getPod('selected')
      return p.status?.phase === 'Running' ? p : null
    })
    assert.equal(pod.spec.nodeName, node)
  })

  it('runs init containers in order before the containers', async () => {
    await create(
      podOn('inits', [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'sleep 600'] }], {
        initContainers: [
          { name: 'first', image: 'busybox', command: ['sh', '-c', 'sleep 1'] },
          { name: 'second', image: 'busybox', command: ['true'] },
        ],
      }),
    )
    const pod = await eventually('inits to run', async () => {
      const p = await getPod('inits')
      return p.status?.phase === 'Running' ? p : null
    })
    const [first, second] = pod.status.initContainerStatuses.map((s) => s.state.terminated)
    assert.equal(first.reason, 'Completed')
    assert.equal(second.exitCode, 0)
    assert.ok(Date.parse(second.startedAt) >= Date.parse(first.finishedAt))
  })

  it('restarts a crashing container with back-off', async () => {
    await create(
      podOn('crash', [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo run $(date +%s%N); exit 3'] }]),
    )
    const pod = await eventually('CrashLoopBackOff after two restarts', async () => {
      const p = await getPod('crash')
      const s = p.status?.containerStatuses?.[0]
      return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s.restartCount >= 2 ? p : null
    })
    const s = pod.status.containerStatuses[0]
    assert.equal(s.lastState.terminated.exitCode, 3)
    assert.equal(s.lastState.terminated.reason, 'Error')
    assert.equal(pod.status.phase, 'Running')
    const r = await kubectl('1.33', ['-n', namespace, 'get', 'pod', 'crash', '--no-headers'])
    assert.match(r.stdout, /^crash\s+0\/1\s+(CrashLoopBackOff|Error|Running)\s+\d+/)
  })

  it('ends a restartPolicy Never pod Succeeded or Failed with its exit code', async () => {
    await create(podOn('ok', [{ name: 'main', image: 'busybox', command: ['true'] }], { restartPolicy: 'Never' }))
    await create(
      podOn('bad', [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exit 7'] }], { restartPolicy: 'Never' }),
    )
    await eventually('ok to succeed', async () => (await getPod('ok')).status?.phase === 'Succeeded')
    const bad = await eventually('bad to fail', async () => {
      const p = await getPod('bad')
      return p.status?.phase === 'Failed' ? p : null
    })
    assert.equal(bad.status.containerStatuses[0].state.terminated.exitCode, 7)
  })

  it('kubectl logs shows the process output, with tail, timestamps and limit-bytes', async () => {
    const r = await kubectl('1.33', ['-n', namespace, 'logs', 'hello'])
    assert.equal(r.stdout, 'hello\n')
    const ts = await kubectl('1.33', ['-n', namespace, 'logs', 'hello', '--timestamps'])
    assert.match(ts.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z hello\n$/)
    await create(
      podOn('lines', [
        { name: 'main', image: 'busybox', command: ['sh', '-c', 'for i in 1 2 3 4; do echo line $i; done; sleep 600'] },
      ]),
    )
    await eventually('lines to log', async () =>
      (await kubectl('1.33', ['-n', namespace, 'logs', 'lines'])).stdout.includes('line 4'),
    )
    assert.equal((await kubectl('1.33', ['-n', namespace, 'logs', 'lines', '--tail=2'])).stdout, 'line 3\nline 4\n')
    assert.equal((await kubectl('1.33', ['-n', namespace, 'logs', 'lines', '--limit-bytes=8'])).stdout, 'line 1\nl')
    const future = new Date(Date.now() + 60_000).toISOString()
    assert.equal((await kubectl('1.33', ['-n', namespace, 'logs', 'lines', `--since-time=${future}`])).stdout, '')
  })

  it('kubectl logs -f follows until the container ends', async () => {
    await create(
      podOn(
        'ticker',
        [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 1; done'] }],
        {
          restartPolicy: 'Never',
        },
      ),
    )
    await eventually(
      'ticker to start',
      async () => (await getPod('ticker')).status?.containerStatuses?.[0]?.state?.running,
    )
    const r = await kubectl('1.33', ['-n', namespace, 'logs', '-f', 'ticker'], { timeout: 30_000 })
    assert.equal(r.stdout, 'tick 1\ntick 2\ntick 3\n')
  })

  it('kubectl logs --previous shows the last run of a restarted container', async () => {
    await create(
      podOn('twice', [
        {
          name: 'main',
          image: 'busybox',
          command: [
            'sh',
            '-c',
            'if [ -e ../ran ]; then echo second run; sleep 600; fi; touch ../ran; echo first run; exit 1',
          ],
        },
      ]),
    )
    await eventually('the second run', async () => {
      const s = (await getPod('twice')).status?.containerStatuses?.[0]
      return s?.restartCount === 1 && s.state.running
    })
    await eventually(
      'its output',
      async () => (await kubectl('1.33', ['-n', namespace, 'logs', 'twice'])).stdout === 'second run\n',
    )
    assert.equal((await kubectl('1.33', ['-n', namespace, 'logs', 'twice', '--previous'])).stdout, 'first run\n')
    const none = await kubectl('1.33', ['-n', namespace, 'logs', 'hello', '--previous'], { allowFail: true })
    assert.equal(none.code, 1)
    assert.equal(
      none.stderr.trim(),
      'Error from server (BadRequest): previous terminated container "main" in pod "hello" not found',
    )
  })

  it('stops a deleted pod and confirms the deletion (kubectl delete returns)', async () => {
    const t0 = Date.now()
    await kubectl('1.33', ['-n', namespace, 'delete', 'pod', 'hello', '--timeout=30s'])
    assert.ok(Date.now() - t0 < 30_000)
    const r = await api('GET', `/api/v1/namespaces/${namespace}/pods/hello`)
    assert.equal(r.status, 404)
  })

  it('never serves a virtual node', async () => {
    const other = startAgent('node-1')
    const exit = await other.exited
    assert.equal(exit.code, 1, other.output())
    assert.match(other.output(), /node node-1 is a virtual node/)
  })
})
