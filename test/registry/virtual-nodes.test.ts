// Virtual nodes as VIRTUAL_NODES describes them: the default count, the limit, and addresses that stay distinct and
// valid past the 256th node (pod CIDRs continue in 10.245.0.0/16, node addresses in 10.0.1.0).
import { describe, expect, it } from 'vitest'
import { MAX_VIRTUAL_NODES, parseVirtualNodes, virtualNode } from '../../src/registry/virtual-nodes'

type Obj = Record<string, any>
const addressOf = (n: Obj) => (n.status.addresses as Obj[]).find((a) => a.type === 'InternalIP')!.address as string
const octets = (ip: string) => ip.split('.').map(Number)

describe('VIRTUAL_NODES', () => {
  it('is ten nodes when unset, a count, or a list; more than MAX_VIRTUAL_NODES is refused', () => {
    expect(parseVirtualNodes(undefined).map((c) => c.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `node-${i + 1}`),
    )
    expect(parseVirtualNodes('3').map((c) => c.name)).toEqual(['node-1', 'node-2', 'node-3'])
    expect(parseVirtualNodes('[{"name":"edge"}]')).toEqual([{ name: 'edge' }])
    expect(parseVirtualNodes(String(MAX_VIRTUAL_NODES))).toHaveLength(3072)
    expect(() => parseVirtualNodes(String(MAX_VIRTUAL_NODES + 1))).toThrow(
      'VIRTUAL_NODES may be at most 3072, not 3073',
    )
  })

  it('keeps the first nodes where they were and gives every node of the largest count its own valid addresses', () => {
    const at = (i: number) => virtualNode({ name: `node-${i + 1}` }, i, new Date(0)) as Obj
    expect(at(0).spec.podCIDR).toBe('10.244.0.0/24')
    expect(addressOf(at(0))).toBe('10.0.0.10')
    expect(at(2).spec.podCIDRs).toEqual(['10.244.2.0/24'])
    expect(at(255).spec.podCIDR).toBe('10.244.255.0/24')
    expect(at(256).spec.podCIDR).toBe('10.245.0.0/24')
    expect(addressOf(at(245))).toBe('10.0.0.255')
    expect(addressOf(at(246))).toBe('10.0.1.0')
    const cidrs = new Set<string>()
    const ips = new Set<string>()
    for (let i = 0; i < MAX_VIRTUAL_NODES; i++) {
      const n = at(i)
      cidrs.add(n.spec.podCIDR)
      ips.add(addressOf(n))
      for (const o of [...octets(n.spec.podCIDR.replace('/24', '')), ...octets(addressOf(n))])
        expect(o >= 0 && o <= 255, `${n.spec.podCIDR} ${addressOf(n)}`).toBe(true)
    }
    expect(cidrs.size).toBe(MAX_VIRTUAL_NODES)
    expect(ips.size).toBe(MAX_VIRTUAL_NODES)
    expect(at(MAX_VIRTUAL_NODES - 1).spec.podCIDR).toBe('10.255.255.0/24')
  })
})
