// host-local IPAM of the bridge pod network: CIDRs read, the lowest free address given (never the network, the
// bridge's or the broadcast one), an allocation kept across instances (an agent restart) and released.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { CidrError, contains, gatewayOf, Ipam, parseCidr } from '../../../agent/network/ipam.ts'

const dir = () => join(mkdtempSync(join(tmpdir(), 'ipam-')), 'ips')

describe('parseCidr', () => {
  it('reads an IPv4 CIDR and its gateway', () => {
    const c = parseCidr('10.244.3.0/24')
    assert.equal(c.prefix, 24)
    assert.equal(gatewayOf(c), '10.244.3.1')
    assert.equal(contains(c, '10.244.3.200'), true)
    assert.equal(contains(c, '10.244.4.2'), false)
  })
  it('refuses what is not a usable IPv4 CIDR', () => {
    for (const bad of ['10.0.0.0', '10.0.0.1/24', '300.0.0.0/24', '10.0.0.0/31', 'fd00::/64', ''])
      assert.throws(() => parseCidr(bad), CidrError, bad)
  })
})

describe('Ipam', () => {
  it('gives the lowest free address from .2, the same one again to the same pod, and keeps it on disk', () => {
    const d = dir()
    const ipam = new Ipam(d, parseCidr('10.9.0.0/24'))
    assert.equal(ipam.allocate('a'), '10.9.0.2')
    assert.equal(ipam.allocate('b'), '10.9.0.3')
    assert.equal(ipam.allocate('a'), '10.9.0.2')
    // A new agent on the same data directory sees the allocations.
    const again = new Ipam(d, parseCidr('10.9.0.0/24'))
    assert.equal(again.allocate('b'), '10.9.0.3')
    assert.deepEqual([...again.allocations()].sort(), [
      ['10.9.0.2', 'a'],
      ['10.9.0.3', 'b'],
    ])
    again.release('a')
    assert.equal(again.allocate('c'), '10.9.0.2')
  })
  it('answers null when the range is full, and never the broadcast address', () => {
    const ipam = new Ipam(dir(), parseCidr('10.9.0.0/30'))
    assert.equal(ipam.allocate('a'), '10.9.0.2')
    assert.equal(ipam.allocate('b'), null)
    ipam.release('a')
    assert.equal(ipam.allocate('b'), '10.9.0.2')
  })
})
