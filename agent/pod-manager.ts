// The pods bound to this node, as a kubelet's config source sees them: a list and watch of pods with
// fieldSelector spec.nodeName=<node> (re-listed after a 410 or a broken stream), each pod handed to its PodWorker.
// Processes left behind by an agent that died are found by their pid files and stopped before anything starts.
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Backoff } from './backoff.ts'
import type { EventFn } from './events.ts'
import type { AgentConfig } from './flags.ts'
import { KubeError, type KubeClient } from './kube-client.ts'
import { PodWorker } from './pod-worker.ts'
import type { Obj } from './obj.ts'

export interface ManagerDeps {
  config: AgentConfig
  client: KubeClient
  hostIP: string
  allocatable: Obj
  event: EventFn
  log(msg: string): void
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export class PodManager {
  readonly workers = new Map<string, PodWorker>()
  private readonly backoff: Backoff
  private readonly abort = new AbortController()
  private stopped = false

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
    reapLeftovers(join(this.deps.config.dataDir, 'pods'), this.deps.log)
    const selector = encodeURIComponent(`spec.nodeName=${this.deps.config.nodeName}`)
    let delay = 500
    while (!this.stopped) {
      try {
        const list = await this.deps.client.get(`/api/v1/pods?fieldSelector=${selector}`)
        const seen = new Set<string>()
        for (const pod of list.items as Obj[]) {
          seen.add(pod.metadata.uid)
          this.upsert(pod)
        }
        for (const [uid, w] of this.workers) if (!seen.has(uid)) w.removed()
        let rv = list.metadata.resourceVersion as string
        delay = 500
        // Watch from the list; a stream the server ends is resumed from the last version seen.
        while (!this.stopped) {
          const path = `/api/v1/pods?fieldSelector=${selector}&watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`
          for await (const ev of this.deps.client.watch(path, this.abort.signal)) {
            if (ev.type === 'ERROR') throw new KubeError(ev.object.code ?? 500, ev.object, ev.object.message ?? '')
            rv = ev.object.metadata?.resourceVersion ?? rv
            if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.upsert(ev.object)
            else if (ev.type === 'DELETED') this.workers.get(ev.object.metadata.uid)?.removed()
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
    // A pod that finished before this agent knew it has nothing left to run.
    const phase = pod.status?.phase
    if (phase === 'Succeeded' || phase === 'Failed') return
    const worker = new PodWorker(pod, {
      ...this.deps,
      backoff: this.backoff,
      done: (id) => this.workers.delete(id),
    })
    this.workers.set(uid, worker)
    worker.sync()
  }

  /** Stops watching and stops every process (pods keep their last reported status). */
  async stop(): Promise<void> {
    this.stopped = true
    this.abort.abort()
    await Promise.all([...this.workers.values()].map((w) => w.shutdown()))
  }
}

/** Kills the process groups whose pid files a previous agent left, when they still run in our data directory. */
function reapLeftovers(podsDir: string, log: (msg: string) => void) {
  if (!existsSync(podsDir)) return
  for (const uid of readdirSync(podsDir)) {
    for (const container of safeList(join(podsDir, uid))) {
      for (const file of safeList(join(podsDir, uid, container)).filter((f) => f.endsWith('.pid'))) {
        const path = join(podsDir, uid, container, file)
        const pid = Number(readFileSync(path, 'utf8'))
        let cwd = ''
        try {
          cwd = readlinkSync(`/proc/${pid}/cwd`)
        } catch {
          cwd = ''
        }
        if (pid > 0 && cwd.startsWith(join(podsDir, uid))) {
          try {
            process.kill(-pid, 'SIGKILL')
            log(`stopped process group ${pid} left by an earlier agent (pod ${uid}, container ${container})`)
          } catch {
            // gone meanwhile
          }
        }
        rmSync(path, { force: true })
      }
    }
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
