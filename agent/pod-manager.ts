// The pods bound to this node, as a kubelet's config source sees them: a list and watch of pods with
// fieldSelector spec.nodeName=<node> (re-listed after a 410 or a broken stream), each pod handed to its PodWorker.
// Containers outlive the agent (each runs under its shim): the pods the first list names carry on with their runs
// (container-record.ts adopts them); runs of pods it no longer names (deleted or gone while no agent watched) are
// stopped then as kubelet stops them (orphan-kill.ts), and their directories removed. A pod new to the agent is first
// admitted (pod-admission.ts), one at a time in the order the agent learns of them (a list: oldest first, as kubelet's
// HandlePodAdditions sorts them), against the node as the API has it and the pods admitted before; a rejected one
// gets no worker, only its Failed status and a Warning event.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Backoff } from './backoff.ts'
import type { EventFn } from './events.ts'
import type { AgentConfig } from './flags.ts'
import { isNotFound, KubeError, type KubeClient } from './kube-client.ts'
import { admission, rejectionPatch } from './pod-admission.ts'
import { killOrphan } from './orphan-kill.ts'
import type { BridgeNetwork } from './network/bridge-network.ts'
import { PodWorker } from './pod-worker.ts'
import { releasePodPidNamespace } from './runtime/pod-pid-namespace.ts'
import { processRuntime } from './runtime/process-runtime.ts'
import type { ContainerRuntime } from './runtime/runtime.ts'
import { killRecordedRuns } from './run-files.ts'
import { releasePodVolumes } from './volumes/empty-dir.ts'
import type { Obj } from './obj.ts'

export interface ManagerDeps {
  config: AgentConfig
  client: KubeClient
  hostIP: string
  allocatable: Obj
  event: EventFn
  log(msg: string): void
  /** What runs the containers (the process runtime when not given). */
  runtime?: ContainerRuntime
  /** --pod-network bridge's network (pods' netns and addresses), null on the host's network. */
  network?: BridgeNetwork | null
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export class PodManager {
  readonly workers = new Map<string, PodWorker>()
  private readonly backoff: Backoff
  private readonly abort = new AbortController()
  private stopped = false
  /** Runs of pods the API no longer has are stopped after the first list. */
  private reaped = false
  /** That reaping, which a finished pod's deletion waits for before its directory goes. */
  private reaping: Promise<void> = Promise.resolve()
  /** Pods waiting for their admission (uid → the newest version seen), judged one at a time on `admitting`. */
  private readonly pending = new Map<string, Obj>()
  private admitting: Promise<void> = Promise.resolve()
  /** Pods this agent rejected (kubelet keeps no worker for them): their later versions are not admitted again. */
  private readonly rejected = new Set<string>()

  private readonly deps: ManagerDeps

  constructor(deps: ManagerDeps) {
    this.deps = deps
    this.backoff = new Backoff(deps.config.backoffInitialMs, deps.config.backoffMaxMs)
  }

  /** The worker of a pod on this node, by namespace and name. */
  byName(namespace: string, name: string): PodWorker | undefined {
    for (const w of this.workers.values()) {
      const m = w.current.metadata
      if (m.namespace === namespace && m.name === name) return w
    }
    return undefined
  }

  /** Lists and watches until stopped. */
  async run(): Promise<void> {
    const selector = encodeURIComponent(`spec.nodeName=${this.deps.config.nodeName}`)
    let delay = 500
    while (!this.stopped) {
      try {
        const list = await this.deps.client.get(`/api/v1/pods?fieldSelector=${selector}`)
        const seen = new Set<string>()
        // kubelet's HandlePodAdditions admits the pods it learns of together oldest first.
        const items = [...(list.items as Obj[])].sort((a, b) =>
          String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')),
        )
        for (const pod of items) {
          seen.add(pod.metadata.uid)
          this.upsert(pod)
        }
        for (const [uid, w] of this.workers) if (!seen.has(uid)) w.removed()
        for (const uid of this.pending.keys()) if (!seen.has(uid)) this.pending.delete(uid)
        if (!this.reaped) {
          this.reaped = true
          // The runtime's leftovers once the orphans' graceful kills are over (they stop those containers themselves).
          // After the listed pods' admissions: a pod admitted has its worker (its runs are adopted, not reaped).
          this.reaping = this.admitting.then(() => this.reapOrphans(seen))
          void this.reaping
            .then(() => {
              // Networks of pods no worker has go once the orphans' preStop hooks (which may dial the pod) are over.
              this.deps.network?.reapLeftovers((uid) => this.workers.has(uid), this.deps.log)
              return this.deps.runtime?.reapLeftovers((uid) => this.workers.has(uid), this.deps.log)
            })
            .catch((e: unknown) => this.deps.log(`clearing leftovers: ${(e as Error).message}`))
        }
        let rv = list.metadata.resourceVersion as string
        delay = 500
        // Watch from the list; a stream the server ends is resumed from the last version seen.
        while (!this.stopped) {
          const path = `/api/v1/pods?fieldSelector=${selector}&watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`
          for await (const ev of this.deps.client.watch(path, this.abort.signal)) {
            if (ev.type === 'ERROR') throw new KubeError(ev.object.code ?? 500, ev.object, ev.object.message ?? '')
            rv = ev.object.metadata?.resourceVersion ?? rv
            if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.upsert(ev.object)
            else if (ev.type === 'DELETED') this.deleted(ev.object.metadata.uid)
          }
        }
      } catch (e) {
        if (this.stopped) break
        if (!(e instanceof KubeError && e.code === 410)) this.deps.log(`watching pods: ${(e as Error).message}`)
        await sleep(delay)
        delay = Math.min(delay * 2, 10_000)
      }
    }
  }

  private upsert(pod: Obj) {
    if (pod.spec?.nodeName !== this.deps.config.nodeName) return
    const uid = pod.metadata.uid as string
    const existing = this.workers.get(uid)
    if (existing) return existing.update(pod)
    if (this.rejected.has(uid)) return
    // A pod that finished before this agent knew it has nothing left to run.
    const phase = pod.status?.phase
    if (phase === 'Succeeded' || phase === 'Failed') return
    const waiting = this.pending.has(uid)
    this.pending.set(uid, pod)
    if (!waiting)
      this.admitting = this.admitting
        .then(() => this.admit(uid))
        .catch((e: unknown) => this.deps.log(`admitting pod ${uid}: ${(e as Error).message}`))
  }

  /** Admits a pod (a worker runs it) or rejects it (kubelet.rejectPod); pods deleted meanwhile are dropped. */
  private async admit(uid: string): Promise<void> {
    if (this.stopped || !this.pending.has(uid)) return
    const node = await this.node()
    const pod = this.pending.get(uid)
    this.pending.delete(uid)
    if (!pod || this.stopped || this.workers.has(uid)) return
    const phase = pod.status?.phase
    if (phase === 'Succeeded' || phase === 'Failed') return
    const active = [...this.workers.values()].filter((w) => w.active).map((w) => w.current)
    const rejection = admission(pod, node, active)
    if (rejection) {
      this.rejected.add(uid)
      this.deps.log(`pod ${pod.metadata.namespace}/${pod.metadata.name} rejected: ${rejection.reason}`)
      this.deps.event(pod, 'Warning', rejection.reason, rejection.message)
      return this.writeRejected(pod, rejectionPatch(pod, rejection))
    }
    this.start(pod)
  }

  /** The node as the API has it; as kubelet's getNodeAnyWay, the node it would register when the API cannot say. */
  private async node(): Promise<Obj> {
    try {
      return await this.deps.client.get(`/api/v1/nodes/${this.deps.config.nodeName}`)
    } catch {
      return {
        metadata: { name: this.deps.config.nodeName, labels: {} },
        status: { allocatable: this.deps.allocatable },
      }
    }
  }

  /** A rejected pod's status, written again after a failure (as kubelet's status manager retries) while it exists. */
  private async writeRejected(pod: Obj, patch: Obj): Promise<void> {
    const { namespace, name, uid } = pod.metadata
    try {
      await this.deps.client.request(
        'PATCH',
        `/api/v1/namespaces/${namespace}/pods/${name}/status`,
        patch,
        'application/strategic-merge-patch+json',
      )
    } catch (e) {
      if (isNotFound(e) || this.stopped || !this.rejected.has(uid)) return
      this.deps.log(`pod ${namespace}/${name}: writing its rejection failed: ${(e as Error).message}`)
      setTimeout(() => void this.writeRejected(pod, patch), 2000).unref()
    }
  }

  private start(pod: Obj) {
    const uid = pod.metadata.uid as string
    const worker = new PodWorker(pod, {
      ...this.deps,
      backoff: this.backoff,
      done: (id) => this.workers.delete(id),
    })
    this.workers.set(uid, worker)
    worker.sync()
  }

  /**
   * Stops watching; with `stopContainers` stops every container too (pods keep their last reported status), else
   * leaves them running under their shims for the next agent, as a kubelet that stops leaves its containers.
   */
  async stop(stopContainers = true): Promise<void> {
    this.stopped = true
    this.abort.abort()
    if (stopContainers) await Promise.all([...this.workers.values()].map((w) => w.shutdown()))
  }

  /**
   * A pod deleted from the API: its worker tears it down; a pod that had finished before this agent started has none,
   * and its directory (its logs) goes now rather than at the next agent's start.
   */
  private deleted(uid: string) {
    this.pending.delete(uid)
    this.rejected.delete(uid)
    const worker = this.workers.get(uid)
    if (worker) return worker.removed()
    const podsDir = join(this.deps.config.dataDir, 'pods')
    void this.reaping.then(() => {
      // Only a directory of ours (the name is the API's).
      if (!safeList(podsDir).includes(uid) || this.workers.has(uid)) return
      releasePodVolumes(join(podsDir, uid), uid, this.deps.log)
      rmSync(join(podsDir, uid), { recursive: true, force: true })
    })
  }

  /**
   * The pod directories of pods no worker has (not listed: deleted or bound elsewhere while no agent watched; or
   * listed as finished): their runs still going are killed as kubelet kills them (preStop, SIGTERM, the grace period:
   * orphan-kill.ts; what is left, such as a shim still starting, at once), their memory volumes are released (kubelet
   * unmounts a terminated pod's volumes), and the directories of pods the API no longer has go. Pods are reaped side by
   * side.
   */
  private async reapOrphans(listed: Set<string>) {
    const podsDir = join(this.deps.config.dataDir, 'pods')
    const runtime = this.deps.runtime ?? processRuntime
    const reap = async (uid: string) => {
      const dir = join(podsDir, uid)
      const stops = await Promise.all(safeList(dir).map((c) => killOrphan(join(dir, c), runtime).catch(() => false)))
      let killed = stops.filter(Boolean).length
      for (const container of safeList(dir)) killed += killRecordedRuns(join(dir, container))
      releasePodPidNamespace(dir)
      if (killed) this.deps.log(`stopped ${killed} container(s) of pod ${uid}, which this node no longer has`)
      releasePodVolumes(dir, uid, this.deps.log)
      if (!listed.has(uid)) rmSync(dir, { recursive: true, force: true })
    }
    await Promise.all(
      safeList(podsDir)
        .filter((uid) => !this.workers.has(uid))
        .map(reap),
    )
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
