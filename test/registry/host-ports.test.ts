// The host ports kube's NodePorts filter reads from a pod, and CheckConflict's rule: same protocol and port, on the
// same address or where either side binds every address (an empty hostIP or protocol takes kube's defaults).
import { describe, expect, it } from 'vitest'
import { podHostPorts, portsConflict } from '../../src/registry/host-ports'

describe('host ports', () => {
  it('reads regular containers’ ports that ask for a host port, with kube’s defaults', () => {
    const spec = {
      initContainers: [{ name: 'i', ports: [{ containerPort: 1, hostPort: 1 }] }],
      containers: [
        { name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }] },
        { name: 'b', ports: [{ containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }] },
        { name: 'c' },
      ],
    }
    expect(podHostPorts(spec)).toEqual([
      { ip: '0.0.0.0', protocol: 'TCP', port: 8080 },
      { ip: '10.0.0.1', protocol: 'UDP', port: 53 },
    ])
    expect(podHostPorts(undefined)).toEqual([])
  })

  it('conflicts on the same protocol and port, on one address or where either binds all', () => {
    const p = (ip: string, port = 80, protocol = 'TCP') => ({ ip, protocol, port })
    expect(portsConflict([p('0.0.0.0')], [p('10.0.0.1')])).toBe(true)
    expect(portsConflict([p('10.0.0.1')], [p('0.0.0.0')])).toBe(true)
    expect(portsConflict([p('10.0.0.1')], [p('10.0.0.1')])).toBe(true)
    expect(portsConflict([p('10.0.0.1')], [p('10.0.0.2')])).toBe(false)
    expect(portsConflict([p('0.0.0.0', 80, 'UDP')], [p('0.0.0.0')])).toBe(false)
    expect(portsConflict([p('0.0.0.0', 81)], [p('0.0.0.0')])).toBe(false)
    expect(portsConflict([], [p('0.0.0.0')])).toBe(false)
  })
})
