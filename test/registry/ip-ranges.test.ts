// The allocators' pure range logic: CIDR and port-range parsing with kube's static bands, and picking free values.
import { describe, expect, it } from 'vitest'
import {
  firstFree,
  intToIPv4,
  ipv4ToInt,
  parsePortRange,
  parseServiceCIDR,
  pickFree,
} from '../../src/registry/ip-ranges'

describe('service CIDR', () => {
  it('10.96.0.0/12: network and broadcast excluded, a 256-address static band', () => {
    const r = parseServiceCIDR('10.96.0.0/12')!
    expect(intToIPv4(r.first)).toBe('10.96.0.1')
    expect(intToIPv4(r.last)).toBe('10.111.255.254')
    expect(r.staticBand).toBe(256)
    expect(r.text).toBe('10.96.0.0/12')
  })

  it('normalizes the printed CIDR, scales the static band, refuses what it cannot serve', () => {
    expect(parseServiceCIDR('10.96.7.9/12')!.text).toBe('10.96.0.0/12')
    expect(parseServiceCIDR('192.168.0.0/24')!.staticBand).toBe(16)
    expect(parseServiceCIDR('192.168.0.0/20')!.staticBand).toBe(256)
    expect(parseServiceCIDR('192.168.0.0/28')!.staticBand).toBe(0)
    for (const bad of ['fd00::/108', '10.0.0.0', '10.0.0.0/31', '300.0.0.0/8', 'x'])
      expect(parseServiceCIDR(bad)).toBeNull()
  })

  it('converts addresses', () => {
    expect(ipv4ToInt('255.255.255.255')).toBe(0xffffffff)
    expect(intToIPv4(ipv4ToInt('10.96.0.1')!)).toBe('10.96.0.1')
    expect(ipv4ToInt('1.2.3')).toBeNull()
    expect(ipv4ToInt('1.2.3.256')).toBeNull()
  })
})

describe('node-port range', () => {
  it('30000-32767 has an 86-port static band; "base+extra" is accepted', () => {
    expect(parsePortRange('30000-32767')).toEqual({ first: 30000, last: 32767, staticBand: 86, text: '30000-32767' })
    expect(parsePortRange('30000+99')).toMatchObject({ first: 30000, last: 30099, staticBand: 16 })
    for (const bad of ['0-10', '10-5', '1-70000', 'a-b']) expect(parsePortRange(bad)).toBeNull()
  })
})

describe('picking free values', () => {
  const taken = (values: number[]) => (a: number, b: number) =>
    values.filter((v) => v >= a && v <= b).sort((x, y) => x - y)

  it('firstFree scans from the start and wraps once', () => {
    expect(firstFree(1, 10, 5, taken([5, 6, 7]))).toBe(8)
    expect(firstFree(1, 10, 9, taken([9, 10, 1]))).toBe(2)
    expect(firstFree(1, 3, 2, taken([1, 2, 3]))).toBeNull()
  })

  it('prefers the dynamic band, falls back to the static band, then reports full', () => {
    const r = { first: 100, last: 131, staticBand: 16 }
    const rnd = () => 0.5
    const v = pickFree(r, taken([]), rnd)!
    expect(v).toBeGreaterThanOrEqual(116)
    const dynFull = Array.from({ length: 16 }, (_, i) => 116 + i)
    const s = pickFree(r, taken(dynFull), rnd)!
    expect(s).toBeGreaterThanOrEqual(100)
    expect(s).toBeLessThan(116)
    const all = Array.from({ length: 32 }, (_, i) => 100 + i)
    expect(pickFree(r, taken(all), rnd)).toBeNull()
  })
})
