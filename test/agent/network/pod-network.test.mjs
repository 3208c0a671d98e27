// --pod-network and what it refuses: an unknown value, bridge without a pod CIDR, with a bad one, under docker; host
// is the default and builds nothing.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { FlagError, parseFlags } from '../../../agent/flags.ts'
import { NetworkError } from '../../../agent/network/ip-command.ts'
import { podNetwork } from '../../../agent/network/pod-network.ts'
import { runArgs } from '../../../agent/runtime/cli-args.ts'

const rootLinux = process.platform === 'linux' && process.getuid?.() === 0
const ctx = (extra = {}) => ({ node: 'n1', dataDir: mkdtempSync(join(tmpdir(), 'pn-')), runtime: 'process', ...extra })

describe('--pod-network', () => {
  it('is host by default; bridge and --pod-cidr are read', () => {
    assert.equal(parseFlags(['--kubeconfig', '/k']).podNetwork, 'host')
    const c = parseFlags(['--kubeconfig', '/k', '--pod-network', 'bridge', '--pod-cidr', '10.1.2.0/24'])
    assert.equal(c.podNetwork, 'bridge')
    assert.equal(c.podCIDR, '10.1.2.0/24')
  })
  it('refuses another value', () => {
    assert.throws(
      () => parseFlags(['--kubeconfig', '/k', '--pod-network', 'calico']),
      new FlagError('--pod-network: "calico" is not one of host, bridge'),
    )
  })
  it('host builds nothing', () => {
    assert.equal(podNetwork('host', ctx()), null)
  })
  it('bridge refuses to start without a pod CIDR, with a bad one, or under docker', {
    skip: !rootLinux && 'root on Linux',
  }, () => {
    assert.throws(
      () => podNetwork('bridge', ctx()),
      new NetworkError(
        '--pod-network bridge: node n1 has no spec.podCIDR and no --pod-cidr was given: pods would have no addresses',
      ),
    )
    assert.throws(
      () => podNetwork('bridge', ctx({ flagPodCIDR: '10.1.2.3/24' })),
      new NetworkError('--pod-network bridge: 10.1.2.3/24 has host bits set'),
    )
    assert.throws(() => podNetwork('bridge', ctx({ runtime: 'docker', flagPodCIDR: '10.1.2.0/24' })), /docker runtime/)
  })
  it('bridge refuses to start when not root or not on Linux', { skip: rootLinux && 'this is root on Linux' }, () => {
    assert.throws(() => podNetwork('bridge', ctx({ flagPodCIDR: '10.1.2.0/24' })), /must run as root|need Linux/)
  })
})

describe('podman in the pod network', () => {
  it('joins the pod netns with --network ns:<path>, else the host network', () => {
    const base = { node: 'n1', podUID: 'u', podName: 'p', podNamespace: 'ns', attempt: 0, env: {}, cidFile: '/c' }
    const net = (args) => args[args.indexOf('--network') + 1]
    assert.equal(net(runArgs({ ...base, container: { name: 'c', image: 'img' } })), 'host')
    assert.equal(
      net(runArgs({ ...base, container: { name: 'c', image: 'img' }, netns: '/var/run/netns/kf-x-u' })),
      'ns:/var/run/netns/kf-x-u',
    )
  })
})
