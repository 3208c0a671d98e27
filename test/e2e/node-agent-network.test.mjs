// A network namespace per pod on a real node (--pod-network bridge, process runtime): two pods get distinct addresses
// from the pod CIDR and one reaches the other's http.server by pod IP; a readiness httpGet probe gates Endpoints,
// which carry the pod IP; kubectl port-forward reaches a server bound on 127.0.0.1 inside the pod; pods/proxy reaches
// the pod IP; a hostNetwork pod keeps the node's address; a hostPort answers on the node's address and 127.0.0.1 while
// its pod runs, not after; a pod's in-cluster client reaches the API server on the node's loopback through the
// `kubernetes` Service's ClusterIP (DNATted there), verifying it with the ServiceAccount's CA; an agent killed and
// started again adopts the pods with their netns and address; deleted pods leave no netns, veth or rule; the same
// under podman (--network ns:). Every netns, veth, bridge and iptables rule the agents made is removed after, even on
// failure.
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, KUBECTL_DIR, kubectl, uniqueNs } from './helpers.mjs'
import { BRIDGE_SKIP } from '../agent/network/bridge-host.mjs'

const node = 'e2e-agent-net'
const cidr = '10.199.7.0/24'
const namespace = uniqueNs('net')
const tag = createHash('sha256').update(node).digest('hex').slice(0, 6)
const bridge = `kfbr-${tag}`
const nsPrefix = `kf-${tag}-`
let agent

const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return ''
  }
}
const ourNetns = () =>
  sh('ip', ['netns', 'list'])
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((n) => n.startsWith(nsPrefix))
const ourVeths = () => sh('ip', ['-o', 'link', 'show', 'master', bridge]).split('\n').filter(Boolean)

/** Removes everything of a node's pod network its agent may have left (this file's main node by default). */
function cleanNetwork(of = node) {
  const t = createHash('sha256').update(of).digest('hex').slice(0, 6)
  for (const line of sh('ip', ['netns', 'list']).split('\n')) {
    const n = line.split(' ')[0]
    if (n.startsWith(`kf-${t}-`)) sh('ip', ['netns', 'del', n])
  }
  sh('ip', ['link', 'del', `kfbr-${t}`])
  for (const [table, chain, rule] of nodeRules(of))
    try {
      execFileSync('iptables', ['-w', '-t', table, '-D', chain, ...rule], { stdio: 'ignore' })
    } catch {}
}

/** The iptables rules of a node's pod network (its comment, or a pod's comment under it) as [table, chain, words]. */
function nodeRules(of = node) {
  const comment = `kubeflare pod network of node ${of}`
  const rules = []
  for (const table of ['nat', 'filter'])
    for (const line of sh('iptables', ['-w', '-t', table, '-S']).split('\n')) {
      const words = [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1]?.replace(/\\(.)/g, '$1') ?? m[2])
      const c = words[words.indexOf('--comment') + 1]
      if (words[0] === '-A' && (c === comment || c?.startsWith(`${comment}: `)))
        rules.push([table, words[1], words.slice(2)])
    }
  return rules
}

const k = (args, opts) => kubectl('1.33', ['-n', namespace, ...args], opts)
const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const running = (name) =>
  eventually(`${name} to run`, async () => {
    const p = await getPod(name)
    return p.status?.containerStatuses?.every((c) => c.state.running) && p.status.podIP ? p : null
  })
const pod = (name, command, extra = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: name } },
  spec: {
    nodeName: node,
    terminationGracePeriodSeconds: 1,
    containers: [{ name: 'c', image: 'python', command, ...extra }],
    ...(extra.podSpec ?? {}),
  },
})
const create = (p) => api('POST', `/api/v1/namespaces/${namespace}/pods`, p)
const server = (port, bind = '0.0.0.0') => ['python3', '-m', 'http.server', '--bind', bind, String(port)]

describe('pod network bridge (a netns per pod)', { skip: BRIDGE_SKIP }, () => {
  before(async () => {
    cleanNetwork()
    agent = startAgent(node, ['--pod-network', 'bridge', '--pod-cidr', cidr])
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined)
    await agent?.stop()
    cleanNetwork()
    await api('DELETE', `/api/v1/nodes/${node}`).catch(() => undefined)
  })

  let ipA
  let ipB
  it('gives two pods distinct addresses from the pod CIDR; one reaches the other by pod IP', async () => {
    await create(pod('a', server(8080)))
    await create(
      pod('b', ['sleep', '3600'], {
        env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
      }),
    )
    const [a, b] = [await running('a'), await running('b')]
    ipA = a.status.podIP
    ipB = b.status.podIP
    assert.match(ipA, /^10\.199\.7\.\d+$/)
    assert.match(ipB, /^10\.199\.7\.\d+$/)
    assert.notEqual(ipA, ipB)
    assert.deepEqual(a.status.podIPs, [{ ip: ipA }])
    assert.notEqual(a.status.hostIP, ipA)
    assert.equal(ourNetns().length, 2, agent.output())
    const got = await eventually('b to reach a', async () => {
      const r = await k(
        [
          'exec',
          'b',
          '--',
          'python3',
          '-c',
          `import urllib.request;print(urllib.request.urlopen("http://${ipA}:8080/").status)`,
        ],
        { allowFail: true },
      )
      return r.code === 0 ? r.stdout : null
    })
    assert.equal(got.trim(), '200')
    // exec runs in the pod's network: eth0 has the pod's address.
    const addr = await k(['exec', 'b', '--', 'ip', '-o', '-4', 'addr', 'show', 'eth0'])
    assert.match(addr.stdout, new RegExp(`inet ${ipB.replaceAll('.', '\\.')}/24`))
    // The pod reaches the node at its address (through the bridge's gateway).
    const nodeServer = createServer((_req, res) => res.end('node here\n'))
    await new Promise((r) => nodeServer.listen(0, '0.0.0.0', r))
    try {
      const url = `http://${a.status.hostIP}:${nodeServer.address().port}/`
      const fromPod = await k([
        'exec',
        'b',
        '--',
        'python3',
        '-c',
        `import urllib.request;print(urllib.request.urlopen("${url}", timeout=5).read().decode(), end="")`,
      ])
      assert.equal(fromPod.stdout, 'node here\n')
    } finally {
      nodeServer.close()
    }
    // The downward API's status.podIP is the pod's address.
    assert.equal((await k(['exec', 'b', '--', 'sh', '-c', 'echo $POD_IP'])).stdout, `${ipB}\n`)
  })

  it('a readiness httpGet probe gates Endpoints, which carry the pod IP', async () => {
    await api('POST', `/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'web' },
      spec: { selector: { app: 'ready' }, ports: [{ port: 80, targetPort: 8081 }] },
    })
    // The server starts after 3 s: not ready until the probe reaches it at the pod IP.
    await create(
      pod('ready', ['sh', '-c', 'sleep 3; exec python3 -m http.server --bind 0.0.0.0 8081'], {
        readinessProbe: { httpGet: { path: '/', port: 8081 }, periodSeconds: 1 },
      }),
    )
    const p = await running('ready')
    const ep0 = (await api('GET', `/api/v1/namespaces/${namespace}/endpoints/web`)).body
    assert.ok(!ep0.subsets?.some((s) => s.addresses?.length), JSON.stringify(ep0))
    const ep = await eventually('the endpoint to be ready', async () => {
      const e = (await api('GET', `/api/v1/namespaces/${namespace}/endpoints/web`)).body
      return e.subsets?.[0]?.addresses?.length ? e : null
    })
    assert.equal(ep.subsets[0].addresses[0].ip, p.status.podIP)
  })

  it('kubectl port-forward reaches a server bound on 127.0.0.1 inside the pod', async () => {
    await create(pod('local', server(9090, '127.0.0.1')))
    await running('local')
    const local = 20000 + Math.floor(Math.random() * 10000)
    const pf = spawn(
      join(KUBECTL_DIR, 'kubectl.1.33'),
      ['-n', namespace, 'port-forward', 'pod/local', `${local}:9090`],
      {
        env: { ...process.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let out = ''
    pf.stdout.on('data', (d) => (out += d))
    pf.stderr.on('data', (d) => (out += d))
    try {
      await eventually('port-forward to listen', async () => out.includes('Forwarding from 127.0.0.1'))
      const res = await eventually('the server to answer', async () =>
        fetch(`http://127.0.0.1:${local}/`).catch(() => null),
      )
      assert.equal(res.status, 200, out)
    } finally {
      pf.kill()
    }
  })

  it('pods/proxy reaches the pod at its IP', async () => {
    const r = await k(['get', '--raw', `/api/v1/namespaces/${namespace}/pods/a:8080/proxy/`])
    assert.match(r.stdout, /Directory listing/)
  })

  it('a hostNetwork pod keeps the node’s address', async () => {
    await create(pod('hostnet', ['sleep', '3600'], { podSpec: { hostNetwork: true } }))
    const p = await running('hostnet')
    assert.equal(p.status.podIP, p.status.hostIP)
  })

  it('a hostPort answers on the node’s address and on 127.0.0.1 while its pod runs, and not after', async () => {
    const port = 20000 + Math.floor(Math.random() * 10000)
    await create(pod('hostport', server(8082), { ports: [{ containerPort: 8082, hostPort: port }] }))
    const p = await running('hostport')
    const get = (host) => fetch(`http://${host}:${port}/`, { signal: AbortSignal.timeout(3000) })
    for (const host of [p.status.hostIP, '127.0.0.1']) {
      const res = await eventually(`the hostPort on ${host}`, async () => get(host).catch(() => null))
      assert.equal(res.status, 200)
    }
    const ofPod = () => nodeRules().filter(([, , words]) => words.join(' ').includes(p.metadata.uid))
    assert.equal(ofPod().length, 4, JSON.stringify(nodeRules()))
    await k(['delete', 'pod', 'hostport', '--wait=true', '--timeout=60s'])
    await eventually('its rules to go', async () => ofPod().length === 0)
    for (const host of [p.status.hostIP, '127.0.0.1']) await assert.rejects(get(host))
  })

  it('an in-cluster client reaches the API server on the node’s loopback at the kubernetes Service', async () => {
    const svc = (await api('GET', '/api/v1/namespaces/default/services/kubernetes')).body
    await eventually('the default ServiceAccount', async () => {
      return (await api('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200
    })
    // The agent dials the server on 127.0.0.1, which inside the pod's netns is the pod itself.
    assert.match(agent.output(), /the kubernetes Service \d+\.\d+\.\d+\.\d+:443 leads to 127\.0\.0\.1:\d+/)
    // The server's certificate (npm start's) names the ClusterIP, which the pod's clients verify.
    assert.doesNotMatch(agent.output(), /certificate does not name/)
    const dir = '/var/run/secrets/kubernetes.io/serviceaccount'
    const fetchVersion = [
      'import os, ssl, json, urllib.request',
      'env = os.environ',
      `token = open("${dir}/token").read()`,
      `ctx = ssl.create_default_context(cafile="${dir}/ca.crt")`,
      'url = "https://%s:%s/version" % (env["KUBERNETES_SERVICE_HOST"], env["KUBERNETES_SERVICE_PORT"])',
      'req = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})',
      'print(url, json.load(urllib.request.urlopen(req, context=ctx, timeout=10))["gitVersion"])',
    ].join('\n')
    await create(
      pod('incluster', ['sh', '-c', 'python3 -c "$SCRIPT" && exec sleep 3600'], {
        env: [{ name: 'SCRIPT', value: fetchVersion }],
      }),
    )
    await running('incluster')
    const out = await eventually('the pod to print the version', async () => {
      const r = await k(['logs', 'incluster'], { allowFail: true })
      return r.stdout.includes('https://') ? r.stdout : null
    })
    assert.match(out, new RegExp(`^https://${svc.spec.clusterIP.replaceAll('.', '\\.')}:443/version v1\\.`))
    // kubectl with no kubeconfig (client-go's InClusterConfig) too.
    const kubectlIn = await k([
      'exec',
      'incluster',
      '--',
      join(KUBECTL_DIR, 'kubectl.1.33'),
      'get',
      '--raw',
      '/version',
    ])
    assert.match(JSON.parse(kubectlIn.stdout).gitVersion, /^v1\./)
  })

  it('an agent killed and started again adopts the pods with their netns and address', async () => {
    const nsBefore = ourNetns().sort()
    // Killed, an agent leaves the containers running (in their netns) for the next one.
    await agent.stop('SIGKILL')
    agent = startAgent(node, ['--pod-network', 'bridge', '--pod-cidr', cidr, '--data-dir', agent.dataDir])
    await nodeRegisteredReady(node)
    const r = await eventually('the proxy to reach a again', async () => {
      const got = await k(['get', '--raw', `/api/v1/namespaces/${namespace}/pods/a:8080/proxy/`], { allowFail: true })
      return got.code === 0 ? got : null
    })
    assert.match(r.stdout, /Directory listing/)
    const a = await getPod('a')
    assert.equal(a.status.podIP, ipA)
    assert.equal(a.status.containerStatuses[0].restartCount, 0)
    assert.equal((await getPod('b')).status.podIP, ipB)
    assert.deepEqual(ourNetns().sort(), nsBefore)
  })

  it('deleted pods leave no netns, veth or hostPort rule behind', async () => {
    await k(['delete', 'pod', '--all', '--wait=true', '--timeout=60s'])
    await eventually('the netns and veths to go', async () => ourNetns().length === 0 && ourVeths().length === 0)
    assert.deepEqual(
      nodeRules().filter(([, , words]) => words.some((w) => w.includes(': hostPorts of pod'))),
      [],
    )
  })
})

// The same pod network under podman (skipped where podman cannot run a container): the container joins the pod's
// netns with --network ns:<path>; its address is the pod IP, which a tcpSocket readiness probe reaches.
const IMAGE = 'localhost/kubeflare-test-busybox:1'
const podmanDir = mkdtempSync(join(tmpdir(), 'e2e-podman-net-'))
const podmanEnv = { ...process.env, CONTAINERS_CONF: join(podmanDir, 'containers.conf') }
function podmanUnusable() {
  if (BRIDGE_SKIP) return BRIDGE_SKIP
  writeFileSync(
    podmanEnv.CONTAINERS_CONF,
    '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]\n[engine]\nruntime = "runc"\n',
  )
  const podman = (...args) =>
    execFileSync('podman', args, { encoding: 'utf8', stdio: 'pipe', timeout: 120_000, env: podmanEnv })
  try {
    podman('version')
  } catch {
    return 'podman does not answer here'
  }
  try {
    podman('image', 'exists', IMAGE)
  } catch {
    if (!existsSync('/bin/busybox')) return 'no static /bin/busybox to make an image of'
    const fs = join(podmanDir, 'rootfs')
    mkdirSync(join(fs, 'bin'), { recursive: true })
    copyFileSync('/bin/busybox', join(fs, 'bin', 'busybox'))
    for (const c of ['sh', 'cat', 'sleep', 'ls']) symlinkSync('busybox', join(fs, 'bin', c))
    execFileSync('tar', ['-C', fs, '-cf', join(podmanDir, 'rootfs.tar'), '.'])
    podman('import', '--change', 'CMD ["sh"]', join(podmanDir, 'rootfs.tar'), IMAGE)
  }
  return null
}
const noPodman = podmanUnusable()

describe('pod network bridge under podman', { skip: noPodman ?? false }, () => {
  const pNode = 'e2e-podman-net'
  const pCidr = '10.199.8.0/24'
  const pTag = createHash('sha256').update(pNode).digest('hex').slice(0, 6)
  const pNs = uniqueNs('netpod')
  let pAgent
  const clean = () => cleanNetwork(pNode)
  before(async () => {
    clean()
    pAgent = startAgent(pNode, ['--runtime', 'podman', '--pod-network', 'bridge', '--pod-cidr', pCidr], {
      env: podmanEnv,
    })
    await api('POST', '/api/v1/namespaces', { metadata: { name: pNs } })
    await nodeRegisteredReady(pNode)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${pNs}`).catch(() => undefined)
    await pAgent?.stop()
    clean()
    await api('DELETE', `/api/v1/nodes/${pNode}`).catch(() => undefined)
  })

  it('runs the container in the pod netns: its address is the pod IP, which a tcpSocket probe reaches', async () => {
    await api('POST', `/api/v1/namespaces/${pNs}/pods`, {
      metadata: { name: 'web' },
      spec: {
        nodeName: pNode,
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'c',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['busybox', 'httpd', '-f', '-p', '8080', '-h', '/'],
            readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 },
          },
        ],
      },
    })
    const p = await eventually(
      'web to be ready',
      async () => {
        const got = (await api('GET', `/api/v1/namespaces/${pNs}/pods/web`)).body
        return got.status?.containerStatuses?.[0]?.ready ? got : null
      },
      90_000,
    )
    assert.match(p.status.podIP, /^10\.199\.8\.\d+$/)
    const addr = await kubectl('1.33', [
      '-n',
      pNs,
      'exec',
      'web',
      '--',
      'busybox',
      'ip',
      '-o',
      '-4',
      'addr',
      'show',
      'eth0',
    ])
    assert.match(addr.stdout, new RegExp(`inet ${p.status.podIP.replaceAll('.', '\\.')}/24`))
    await kubectl('1.33', ['-n', pNs, 'delete', 'pod', 'web', '--wait=true', '--timeout=60s'])
    await eventually('its netns to go', async () => !sh('ip', ['netns', 'list']).includes(`kf-${pTag}-`))
  })
})

// A pod CIDR with room for one pod (a /30): the second pod waits in ContainerCreating with kube's
// FailedCreatePodSandBox event, and once the first is deleted it gets the freed address, in a netns of its own.
describe('pod network bridge with its range full', { skip: BRIDGE_SKIP }, () => {
  const fNode = 'e2e-agent-net-full'
  const fCidr = '10.199.6.0/30'
  const fNs = uniqueNs('netfull')
  let fAgent
  const fPod = (name) => ({
    metadata: { name },
    spec: {
      nodeName: fNode,
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'c', image: 'python', command: ['sleep', '3600'] }],
    },
  })
  const get = async (name) => (await api('GET', `/api/v1/namespaces/${fNs}/pods/${name}`)).body
  before(async () => {
    cleanNetwork(fNode)
    fAgent = startAgent(fNode, ['--pod-network', 'bridge', '--pod-cidr', fCidr])
    await api('POST', '/api/v1/namespaces', { metadata: { name: fNs } })
    await nodeRegisteredReady(fNode)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${fNs}`).catch(() => undefined)
    await fAgent?.stop()
    cleanNetwork(fNode)
    await api('DELETE', `/api/v1/nodes/${fNode}`).catch(() => undefined)
  })

  it('holds a pod with no free address in ContainerCreating until one is freed', async () => {
    await api('POST', `/api/v1/namespaces/${fNs}/pods`, fPod('one'))
    await eventually('one to run', async () => (await get('one')).status?.podIP === '10.199.6.2')
    await api('POST', `/api/v1/namespaces/${fNs}/pods`, fPod('two'))
    const event = await eventually('the sandbox event', async () => {
      const list = (await api('GET', `/api/v1/namespaces/${fNs}/events`)).body.items ?? []
      return list.find((e) => e.involvedObject.name === 'two' && e.reason === 'FailedCreatePodSandBox')
    })
    assert.match(event.message, /no IP addresses available in range set: 10\.199\.6\.2-10\.199\.6\.2/)
    const waiting = await get('two')
    assert.deepEqual(waiting.status.containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } })
    assert.equal(waiting.status.podIP, undefined)
    await kubectl('1.33', ['-n', fNs, 'delete', 'pod', 'one', '--wait=true', '--timeout=60s'])
    const two = await eventually('two to run with the freed address', async () => {
      const p = await get('two')
      return p.status?.containerStatuses?.[0]?.state.running && p.status.podIP ? p : null
    })
    assert.equal(two.status.podIP, '10.199.6.2')
    const addr = await kubectl('1.33', ['-n', fNs, 'exec', 'two', '--', 'ip', '-o', '-4', 'addr', 'show', 'eth0'])
    assert.match(addr.stdout, /inet 10\.199\.6\.2\/30/)
  })
})

describe('pod network bridge refused', { skip: BRIDGE_SKIP }, () => {
  it('an agent without a pod CIDR (the Node has no spec.podCIDR, no --pod-cidr) refuses to start, saying why', async () => {
    const refused = startAgent('e2e-agent-net-nocidr', ['--pod-network', 'bridge'])
    try {
      const { code } = await refused.exited
      assert.equal(code, 1)
      assert.match(
        refused.output(),
        /--pod-network bridge: node e2e-agent-net-nocidr has no spec\.podCIDR and no --pod-cidr was given: pods would have no addresses/,
      )
    } finally {
      await refused.stop()
      await api('DELETE', '/api/v1/nodes/e2e-agent-net-nocidr').catch(() => undefined)
    }
  })
})
