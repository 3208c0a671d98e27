// A bridge pod's hostPorts, as the CNI portmap plugin maps them for kubelet: a connection to the node's port (any of
// its addresses, or the container port's hostIP) is DNATted to the pod's address and container port, in PREROUTING
// for traffic from elsewhere and in OUTPUT for the node's own (127.0.0.1 included: route_localnet on the bridge, see
// bridge-network.ts); one from the node's loopback or from a pod of the bridge (hairpin) is masqueraded, since the
// pod could not answer it otherwise. The rules carry a comment naming the pod, by which they are found and removed.
import type { Obj } from '../obj.ts'

export interface HostPort {
  protocol: 'tcp' | 'udp' | 'sctp'
  hostPort: number
  containerPort: number
  /** Only connections to this address of the node (unset: any of its addresses). */
  hostIP?: string
}

/**
 * The pod's mappings (kubelet's MakePortMappings over spec.containers, those with a hostPort): protocol TCP unless
 * given; a hostIP of 0.0.0.0 is any address; one of IPv6 is left out, as portmap leaves out a mapping of the other
 * family than the pod's address (the bridge network is IPv4).
 */
export function hostPorts(pod: Obj): HostPort[] {
  const out: HostPort[] = []
  for (const c of (pod.spec?.containers ?? []) as Obj[])
    for (const p of (c.ports ?? []) as Obj[]) {
      const hostPort = Number(p.hostPort ?? 0)
      if (!(hostPort > 0)) continue
      const hostIP = typeof p.hostIP === 'string' && p.hostIP !== '' && p.hostIP !== '0.0.0.0' ? p.hostIP : undefined
      if (hostIP?.includes(':')) continue
      const protocol = String(p.protocol ?? 'TCP').toLowerCase() as HostPort['protocol']
      out.push({ protocol, hostPort, containerPort: Number(p.containerPort), ...(hostIP ? { hostIP } : {}) })
    }
  return out
}

/** The nat rules of the mappings for a pod at `podIP` on the bridge network `cidr`, tagged with `comment`. */
export function hostPortRules(ports: HostPort[], podIP: string, cidr: string, comment: string): [string, string[]][] {
  const c = ['-m', 'comment', '--comment', comment]
  const rules: [string, string[]][] = []
  for (const p of ports) {
    const to = ['-p', p.protocol]
    const dest = p.hostIP ? ['-d', `${p.hostIP}/32`] : ['-m', 'addrtype', '--dst-type', 'LOCAL']
    const dnat = [...to, ...dest, '--dport', String(p.hostPort), ...c]
    const target = ['-j', 'DNAT', '--to-destination', `${podIP}:${p.containerPort}`]
    rules.push(['PREROUTING', [...dnat, ...target]], ['OUTPUT', [...dnat, ...target]])
    // After the DNAT: from the node's loopback (the pod cannot answer 127.0.0.1) or from the bridge (hairpin: the
    // pod's answer would go straight back, not through the node that rewrote the address).
    const dnatted = [
      '-d',
      `${podIP}/32`,
      ...to,
      '--dport',
      String(p.containerPort),
      '-m',
      'conntrack',
      '--ctstate',
      'DNAT',
    ]
    for (const from of ['127.0.0.1/32', cidr])
      rules.push(['POSTROUTING', ['-s', from, ...dnatted, ...c, '-j', 'MASQUERADE']])
  }
  return rules
}
