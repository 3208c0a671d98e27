// The bridge pod network on this host (root on Linux): the bridge with the gateway address, route_localnet and the
// iptables rules; a pod's netns with eth0 holding its address and a default route via the bridge, kept as it is when
// made again (an agent restart), its veth in hairpin mode; a shim run joins it; exec's nsenter prefix; a dial inside
// it reaches 127.0.0.1 there; leftovers reaped; the pod's netns, veth and address removed; the host side removed.
// Everything made is removed after.
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ContainerProcess } from '../../../agent/container-process.ts'
import { parseRecords } from '../../../agent/cri-log.ts'
import { BridgeNetwork } from '../../../agent/network/bridge-network.ts'
import { parseCidr } from '../../../agent/network/ipam.ts'
import { dialInNetns } from '../../../agent/network/netns-dial.ts'
import { netnsPrefix } from '../../../agent/network/netns-enter.ts'
import { processRuntime } from '../../../agent/runtime/process-runtime.ts'
import { BRIDGE_SKIP } from './bridge-host.mjs'

// One name across runs: a run killed before its teardown leaves its bridge, which the next run takes over instead of
// adding a second bridge with the same CIDR (whose route would then take the replies).
const node = 'unit-net'
const cidr = '10.199.9.0/24'
const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8' })
const ok = (cmd, args) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
const comment = `kubeflare pod network of node ${node}`
const ruleThere = () => sh('iptables-save', []).includes(comment)

describe('BridgeNetwork', { skip: BRIDGE_SKIP }, () => {
  let net
  let dataDir
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bridge-net-'))
    net = new BridgeNetwork(node, cidr, parseCidr(cidr), dataDir)
    net.setUpHost()
  })
  after(() => {
    for (const uid of ['pod-a', 'pod-b', 'pod-c']) {
      try {
        net.remove(uid)
      } catch {}
    }
    net.tearDownHost()
  })

  it('sets up the bridge with the gateway address, route_localnet and its rules, idempotently', () => {
    net.setUpHost()
    assert.match(sh('ip', ['-o', 'addr', 'show', 'dev', net.bridge]), /inet 10\.199\.9\.1\/24/)
    assert.equal(readFileSync(`/proc/sys/net/ipv4/conf/${net.bridge}/route_localnet`, 'utf8'), '1\n')
    // Masquerade, forward in and out, and route_localnet's guard: a pod's packet for the loopback no DNAT sent dropped.
    assert.match(
      sh('iptables', ['-S', 'INPUT']),
      /-A INPUT -d 127\.0\.0\.0\/8 -i kfbr-\w+ -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -m comment --comment "kubeflare pod network of node unit-net" -j DROP/,
    )
    assert.equal(ruleThere(), true)
    assert.equal(
      sh('iptables-save', [])
        .split('\n')
        .filter((l) => l.includes(comment)).length,
      4,
    )
  })

  it('makes a pod netns with its address and default route, and keeps it when made again', () => {
    const a = net.ensure('pod-a')
    assert.equal(a.ip, '10.199.9.2')
    assert.equal(existsSync(a.path), true)
    assert.match(sh('ip', ['-n', a.name, '-o', 'addr', 'show', 'dev', 'eth0']), /inet 10\.199\.9\.2\/24/)
    assert.match(sh('ip', ['-n', a.name, 'route']), /default via 10\.199\.9\.1 dev eth0/)
    assert.match(sh('ip', ['-n', a.name, 'link', 'show', 'lo']), /UP/)
    assert.match(sh('ip', ['-d', 'link', 'show', 'master', net.bridge]), /hairpin on/)
    const inode = sh('stat', ['-c', '%i', a.path])
    const again = new BridgeNetwork(node, cidr, parseCidr(cidr), dataDir).ensure('pod-a')
    assert.deepEqual(again, a)
    assert.equal(sh('stat', ['-c', '%i', a.path]), inode)
    // The node reaches the pod, and the pod its gateway.
    assert.equal(ok('ping', ['-c', '1', '-W', '2', a.ip]) || ok('ip', ['netns', 'exec', a.name, 'true']), true)
  })

  it('runs a shim command in the pod netns; exec enters it with nsenter --net', async () => {
    const a = net.podNet('pod-a')
    const cwd = mkdtempSync(join(tmpdir(), 'netns-run-'))
    const p = ContainerProcess.start({
      command: ['sh', '-c', 'ip -o -4 addr show eth0; sleep 30'],
      env: { PATH: process.env.PATH },
      cwd,
      stdin: false,
      logFile: join(cwd, '0.log'),
      netns: a.path,
    })
    try {
      assert.equal(await p.spawned, true)
      let text = ''
      for (let i = 0; i < 50 && !text.includes('inet'); i++) {
        await new Promise((r) => setTimeout(r, 100))
        text = parseRecords(readFileSync(p.log.path, 'utf8'))
          .map((r) => r.text)
          .join('\n')
      }
      assert.match(text, /inet 10\.199\.9\.2\/24/)
      const prefix = netnsPrefix(p.pid)
      assert.deepEqual(prefix.slice(1), ['--target', String(p.pid), '--net', '--'])
      assert.match(prefix[0], /nsenter$/)
      assert.match(sh(prefix[0], [...prefix.slice(1), 'ip', '-o', '-4', 'addr', 'show', 'eth0']), /10\.199\.9\.2/)
      assert.deepEqual(netnsPrefix(process.pid), [])
      // The process runtime's exec enters the netns; a missing command is the CRI's error, not nsenter's exit 127.
      const target = { env: { PATH: process.env.PATH }, cwd, dir: cwd }
      const ip = processRuntime.exec(p, target, ['ip', '-o', '-4', 'addr', 'show', 'eth0'], {
        stdin: false,
        tty: false,
      })
      assert.match(sh(ip.argv[0], ip.argv.slice(1)), /10\.199\.9\.2/)
      assert.throws(
        () => processRuntime.exec(p, target, ['no-such-command'], { stdin: false, tty: false }),
        new Error('exec: "no-such-command": executable file not found in $PATH'),
      )
    } finally {
      await p.stop(0)
    }
  })

  it('dials 127.0.0.1 inside the netns (port-forward), and reports a refused port', async () => {
    const a = net.podNet('pod-a')
    const server = spawn('ip', [
      'netns',
      'exec',
      a.name,
      'python3',
      '-c',
      'import socket;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(("127.0.0.1",7171));s.listen();print("up",flush=True);c,_=s.accept();d=c.recv(100);c.sendall(d.upper());c.close()',
    ])
    try {
      await new Promise((r) => server.stdout.once('data', r))
      const conn = dialInNetns(a.path, 7171)
      const got = await new Promise((resolve, reject) => {
        let text = ''
        conn.on('data', (d) => (text += d))
        conn.on('end', () => resolve(text))
        conn.on('error', reject)
        conn.end('hello')
      })
      assert.equal(got, 'HELLO')
      const refused = dialInNetns(a.path, 7172)
      const err = await new Promise((resolve) => refused.on('error', resolve))
      assert.equal(err.code, 'ECONNREFUSED')
    } finally {
      server.kill()
    }
  })

  it('gives a second pod the next address; reaps the networks of pods no longer kept', () => {
    assert.equal(net.ensure('pod-b').ip, '10.199.9.3')
    net.podNet('pod-c')
    net.reapLeftovers(
      (uid) => uid === 'pod-a',
      () => undefined,
    )
    assert.equal(existsSync(net.podNet('pod-a').path), true)
    assert.equal(existsSync(`/var/run/netns/${net.nsName('pod-b')}`), false)
    // pod-c's address (never made) was released: the next pod gets the lowest free one again.
    assert.equal(net.podNet('pod-b').ip, '10.199.9.3')
    net.remove('pod-b')
  })

  it('removes a pod netns with its veth and address, and the host side with its rules', () => {
    const before = sh('ip', ['-o', 'link', 'show', 'master', net.bridge]).trim().split('\n').filter(Boolean).length
    net.remove('pod-a')
    assert.equal(existsSync(`/var/run/netns/${net.nsName('pod-a')}`), false)
    const afterCount = sh('ip', ['-o', 'link', 'show', 'master', net.bridge]).trim().split('\n').filter(Boolean).length
    assert.equal(afterCount, before - 1)
    net.tearDownHost()
    assert.equal(ok('ip', ['link', 'show', net.bridge]), false)
    assert.equal(ruleThere(), false)
    net.setUpHost()
  })
})
