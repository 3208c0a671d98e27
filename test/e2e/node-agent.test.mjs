// A real node: the agent, as the node's own identity (system:node:e2e-agent, judged by the Node authorizer and
// NodeRestriction as a kubelet is), registers its Node, runs pods bound to it as host processes, restarts crashing
// ones with back-off, confirms graceful deletions; kubectl sees it all.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, createServer } from 'node:net'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, KUBECTL_DIR, kubectl, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor, kubectlWith } from './identity-helpers.mjs'

const KUBECTL = join(KUBECTL_DIR, 'kubectl.1.33')
const PYTHON = '/usr/bin/python3'

// The node the harness's token file gives an identity of its own (test/e2e/run.mjs).
const node = 'e2e-agent'
const nodeKubeconfig = kubeconfigFor('e2e-agent', TEST_TOKENS.node)
/** The agent, with the node's own credentials. */
const startNodeAgent = (extra = []) => startAgent(node, [...extra, '--kubeconfig', nodeKubeconfig])
/** What agents stopped during the tests printed. */
let earlierOutput = ''
const namespace = uniqueNs('agent')
let agent
/** The node's InternalIP, every pod's IP. */
let nodeIP = ''

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

/** The pod `web`: python's http.server on a free port, serving hello.txt and a 3 MB file; answers the port. */
let webPort = 0
async function webServer() {
  if (webPort) return webPort
  webPort = 20000 + Math.floor(Math.random() * 10000)
  await create({
    ...podOn('web', [
      {
        name: 'main',
        image: 'python',
        command: [
          'sh',
          '-c',
          `echo 'hello from the pod' > hello.txt; head -c 3000000 /dev/zero > big.bin; exec ${PYTHON} -m http.server ${webPort} --bind 127.0.0.1`,
        ],
        ports: [{ name: 'http', containerPort: webPort }],
        readinessProbe: { tcpSocket: { port: webPort }, periodSeconds: 1 },
      },
    ]),
    metadata: { name: 'web', namespace, labels: { app: 'web' } },
  })
  await eventually('web to be ready', async () => (await getPod('web')).status?.containerStatuses?.[0]?.ready, 60_000)
  return webPort
}

describe('node agent', () => {
  before(async () => {
    agent = startNodeAgent()
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    await agent?.stop()
    // Later test files must not have pods scheduled onto a node nobody serves any more.
    await api('DELETE', `/api/v1/nodes/${node}`)
  })

  it('registers a real Node kubectl lists', async () => {
    const n = (await api('GET', `/api/v1/nodes/${node}`)).body
    assert.equal(n.metadata.annotations?.['kubeflare.dev/virtual-node'], undefined)
    nodeIP = n.status.addresses.find((a) => a.type === 'InternalIP').address
    assert.match(nodeIP, /^\d+\.\d+\.\d+\.\d+$/)
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
    assert.equal(pod.status.podIP, nodeIP)
    assert.equal(pod.status.hostIP, nodeIP)
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
    assert.match(
      r.stdout,
      new RegExp(`^hello\\s+1/1\\s+Running\\s+0\\s.*${nodeIP.replaceAll('.', '\\.')}\\s+${node}\\s`),
    )
  })

  it('as its own identity the node reads only what its pods use, and writes only its own Node', async () => {
    for (const name of ['app-secret', 'other-secret']) {
      const r = await api('POST', `/api/v1/namespaces/${namespace}/secrets`, {
        metadata: { name },
        stringData: { GREETING: `greetings from ${name}` },
      })
      assert.equal(r.status, 201, r.text)
    }
    const script = 'echo "$GREETING"; sleep 600'
    const container = { name: 'main', image: 'busybox', command: ['sh', '-c', script] }
    await create(podOn('secret-user', [{ ...container, envFrom: [{ secretRef: { name: 'app-secret' } }] }]))
    // The agent read the secret with the node's credentials: the process got it.
    await eventually('secret-user to print its secret', async () => {
      const r = await kubectl('1.33', ['-n', namespace, 'logs', 'secret-user'], { allowFail: true })
      return r.stdout === 'greetings from app-secret\n'
    })
    const asNode = (args) => kubectlWith('1.33', nodeKubeconfig, args, { allowFail: true })
    assert.equal(
      (await asNode(['-n', namespace, 'get', 'secret', 'app-secret', '-o', 'name'])).stdout,
      'secret/app-secret\n',
    )
    const other = await asNode(['-n', namespace, 'get', 'secret', 'other-secret'])
    assert.equal(
      other.stderr,
      `Error from server (Forbidden): secrets "other-secret" is forbidden: User "system:node:${node}" cannot get resource "secrets" in API group "" in the namespace "${namespace}": no relationship found between node '${node}' and this object\n`,
    )
    const nodes = await asNode(['get', 'nodes'])
    assert.match(
      nodes.stderr,
      new RegExp(
        `cannot list resource "nodes" in API group "" at the cluster scope: node '${node}' cannot read all nodes, only its own Node object`,
      ),
    )
    const bearer = { authorization: `Bearer ${TEST_TOKENS.node}`, 'content-type': 'application/merge-patch+json' }
    const theirs = await api('PATCH', '/api/v1/nodes/node-1', { metadata: { labels: { stolen: 'yes' } } }, bearer)
    assert.equal(theirs.status, 403)
    assert.equal(
      theirs.body.message,
      `nodes "node-1" is forbidden: node "${node}" is not allowed to modify node "node-1"`,
    )
    const role = { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }
    const mine = await api('PATCH', `/api/v1/nodes/${node}`, role, bearer)
    assert.equal(mine.status, 403)
    assert.equal(
      mine.body.message,
      `nodes "${node}" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane`,
    )
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

  it('kubectl exec runs the command in the container: output, exit code, stdin', async () => {
    const hi = await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'echo', 'hi'])
    assert.equal(hi.stdout, 'hi\n')
    const three = await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'sh', '-c', 'exit 3'], {
      allowFail: true,
    })
    assert.equal(three.code, 3)
    assert.equal(three.stderr.trim(), 'command terminated with exit code 3')
    const cat = await kubectl('1.33', ['-n', namespace, 'exec', '-i', 'hello', '--', 'sh', '-c', 'cat; echo end'], {
      input: 'line one\nline two\n',
    })
    assert.equal(cat.stdout, 'line one\nline two\nend\n')
    const env = await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'sh', '-c', 'echo $HOSTNAME; pwd'])
    assert.match(env.stdout, /^hello\n\/.*\/main\/root\n$/)
    const missing = await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'no-such-command'], {
      allowFail: true,
    })
    assert.equal(missing.code, 1)
    assert.equal(
      missing.stderr.trim(),
      'error: Internal error occurred: error executing command in container: exec: "no-such-command": executable file not found in $PATH',
    )
  })

  it('kubectl cp copies into and out of the container (tar through exec)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-cp-'))
    writeFileSync(join(dir, 'in.txt'), 'copied in\n')
    await kubectl('1.33', ['-n', namespace, 'cp', join(dir, 'in.txt'), 'hello:in.txt'])
    assert.equal(
      (await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'cat', 'in.txt'])).stdout,
      'copied in\n',
    )
    await kubectl('1.33', ['-n', namespace, 'cp', 'hello:in.txt', join(dir, 'out.txt')])
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), 'copied in\n')
    // A file larger than what the node object once held for a client running ahead of the agent (16 MiB): kubectl
    // writes it as fast as it can, the rest waits in the object's storage.
    const big = randomBytes(40 * 1024 * 1024)
    writeFileSync(join(dir, 'big.bin'), big)
    await kubectl('1.33', ['-n', namespace, 'cp', join(dir, 'big.bin'), 'hello:big.bin'], { timeout: 120_000 })
    const sum = await kubectl('1.33', ['-n', namespace, 'exec', 'hello', '--', 'md5sum', 'big.bin'])
    assert.equal(sum.stdout.split(' ')[0], createHash('md5').update(big).digest('hex'))
  })

  it('kubectl exec -t gets a terminal of the client’s size', async () => {
    const r = spawnSync(
      'script',
      [
        '-qec',
        `stty cols 91 rows 27; ${KUBECTL} -n ${namespace} exec -it hello -- sh -c 'stty size; test -t 0'`,
        '/dev/null',
      ],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: process.env.KUBECONFIG } },
    )
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /27 91/)
  })

  it('kubectl attach -i talks to the container’s stdin and output', async () => {
    await create(
      podOn('talker', [
        {
          name: 'main',
          image: 'busybox',
          stdin: true,
          stdinOnce: true,
          command: ['sh', '-c', 'while read l; do echo heard $l; done; echo bye'],
        },
      ]),
    )
    await eventually(
      'talker to run',
      async () => (await getPod('talker')).status?.containerStatuses?.[0]?.state?.running,
    )
    const r = await kubectl('1.33', ['-n', namespace, 'attach', '-i', 'talker'], {
      input: 'one\ntwo\n',
      timeout: 30_000,
    })
    assert.match(r.stdout, /heard one\nheard two\nbye\n/)
  })

  it('client-node Exec and the python client run commands and read exit codes', async () => {
    const { Exec, KubeConfig } = await import('@kubernetes/client-node')
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    let out = ''
    const sink = new Writable({
      write(chunk, _e, cb) {
        out += chunk
        cb()
      },
    })
    const status = await new Promise((resolve, reject) => {
      new Exec(kc)
        .exec(namespace, 'hello', 'main', ['sh', '-c', 'echo from node; exit 4'], sink, sink, null, false, resolve)
        .catch(reject)
    })
    assert.equal(out, 'from node\n')
    assert.equal(status.reason, 'NonZeroExitCode')
    assert.deepEqual(status.details.causes, [{ reason: 'ExitCode', message: '4' }])
    const py = spawnSync(PYTHON, [join(import.meta.dirname, 'python', 'agent_exec.py'), namespace, 'hello'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.equal(py.status, 0, `${py.stdout}\n${py.stderr}\n--- agent\n${agent.output()}`)
    const why = `${py.stdout}\n--- agent\n${agent.output()}`
    const [echo, stdin] = py.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.equal(echo.stdout, 'hi\n')
    assert.equal(stdin.stdout, 'got ping\n', why)
    assert.equal(stdin.returncode, 3, why)
  })

  it('kubectl 1.27 (SPDY only) is told which kubectl to use', async () => {
    const r = await kubectl('1.27', ['-n', namespace, 'exec', 'hello', '--', 'echo', 'hi'], { allowFail: true })
    assert.equal(r.code, 1)
    assert.match(
      r.stderr,
      /exec of pods on real nodes needs a WebSocket client \(kubectl 1\.30 or newer for `kubectl exec`, or a client speaking v4\.channel\.k8s\.io\): this request asked for SPDY, which cannot cross the edge/,
    )
  })

  it('kubectl port-forward (SPDY tunnelled over WebSocket) reaches the pod’s port', async () => {
    const port = await webServer()
    const local = 20000 + Math.floor(Math.random() * 10000)
    const pf = spawn(KUBECTL, ['-n', namespace, 'port-forward', 'pod/web', `${local}:${port}`], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    pf.stdout.on('data', (d) => (out += d))
    pf.stderr.on('data', (d) => (out += d))
    try {
      await eventually('port-forward to listen', async () => out.includes('Forwarding from 127.0.0.1'))
      const res = await fetch(`http://127.0.0.1:${local}/hello.txt`)
      assert.equal(res.status, 200)
      assert.equal(await res.text(), 'hello from the pod\n')
      const big = await fetch(`http://127.0.0.1:${local}/big.bin`)
      assert.equal((await big.arrayBuffer()).byteLength, 3_000_000)
      // The pod ending a connection ends kubectl's local one (the error stream ends too, as the kubelet's does).
      const raw = await new Promise((resolve, reject) => {
        let got = ''
        const socket = connect(local, '127.0.0.1', () => socket.write('GET /hello.txt HTTP/1.0\r\n\r\n'))
        socket.setEncoding('utf8').on('data', (d) => (got += d))
        socket.on('close', () => resolve(got))
        socket.on('error', reject)
        setTimeout(() => reject(new Error(`the connection stayed open after: ${got}`)), 10_000)
      })
      assert.match(raw, /^HTTP\/1\.0 200 [\s\S]*hello from the pod\n$/)
    } finally {
      pf.kill()
    }
  })

  it('client-node PortForward and the python client forward to the pod', async () => {
    const port = await webServer()
    const { KubeConfig, PortForward } = await import('@kubernetes/client-node')
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    const forward = new PortForward(kc)
    const server = createServer((socket) => {
      forward.portForward(namespace, 'web', [port], socket, null, socket).catch(() => socket.destroy())
    })
    await new Promise((r) => server.listen(0, '127.0.0.1', r))
    try {
      const res = await fetch(`http://127.0.0.1:${server.address().port}/hello.txt`)
      assert.equal(await res.text(), 'hello from the pod\n')
    } finally {
      server.close()
    }
    const py = spawnSync(
      PYTHON,
      [join(import.meta.dirname, 'python', 'agent_portforward.py'), namespace, 'web', String(port)],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    assert.equal(py.status, 0, py.stderr)
    const got = JSON.parse(py.stdout.trim().split('\n').at(-1))
    assert.match(got.status, /^HTTP\/1\.0 200/)
    assert.equal(got.body, 'hello from the pod\n')
  })

  it('kubectl get --raw …/pods/web/proxy/ relays HTTP to the pod', async () => {
    const port = await webServer()
    const r = await kubectl('1.33', [
      'get',
      '--raw',
      `/api/v1/namespaces/${namespace}/pods/web:${port}/proxy/hello.txt`,
    ])
    assert.equal(r.stdout, 'hello from the pod\n')
    const first = await kubectl('1.33', ['get', '--raw', `/api/v1/namespaces/${namespace}/pods/web/proxy/hello.txt`])
    assert.equal(first.stdout, 'hello from the pod\n', 'no port: the first declared container port')
    const closed = await kubectl('1.33', ['get', '--raw', `/api/v1/namespaces/${namespace}/pods/web:1/proxy/`], {
      allowFail: true,
    })
    assert.equal(
      closed.stderr.trim(),
      'Error from server (ServiceUnavailable): error trying to reach service: dial tcp 127.0.0.1:1: connect: connection refused',
    )
  })

  it('services/{name}/proxy reaches a ready endpoint: kubectl get --raw, client-node, the python client', async () => {
    const port = await webServer()
    const svc = await api('POST', `/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: port }] },
    })
    assert.equal(svc.status, 201, svc.text)
    await eventually('a ready endpoint', async () => {
      const e = (await api('GET', `/api/v1/namespaces/${namespace}/endpoints/web`)).body
      return e?.subsets?.[0]?.addresses?.length
    })
    for (const id of ['web:80', 'web:http', 'http:web:80']) {
      const r = await kubectl('1.33', [
        'get',
        '--raw',
        `/api/v1/namespaces/${namespace}/services/${id}/proxy/hello.txt`,
      ])
      assert.equal(r.stdout, 'hello from the pod\n', id)
    }
    const { CoreV1Api, KubeConfig } = await import('@kubernetes/client-node')
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    const text = await kc
      .makeApiClient(CoreV1Api)
      .connectGetNamespacedServiceProxyWithPath({ name: 'web:80', namespace, path: 'hello.txt' })
    assert.equal(text, 'hello from the pod\n')
    const py = spawnSync(
      PYTHON,
      [join(import.meta.dirname, 'python', 'agent_service_proxy.py'), namespace, 'web:80', 'hello.txt'],
      { encoding: 'utf8', timeout: 60_000 },
    )
    assert.equal(py.status, 0, py.stderr)
    // http.server answers the relayed POST itself: 501, its own refusal.
    assert.deepEqual(JSON.parse(py.stdout.trim()), { get: 'hello from the pod\n', post: 501 })
    await api('POST', `/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'nobody' },
      spec: { selector: { app: 'nobody' }, ports: [{ port: 80 }] },
    })
    const none = await eventually('the empty service to be refused', async () => {
      const r = await kubectl('1.33', ['get', '--raw', `/api/v1/namespaces/${namespace}/services/nobody:80/proxy/`], {
        allowFail: true,
      })
      return /ServiceUnavailable/.test(r.stderr) ? r : null
    })
    assert.equal(
      none.stderr.trim(),
      'Error from server (ServiceUnavailable): no endpoints available for service "nobody"',
    )
  })

  it('kubectl 1.27 port-forward (SPDY only) is told which kubectl to use', async () => {
    await webServer()
    const r = await kubectl('1.27', ['-n', namespace, 'port-forward', 'pod/web', '0:80'], {
      allowFail: true,
      timeout: 30_000,
    })
    assert.notEqual(r.code, 0)
    assert.match(
      r.stderr,
      /portforward of pods on real nodes needs a WebSocket client \(kubectl 1\.31 or newer for `kubectl port-forward`, or a client speaking portforward\.k8s\.io\)/,
    )
  })

  it('an httpGet readiness probe gates the pod’s Endpoints', async () => {
    const port = 30000 + Math.floor(Math.random() * 5000)
    await create({
      ...podOn('gated', [
        {
          name: 'main',
          image: 'python',
          command: [PYTHON, '-m', 'http.server', String(port), '--bind', '127.0.0.1'],
          readinessProbe: { httpGet: { path: '/ready.txt', port }, periodSeconds: 1, failureThreshold: 1 },
        },
      ]),
      metadata: { name: 'gated', namespace, labels: { app: 'gated' } },
    })
    const svc = await api('POST', `/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'gated' },
      spec: { selector: { app: 'gated' }, ports: [{ port: 80, targetPort: port }] },
    })
    assert.equal(svc.status, 201, svc.text)
    const endpoints = async () => (await api('GET', `/api/v1/namespaces/${namespace}/endpoints/gated`)).body
    const waiting = await eventually('a not-ready address', async () => {
      const e = await endpoints()
      return e?.subsets?.[0]?.notReadyAddresses?.length ? e : null
    })
    assert.equal(waiting.subsets[0].notReadyAddresses[0].ip, nodeIP)
    await kubectl('1.33', ['-n', namespace, 'exec', 'gated', '--', 'touch', 'ready.txt'])
    const ready = await eventually('a ready address', async () => {
      const e = await endpoints()
      return e?.subsets?.[0]?.addresses?.length ? e : null
    })
    assert.equal(ready.subsets[0].addresses[0].targetRef.name, 'gated')
    assert.equal(ready.subsets[0].ports[0].port, port)
  })

  it('stops a deleted pod and confirms the deletion (kubectl delete returns)', async () => {
    const t0 = Date.now()
    await kubectl('1.33', ['-n', namespace, 'delete', 'pod', 'hello', '--timeout=30s'])
    assert.ok(Date.now() - t0 < 30_000)
    const r = await api('GET', `/api/v1/namespaces/${namespace}/pods/hello`)
    assert.equal(r.status, 404)
  })

  it('a silent agent: Unknown and tainted after the grace, pods evicted by toleration; back, Ready without restarts', async () => {
    const sleeper = [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }]
    await create(podOn('steady', sleeper))
    const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }
    await create(podOn('fragile', sleeper, { tolerations: [{ ...unreachable, tolerationSeconds: 2 }] }))
    for (const name of ['steady', 'fragile'])
      await eventually(`${name} to be ready`, async () => (await getPod(name)).status?.containerStatuses?.[0]?.ready)
    const readyOf = (o) => o.status?.conditions?.find((c) => c.type === 'Ready')?.status
    agent.child.kill('SIGSTOP')
    try {
      const n = await eventually(
        'the node to go Unknown',
        async () => {
          const got = (await api('GET', `/api/v1/nodes/${node}`)).body
          return readyOf(got) === 'Unknown' && got.spec?.taints?.length === 2 ? got : null
        },
        120_000,
      )
      assert.deepEqual(
        n.spec.taints.map((t) => `${t.key}:${t.effect}`),
        ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute'],
      )
      const gone = await eventually('fragile to be evicted', async () => {
        const p = await getPod('fragile')
        return p.metadata.deletionTimestamp ? p : null
      })
      assert.equal(gone.status.conditions.find((c) => c.type === 'DisruptionTarget')?.reason, 'DeletionByTaintManager')
      const steady = await eventually('steady to be marked not ready', async () => {
        const p = await getPod('steady')
        return readyOf(p) === 'False' ? p : null
      })
      assert.equal(steady.metadata.deletionTimestamp, undefined)
      const r = await kubectl('1.33', ['get', 'node', node, '--no-headers'])
      assert.match(r.stdout, new RegExp(`^${node}\\s+NotReady\\s`))
    } finally {
      agent.child.kill('SIGCONT')
    }
    await eventually(
      'the node to be Ready and untainted',
      async () => {
        const got = (await api('GET', `/api/v1/nodes/${node}`)).body
        return readyOf(got) === 'True' && !got.spec?.taints
      },
      60_000,
    )
    const back = await eventually('steady to be ready again', async () => {
      const p = await getPod('steady')
      return readyOf(p) === 'True' ? p : null
    })
    assert.equal(back.status.containerStatuses[0].restartCount, 0)
    await eventually('the evicted pod’s deletion to be confirmed', async () => {
      return (await api('GET', `/api/v1/namespaces/${namespace}/pods/fragile`)).status === 404
    })
  })

  it('kubectl cordon and drain empty the node; uncordon opens it again', async () => {
    await kubectl('1.33', ['cordon', node])
    assert.equal((await api('GET', `/api/v1/nodes/${node}`)).body.spec.unschedulable, true)
    const drained = await kubectl('1.33', ['drain', node, '--force', '--ignore-daemonsets', '--timeout=90s'], {
      timeout: 120_000,
    })
    assert.match(drained.stdout, new RegExp(`node/${node} drained`))
    const left = (await api('GET', `/api/v1/pods?fieldSelector=spec.nodeName%3D${node}`)).body.items
    assert.deepEqual(
      left.map((p) => p.metadata.name),
      [],
    )
    await kubectl('1.33', ['uncordon', node])
    assert.equal((await api('GET', `/api/v1/nodes/${node}`)).body.spec.unschedulable, undefined)
  })

  it('an agent killed mid-exec: the client gets an error, the server stays healthy, a new agent serves again', async () => {
    await create(podOn('survivor', [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }]))
    await eventually('survivor to run', async () => (await getPod('survivor')).status?.containerStatuses?.[0]?.ready)
    const running = kubectl('1.33', ['-n', namespace, 'exec', 'survivor', '--', 'sleep', '30'], {
      allowFail: true,
      timeout: 60_000,
    })
    await new Promise((r) => setTimeout(r, 1500))
    await agent.stop('SIGKILL')
    const r = await running
    assert.notEqual(r.code, 0)
    assert.match(r.stderr, /the tunnel to the node was lost/)
    assert.equal((await api('GET', '/version')).status, 200)
    earlierOutput += agent.output()
    agent = startNodeAgent(['--data-dir', agent.dataDir])
    await eventually(
      'exec through the new agent',
      async () =>
        (await kubectl('1.33', ['-n', namespace, 'exec', 'survivor', '--', 'echo', 'back'], { allowFail: true }))
          .stdout === 'back\n',
      60_000,
    )
  })

  it('the agent, as its node’s own identity, was refused nothing a kubelet may do', async () => {
    assert.doesNotMatch(earlierOutput + agent.output(), /forbidden/i)
  })

  it('never serves a virtual node', async () => {
    // With the harness's admin credentials: a node's own identity could not even read another node.
    const other = startAgent('node-1')
    const exit = await other.exited
    assert.equal(exit.code, 1, other.output())
    assert.match(other.output(), /node node-1 is a virtual node/)
  })
})
