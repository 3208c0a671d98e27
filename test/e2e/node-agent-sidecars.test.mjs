// Native sidecars and ephemeral containers on a real node: the agent (as the node's own identity) runs a pod's
// restartPolicy: Always init containers beside its containers (kubectl counts them 2/2 Ready), a Job whose pod has a
// sidecar completes when its container finishes and the sidecar is then stopped, and `kubectl debug` adds an ephemeral
// container that the agent starts and kubectl attaches to through the tunnel (-i and -it).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, KUBECTL_DIR, kubectl, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor } from './identity-helpers.mjs'

// The node the harness's token file gives an identity of its own (test/e2e/run.mjs).
const node = 'e2e-agent'
const namespace = uniqueNs('sidecars')
let agent

const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const create = async (path, body) => {
  const r = await api('POST', path, body)
  assert.equal(r.status, 201, r.text)
}
const named = (list, name) => (list ?? []).find((s) => s.name === name)
/** A sidecar that says so when it is stopped. */
const sidecar = {
  name: 'side',
  image: 'busybox',
  restartPolicy: 'Always',
  command: [
    'sh',
    '-c',
    "touch up; trap 'echo side stopping; exit 0' TERM; echo side up; while true; do sleep 0.1; done",
  ],
  startupProbe: { exec: { command: ['test', '-e', 'up'] }, periodSeconds: 1 },
  readinessProbe: { exec: { command: ['test', '-e', 'up'] }, periodSeconds: 1 },
}
const why = () => `\n--- agent\n${agent.output().slice(-4000)}`

describe('node agent: native sidecars and ephemeral containers', () => {
  before(async () => {
    agent = startAgent(node, [
      '--image-default',
      'busybox=sh',
      '--kubeconfig',
      kubeconfigFor('e2e-agent', TEST_TOKENS.node),
    ])
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    await agent?.stop()
    await api('DELETE', `/api/v1/nodes/${node}`)
  })

  it('runs a sidecar beside the container: started before the next init container, 2/2 Ready', async () => {
    await create(`/api/v1/namespaces/${namespace}/pods`, {
      metadata: { name: 'with-sidecar' },
      spec: {
        nodeName: node,
        terminationGracePeriodSeconds: 5,
        initContainers: [
          sidecar,
          // Fails (and is restarted, restartCount 1) if it runs before the sidecar has started.
          { name: 'setup', image: 'busybox', command: ['sh', '-c', 'test -e ../../side/root/up'] },
        ],
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo main up; exec sleep 600'] }],
      },
    })
    const pod = await eventually(
      'the pod to be Ready',
      async () => {
        const p = await getPod('with-sidecar')
        return p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? p : null
      },
      60_000,
    )
    assert.equal(pod.status.phase, 'Running')
    const side = named(pod.status.initContainerStatuses, 'side')
    assert.deepEqual([Object.keys(side.state), side.started, side.ready], [['running'], true, true], why())
    const setup = named(pod.status.initContainerStatuses, 'setup')
    assert.deepEqual([setup.state.terminated?.reason, setup.restartCount], ['Completed', 0], why())
    const r = await kubectl('1.33', ['-n', namespace, 'get', 'pod', 'with-sidecar', '--no-headers'])
    assert.match(r.stdout, /^with-sidecar\s+2\/2\s+Running\s+0\s/)
    assert.equal((await kubectl('1.33', ['-n', namespace, 'logs', 'with-sidecar', '-c', 'side'])).stdout, 'side up\n')
  })

  it('completes a Job whose pod has a sidecar once its container finishes, and stops the sidecar', async () => {
    await create(`/apis/batch/v1/namespaces/${namespace}/jobs`, {
      metadata: { name: 'with-sidecar' },
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            nodeName: node,
            restartPolicy: 'Never',
            terminationGracePeriodSeconds: 5,
            initContainers: [sidecar],
            containers: [{ name: 'work', image: 'busybox', command: ['sh', '-c', 'sleep 1; echo work done'] }],
          },
        },
      },
    })
    const job = await eventually(
      'the Job to complete',
      async () => {
        const j = (await api('GET', `/apis/batch/v1/namespaces/${namespace}/jobs/with-sidecar`)).body
        return j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ? j : null
      },
      60_000,
    )
    assert.equal(job.status.succeeded, 1)
    const pods = (
      await api(
        'GET',
        `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent('job-name=with-sidecar')}`,
      )
    ).body.items
    assert.equal(pods.length, 1)
    const pod = pods[0]
    assert.equal(pod.status.phase, 'Succeeded')
    const side = named(pod.status.initContainerStatuses, 'side')
    assert.equal(side.state.terminated?.exitCode, 0, why())
    // The sidecar was stopped after the container had finished.
    const work = pod.status.containerStatuses[0].state.terminated
    assert.ok(Date.parse(side.state.terminated.finishedAt) >= Date.parse(work.finishedAt))
    const logs = await kubectl('1.33', ['-n', namespace, 'logs', pod.metadata.name, '-c', 'side'])
    // (The shell may add that its sleep was terminated: the whole process group gets the SIGTERM. It says so on stderr,
    // before its trap runs, so the log may show it first: the two streams are read apart, as a runtime reads them.)
    assert.match(logs.stdout, /^side up\n(Terminated\n)?side stopping\n/)
  })

  it('kubectl debug -i adds an ephemeral container the agent runs and kubectl attaches to', async () => {
    await create(`/api/v1/namespaces/${namespace}/pods`, {
      metadata: { name: 'target' },
      spec: {
        nodeName: node,
        terminationGracePeriodSeconds: 5,
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exec sleep 600'] }],
      },
    })
    await eventually('target to run', async () => (await getPod('target')).status?.containerStatuses?.[0]?.ready)
    const r = await kubectl(
      '1.33',
      ['-n', namespace, 'debug', '-i', 'target', '--image=busybox', '--target=main', '-c', 'dbg', '--', 'sh'],
      { input: 'echo "debugging $HOSTNAME"; exit 3\n', timeout: 60_000, allowFail: true },
    )
    assert.match(r.stdout, /debugging target\n/, `${r.stdout}\n${r.stderr}${why()}`)
    const pod = await eventually('the debugger to have ended', async () => {
      const p = await getPod('target')
      return named(p.status?.ephemeralContainerStatuses, 'dbg')?.state?.terminated ? p : null
    })
    const dbg = named(pod.status.ephemeralContainerStatuses, 'dbg')
    assert.deepEqual([dbg.state.terminated.exitCode, dbg.restartCount, dbg.ready], [3, 0, false])
    assert.equal(pod.spec.ephemeralContainers[0].targetContainerName, 'main')
    const logs = await kubectl('1.33', ['-n', namespace, 'logs', 'target', '-c', 'dbg'])
    assert.equal(logs.stdout, 'debugging target\n')
    // The pod runs on, its debugger not restarted.
    await new Promise((res) => setTimeout(res, 2000))
    const later = await getPod('target')
    assert.equal(later.status.phase, 'Running')
    assert.equal(named(later.status.ephemeralContainerStatuses, 'dbg').restartCount, 0)
  })

  it('kubectl debug -it gets a terminal; an image without a command runs the agent’s --image-default', async () => {
    const kubectl133 = join(KUBECTL_DIR, 'kubectl.1.33')
    // `script` gives kubectl a terminal; the shell (busybox=sh) reads our lines from it.
    const r = spawnSync(
      'script',
      [
        '-qec',
        `stty cols 83 rows 21; ${kubectl133} -n ${namespace} debug -it target --image=busybox:1.36 -c tty-dbg`,
        '/dev/null',
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
        // What the shell prints differs from what the terminal echoes of our line. kubectl sends the terminal's
        // size and our typed line on separate goroutines, so the line can reach the shell first (with kube's own
        // kubelet too); the sleep lets the size land before stty reads it.
        input: 'sleep 1; stty size; test -t 0 && echo on-a-$((1+1))-tty; exit\n',
        env: { ...process.env, KUBECONFIG: process.env.KUBECONFIG },
      },
    )
    assert.equal(r.status, 0, r.stdout + r.stderr + why())
    assert.match(r.stdout, /on-a-2-tty/, r.stdout + why())
    assert.match(r.stdout, /21 83/, r.stdout)
    const pod = await getPod('target')
    const spec = named(pod.spec.ephemeralContainers, 'tty-dbg')
    assert.deepEqual([spec.command, spec.tty, spec.stdin], [undefined, true, true])
  })
})
