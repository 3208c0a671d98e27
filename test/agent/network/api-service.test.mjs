// The `kubernetes` Service for bridge pods when the API server is on the node's loopback: which server URLs are the
// loopback's; the Service's ClusterIP and https port; the route read from the server (asked again while the Service
// is not there yet, none for a server elsewhere or a Service that cannot be read; a served certificate that does not
// name the ClusterIP said in the log); and on this host (root on Linux),
// a pod dialling ClusterIP:port reaches a server listening only on the node's 127.0.0.1, through the bridge's DNAT,
// which a later agent replaces for another server port and removes for a server elsewhere.
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { createServer as createTlsServer } from 'node:tls'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { apiServiceRoute, loopbackPort, serviceAddress } from '../../../agent/network/api-service.ts'
import { BridgeNetwork } from '../../../agent/network/bridge-network.ts'
import { parseCidr } from '../../../agent/network/ipam.ts'
import { KubeError } from '../../../agent/kube-client.ts'
import { ensureLocalCredentials } from '../../../scripts/local-credentials.mjs'
import { BRIDGE_SKIP } from './bridge-host.mjs'

const service = (clusterIP, ports) => ({ spec: { clusterIP, ports } })

/** A TLS server on 127.0.0.1 whose certificate (made as `npm start` makes it) names `ips`: {url, port, close()}. */
async function tlsServer(ips) {
  const state = mkdtempSync(join(tmpdir(), 'apisvc-tls-'))
  const { tls } = ensureLocalCredentials(state, {
    server: 'https://127.0.0.1:1',
    https: true,
    allowedHosts: ['127.0.0.1'],
    serverNames: { ips, dns: ['localhost'] },
  })
  const server = createTlsServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (s) => s.end())
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address()
  return { url: `https://127.0.0.1:${port}`, port, close: () => server.close() }
}

describe('the kubernetes Service for bridge pods', () => {
  it('knows a server on the node’s IPv4 loopback', () => {
    assert.equal(loopbackPort('https://127.0.0.1:8787'), 8787)
    assert.equal(loopbackPort('https://127.3.0.1'), 443)
    assert.equal(loopbackPort('http://localhost'), 80)
    assert.equal(loopbackPort('https://192.0.2.2:6443'), null)
    assert.equal(loopbackPort('https://kube.example.com'), null)
    assert.equal(loopbackPort('https://[::1]:8787'), null)
    assert.equal(loopbackPort('not a url'), null)
  })

  it('reads the Service’s ClusterIP and https port', () => {
    assert.deepEqual(serviceAddress(service('10.96.0.1', [{ name: 'https', port: 443 }])), {
      clusterIP: '10.96.0.1',
      port: 443,
    })
    assert.deepEqual(
      serviceAddress(
        service('10.0.0.1', [
          { name: 'x', port: 1 },
          { name: 'https', port: 8443 },
        ]),
      ),
      {
        clusterIP: '10.0.0.1',
        port: 8443,
      },
    )
    assert.equal(serviceAddress(service('None', [{ port: 443 }])), null)
    assert.equal(serviceAddress(service('fd00::1', [{ port: 443 }])), null)
    assert.equal(serviceAddress(service('10.96.0.1', [])), null)
    assert.equal(serviceAddress({}), null)
  })

  it('asks the server for it while it is not there; none for a server elsewhere or an error', async () => {
    const logs = []
    const log = (m) => logs.push(m)
    // The loopback server: TLS with a certificate naming the ClusterIP, as `npm start` makes it.
    const tls = await tlsServer(['127.0.0.1', '10.96.0.1'])
    const client = (server, answers) => ({
      server,
      asked: 0,
      async get(path) {
        assert.equal(path, '/api/v1/namespaces/default/services/kubernetes')
        const a = answers[this.asked++]
        if (a instanceof Error) throw a
        return a
      },
    })
    const notFound = new KubeError(404, { message: 'services "kubernetes" not found' }, '')
    const late = client(tls.url, [notFound, service('10.96.0.1', [{ name: 'https', port: 443 }])])
    assert.deepEqual(await apiServiceRoute(late, log), {
      clusterIP: '10.96.0.1',
      port: 443,
      targetPort: tls.port,
      url: 'https://10.96.0.1:443',
    })
    tls.close()
    assert.equal(late.asked, 2)
    const elsewhere = client('https://192.0.2.2:6443', [])
    assert.equal(await apiServiceRoute(elsewhere, log), null)
    assert.equal(elsewhere.asked, 0)
    const forbidden = new KubeError(403, { message: 'services "kubernetes" is forbidden' }, '')
    assert.equal(await apiServiceRoute(client('https://127.0.0.1:8787', [forbidden]), log), null)
    assert.deepEqual(logs, [
      'reading the kubernetes Service: services "kubernetes" is forbidden: pods on the bridge network cannot reach the server',
    ])
  })

  it('says when the server’s certificate does not name the ClusterIP', async () => {
    const tls = await tlsServer(['127.0.0.1'])
    const logs = []
    const route = await apiServiceRoute(
      { server: tls.url, get: async () => service('10.96.0.1', [{ name: 'https', port: 443 }]) },
      (m) => logs.push(m),
    )
    tls.close()
    assert.equal(route.url, 'https://10.96.0.1:443')
    assert.deepEqual(logs, [
      "the API server's certificate does not name the kubernetes Service's ClusterIP 10.96.0.1: in-cluster clients of pods on the bridge network will refuse it",
    ])
  })
})

// One name across runs: a run killed before its teardown leaves its bridge, which the next run takes over instead of
// adding a second bridge with the same CIDR (whose route would then take the replies).
const node = 'unit-apisvc'
const cidr = '10.199.12.0/24'

describe('the kubernetes Service DNATted to a loopback server', { skip: BRIDGE_SKIP }, () => {
  let net
  let server
  before(async () => {
    server = createServer((_req, res) => res.end('api here\n'))
    await new Promise((r) => server.listen(0, '127.0.0.1', r))
    const route = { clusterIP: '10.199.96.1', port: 443, targetPort: server.address().port, url: '' }
    net = new BridgeNetwork(node, cidr, parseCidr(cidr), mkdtempSync(join(tmpdir(), 'apisvc-')), route)
    net.setUpHost()
  })
  after(() => {
    server?.close()
    try {
      net.remove('pod')
    } catch {}
    net.tearDownHost()
  })

  it('a pod reaches the server on the node’s 127.0.0.1 at the ClusterIP and port', async () => {
    const pod = net.ensure('pod')
    assert.equal(readFileSync(`/proc/sys/net/ipv4/conf/${net.bridge}/route_localnet`, 'utf8'), '1\n')
    const fetchIn = (url) =>
      new Promise((resolve) => {
        const py = `import urllib.request;print(urllib.request.urlopen("${url}", timeout=3).read().decode(), end="")`
        // Asynchronous: the server answering runs in this process.
        const child = spawn('ip', ['netns', 'exec', pod.name, 'python3', '-c', py])
        let out = ''
        child.stdout.on('data', (d) => (out += d))
        child.on('exit', (code) => resolve(code === 0 ? out : null))
      })
    assert.equal(await fetchIn('http://10.199.96.1:443/'), 'api here\n')
    // Only that address and port: the server's own port at the ClusterIP leads nowhere.
    assert.equal(await fetchIn(`http://10.199.96.1:${server.address().port}/`), null)
  })

  it('an agent started for another server port replaces the rule; one for a server elsewhere removes it', () => {
    const dnat = () =>
      execFileSync('iptables', ['-w', '-t', 'nat', '-S', 'PREROUTING'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(`of node ${node}"`))
    assert.equal(dnat().length, 1)
    const dataDir = mkdtempSync(join(tmpdir(), 'apisvc-'))
    const route = { clusterIP: '10.199.96.1', port: 443, targetPort: 1234, url: '' }
    new BridgeNetwork(node, cidr, parseCidr(cidr), dataDir, route).setUpHost()
    assert.equal(dnat().length, 1)
    assert.match(
      dnat()[0],
      /-d 10\.199\.96\.1\/32 -i kfbr-\w+ -p tcp -m tcp --dport 443 .*--to-destination 127\.0\.0\.1:1234$/,
    )
    new BridgeNetwork(node, cidr, parseCidr(cidr), dataDir, null).setUpHost()
    assert.deepEqual(dnat(), [])
  })
})
