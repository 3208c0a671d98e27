// The cluster side of scheduling: picks nodes for pods against the node ledger (with the bound pods' labels and
// affinity for the filters and scores that look at other pods), hands out pod IPs from node pod CIDRs, and wakes
// namespaces whose pods wait: for room when nodes or capacity change, for other pods when pods are bound or relabelled.
import type { AdmitRequest, NodeFacts, Placement, PodAdmission, ScheduleRequest } from './cluster-api'
import type { ObjectStore } from '../host/object-store'
import { namespaceApi } from '../namespace/namespace-api'
import { type Binding, NodeLedger } from './node-ledger'
import type { NodeUsage } from './node-sums'
import { WaitingNamespaces } from './waiting-namespaces'
import { podHostPorts, portsConflict } from '../registry/host-ports'
import { AFFINITY_RULES, ANTI_AFFINITY_RULES, EXISTING_ANTI_AFFINITY_RULES } from '../registry/pod-affinity'
import { SPREAD_CONSTRAINTS } from '../registry/topology-spread'
import { otherPodPlugins } from './other-pod-plugins'
import { bindingFacts } from './binding-facts'
import { filterRejection, type Rejection, untoleratedNoExecute } from '../registry/kubelet-admission'
import { matchesAffinity, tolerates } from '../registry/node-match'
import { addOther, missingExtended, otherShortages } from '../registry/pod-requests'
import {
  nodeAllocatable,
  podNonZeroRequests,
  podRequests,
  schedule,
  type NodeCandidate,
  type PodNeeds,
} from '../registry/scheduling'
import { VIRTUAL_NODE_ANNOTATION } from '../registry/virtual-nodes'
import type { KubeObject } from '../schema/meta'

type Obj = Record<string, any>
type StaticCandidate = Omit<NodeCandidate, 'used'>

const NO_USAGE: NodeUsage = { cpuMilli: 0, memBytes: 0, pods: 0, nonZero: { cpuMilli: 0, memBytes: 0 } }

export class Scheduling {
  readonly ledger: NodeLedger
  private readonly waiting: WaitingNamespaces

  constructor(
    sql: SqlStorage,
    private readonly local: ObjectStore,
    private readonly env: Env,
  ) {
    this.ledger = new NodeLedger(sql)
    this.waiting = new WaitingNamespaces(sql)
  }

  /** The nodes as the scheduler sees them, read again only when this object's state moved (nodes change here). */
  private nodes: {
    rv: number
    list: StaticCandidate[]
    byName: Map<string, StaticCandidate>
    facts: Map<string, NodeFacts>
  } | null = null

  private nodeView() {
    const rv = this.local.currentRv
    if (this.nodes?.rv === rv) return this.nodes
    const list: StaticCandidate[] = []
    const byName = new Map<string, StaticCandidate>()
    const facts = new Map<string, NodeFacts>()
    for (const { object } of this.local.all('nodes')) {
      const node = object as KubeObject & { spec?: Obj; status?: Obj }
      const name = node.metadata.name!
      const ready = ((node.status?.conditions ?? []) as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True')
      const candidate: StaticCandidate = {
        name,
        labels: (node.metadata.labels ?? {}) as Record<string, string>,
        taints: (node.spec?.taints ?? []) as NodeCandidate['taints'],
        unschedulable: node.spec?.unschedulable === true,
        ready,
        allocatable: nodeAllocatable(node.status),
      }
      list.push(candidate)
      byName.set(name, candidate)
      facts.set(name, {
        name,
        virtual: node.metadata.annotations?.[VIRTUAL_NODE_ANNOTATION] === 'true',
        hostIP: ((node.status?.addresses ?? []) as Obj[]).find((a) => a.type === 'InternalIP')?.address ?? '',
        podCIDR: node.spec?.podCIDR ?? '',
        ready,
        ...(node.status?.features ? { features: node.status.features } : {}),
      })
    }
    this.nodes = { rv, list, byName, facts }
    return this.nodes
  }

  private candidates(): NodeCandidate[] {
    const usage = this.ledger.usage()
    return this.nodeView().list.map((n) => {
      const used = usage.get(n.name) ?? NO_USAGE
      return {
        ...n,
        used: { ...used, nonZero: { ...used.nonZero }, ...(used.other ? { other: { ...used.other } } : {}) },
        usedPorts: this.ledger.usedPorts(n.name),
      }
    })
  }

  /**
   * Picks a node and reserves the pod's requests there; asking again for a bound pod answers the same node. `pool`
   * is the node candidates of a batch (schedulePods), whose usage each placement here advances.
   */
  schedulePod(req: ScheduleRequest, pool?: NodeCandidate[]): Placement {
    const existing = this.ledger.binding(req.podKey)
    if (existing) return this.placed(existing)
    const needs: PodNeeds = {
      nodeName: req.spec.nodeName,
      nodeSelector: req.spec.nodeSelector,
      affinity: req.spec.affinity,
      tolerations: req.spec.tolerations,
      requests: podRequests(req.spec),
      nonZeroRequests: podNonZeroRequests(req.spec),
      hostPorts: podHostPorts(req.spec),
      ...otherPodPlugins(req, {
        nodes: this.nodeView().list,
        nodeLabels: (node) => this.nodeView().byName.get(node)?.labels,
        placed: this.ledger.affinity,
        local: this.local,
      }),
    }
    const candidates = pool ?? this.candidates()
    const result = schedule(needs, candidates)
    if (!result.ok) {
      this.waiting.add(req.ns, refusedByPods(result.message))
      return result
    }
    // A virtual node's pod gets its address in the same write (its simulated kubelet will need it).
    const facts = this.nodeFacts(result.node)
    const binding = this.ledger.bind(
      { node: result.node, ...bindingFacts(req, needs.requests, needs.nonZeroRequests) },
      facts?.virtual ? facts.podCIDR : undefined,
      needs.hostPorts,
    )
    if (pool && binding.node === result.node) {
      // The ledger's sums moved with this binding; the batch's copy of them moves alike.
      const node = pool.find((n) => n.name === result.node)!
      node.used.cpuMilli += needs.requests.cpuMilli
      node.used.memBytes += needs.requests.memBytes
      node.used.pods += 1
      node.used.nonZero!.cpuMilli += needs.nonZeroRequests.cpuMilli
      node.used.nonZero!.memBytes += needs.nonZeroRequests.memBytes
      addOther(node.used, needs.requests.other)
      if (needs.hostPorts?.length) node.usedPorts = [...(node.usedPorts ?? []), ...needs.hostPorts]
    }
    this.wake(this.waiting.takeForPods())
    return this.placed(binding)
  }

  /**
   * schedulePod for several pods in order (a commit's new pods, a namespace retrying its waiting pods): the node
   * candidates are built once for the batch instead of once per pod.
   */
  schedulePods(reqs: readonly ScheduleRequest[]): Placement[] {
    let pool: NodeCandidate[] | undefined
    return reqs.map((req) => this.schedulePod(req, (pool ??= this.candidates())))
  }

  /**
   * A bound pod's labels changed (or, with `podAffinity`, a pod bound before the ledger kept them is described): the
   * ledger matches the new ones, and pods refused by pod affinity, anti-affinity or spread are tried again, as kube
   * requeues them on a pod update.
   */
  describePod(podKey: string, labels: Record<string, string>, podAffinity?: Record<string, unknown>) {
    if (this.ledger.describe(podKey, labels, podAffinity)) this.wake(this.waiting.takeForPods())
  }

  /** A bound pod is terminating: pods refused by topology spread may fit now (kube requeues on the pod update). */
  podTerminating(podKey: string) {
    if (this.ledger.terminating(podKey)) this.wake(this.waiting.takeForPods())
  }

  /** A placement, with the pod's address when a simulated kubelet will start it (a real node's agent reports its own). */
  private placed(binding: Binding): Placement {
    const node = binding.node
    const facts = this.nodeFacts(node)
    if (!facts?.virtual) return { ok: true, node }
    const podIP = this.ledger.allocateIP(binding.podKey, facts.podCIDR, binding)
    return podIP ? { ok: true, node, addresses: { podIP, hostIP: facts.hostIP } } : { ok: true, node }
  }

  /**
   * Records a binding made elsewhere (spec.nodeName set by the client, or POST pods/binding), also over a reservation
   * the scheduler made for the same pod meanwhile on another node: the pod is where its spec says, and the room it
   * held elsewhere is free again.
   */
  assumePod(req: ScheduleRequest, node: string) {
    const b = { node, ...bindingFacts(req, podRequests(req.spec), podNonZeroRequests(req.spec)) }
    const before = this.ledger.binding(req.podKey)?.node
    if (this.ledger.assume(b, podHostPorts(req.spec))) this.wakeWaiting()
    else if (before !== node) this.wake(this.waiting.takeForPods())
  }

  /**
   * The simulated kubelet's admission of pods it is about to start, in order (so of two pods asking for one host port
   * the first is admitted), and their addresses. A pod placed by the scheduler is admitted already (it fit when placed);
   * a pod bound elsewhere is recorded here if its assumePod has not come yet, and judged by the kubelet's generalFilter
   * against the pods admitted on its node before it. A rejected pod keeps its reservation until its Failed status
   * releases it, as any Failed pod's (the scheduler side's releasePod); meanwhile it counts for no admission.
   */
  admitPods(reqs: readonly AdmitRequest[]): PodAdmission[] {
    return reqs.map((req) => this.admitPod(req))
  }

  private admitPod(req: AdmitRequest): PodAdmission {
    let b = this.ledger.binding(req.podKey)
    if (b?.node !== req.node) {
      this.assumePod(req, req.node)
      b = this.ledger.binding(req.podKey)
    }
    if (!b) return null
    if (!this.ledger.admitted(req.podKey)) {
      const rejected = this.kubeletFilter(req)
      if (rejected) return { rejected }
      this.ledger.admit(req.podKey)
    }
    const facts = this.nodeFacts(b.node)
    if (!facts) return null
    const ip = this.ledger.allocateIP(req.podKey, facts.podCIDR, b)
    return ip ? { addresses: { podIP: ip, hostIP: facts.hostIP } } : null
  }

  /** kubelet's generalFilter for a pod bound to `req.node`, against the pods admitted there (NodeInfo of active pods). */
  private kubeletFilter(req: AdmitRequest): Rejection | null {
    const node = this.nodeView().byName.get(req.node)
    if (!node) return { reason: 'InvalidNodeInfo', message: 'Kubelet cannot get node info.' }
    const { used, ports } = this.ledger.admittedOn(req.node)
    const wanted = podHostPorts(req.spec)
    const tolerations = (req.spec.tolerations ?? []) as Record<string, any>[]
    const requests = podRequests(req.spec)
    return filterRejection({
      requests,
      allocatable: node.allocatable,
      used,
      otherShortages: otherShortages(requests, node.allocatable, used, missingExtended(node.allocatable)),
      affinityMatches: matchesAffinity(req.spec, node),
      nameMatches: true,
      portsFree: wanted.length === 0 || !portsConflict(wanted, ports),
      untoleratedNoExecute: untoleratedNoExecute(node.taints, (t) => tolerates(tolerations, t)),
    })
  }

  /** Frees a pod's reservation and IP (`ended`: it is Succeeded/Failed, not gone); waiting namespaces try again. */
  releasePod(podKey: string, ended = false): boolean {
    const released = this.ledger.release(podKey, ended) !== null
    if (released) this.wakeWaiting()
    return released
  }

  nodeFacts(name: string): NodeFacts | null {
    return this.nodeView().facts.get(name) ?? null
  }

  /** Asks every namespace with unschedulable pods to try again (after node changes or freed capacity). */
  wakeWaiting() {
    this.wake(this.waiting.takeAll())
  }

  private wake(namespaces: string[]) {
    for (const ns of namespaces) {
      namespaceApi(this.env, ns)
        .retryScheduling()
        .catch((e: unknown) => console.error(`waking namespace ${ns} for scheduling failed`, e))
    }
  }
}

/** Whether a FailedScheduling message names a refusal another pod's binding or labels could lift. */
const refusedByPods = (message: string) =>
  [SPREAD_CONSTRAINTS, AFFINITY_RULES, ANTI_AFFINITY_RULES, EXISTING_ANTI_AFFINITY_RULES].some((r) =>
    message.includes(r),
  )
