// kube's node lifecycle controller for real nodes (those a node agent serves; virtual nodes are the control plane's own
// and never go stale): a node whose agent has not heartbeated (its Ready condition's lastHeartbeatTime or its Lease's
// renewTime in kube-node-lease) for the grace period (kube's --node-monitor-grace-period, 40 s here; the
// NODE_MONITOR_GRACE_SECONDS setting) gets every condition Unknown (NodeStatusUnknown, "Kubelet stopped posting node
// status.") and the node.kubernetes.io/unreachable taints (NoSchedule, and NoExecute with timeAdded); the namespaces
// with pods on it evict them as the taint manager does (src/namespace/node-eviction.ts). A node that reports Ready
// again loses the taints. It wakes when a node's grace runs out, never on a timer of its own.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import { VIRTUAL_NODE_ANNOTATION } from '../registry/virtual-nodes'
import type { KubeObject } from '../schema/meta'

type Obj = Record<string, any>

export const UNREACHABLE = 'node.kubernetes.io/unreachable'
const MANAGER = 'node-controller'
const CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']

interface NodeLifecycleDeps {
  graceMs: number
  /** The renewTime of a node's Lease (ms since epoch), or null. */
  leaseRenewed(node: string): Promise<number | null>
  /** Namespaces with pods bound to a node. */
  namespacesOn(node: string): string[]
  /** Asks a namespace to evict its pods from a node tainted at `taintedAt`; answers when to ask again (or null). */
  evict(ns: string, node: string, taintedAt: number): Promise<number | null>
}

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const ready = (n: Obj) => ((n.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')
const unreachableTaint = (n: Obj) =>
  ((n.spec?.taints ?? []) as Obj[]).find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute')

export class NodeLifecycleController implements Controller {
  readonly name = 'node-lifecycle'
  private readonly deps: NodeLifecycleDeps

  constructor(deps: NodeLifecycleDeps) {
    this.deps = deps
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const names = new Set(entries.filter((e) => e.resource === 'nodes' && e.type !== 'DELETED').map((e) => e.name))
    await this.pass(host, Date.now(), [...names])
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    await this.pass(
      host,
      now,
      host.all('nodes').map((n) => n.object.metadata.name!),
    )
  }

  private async pass(host: ControllerHost, now: number, names: string[]) {
    const dues: number[] = []
    for (const name of names) {
      const due = await this.check(host, name, now)
      if (due !== null) dues.push(due)
    }
    if (dues.length) await host.wakeAt(Math.min(...dues))
  }

  /** Judges one node; answers when it needs looking at again. */
  private async check(host: ControllerHost, name: string, now: number): Promise<number | null> {
    const node = host.get('nodes', name)?.object as (KubeObject & Obj) | undefined
    if (!node || node.metadata.annotations?.[VIRTUAL_NODE_ANNOTATION] === 'true') return null
    const condition = ready(node)
    const tainted = unreachableTaint(node)
    if (condition?.status !== 'Unknown') {
      if (tainted) await this.untaint(host, name)
      let seen = Date.parse(condition?.lastHeartbeatTime ?? node.metadata.creationTimestamp ?? '') || now
      if (now - seen > this.deps.graceMs) seen = Math.max(seen, (await this.deps.leaseRenewed(name)) ?? 0)
      if (now - seen <= this.deps.graceMs) return seen + this.deps.graceMs + 1000
      await this.markUnknown(host, name, now)
      return this.evictAll(name, now)
    }
    // Unknown: the agent is back once its Lease moves past the moment the node was marked.
    const renewed = await this.deps.leaseRenewed(name)
    if (
      renewed !== null &&
      renewed > Date.parse(condition.lastTransitionTime ?? '') &&
      now - renewed <= this.deps.graceMs
    ) {
      // The kubelet posts Ready itself when its status changed; until then the Lease alone says it lives.
      return now + this.deps.graceMs
    }
    const taintedAt = tainted ? Date.parse(tainted.timeAdded ?? '') || now : now
    if (!tainted) await this.taint(host, name, now)
    return this.evictAll(name, taintedAt)
  }

  private async evictAll(node: string, taintedAt: number): Promise<number | null> {
    const next = await Promise.all(
      this.deps.namespacesOn(node).map((ns) => this.deps.evict(ns, node, taintedAt).catch(() => Date.now() + 5000)),
    )
    const dues = next.filter((t): t is number => t !== null)
    return dues.length ? Math.min(...dues) : null
  }

  private async markUnknown(host: ControllerHost, name: string, now: number) {
    await host.update(
      'nodes',
      name,
      (n) => {
        const node = n as KubeObject & Obj
        const conditions = ((node.status?.conditions ?? []) as Obj[]).map((c) =>
          CONDITIONS.includes(c.type) && c.status !== 'Unknown'
            ? {
                ...c,
                status: 'Unknown',
                reason: 'NodeStatusUnknown',
                message: 'Kubelet stopped posting node status.',
                lastTransitionTime: rfc3339(now),
              }
            : c,
        )
        return { ...node, status: { ...node.status, conditions } }
      },
      { subresource: 'status', fieldManager: MANAGER },
    )
    await this.taint(host, name, now)
  }

  private async taint(host: ControllerHost, name: string, now: number) {
    await host.update(
      'nodes',
      name,
      (n) => {
        const node = n as KubeObject & Obj
        if (unreachableTaint(node)) return null
        const taints = ((node.spec?.taints ?? []) as Obj[]).filter((t) => t.key !== UNREACHABLE)
        taints.push(
          { key: UNREACHABLE, effect: 'NoSchedule' },
          { key: UNREACHABLE, effect: 'NoExecute', timeAdded: rfc3339(now) },
        )
        return { ...node, spec: { ...node.spec, taints } }
      },
      { fieldManager: MANAGER },
    )
  }

  private async untaint(host: ControllerHost, name: string) {
    await host.update(
      'nodes',
      name,
      (n) => {
        const node = n as KubeObject & Obj
        const taints = ((node.spec?.taints ?? []) as Obj[]).filter((t) => t.key !== UNREACHABLE)
        if (taints.length === (node.spec?.taints ?? []).length) return null
        const spec = { ...node.spec }
        if (taints.length) spec.taints = taints
        else delete spec.taints
        return { ...node, spec }
      },
      { fieldManager: MANAGER },
    )
  }
}
