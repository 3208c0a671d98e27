// Registering the agent's Node and keeping it alive as the kubelet does: created (or adopted when it exists and is not
// a virtual node); with Leases served, the node's Lease renewed every quarter of its duration and the status posted
// when it changed (heartbeat times aside) or every statusReportFrequency; without, the status posted every
// statusUpdateFrequency. A node deleted meanwhile is registered again; one annotated virtual is given up.
import type { AgentConfig } from './flags.ts'
import { isNotFound, KubeError, type KubeClient } from './kube-client.ts'
import { NodeLease } from './node-lease.ts'
import { type HostFacts, initialNode, nodeStatus, VIRTUAL_NODE_ANNOTATION } from './node-object.ts'
import { rfc3339 } from './time.ts'
import type { Obj } from './obj.ts'

export class VirtualNodeError extends Error {}

export class NodeHeartbeat {
  private timer: NodeJS.Timeout | null = null
  private leaseTimer: NodeJS.Timeout | null = null
  private node: Obj | null = null
  private beating: Promise<void> | null = null
  private readonly lease: NodeLease
  /** Whether the Lease carries the heartbeat (the server serves Leases). */
  private leased = false
  private lastReport = 0

  private readonly client: KubeClient
  private readonly config: AgentConfig
  private readonly facts: HostFacts
  private readonly log: (msg: string) => void
  private readonly onFatal: (e: Error) => void

  constructor(
    client: KubeClient,
    config: AgentConfig,
    facts: HostFacts,
    log: (msg: string) => void,
    onFatal: (e: Error) => void,
  ) {
    this.client = client
    this.config = config
    this.facts = facts
    this.log = log
    this.onFatal = onFatal
    this.lease = new NodeLease(client, config.nodeName, config.leaseDurationMs)
  }

  private get path() {
    return `/api/v1/nodes/${this.config.nodeName}`
  }

  /** Creates the Node, or adopts an existing one that no simulated kubelet serves. */
  async register(): Promise<Obj> {
    const now = rfc3339()
    const wanted = initialNode(this.config.nodeName, this.facts, this.config.labels, this.config.maxPods, now)
    try {
      this.node = await this.client.request('POST', '/api/v1/nodes', wanted)
      this.log(`registered node ${this.config.nodeName}`)
      return this.node!
    } catch (e) {
      if (!(e instanceof KubeError) || e.code !== 409) throw e
    }
    const existing = await this.client.get(this.path)
    checkNotVirtual(existing, this.config.nodeName)
    // kubelet's reconcileExistingNode: its own labels and annotations are put back; others' stay.
    await this.client.request(
      'PATCH',
      this.path,
      { metadata: { labels: wanted.metadata.labels, annotations: wanted.metadata.annotations } },
      'application/merge-patch+json',
    )
    this.node = await this.postStatus(existing.status)
    this.log(`node ${this.config.nodeName} already registered: adopted`)
    return this.node
  }

  async start() {
    try {
      this.leased = await this.lease.served()
    } catch (e) {
      this.log(`cannot tell whether Leases are served (${(e as Error).message}): heartbeating through node status`)
    }
    if (this.leased) {
      await this.renewLease()
      this.leaseTimer = setInterval(() => void this.renewLease(), this.config.leaseDurationMs / 4)
    }
    this.timer = setInterval(() => void this.beat(), this.config.statusUpdateMs)
  }

  stop() {
    if (this.timer) clearInterval(this.timer)
    if (this.leaseTimer) clearInterval(this.leaseTimer)
    this.timer = null
    this.leaseTimer = null
  }

  private async renewLease() {
    try {
      await this.lease.renew(this.node?.metadata?.uid)
    } catch (e) {
      this.log(`renewing the node lease failed: ${(e as Error).message}`)
    }
  }

  /** One heartbeat (not overlapping the previous one). */
  beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => (this.beating = null))
    return this.beating
  }

  private async beatOnce() {
    try {
      if (this.leased) {
        // The Lease is the heartbeat: the status goes only when it changed or is due for a report.
        const current = await this.client.get(this.path)
        checkNotVirtual(current, this.config.nodeName)
        this.node = current
        const due = Date.now() - this.lastReport >= this.config.statusReportMs
        if (!due && !statusChanged(current.status, this.desired(current.status))) return
      }
      this.node = await this.postStatus(this.node?.status)
      checkNotVirtual(this.node!, this.config.nodeName)
    } catch (e) {
      if (e instanceof VirtualNodeError) {
        this.stop()
        this.onFatal(e)
      } else if (isNotFound(e)) {
        this.log(`node ${this.config.nodeName} was deleted: registering it again`)
        await this.register().catch((err: unknown) => this.log(`registering failed: ${(err as Error).message}`))
      } else this.log(`node status update failed: ${(e as Error).message}`)
    }
  }

  private desired(previous: Obj | undefined): Obj {
    return nodeStatus(this.facts, this.config.maxPods, previous, rfc3339())
  }

  private async postStatus(previous: Obj | undefined): Promise<Obj> {
    const status = this.desired(previous)
    const node = await this.client.request('PATCH', `${this.path}/status`, { status }, 'application/merge-patch+json')
    this.lastReport = Date.now()
    return node
  }
}

function checkNotVirtual(node: Obj, name: string) {
  if (node.metadata?.annotations?.[VIRTUAL_NODE_ANNOTATION] === 'true')
    throw new VirtualNodeError(
      `node ${name} is a virtual node (annotated ${VIRTUAL_NODE_ANNOTATION}): the control plane's simulated kubelet serves it; give this agent another --node-name`,
    )
}

/** kubelet's nodeStatusHasChanged: any difference but the conditions' heartbeat times. */
export function statusChanged(current: Obj | undefined, desired: Obj): boolean {
  const strip = (status: Obj | undefined) =>
    JSON.stringify(
      { ...status, conditions: ((status?.conditions ?? []) as Obj[]).map(({ lastHeartbeatTime: _, ...c }) => c) },
      (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v),
    )
  const fields = (s: Obj | undefined) => strip(pick(s, Object.keys(desired)))
  return fields(current) !== fields(desired)
}

const pick = (o: Obj | undefined, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o?.[k]]))
