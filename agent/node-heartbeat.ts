// Registering the agent's Node and keeping it alive: created (or adopted when it exists and is not a virtual node),
// then its status posted every statusUpdateFrequency with fresh heartbeat times, as a kubelet without a Lease does.
// A node deleted meanwhile is registered again; one annotated virtual is given up (the simulated kubelet owns it).
import type { AgentConfig } from './flags.ts'
import { isNotFound, KubeError, type KubeClient } from './kube-client.ts'
import { type HostFacts, initialNode, nodeStatus, VIRTUAL_NODE_ANNOTATION } from './node-object.ts'
import { rfc3339 } from './time.ts'
import type { Obj } from './obj.ts'

export class VirtualNodeError extends Error {}

export class NodeHeartbeat {
  private timer: NodeJS.Timeout | null = null
  private node: Obj | null = null
  private beating: Promise<void> | null = null

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

  start() {
    this.timer = setInterval(() => void this.beat(), this.config.statusUpdateMs)
  }

  stop() {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** One heartbeat (not overlapping the previous one). */
  beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => (this.beating = null))
    return this.beating
  }

  private async beatOnce() {
    try {
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

  private postStatus(previous: Obj | undefined): Promise<Obj> {
    const status = nodeStatus(this.facts, this.config.maxPods, previous, rfc3339())
    return this.client.request('PATCH', `${this.path}/status`, { status }, 'application/merge-patch+json')
  }
}

function checkNotVirtual(node: Obj, name: string) {
  if (node.metadata?.annotations?.[VIRTUAL_NODE_ANNOTATION] === 'true')
    throw new VirtualNodeError(
      `node ${name} is a virtual node (annotated ${VIRTUAL_NODE_ANNOTATION}): the control plane's simulated kubelet serves it; give this agent another --node-name`,
    )
}
