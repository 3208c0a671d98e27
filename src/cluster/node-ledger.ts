// The cluster DO's ledger of pods on nodes: where each pod is bound, what it reserves there (cpu, memory, other
// resources as JSON, and the NonZeroRequested scoring counts), its pod IP, host ports, labels and anti-affinity terms,
// and whether its kubelet admitted it (a binding made elsewhere waits for the simulated kubelet's admission, as kubelet
// counts only its active pods). SQLite holds the rows; what the scheduler asks of every pod (per-node sums in
// node-sums.ts, used IPs in node-pod-ips.ts, host ports in node-host-ports.ts, the affinity index) is also kept in
// memory, loaded on first use and updated with each write.
import type { HostPort } from '../registry/host-ports'
import { addOther, type CpuAndMemory } from '../registry/pod-requests'
import { AffinityIndex } from './affinity-index'
import { openLedgerTables } from './node-ledger-schema'
import { NodeHostPorts } from './node-host-ports'
import { NON_ZERO_CPU, NON_ZERO_MEM, NodeSums, type NodeUsage, type Usage } from './node-sums'
import { NodePodIPs } from './node-pod-ips'
import type { ReservedPod } from './cluster-api'

type Row = Record<string, SqlStorageValue>

export interface Binding {
  podKey: string
  ns: string
  node: string
  cpuMilli: number
  memBytes: number
  /** ephemeral-storage and scalar resources the pod reserves (pod-requests.ts), absent when none. */
  other?: Record<string, number>
  /** cpu and memory as the scheduler's score counts them (registry/scheduling.ts podNonZeroRequests). */
  nonZero: CpuAndMemory
  podIP: string | null
}

/** What a bind records besides the binding: the pod's labels and pod (anti-)affinity terms (affinity-index.ts). */
type BindRequest = Omit<Binding, 'podIP'> & {
  labels?: Record<string, string>
  /** The pod's spec.affinity podAffinity and podAntiAffinity (absent: it has none). */
  podAffinity?: Record<string, unknown>
}

/** What toBinding reads of a row. */
const BINDING_COLUMNS = `pod_key, ns, node, cpu_milli, mem_bytes, other_requests, pod_ip, ${NON_ZERO_CPU} AS nz_cpu, ${NON_ZERO_MEM} AS nz_mem`

export class NodeLedger {
  /** Per-node sums, loaded on first use; this object is the table's only writer, so they stay exact. */
  private readonly sums: NodeSums
  /** The pod IPs in use on each node. */
  private readonly ips: NodePodIPs
  /** The host ports the pods on each node hold. */
  private readonly ports: NodeHostPorts

  /** The bound pods' labels and anti-affinity terms, for the InterPodAffinity filter. */
  readonly affinity: AffinityIndex

  constructor(private readonly sql: SqlStorage) {
    openLedgerTables(sql)
    this.sums = new NodeSums(sql)
    this.affinity = new AffinityIndex(sql)
    this.ips = new NodePodIPs(sql)
    this.ports = new NodeHostPorts(sql)
  }

  binding(podKey: string): Binding | null {
    const r = this.sql.exec<Row>(`SELECT ${BINDING_COLUMNS} FROM pod_bindings WHERE pod_key = ?`, podKey).toArray()[0]
    return r ? toBinding(r) : null
  }

  /**
   * Records a binding; with `podCIDR`, the pod gets the lowest free address of it in the same statement (the
   * scheduler placing a pod on a virtual node). Answers the binding as recorded.
   */
  bind(b: BindRequest, podCIDR?: string, hostPorts: HostPort[] = []): Binding {
    const podIP = podCIDR === undefined ? null : this.ips.free(b.node, podCIDR)
    const written = this.sql.exec(
      `INSERT INTO pod_bindings
       (pod_key, ns, node, cpu_milli, mem_bytes, pod_ip, host_ports, other_requests, labels, pod_affinity,
        nonzero_cpu_milli, nonzero_mem_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pod_key) DO NOTHING`,
      b.podKey,
      b.ns,
      b.node,
      b.cpuMilli,
      b.memBytes,
      podIP,
      hostPorts.length > 0 ? JSON.stringify(hostPorts) : null,
      b.other ? JSON.stringify(b.other) : null,
      b.labels && Object.keys(b.labels).length > 0 ? JSON.stringify(b.labels) : null,
      b.podAffinity ? JSON.stringify(b.podAffinity) : null,
      b.nonZero.cpuMilli,
      b.nonZero.memBytes,
    ).rowsWritten
    if (written === 0) return this.binding(b.podKey) ?? { ...binding(b), podIP: null }
    this.sums.count(b.node, b, 1)
    this.affinity.bound(b.podKey, { ns: b.ns, node: b.node, labels: b.labels ?? {} }, b.podAffinity)
    if (podIP) this.ips.taken(b.node, podIP)
    this.ports.bound(b.node, b.podKey, hostPorts)
    return { ...binding(b), podIP }
  }

  /**
   * A bound pod's labels changed, or a pod bound before the ledger kept them is described (with its pod affinity): the
   * InterPodAffinity filter matches its new ones. Answers whether it is bound.
   */
  describe(podKey: string, labels: Record<string, string>, podAffinity?: Record<string, unknown>): boolean {
    const json = Object.keys(labels).length > 0 ? JSON.stringify(labels) : null
    const written =
      podAffinity === undefined
        ? this.sql.exec('UPDATE pod_bindings SET labels = ? WHERE pod_key = ?', json, podKey).rowsWritten
        : this.sql.exec(
            'UPDATE pod_bindings SET labels = ?, pod_affinity = ? WHERE pod_key = ?',
            json,
            Object.keys(podAffinity).length > 0 ? JSON.stringify(podAffinity) : null,
            podKey,
          ).rowsWritten
    if (written === 0) return false
    this.affinity.described(podKey, labels, podAffinity)
    return true
  }

  /** A bound pod got its deletionTimestamp. Answers whether that is news (it is bound and was not marked). */
  terminating(podKey: string): boolean {
    const written = this.sql.exec(
      'UPDATE pod_bindings SET terminating = 1 WHERE pod_key = ? AND terminating = 0',
      podKey,
    ).rowsWritten
    if (written === 0) return false
    this.affinity.terminating(podKey)
    return true
  }

  /** The host ports the pods bound to a node hold. */
  usedPorts(node: string): HostPort[] {
    return this.ports.on(node)
  }

  /**
   * Records where a pod is bound (the pod's own spec.nodeName, whoever bound it). A reservation the scheduler made
   * for it on another node (a client's binding won the race against the scheduler's) moves to the bound node, its
   * address (from the other node's pod CIDR) given up. Answers whether a reservation left another node.
   */
  assume(b: BindRequest, hostPorts: HostPort[] = []): boolean {
    const had = this.binding(b.podKey)
    if (had?.node === b.node) return false
    if (had) this.release(b.podKey)
    this.bind(b, undefined, hostPorts)
    this.sql.exec('UPDATE pod_bindings SET admitted = 0 WHERE pod_key = ?', b.podKey)
    return had !== null
  }

  /** Whether the pod's kubelet admitted it (the scheduler's placements are; a binding made elsewhere waits). */
  admitted(podKey: string): boolean {
    const r = this.sql.exec<{ admitted: number }>('SELECT admitted FROM pod_bindings WHERE pod_key = ?', podKey)
    return r.toArray()[0]?.admitted === 1
  }

  /** The pod's kubelet admitted it: from now on it counts for the admission of the pods bound after it. */
  admit(podKey: string) {
    this.sql.exec('UPDATE pod_bindings SET admitted = 1 WHERE pod_key = ?', podKey)
  }

  /**
   * What the admitted pods on a node hold (the kubelet's active pods: a pod bound elsewhere and not admitted yet, or
   * rejected and not released yet, does not count), and their host ports; one indexed read of the node's rows.
   */
  admittedOn(node: string): { used: Usage; ports: HostPort[] } {
    const used: Usage = { cpuMilli: 0, memBytes: 0, pods: 0 }
    const ports: HostPort[] = []
    for (const r of this.sql
      .exec<{ cpu_milli: number; mem_bytes: number; host_ports: string | null; other_requests: string | null }>(
        'SELECT cpu_milli, mem_bytes, host_ports, other_requests FROM pod_bindings WHERE node = ? AND admitted = 1',
        node,
      )
      .toArray()) {
      used.cpuMilli += Number(r.cpu_milli)
      used.memBytes += Number(r.mem_bytes)
      used.pods += 1
      if (r.other_requests) addOther(used, JSON.parse(r.other_requests) as Record<string, number>, 1)
      if (r.host_ports) ports.push(...(JSON.parse(r.host_ports) as HostPort[]))
    }
    return { used, ports }
  }

  /**
   * Frees a pod's reservation and address. A pod that `ended` (Succeeded/Failed) is still on its node until deleted:
   * it is remembered there without counting (namespacesOn), and forgotten by the release of its deletion.
   */
  release(podKey: string, ended = false): Binding | null {
    if (!ended) this.sql.exec('DELETE FROM ended_pods WHERE pod_key = ?', podKey)
    const b = this.binding(podKey)
    if (!b) return null
    this.sql.exec('DELETE FROM pod_bindings WHERE pod_key = ?', podKey)
    if (ended)
      this.sql.exec(
        'INSERT INTO ended_pods (pod_key, ns, node) VALUES (?, ?, ?) ON CONFLICT (pod_key) DO NOTHING',
        podKey,
        b.ns,
        b.node,
      )
    this.sums.count(b.node, b, -1)
    if (b.podIP) this.ips.released(b.node, b.podIP)
    this.ports.released(b.node, podKey)
    this.affinity.released(podKey)
    return b
  }

  /** Resources reserved on each node, and pod counts (nodes without pods are absent). */
  usage(): ReadonlyMap<string, Readonly<NodeUsage>> {
    return this.sums.usage()
  }

  /** Gives the pod the lowest free address of its node's /24 pod CIDR (skipping .0 and the .1 gateway). */
  allocateIP(podKey: string, podCIDR: string, known?: Binding): string | null {
    const b = known ?? this.binding(podKey)
    if (!b) return null
    if (b.podIP) return b.podIP
    const ip = this.ips.free(b.node, podCIDR)
    if (!ip) return null
    this.sql.exec('UPDATE pod_bindings SET pod_ip = ? WHERE pod_key = ?', ip, podKey)
    this.ips.taken(b.node, ip)
    return ip
  }

  /** The namespaces with pods on a node, counted or ended (the node lifecycle controller evicts them all). */
  namespacesOn(node: string): string[] {
    return this.sql
      .exec<{ ns: string }>(
        'SELECT ns FROM pod_bindings WHERE node = ? UNION SELECT ns FROM ended_pods WHERE node = ?',
        node,
        node,
      )
      .toArray()
      .map((r) => r.ns)
  }

  /**
   * The pods of one namespace that hold a reservation (the namespace checks them against its pods), whether the
   * ledger knows their labels (rows from before it kept them do not) and whether it knows them to be terminating.
   */
  podKeysIn(ns: string): ReservedPod[] {
    return this.sql
      .exec<{ pod_key: string; labels: string | null; terminating: number }>(
        'SELECT pod_key, labels, terminating FROM pod_bindings WHERE ns = ?',
        ns,
      )
      .toArray()
      .map((r) => ({ key: r.pod_key, described: r.labels !== '?', terminating: r.terminating === 1 }))
  }

  all(): Binding[] {
    return this.sql.exec<Row>(`SELECT ${BINDING_COLUMNS} FROM pod_bindings`).toArray().map(toBinding)
  }
}

function toBinding(r: Row): Binding {
  return {
    podKey: r.pod_key as string,
    ns: r.ns as string,
    node: r.node as string,
    cpuMilli: Number(r.cpu_milli),
    memBytes: Number(r.mem_bytes),
    ...(r.other_requests ? { other: JSON.parse(r.other_requests as string) as Record<string, number> } : {}),
    nonZero: { cpuMilli: Number(r.nz_cpu), memBytes: Number(r.nz_mem) },
    podIP: (r.pod_ip as string | null) ?? null,
  }
}

/** The binding part of a bind's request. */
function binding({ labels: _labels, podAffinity: _affinity, ...b }: BindRequest): Omit<Binding, 'podIP'> {
  return b
}
