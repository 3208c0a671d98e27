// Container lifecycle hooks on a real node (the agent as the node's own identity, process runtime): a postStart exec
// writes a file the container then reads (the pod shows ContainerCreating meanwhile); a failing postStart kills the
// container (FailedPostStartHook and Killing in `kubectl describe` and `kubectl get events`); a preStop exec runs
// before the SIGTERM of `kubectl delete pod`, of a liveness-probe restart and of a `kubectl drain` eviction; a
// preStop sleep runs before the SIGTERM and shortens the grace period; a preStop httpGet reaches a python3
// http.server container on its named port.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, kubectl, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor } from './identity-helpers.mjs'

// The node the harness's token file gives an identity of its own (test/e2e/run.mjs).
const node = 'e2e-agent'
const namespace = uniqueNs('lifecycle')
/** Files the pods write on the host (the process runtime runs them as host processes). */
const host = mkdtempSync(join(tmpdir(), 'kubeflare-lifecycle-'))
let agent

const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const create = async (name, spec, labels) => {
  const r = await api('POST', `/api/v1/namespaces/${namespace}/pods`, {
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { nodeName: node, ...spec },
  })
  assert.equal(r.status, 201, r.text)
}
const running = (name) =>
  eventually(`${name} to run`, async () => (await getPod(name)).status?.containerStatuses?.[0]?.state?.running, 60_000)
const hostFile = (name) => (existsSync(join(host, name)) ? readFileSync(join(host, name), 'utf8') : '')
const why = () => `\n--- agent\n${agent.output().slice(-4000)}`
/** A port nothing listens on now. */
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
/** A container that notes a SIGTERM in a host file (with what `seen` held then) and exits. */
const notesTerm = (file, seen) =>
  `trap 'echo "TERM after: $(cat ${join(host, seen)} 2>/dev/null)" >> ${join(host, file)}; exit 0' TERM; while true; do sleep 0.1; done`

describe('node agent: container lifecycle hooks', () => {
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
    await kubectl('1.33', ['uncordon', node], { allowFail: true })
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    await agent?.stop()
    await api('DELETE', `/api/v1/nodes/${node}`)
  })

  it('runs a postStart exec whose file the container then reads', async () => {
    await create('post-start', {
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: [
            'sh',
            '-c',
            'while ! test -e hooked; do sleep 0.1; done; echo "read $(cat hooked)"; exec sleep 600',
          ],
          lifecycle: { postStart: { exec: { command: ['sh', '-c', 'sleep 2; echo from-post-start > hooked'] } } },
        },
      ],
    })
    // While the hook runs, kubectl sees what a kubelet reports: ContainerCreating.
    await eventually('ContainerCreating during postStart', async () => {
      const r = await kubectl('1.33', ['-n', namespace, 'get', 'pod', 'post-start', '--no-headers'])
      return /\s0\/1\s+ContainerCreating\s/.test(r.stdout)
    })
    await running('post-start')
    await eventually('the container to read the file', async () => {
      const r = await kubectl('1.33', ['-n', namespace, 'logs', 'post-start'], { allowFail: true })
      return r.stdout === 'read from-post-start\n'
    })
  })

  it('kills a container whose postStart fails: FailedPostStartHook in describe and get events', async () => {
    await create('post-start-fails', {
      terminationGracePeriodSeconds: 2,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['sh', '-c', 'exec sleep 600'],
          lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo no way >&2; exit 3'] } } },
        },
      ],
    })
    const pod = await eventually(
      'a restart after the failed postStart',
      async () => {
        const p = await getPod('post-start-fails')
        return p.status?.containerStatuses?.[0]?.restartCount >= 1 ? p : null
      },
      60_000,
    )
    assert.equal(pod.status.containerStatuses[0].lastState.terminated.exitCode, 143, why())
    const describe = await eventually('FailedPostStartHook in describe', async () => {
      const r = await kubectl('1.33', ['-n', namespace, 'describe', 'pod', 'post-start-fails'])
      return /Warning\s+FailedPostStartHook\s+.*kubelet\s+PostStartHook failed/.test(r.stdout) ? r.stdout : null
    })
    assert.match(describe, /Normal\s+Killing\s+.*kubelet\s+FailedPostStartHook/)
    const events = await kubectl('1.33', [
      '-n',
      namespace,
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=post-start-fails',
      '-o',
      'jsonpath={range .items[*]}{.reason}:{.involvedObject.fieldPath}{"\\n"}{end}',
    ])
    assert.ok(events.stdout.split('\n').includes('FailedPostStartHook:spec.containers{main}'), events.stdout)
  })

  it('runs a preStop exec before the SIGTERM of kubectl delete pod', async () => {
    await create('pre-stop', {
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['sh', '-c', notesTerm('pre-stop.term', 'pre-stop.hook')],
          lifecycle: {
            preStop: { exec: { command: ['sh', '-c', `sleep 1; echo pre-stop-ran > ${join(host, 'pre-stop.hook')}`] } },
          },
        },
      ],
    })
    await running('pre-stop')
    await kubectl('1.33', ['-n', namespace, 'delete', 'pod', 'pre-stop', '--wait=true'])
    assert.equal(hostFile('pre-stop.term'), 'TERM after: pre-stop-ran\n', why())
  })

  it('runs a preStop sleep before the SIGTERM, and shortens the grace period by it', async () => {
    await create('pre-stop-sleep', {
      terminationGracePeriodSeconds: 4,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          // Notes when the SIGTERM came, and carries on: only the SIGKILL at the end of the grace stops it.
          command: ['sh', '-c', `trap 'date +%s%N > ${join(host, 'sleep.term')}' TERM; while true; do sleep 0.1; done`],
          lifecycle: { preStop: { sleep: { seconds: 2 } } },
        },
      ],
    })
    await running('pre-stop-sleep')
    const t0 = Date.now()
    await kubectl('1.33', ['-n', namespace, 'delete', 'pod', 'pre-stop-sleep', '--wait=true'])
    const took = Date.now() - t0
    const termAfter = Number(hostFile('sleep.term')) / 1e6 - t0
    assert.ok(termAfter >= 1800, `SIGTERM ${termAfter} ms after the delete${why()}`)
    // 2 s of sleep, then 4 - 2 = 2 s before the SIGKILL: about 4 s in all, not 2 + 4.
    assert.ok(took >= 3800 && took < 5800, `the delete took ${took} ms${why()}`)
  })

  it('runs a preStop exec before the SIGTERM of a liveness-probe restart', async () => {
    await create('liveness', {
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['sh', '-c', notesTerm('liveness.term', 'liveness.hook')],
          livenessProbe: {
            exec: { command: ['false'] },
            initialDelaySeconds: 1,
            periodSeconds: 1,
            failureThreshold: 1,
          },
          lifecycle: {
            preStop: { exec: { command: ['sh', '-c', `echo liveness-hook > ${join(host, 'liveness.hook')}`] } },
          },
        },
      ],
    })
    await eventually(
      'a restart',
      async () => (await getPod('liveness')).status?.containerStatuses?.[0]?.restartCount >= 1,
      60_000,
    )
    assert.match(hostFile('liveness.term'), /^TERM after: liveness-hook\n/, why())
    const describe = await kubectl('1.33', ['-n', namespace, 'describe', 'pod', 'liveness'])
    assert.match(
      describe.stdout,
      /Normal\s+Killing\s+.*kubelet\s+Container main failed liveness probe, will be restarted/,
    )
  })

  it('sends a preStop httpGet to a python3 http.server container on its named port', async () => {
    const port = await freePort()
    await create('pre-stop-http', {
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: 'web',
          image: 'python:3',
          command: [
            'sh',
            '-c',
            `exec python3 -u -m http.server ${port} --directory ${host} 2>> ${join(host, 'http.log')}`,
          ],
          ports: [{ name: 'http', containerPort: port }],
          readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 1 },
          lifecycle: { preStop: { httpGet: { path: '/pre-stop-hook', port: 'http' } } },
        },
      ],
    })
    await eventually(
      'Ready',
      async () => (await getPod('pre-stop-http')).status?.containerStatuses?.[0]?.ready === true,
      60_000,
    )
    assert.doesNotMatch(hostFile('http.log'), /pre-stop-hook/)
    await kubectl('1.33', ['-n', namespace, 'delete', 'pod', 'pre-stop-http', '--wait=true'])
    assert.match(hostFile('http.log'), /"GET \/pre-stop-hook HTTP\/1.1" 404/, why())
  })

  it('runs a preStop exec before the SIGTERM of a kubectl drain eviction', async () => {
    await create(
      'drained',
      {
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'main',
            image: 'busybox',
            command: ['sh', '-c', notesTerm('drained.term', 'drained.hook')],
            lifecycle: { preStop: { exec: { command: ['sh', '-c', `echo evicted > ${join(host, 'drained.hook')}`] } } },
          },
        ],
      },
      { app: 'drained' },
    )
    await running('drained')
    await kubectl(
      '1.33',
      ['drain', node, '--pod-selector', 'app=drained', '--force', '--ignore-daemonsets', '--timeout', '60s'],
      { timeout: 90_000 },
    )
    await kubectl('1.33', ['uncordon', node])
    assert.equal(hostFile('drained.term'), 'TERM after: evicted\n', why())
  })
})
