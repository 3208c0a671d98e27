// The simulated kubelet for pods bound to virtual nodes (KWOK-style stages with configurable delays): start
// (Running, IPs, conditions, container statuses, logs, events), completion (Succeeded/Failed by the rule in
// registry/container-program.ts), activeDeadlineSeconds, readiness gates, ephemeral containers, and stopping pods
// that are being deleted; and before a start, the kubelet's admission (kubelet-admit.ts): a pod that does not fit its
// node is Failed with kube's reason and message and a Warning event. Level-triggered: every pass recomputes from stored state; alarms bring it back when a
// stage falls due. Pods on nodes without the virtual-node annotation are left to their real node agent. It writes as
// a kubelet does: pods/status under the `kubelet` manager, deletions with grace 0 and a uid precondition, events.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { LogEntry, Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { runningStatus } from '../registry/pod-lifecycle'
import { type AdmitDeps, admitToStart } from './kubelet-admit'
import type { RestartDeps } from './kubelet-restarts'
import { stepRunning } from './kubelet-running'
import { KubeletNodeFacts } from './kubelet-node-facts'
import { containerProgram } from '../registry/container-program'
import type { ClusterApi } from '../cluster/cluster-api'
import type { NodeFacts } from '../cluster/cluster-api'
import { podKey } from './schedule-request'
import type { PodLogStore } from './pod-log-store'
import type { PodAddressBook } from './pod-address-book'
import { PodIpRequests } from './kubelet-pod-ips'
import { stageDueAt } from './kubelet-delays'

type Obj = Record<string, any>

interface KubeletOptions {
  cluster: () => ClusterApi
  startDelayMs: number
  stopDelayMs: number
  logs: PodLogStore
  /** Addresses the scheduler already received for pods it placed (src/namespace/pod-address-book.ts). */
  addresses: PodAddressBook
  /** Told about new log lines and stopped pods (log followers). */
  onLog(uid: string, container: string, lines: { seq: number; ts: string; line: string }[]): void
  onPodGone(uid: string): void
  /** A run of a container ended (its program exited): `logs -f` of it ends, as a container's log file does. */
  onRunEnded(uid: string, container: string): void
}

const nanoTs = (d: Date) => d.toISOString().replace(/Z$/, '000000Z')
/** The manager and event component a kubelet writes under. */
const KUBELET = 'kubelet'

export class KubeletController implements Controller {
  readonly name = 'kubelet'
  /** What each node is (virtual or not), src/namespace/kubelet-node-facts.ts. */
  private readonly facts: KubeletNodeFacts
  /**
   * Pods this kubelet just started and found with nothing timed left to do, by the resourceVersion of the Running
   * status it wrote: the commit of that status triggers one more step for that very state, which need not be read and
   * judged again (without a time pending, the judgement does not depend on the time). Taken by that step.
   */
  private settled = new Map<string, number>()
  /** One step at a time per pod; a trigger that arrives mid-step runs after it, against fresh state. */
  private chains = new Map<string, Promise<number | null>>()

  /** What stepping containers' restarts writes through (src/namespace/kubelet-restarts.ts). */
  private readonly restartDeps: RestartDeps
  /** What the admission before a start asks and writes through (src/namespace/kubelet-admit.ts). */
  private readonly admitDeps: AdmitDeps

  constructor(private readonly opts: KubeletOptions) {
    this.facts = new KubeletNodeFacts(opts.cluster)
    this.restartDeps = {
      writeStatus: (host, name, uid, next) => this.writeStatus(host, name, uid, next),
      event: (host, pod, facts, type, reason, message, fieldPath) =>
        this.event(host, pod, facts, type, reason, message, fieldPath),
      lastSeq: (uid, container) => this.opts.logs.lastSeq(uid, container),
      dropThrough: (uid, container, seq) => this.opts.logs.dropThrough(uid, container, seq),
      log: (uid, container, lines, at) => this.log(uid, container, lines, at),
      runEnded: (uid, container) => this.opts.onRunEnded(uid, container),
    }
    this.admitDeps = {
      ...this.restartDeps,
      cluster: opts.cluster,
      addresses: opts.addresses,
      requests: new PodIpRequests(opts.cluster),
    }
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const pods = new Map<string, KubeObject>()
    for (const e of entries) {
      if (e.resource !== 'pods') continue
      if (e.type === 'DELETED') {
        this.opts.logs.forget(e.object.metadata.uid ?? '')
        this.opts.onPodGone(e.object.metadata.uid ?? '')
        this.settled.delete(podKey(e.object))
        continue
      }
      // Only pods bound to a node have a kubelet; the batch's last entry for a pod is its state now.
      if ((e.object as Obj).spec?.nodeName) pods.set(e.name, e.object)
      else pods.delete(e.name)
    }
    await this.stepAll(host, pods.values(), Date.now())
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    await this.stepAll(
      host,
      host.attending('pods').map(({ object }) => object),
      now,
    )
  }

  /**
   * Advances these pods at once, each on its own chain: the writes of the pods whose stage fell due share group
   * commits (one after another, 200 pods due at one alarm took 200 pairs of commits, and the alarm that should start
   * the next ones waited for all of them). Then asks to be woken when the next stage falls due.
   */
  private async stepAll(host: ControllerHost, pods: Iterable<KubeObject>, now: number): Promise<void> {
    let next: number | null = null
    const steps = [...pods].map(async (pod) => {
      const due = await this.step(host, pod, now)
      if (due !== null) next = next === null ? due : Math.min(next, due)
    })
    await Promise.all(steps)
    if (next !== null) await host.wakeAt(next)
  }

  /**
   * Advances one pod if a stage is due; answers when the next stage falls due (null: nothing pending). `pod` is the
   * pod as the caller last saw it (a commit's entry, the attention list): it picks the node and the chain, and the
   * step itself reads the newest state.
   */
  private async step(host: ControllerHost, pod: KubeObject, now: number): Promise<number | null> {
    const name = pod.metadata.name!
    const node = (pod as Obj).spec?.nodeName as string | undefined
    if (!node) return null
    const facts = await this.facts.of(node)
    if (!facts?.virtual) return null
    const key = podKey(pod)
    // A pod waiting for its start or stop delay needs nothing read or written until then: any change that could
    // bring the time forward is a commit of its own, whose trigger brings the newer state here.
    const waiting = stageDueAt(pod as Obj, now, this.opts)
    if (waiting !== null && !this.chains.has(key)) return waiting
    const run = async () => {
      if (this.settled.get(key) === Number(pod.metadata.resourceVersion)) {
        this.settled.delete(key)
        return null
      }
      const fresh = host.get('pods', name)
      if (!fresh || fresh.object.metadata.uid !== pod.metadata.uid) return null
      return this.advance(host, fresh, facts, Math.max(now, Date.now()))
    }
    const next = (this.chains.get(key) ?? Promise.resolve(null)).then(run, run)
    this.chains.set(key, next)
    try {
      return await next
    } finally {
      if (this.chains.get(key) === next) this.chains.delete(key)
    }
  }

  private async advance(host: ControllerHost, current: Stored, facts: NodeFacts, now: number): Promise<number | null> {
    const pod = current.object as Obj
    const name = pod.metadata.name as string
    const uid = pod.metadata.uid as string
    const phase = pod.status?.phase ?? 'Pending'
    const started = phase === 'Running' || phase === 'Succeeded' || phase === 'Failed'
    const waiting = stageDueAt(pod, now, this.opts)
    if (waiting !== null) return waiting

    if (pod.metadata.deletionTimestamp) {
      if ((pod.metadata.finalizers ?? []).length > 0 && pod.metadata.deletionGracePeriodSeconds === 0) return null
      if (phase === 'Running') {
        // Only running containers are killed (one that ended, or waits in CrashLoopBackOff, has nothing to stop).
        const running = (name: string) =>
          ((pod.status?.containerStatuses ?? []) as Obj[]).find((s) => s.name === name)?.state?.running !== undefined
        for (const c of ((pod.spec?.containers ?? []) as Obj[]).filter((x) => running(x.name))) {
          await this.event(
            host,
            current.object,
            facts,
            'Normal',
            'Killing',
            `Stopping container ${c.name}`,
            `spec.containers{${c.name}}`,
          )
        }
      }
      // The kubelet confirms the stop by deleting with grace 0 (finalizers still hold the object if present), only the
      // pod it stopped: a new pod of the same name is not its business.
      await host.delete('pods', name, { gracePeriodSeconds: 0, preconditions: { uid } })
      return null
    }

    if (!started) {
      const key = podKey(current.object)
      const ips = await admitToStart(this.admitDeps, host, current, facts)
      if (!ips) return null
      const at = new Date()
      const written = await this.writeStatus(host, name, uid, (p) =>
        (p.status?.phase ?? 'Pending') === 'Pending' && !p.metadata.deletionTimestamp
          ? runningStatus(p, ips, at)
          : null,
      )
      if (!written) return null
      // Events are written together so group commit puts them in one D1 batch.
      const events: Promise<unknown>[] = []
      for (const c of [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])]) {
        const program = containerProgram(c.command, c.args)
        if (!program.exit) {
          // A program we do not simulate still says it started, so `kubectl logs` shows the container is alive.
          this.log(
            uid,
            c.name,
            [`kubeflare: container ${c.name} started from image ${c.image} on virtual node ${facts.name}`],
            at,
          )
        }
        const path = `spec.${(pod.spec?.initContainers ?? []).includes(c) ? 'initContainers' : 'containers'}{${c.name}}`
        const pulled =
          c.imagePullPolicy === 'Always'
            ? `Successfully pulled image "${c.image}"`
            : `Container image "${c.image}" already present on machine`
        events.push(
          this.event(host, written.object, facts, 'Normal', 'Pulled', pulled, path),
          this.event(host, written.object, facts, 'Normal', 'Created', `Created container: ${c.name}`, path),
          this.event(host, written.object, facts, 'Normal', 'Started', `Started container ${c.name}`, path),
        )
      }
      await Promise.all(events)
      const due = await this.advance(host, written, facts, Date.now())
      if (due === null) this.settled.set(key, written.rv)
      return due
    }

    if (phase !== 'Running') return null
    return stepRunning(this.restartDeps, host, current, facts, now)
  }

  private log(uid: string, container: string, lines: string[], at: Date) {
    const written = this.opts.logs.append(uid, container, lines, nanoTs(at))
    if (written.length) this.opts.onLog(uid, container, written)
  }

  /** Replaces a pod's status through pods/status (if it is still the same pod); answers the pod as written. */
  private async writeStatus(
    host: ControllerHost,
    name: string,
    uid: string,
    next: (pod: Obj) => Obj | null,
  ): Promise<Stored | null> {
    const r = await host.update(
      'pods',
      name,
      (pod) => {
        if (pod.metadata.uid !== uid) return null
        const status = next(pod as Obj)
        return status ? { ...pod, status } : null
      },
      { subresource: 'status', fieldManager: KUBELET },
    )
    if (!r.ok) {
      if (r.status.code !== 404)
        console.error(`kubelet: writing the status of ${host.scope}/${name} failed`, r.status.message)
      return null
    }
    if (!r.value) return null
    // A pod that stopped ends its log followers (kubectl logs -f returns).
    const phase = (r.value.object.status as { phase?: string } | undefined)?.phase
    if (phase === 'Succeeded' || phase === 'Failed') this.opts.onPodGone(uid)
    return { rv: Number(r.value.object.metadata.resourceVersion), object: r.value.object }
  }

  private event(
    host: ControllerHost,
    pod: KubeObject,
    facts: NodeFacts,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    fieldPath?: string,
  ) {
    return recordEvent(host, pod, { type, reason, message, component: KUBELET, host: facts.name, fieldPath })
  }
}
