// The bridge pod network (--pod-network bridge), as the CNI bridge plugin with host-local IPAM builds it: a bridge
// holding the first address of the node's pod CIDR, and per pod a named network namespace (/var/run/netns/<name>)
// with a veth pair whose inner end (eth0) has the pod's address (ipam.ts) and a default route via the bridge;
// loopback up; traffic leaving the CIDR masqueraded, and forwarded to and from the bridge (iptables rules with a
// comment, added once). Names carry a hash of the node name, so agents of several nodes on one host stay apart.
// The bridge routes to the node's loopback (route_localnet), for the DNAT of the `kubernetes` Service to a loopback
// API server (api-service.ts) and of hostPorts dialled on 127.0.0.1 (host-ports.ts); packets from pods to a loopback
// address that no DNAT made are dropped, as kube-proxy drops them (CVE-2020-8558).
import { createHash } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ApiServiceRoute } from './api-service.ts'
import { type HostPort, hostPortRules } from './host-ports.ts'
import { commentedRules, deleteCommented, deleteRule, ensureRule, NetworkError, run, succeeds } from './ip-command.ts'
import { type Cidr, gatewayOf, Ipam, ipOf } from './ipam.ts'

/** A pod's network as its containers join it. */
export interface PodNet {
  /** The named netns (`ip netns`), and its path, which the shim and podman enter. */
  name: string
  path: string
  ip: string
}

const hash = (text: string, n: number) => createHash('sha256').update(text).digest('hex').slice(0, n)

export class BridgeNetwork {
  readonly bridge: string
  readonly cidrText: string
  private readonly cidr: Cidr
  private readonly ipam: Ipam
  private readonly prefix: string
  private readonly comment: string
  /** The `kubernetes` Service DNATted to a loopback API server, when the agent's server is one. */
  readonly apiService: ApiServiceRoute | null

  constructor(node: string, cidrText: string, cidr: Cidr, dataDir: string, apiService: ApiServiceRoute | null = null) {
    const tag = hash(node, 6)
    this.bridge = `kfbr-${tag}`
    this.prefix = `kf-${tag}-`
    this.cidrText = cidrText
    this.cidr = cidr
    this.comment = `kubeflare pod network of node ${node}`
    this.ipam = new Ipam(join(dataDir, 'network', 'ips'), cidr)
    this.apiService = apiService
  }

  /**
   * The bridge with the gateway address, up; IPv4 forwarding and route_localnet on; the masquerade, forward and guard
   * rules; the `kubernetes` Service's DNAT when the API server is on the loopback.
   */
  setUpHost() {
    if (!succeeds('ip', ['link', 'show', this.bridge])) run('ip', ['link', 'add', this.bridge, 'type', 'bridge'])
    run('ip', ['addr', 'replace', `${gatewayOf(this.cidr)}/${this.cidr.prefix}`, 'dev', this.bridge])
    run('ip', ['link', 'set', this.bridge, 'up'])
    writeFileSync('/proc/sys/net/ipv4/ip_forward', '1')
    writeFileSync(`/proc/sys/net/ipv4/conf/${this.bridge}/route_localnet`, '1')
    for (const [table, chain, rule, insert] of this.rules()) ensureRule(table, chain, rule, insert)
    this.ensureApiServiceRule()
  }

  /** Removes the bridge and every rule of this node's network, its pods' hostPorts included. */
  tearDownHost() {
    for (const [table, chain, rule] of this.rules()) deleteRule(table, chain, rule)
    const ours = (comment: string) => comment === this.comment || comment.startsWith(`${this.comment}: `)
    for (const table of ['nat', 'filter']) deleteCommented(table, ours)
    if (succeeds('ip', ['link', 'show', this.bridge])) run('ip', ['link', 'del', this.bridge])
  }

  private rules(): [string, string, string[], boolean][] {
    const c = ['-m', 'comment', '--comment', this.comment]
    const notDnatted = ['-m', 'conntrack', '!', '--ctstate', 'RELATED,ESTABLISHED,DNAT']
    return [
      ['nat', 'POSTROUTING', ['-s', this.cidrText, '!', '-d', this.cidrText, ...c, '-j', 'MASQUERADE'], false],
      // Before a FORWARD policy of DROP (docker's) or its own chains.
      ['filter', 'FORWARD', ['-i', this.bridge, ...c, '-j', 'ACCEPT'], true],
      ['filter', 'FORWARD', ['-o', this.bridge, ...c, '-j', 'ACCEPT'], true],
      // route_localnet's guard: only what a DNAT sent to the loopback (or its answers) gets there from a pod.
      ['filter', 'INPUT', ['-i', this.bridge, '-d', '127.0.0.0/8', ...notDnatted, ...c, '-j', 'DROP'], true],
    ]
  }

  /**
   * The `kubernetes` Service's DNAT to the loopback server, exactly it: one an earlier agent left for another server
   * port (or for a server no longer on the loopback) is replaced (or removed).
   */
  private ensureApiServiceRule() {
    const s = this.apiService
    const wanted = s && [
      ...['-i', this.bridge, '-d', `${s.clusterIP}/32`, '-p', 'tcp', '--dport', String(s.port)],
      ...['-m', 'comment', '--comment', this.comment, '-j', 'DNAT', '--to-destination', `127.0.0.1:${s.targetPort}`],
    ]
    const present = commentedRules('nat', (c) => c === this.comment).filter(([chain]) => chain === 'PREROUTING')
    if (wanted && present.length === 1 && succeeds('iptables', ['-w', '-t', 'nat', '-C', 'PREROUTING', ...wanted]))
      return
    for (const [chain, rule] of present) deleteRule('nat', chain, rule)
    if (wanted) run('iptables', ['-w', '-t', 'nat', '-A', 'PREROUTING', ...wanted])
  }

  private hostPortComment(uid: string) {
    return `${this.comment}: hostPorts of pod ${uid}`
  }

  /**
   * The pod's hostPort rules (host-ports.ts), exactly those: kept when they are there (an agent restarted), else the
   * pod's rules (of an earlier address) replaced.
   */
  ensureHostPorts(uid: string, ip: string, ports: HostPort[]) {
    const comment = this.hostPortComment(uid)
    const wanted = hostPortRules(ports, ip, this.cidrText, comment)
    const present = commentedRules('nat', (c) => c === comment).length
    if (
      present === wanted.length &&
      wanted.every(([chain, rule]) => succeeds('iptables', ['-w', '-t', 'nat', '-C', chain, ...rule]))
    )
      return
    deleteCommented('nat', (c) => c === comment)
    try {
      for (const [chain, rule] of wanted) run('iptables', ['-w', '-t', 'nat', '-A', chain, ...rule])
    } catch (e) {
      deleteCommented('nat', (c) => c === comment)
      throw e
    }
  }

  nsName(uid: string) {
    return `${this.prefix}${uid}`
  }

  private vethName(uid: string) {
    return `kfv${hash(uid, 12)}`
  }

  /** The pod's network, its address allocated (or the one it had); throws NetworkError when the range is full. */
  podNet(uid: string): PodNet {
    const ip = this.ipam.allocate(uid)
    if (!ip) {
      // host-local's wording, with the range it hands out (the network, gateway and broadcast addresses left out).
      const [first, last] = [ipOf(this.cidr.base + 2), ipOf(this.cidr.base + 2 ** (32 - this.cidr.prefix) - 2)]
      throw new NetworkError(`failed to allocate for range 0: no IP addresses available in range set: ${first}-${last}`)
    }
    const name = this.nsName(uid)
    return { name, path: `/var/run/netns/${name}`, ip }
  }

  /**
   * Creates the pod's netns and veth unless they are there with its address (an agent restarted: kept as they are),
   * and its hostPort rules (set up before its containers start, as kubelet's CNI call makes them with the sandbox).
   */
  ensure(uid: string, ports: HostPort[] = []): PodNet {
    const net = this.podNet(uid)
    if (!this.intact(net)) this.make(uid, net)
    this.ensureHostPorts(uid, net.ip, ports)
    return net
  }

  private intact(net: PodNet): boolean {
    try {
      return (
        existsSync(net.path) &&
        run('ip', ['-n', net.name, '-o', 'addr', 'show', 'dev', 'eth0']).includes(`inet ${net.ip}/`)
      )
    } catch {
      return false
    }
  }

  private make(uid: string, net: PodNet) {
    // Half made (an agent killed while making it): made again.
    this.remove(uid, false)
    const veth = this.vethName(uid)
    run('ip', ['netns', 'add', net.name])
    try {
      run('ip', ['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', net.name])
      run('ip', ['link', 'set', veth, 'master', this.bridge, 'up'])
      // Hairpin (the bridge plugin's hairpinMode, as kubelet asks): a pod dialling its own hostPort is DNATted back to
      // itself, and with br_netfilter that packet is bridged out of the port it came in by.
      run('ip', ['link', 'set', veth, 'type', 'bridge_slave', 'hairpin', 'on'])
      run('ip', ['-n', net.name, 'addr', 'add', `${net.ip}/${this.cidr.prefix}`, 'dev', 'eth0'])
      run('ip', ['-n', net.name, 'link', 'set', 'eth0', 'up'])
      run('ip', ['-n', net.name, 'link', 'set', 'lo', 'up'])
      run('ip', ['-n', net.name, 'route', 'add', 'default', 'via', gatewayOf(this.cidr)])
    } catch (e) {
      this.remove(uid, false)
      throw e
    }
  }

  /** Removes the pod's netns, veth and hostPort rules; with `release`, frees its address too. */
  remove(uid: string, release = true) {
    deleteCommented('nat', (c) => c === this.hostPortComment(uid))
    const name = this.nsName(uid)
    if (existsSync(`/var/run/netns/${name}`)) run('ip', ['netns', 'del', name])
    // The host end goes with its peer; one left unpaired (a netns deleted by hand) is removed.
    const veth = this.vethName(uid)
    if (succeeds('ip', ['link', 'show', veth])) run('ip', ['link', 'del', veth])
    if (release) this.ipam.release(uid)
  }

  /** Removes the netns, addresses and hostPort rules of pods `keep` does not name (deleted while no agent ran). */
  reapLeftovers(keep: (uid: string) => boolean, log: (msg: string) => void) {
    const uids = new Set(this.ipam.allocations().values())
    let names = ''
    try {
      names = run('ip', ['netns', 'list'])
    } catch (e) {
      // Called from a promise chain: a failure is logged, never an unhandled rejection that ends the agent.
      log(`listing network namespaces: ${(e as Error).message}`)
    }
    for (const line of names.split('\n')) {
      const name = line.split(' ')[0] ?? ''
      if (name.startsWith(this.prefix)) uids.add(name.slice(this.prefix.length))
    }
    const tag = this.hostPortComment('')
    try {
      for (const [, rule] of commentedRules('nat', (c) => c.startsWith(tag)))
        uids.add(rule[rule.indexOf('--comment') + 1]!.slice(tag.length))
    } catch (e) {
      log(`listing hostPort rules: ${(e as Error).message}`)
    }
    for (const uid of uids) {
      if (keep(uid)) continue
      try {
        this.remove(uid)
        log(`removed the network of pod ${uid}, which this node no longer has`)
      } catch (e) {
        log(`removing the network of pod ${uid}: ${(e as Error).message}`)
      }
    }
  }
}
