// A bridge pod's hostPorts as portmap maps them: read from spec.containers (TCP by default, hostIP 0.0.0.0 as any,
// IPv6 hostIPs left out, ports without a hostPort skipped); the nat rules (DNAT in PREROUTING and OUTPUT, to any
// local address or the hostIP; masquerade from the loopback and the bridge); iptables -S lines read back into words;
// and on this host, the mapping reached (below).
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BridgeNetwork } from '../../../agent/network/bridge-network.ts'
import { hostPortRules, hostPorts } from '../../../agent/network/host-ports.ts'
import { parseCidr } from '../../../agent/network/ipam.ts'
import { ruleWords } from '../../../agent/network/ip-command.ts'
import { BRIDGE_SKIP } from './bridge-host.mjs'

describe('hostPorts', () => {
  it('reads the containers’ ports that have a hostPort', () => {
    const pod = {
      spec: {
        initContainers: [{ name: 'i', ports: [{ containerPort: 1, hostPort: 1 }] }],
        containers: [
          { name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }] },
          {
            name: 'b',
            ports: [
              { containerPort: 53, hostPort: 5353, protocol: 'UDP', hostIP: '0.0.0.0' },
              { containerPort: 9, hostPort: 9009, protocol: 'SCTP', hostIP: '192.0.2.7' },
              { containerPort: 10, hostPort: 10010, hostIP: '::1' },
            ],
          },
          { name: 'c' },
        ],
      },
    }
    assert.deepEqual(hostPorts(pod), [
      { protocol: 'tcp', hostPort: 8080, containerPort: 80 },
      { protocol: 'udp', hostPort: 5353, containerPort: 53 },
      { protocol: 'sctp', hostPort: 9009, containerPort: 9, hostIP: '192.0.2.7' },
    ])
    assert.deepEqual(hostPorts({ spec: {} }), [])
  })

  it('makes the DNAT and masquerade rules, tagged with the comment', () => {
    const c = ['-m', 'comment', '--comment', 'tag']
    const rules = hostPortRules(
      [
        { protocol: 'tcp', hostPort: 8080, containerPort: 80 },
        { protocol: 'udp', hostPort: 5353, containerPort: 53, hostIP: '192.0.2.7' },
      ],
      '10.9.0.2',
      '10.9.0.0/24',
      'tag',
    )
    const local = ['-p', 'tcp', '-m', 'addrtype', '--dst-type', 'LOCAL', '--dport', '8080', ...c]
    const toPod = ['-j', 'DNAT', '--to-destination', '10.9.0.2:80']
    const dnatted = (p, port) => ['-d', '10.9.0.2/32', '-p', p, '--dport', port, '-m', 'conntrack', '--ctstate', 'DNAT']
    const udp = [
      '-p',
      'udp',
      '-d',
      '192.0.2.7/32',
      '--dport',
      '5353',
      ...c,
      '-j',
      'DNAT',
      '--to-destination',
      '10.9.0.2:53',
    ]
    assert.deepEqual(rules, [
      ['PREROUTING', [...local, ...toPod]],
      ['OUTPUT', [...local, ...toPod]],
      ['POSTROUTING', ['-s', '127.0.0.1/32', ...dnatted('tcp', '80'), ...c, '-j', 'MASQUERADE']],
      ['POSTROUTING', ['-s', '10.9.0.0/24', ...dnatted('tcp', '80'), ...c, '-j', 'MASQUERADE']],
      ['PREROUTING', udp],
      ['OUTPUT', udp],
      ['POSTROUTING', ['-s', '127.0.0.1/32', ...dnatted('udp', '53'), ...c, '-j', 'MASQUERADE']],
      ['POSTROUTING', ['-s', '10.9.0.0/24', ...dnatted('udp', '53'), ...c, '-j', 'MASQUERADE']],
    ])
  })
})

describe('ruleWords', () => {
  it('splits an iptables -S line, unquoting the comment', () => {
    assert.deepEqual(ruleWords('-A OUTPUT -d 1.2.3.4/32 -m comment --comment "a \\"q\\" b" -j ACCEPT'), [
      '-A',
      'OUTPUT',
      '-d',
      '1.2.3.4/32',
      '-m',
      'comment',
      '--comment',
      'a "q" b',
      '-j',
      'ACCEPT',
    ])
  })
})

// On this host (root on Linux): a pod's hostPort answers on the node's address and on 127.0.0.1, from the node, from
// another pod and from the pod itself (hairpin), kept as it is when ensured again, and gone with the pod.
// One name across runs: a run killed before its teardown leaves its bridge, which the next run takes over instead of
// adding a second bridge with the same CIDR (whose route would then take the replies).
const node = 'unit-hostport'
const cidr = '10.199.11.0/24'
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 15_000, ...opts })
const nodeIP = () =>
  Object.entries(networkInterfaces())
    .filter(([name]) => !name.startsWith('kfbr-'))
    .flatMap(([, a]) => a ?? [])
    .find((a) => a.family === 'IPv4' && !a.internal)?.address
/** What an HTTP GET of `url` answers (its status), run on the node or inside a netns; null when it fails. */
function get(url, netns) {
  const py = `import urllib.request;print(urllib.request.urlopen("${url}", timeout=3).status)`
  try {
    return run(netns ? 'ip' : 'python3', [...(netns ? ['netns', 'exec', netns, 'python3'] : []), '-c', py]).trim()
  } catch {
    return null
  }
}
const ourRules = (uid) =>
  run('iptables-save', ['-t', 'nat'])
    .split('\n')
    .filter((l) => l.includes(`hostPorts of pod ${uid}"`))

describe('hostPorts on the bridge network', { skip: BRIDGE_SKIP }, () => {
  let net
  let server
  before(() => {
    net = new BridgeNetwork(node, cidr, parseCidr(cidr), mkdtempSync(join(tmpdir(), 'hostport-')))
    net.setUpHost()
  })
  after(() => {
    server?.kill()
    for (const uid of ['web', 'client']) {
      try {
        net.remove(uid)
      } catch {}
    }
    net.tearDownHost()
  })

  it('reaches the pod’s port on the node’s address and 127.0.0.1; removed with the pod', async () => {
    const port = 20000 + (process.pid % 10000)
    const ports = [{ protocol: 'tcp', hostPort: port, containerPort: 8080 }]
    const web = net.ensure('web', ports)
    const client = net.ensure('client')
    server = spawn('ip', ['netns', 'exec', web.name, 'python3', '-m', 'http.server', '--bind', '0.0.0.0', '8080'], {
      stdio: 'ignore',
    })
    for (let i = 0; i < 50 && get(`http://${web.ip}:8080/`) !== '200'; i++) await new Promise((r) => setTimeout(r, 100))
    assert.equal(get(`http://${nodeIP()}:${port}/`), '200')
    assert.equal(get(`http://127.0.0.1:${port}/`), '200')
    assert.equal(get(`http://${nodeIP()}:${port}/`, client.name), '200')
    assert.equal(get(`http://${nodeIP()}:${port}/`, web.name), '200')
    // Ensured again (an agent restarted): the same rules, not a second copy.
    assert.equal(ourRules('web').length, 4)
    net.ensure('web', ports)
    net.ensureHostPorts('web', web.ip, ports)
    assert.equal(ourRules('web').length, 4)
    // Another address (the netns made again under another --pod-cidr, say): the rules follow it.
    net.ensureHostPorts('web', '10.199.11.250', ports)
    assert.equal(ourRules('web').length, 4)
    assert.equal(get(`http://127.0.0.1:${port}/`), null)
    net.ensureHostPorts('web', web.ip, ports)
    assert.equal(get(`http://127.0.0.1:${port}/`), '200')
    net.remove('web')
    assert.deepEqual(ourRules('web'), [])
    assert.equal(get(`http://127.0.0.1:${port}/`), null)
    assert.equal(get(`http://${nodeIP()}:${port}/`), null)
  })

  it('a hostIP limits the port to that address; leftovers’ rules are reaped; the host side takes every rule', () => {
    const port = 30000 + (process.pid % 10000)
    net.ensure('web', [{ protocol: 'tcp', hostPort: port, containerPort: 8080, hostIP: '127.0.0.1' }])
    assert.match(ourRules('web').join('\n'), /-d 127\.0\.0\.1\/32 -p tcp -m tcp --dport \d+ .*-j DNAT/)
    // A pod deleted while no agent ran, whose netns went by hand: its rules go with the leftovers.
    run('ip', ['netns', 'del', net.nsName('web')])
    net.reapLeftovers(
      () => false,
      () => undefined,
    )
    assert.deepEqual(ourRules('web'), [])
    net.ensure('web', [{ protocol: 'udp', hostPort: port, containerPort: 53 }])
    assert.equal(ourRules('web').length, 4)
    net.tearDownHost()
    assert.equal(run('iptables-save', []).includes(`of node ${node}`), false)
    net.setUpHost()
  })
})
